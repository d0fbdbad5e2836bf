/*
 * kernel/console/printk.c: formatted kernel messages.
 *
 * Each line gets a Linux-style "[seconds.micros] " stamp from the monotonic
 * clock, goes into log_buf (a ring, so the last LOG_BUF_SIZE bytes are kept
 * for dmesg), and is written to every console when its level is below
 * console_loglevel. Callers may be in interrupt context: logbuf_lock is
 * taken with interrupts off.
 */
#include <kernel/printk.h>
#include <kernel/console.h>
#include <kernel/param.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/time.h>

#define LOG_BUF_SIZE (64 * 1024)
#define LINE_MAX 1024

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;

static char log_buf[LOG_BUF_SIZE];
static size_t log_head;		/* total bytes ever logged */
static bool at_line_start = true;
static struct console *consoles;
static DEFINE_SPINLOCK(logbuf_lock);

void register_console(struct console *con)
{
	struct console **p = &consoles;

	while (*p)	/* keep registration order: serial stays first */
		p = &(*p)->next;
	con->next = NULL;
	*p = con;
}

void console_write(const char *s, size_t len)
{
	struct console *c;

	for (c = consoles; c; c = c->next)
		c->write(s, len);
}

static void log_store(const char *s, size_t len)
{
	while (len--)
		log_buf[log_head++ % LOG_BUF_SIZE] = *s++;
}

/* Split off a KERN_<level> prefix: returns the level, or -1 for KERN_CONT. */
static int printk_level(const char **fmt)
{
	const char *f = *fmt;

	if (f[0] != KERN_SOH[0] || !f[1])
		return LOGLEVEL_DEFAULT;
	*fmt = f + 2;
	if (f[1] == 'c')
		return -1;
	return f[1] - '0';
}

static size_t format_stamp(char *buf, size_t size)
{
	u64 ns = ktime_get_ns();

	return snprintf(buf, size, "[%5lu.%06lu] ", ns / 1000000000,
			(ns / 1000) % 1000000);
}

/* Emit text, stamping every line start. Called with logbuf_lock held. */
static void emit(const char *text, size_t len, bool show)
{
	char stamp[32];

	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) + 1 : len;

		if (at_line_start) {
			size_t sl = format_stamp(stamp, sizeof(stamp));

			log_store(stamp, sl);
			if (show)
				console_write(stamp, sl);
		}
		log_store(text, n);
		if (show)
			console_write(text, n);
		at_line_start = nl != NULL;
		text += n;
		len -= n;
	}
}

int vprintk(const char *fmt, va_list ap)
{
	char line[LINE_MAX];
	unsigned long flags;
	int level = printk_level(&fmt);
	int len = vsnprintf(line, sizeof(line), fmt, ap);

	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	spin_lock_irqsave(&logbuf_lock, flags);
	/* A new message with a level ends a line left open without '\n'. */
	if (level >= 0 && !at_line_start)
		emit("\n", 1, true);
	emit(line, len, level < console_loglevel);
	spin_unlock_irqrestore(&logbuf_lock, flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

/* Copy the newest bytes of the log into buf; returns how many. */
size_t log_buf_read(char *buf, size_t size)
{
	size_t avail = log_head < LOG_BUF_SIZE ? log_head : LOG_BUF_SIZE;
	size_t n = size < avail ? size : avail, i;

	for (i = 0; i < n; i++)
		buf[i] = log_buf[(log_head - n + i) % LOG_BUF_SIZE];
	return n;
}

static int set_loglevel(const char *val)
{
	console_loglevel = simple_strtol(val, NULL, 10);
	return 0;
}
__setup("loglevel", set_loglevel);

static int set_quiet(const char *val)
{
	console_loglevel = 4;	/* warnings and worse */
	return 0;
}
__setup("quiet", set_quiet);
