/*
 * kernel/printk/printk.c: formatted kernel messages, and syslog(2).
 *
 * Each line gets a Linux-style "[seconds.micros] " stamp from the monotonic
 * clock and is written to every console when its level is below
 * console_loglevel. Every line also goes into log_buf, whatever its level,
 * as syslog(2) hands it out: "<level>[stamp] text\n". log_buf is a ring of
 * LOG_BUF_SIZE bytes that keeps whole lines: when a new byte needs the
 * room, the oldest line goes, all of it (log_first moves to the next line
 * start). Positions are byte sequence numbers that only grow: log_first
 * and log_next bound what is kept, syslog_seq is where the reader of
 * SYSLOG_ACTION_READ (dmesg's klogd) is, clear_seq where READ_ALL starts
 * after a CLEAR. Callers may be in interrupt context: logbuf_lock is taken
 * with interrupts off, and user copies are made outside it, a chunk at a
 * time.
 */
#include <kernel/panic.h>
#include <kernel/explore.h>
#include <kernel/printk.h>
#include <kernel/console.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <asm/processor.h>
#include <fs/proc_fs.h>

#define LOG_BUF_SIZE (64 * 1024)
#define LINE_MAX 1024

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;

/* console_verbose_begin/end: how many want it, and the level before. Two
 * task dumps on two CPUs each saving and restoring the level themselves
 * could leave the raised one for good. */
static DEFINE_SPINLOCK(verbose_lock);
static int verbose_depth, verbose_saved;

void console_verbose_begin(void)
{
	unsigned long flags;

	spin_lock_irqsave(&verbose_lock, flags);
	if (!verbose_depth++) {
		verbose_saved = console_loglevel;
		console_loglevel = max(console_loglevel,
				       CONSOLE_LOGLEVEL_DEFAULT);
	}
	spin_unlock_irqrestore(&verbose_lock, flags);
}

void console_verbose_end(void)
{
	unsigned long flags;

	spin_lock_irqsave(&verbose_lock, flags);
	if (!--verbose_depth)
		console_loglevel = verbose_saved;
	spin_unlock_irqrestore(&verbose_lock, flags);
}

static char log_buf[LOG_BUF_SIZE];
static u64 log_first;	/* the oldest line kept starts here */
static u64 log_next;	/* the next byte logged goes here */
static u64 syslog_seq;	/* SYSLOG_ACTION_READ's reader */
static u64 clear_seq;	/* READ_ALL starts here (or at log_first) */
static bool at_line_start = true;
static int line_level = LOGLEVEL_DEFAULT;	/* of the line being logged */
static DECLARE_WAIT_QUEUE_HEAD(log_wait);	/* SYSLOG_ACTION_READ */
static bool log_wake_pending;	/* for printk_tick */
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

/*
 * One writer at a time (printk, the tty, its echo from the interrupt
 * handler, on any CPU): lines do not interleave mid-way, and the VGA
 * console's cursor is not moved by two at once. While an oops is being
 * told, a holder that will never let go (the CPU that faulted in a
 * write, or one stopped by the panic) is waited for only a while.
 */
static DEFINE_SPINLOCK(console_lock);

static bool console_lock_or_bust(void)
{
	for (long spins = 0; !spin_trylock(&console_lock); spins++) {
		if ((oops_in_progress || in_panic) && spins > 10000000)
			return false;
		cpu_relax();
	}
	return true;
}

void console_write(const char *s, size_t len)
{
	struct console *c;
	unsigned long flags = local_irq_save();
	bool locked = console_lock_or_bust();

	for (c = consoles; c; c = c->next)
		c->write(s, len);
	if (locked)
		spin_unlock(&console_lock);
	local_irq_restore(flags);
}

static char log_byte(u64 seq)
{
	return log_buf[seq % LOG_BUF_SIZE];
}

/* Make room for one byte: the oldest line goes, whole. */
static void log_drop_oldest_line(void)
{
	while (log_first < log_next && log_byte(log_first++) != '\n')
		;
}

static void log_store(const char *s, size_t len)
{
	while (len--) {
		if (log_next - log_first == LOG_BUF_SIZE)
			log_drop_oldest_line();
		log_buf[log_next++ % LOG_BUF_SIZE] = *s++;
	}
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
			char prefix[4] = { '<', '0' + line_level, '>' };

			log_store(prefix, 3);
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
	explore_quiet_begin();	/* printing moves no explorer's point */
	spin_lock_irqsave(&logbuf_lock, flags);
	/* A new message with a level ends a line left open without '\n'. */
	if (level >= 0 && !at_line_start)
		emit("\n", 1, true);
	if (level >= 0)
		line_level = level & 7;	/* a continuation keeps its line's */
	emit(line, len, line_level < console_loglevel);
	spin_unlock_irqrestore(&logbuf_lock, flags);
	/*
	 * Waking a reader takes the scheduler's lock, which the caller may
	 * hold (it is held with interrupts off, as in a panic): with
	 * interrupts off the next tick wakes the reader instead.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the line, then the test */
	if (!list_empty(&log_wait.head)) {
		if (flags & X86_EFLAGS_IF)
			wake_up(&log_wait);
		else
			log_wake_pending = true;
	}
	explore_quiet_end();
	return len;
}

/* From the timer tick: wake a reader printk could not wake itself. */
void printk_tick(void)
{
	if (log_wake_pending) {
		log_wake_pending = false;
		wake_up(&log_wait);
	}
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

/* ---- syslog(2) ----------------------------------------------------------- */

#define SYSLOG_ACTION_CLOSE 0
#define SYSLOG_ACTION_OPEN 1
#define SYSLOG_ACTION_READ 2
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_READ_CLEAR 4
#define SYSLOG_ACTION_CLEAR 5
#define SYSLOG_ACTION_CONSOLE_OFF 6
#define SYSLOG_ACTION_CONSOLE_ON 7
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
#define SYSLOG_ACTION_SIZE_UNREAD 9
#define SYSLOG_ACTION_SIZE_BUFFER 10

#define MINIMUM_CONSOLE_LOGLEVEL 1	/* what CONSOLE_OFF leaves: panics */

/*
 * /proc/sys/kernel/dmesg_restrict: 1 keeps every action from users other
 * than root; 0 (Linux's own default, CONFIG_SECURITY_DMESG_RESTRICT=n)
 * lets anyone read the whole log and ask its size. Debian's kernels are
 * built with 1; pagelab has no secrets to keep from its one user.
 */
static unsigned long dmesg_restrict;
static int saved_console_loglevel = -1;	/* while CONSOLE_OFF */

/* Where READ_ALL starts: clear_seq, unless lines past it were dropped. */
static u64 log_read_all_start(void)
{
	return clear_seq > log_first ? clear_seq : log_first;
}

/*
 * Copy log bytes [*seq, end) to buf, a chunk at a time under the lock and
 * then out of it. Bytes dropped meanwhile are skipped. Returns the bytes
 * copied (*seq past them), or -EFAULT with none copied.
 */
static long log_copy_to_user(char __user *buf, u64 *seq, u64 end)
{
	char chunk[256];
	unsigned long flags;
	long done = 0;

	while (*seq < end) {
		size_t n;

		spin_lock_irqsave(&logbuf_lock, flags);
		if (*seq < log_first)
			*seq = log_first;
		n = end > *seq ? min(end - *seq, (u64)sizeof(chunk)) : 0;
		for (size_t i = 0; i < n; i++)
			chunk[i] = log_byte(*seq + i);
		spin_unlock_irqrestore(&logbuf_lock, flags);
		if (!n)
			break;
		if (copy_to_user(buf + done, chunk, n))
			return done ? done : -EFAULT;
		*seq += n;
		done += n;
	}
	return done;
}

/*
 * READ_ALL and READ_CLEAR: the newest whole lines since the last CLEAR
 * that fit in len bytes (the oldest ones are left out), as Linux does.
 */
static long syslog_read_all(char __user *buf, size_t len, bool clear)
{
	unsigned long flags;
	u64 start, end;

	spin_lock_irqsave(&logbuf_lock, flags);
	start = log_read_all_start();
	end = log_next;
	while (end - start > len) {	/* skip a line */
		while (start < end && log_byte(start++) != '\n')
			;
	}
	if (clear)
		clear_seq = log_next;
	spin_unlock_irqrestore(&logbuf_lock, flags);
	return log_copy_to_user(buf, &start, end);
}

/* READ: sleep until there is something unread, then consume it. */
static long syslog_read(char __user *buf, size_t len)
{
	unsigned long flags;
	u64 seq, end;
	long n;

	if (wait_event_interruptible(log_wait, READ_ONCE(syslog_seq) !=
						       READ_ONCE(log_next)))
		return -ERESTARTSYS;
	spin_lock_irqsave(&logbuf_lock, flags);
	if (syslog_seq < log_first)
		syslog_seq = log_first;
	seq = syslog_seq;
	end = min(log_next, seq + len);
	syslog_seq = end;	/* consumed even if the copy faults, as Linux */
	spin_unlock_irqrestore(&logbuf_lock, flags);
	n = log_copy_to_user(buf, &seq, end);
	return n;
}

static u64 syslog_unread(void)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&logbuf_lock, flags);
	n = log_next - (syslog_seq > log_first ? syslog_seq : log_first);
	spin_unlock_irqrestore(&logbuf_lock, flags);
	return n;
}

/* Linux's check_syslog_permissions, with root for CAP_SYSLOG. */
static bool syslog_allowed(int type)
{
	if (current->cred.euid == 0)
		return true;
	return !dmesg_restrict && (type == SYSLOG_ACTION_READ_ALL ||
				   type == SYSLOG_ACTION_SIZE_BUFFER);
}

/* The three reads: buf and len are checked before anything is read. */
static long syslog_check_buf(char __user *buf, int len)
{
	if (!buf || len < 0)
		return -EINVAL;
	if (!access_ok(buf, len))
		return -EFAULT;
	return 0;
}

long do_syslog(int type, char __user *buf, int len)
{
	unsigned long flags;
	long err;

	if (!syslog_allowed(type))
		return -EPERM;
	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		err = syslog_check_buf(buf, len);
		if (err || !len)
			return err;
		if (type == SYSLOG_ACTION_READ)
			return syslog_read(buf, len);
		return syslog_read_all(buf, len,
				       type == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR:
		spin_lock_irqsave(&logbuf_lock, flags);
		clear_seq = log_next;
		spin_unlock_irqrestore(&logbuf_lock, flags);
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel < 0)
			saved_console_loglevel = console_loglevel;
		console_loglevel = MINIMUM_CONSOLE_LOGLEVEL;
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel >= 0)
			console_loglevel = saved_console_loglevel;
		saved_console_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:	/* dmesg -n LEVEL */
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel = max(len, MINIMUM_CONSOLE_LOGLEVEL);
		saved_console_loglevel = -1;	/* a later ON keeps it */
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
		return syslog_unread();
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_SIZE;
	}
	return -EINVAL;
}

SYSCALL_DEFINE3(syslog, int, type, char __user *, buf, int, len)
{
	return do_syslog(type, buf, len);
}

static int dmesg_restrict_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", dmesg_restrict);
	return 0;
}

/* Root only, and only 0 or 1 (Linux: proc_dointvec_minmax_sysadmin). */
static int dmesg_restrict_write(const char *buf, size_t len, void *data)
{
	char *end;
	unsigned long v = simple_strtoul(buf, &end, 10);

	if (current->cred.euid != 0)
		return -EPERM;
	if (end == buf || (*end && *end != '\n') || v > 1)
		return -EINVAL;
	dmesg_restrict = v;
	return 0;
}

static int printk_sysctl_init(void)
{
	proc_mkdir("sys/kernel");
	proc_create_rw("sys/kernel/dmesg_restrict", 0644, dmesg_restrict_show,
		       dmesg_restrict_write);
	return 0;
}
device_initcall(printk_sysctl_init);

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
