/*
 * kernel/trace.c: the lab's call-chain traces (include/kernel/trace.h).
 *
 * A trace set is a group of trace points switched together through
 * /proc/trace/NAME ("1" on, "0" off). Lines go to the console, so the
 * graders' expect scripts and a student at the serial console see the
 * same thing. Depth is per task: a task that sleeps in the middle of a
 * traced chain (disk I/O) keeps its own indentation.
 *
 * Linux has ftrace for this (function_graph shows the same picture);
 * pagelab prints only what the lab is about, with the i_size at each step.
 */
#include <kernel/trace.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <fs/fs.h>
#include <fs/proc_fs.h>

struct trace_point_set trace_set_truncate = { "truncate", false };

static struct trace_point_set *const all_sets[] = { &trace_set_truncate };

#define MAX_INDENT 40

static void trace_line(struct trace_point_set *set, const char *arrow,
		       const char *fn, const struct inode *inode,
		       const char *tail)
{
	int indent = 2 * current->trace_depth;

	if (indent > MAX_INDENT)
		indent = MAX_INDENT;
	if (inode)
		pr_info("trace: %s: %*s%s %s ino %lu i_size %ld%s\n", set->name,
			indent, "", arrow, fn, inode->i_ino,
			(long)inode->i_size, tail);
	else
		pr_info("trace: %s: %*s%s %s%s\n", set->name, indent, "", arrow,
			fn, tail);
}

static void format_tail(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t n;

	buf[0] = 0;
	if (!fmt || !*fmt)
		return;
	buf[0] = ' ';
	buf[1] = '(';
	vsnprintf(buf + 2, len - 3, fmt, ap);
	n = strlen(buf);
	buf[n] = ')';
	buf[n + 1] = 0;
}

/* One "->" or ".." line with the caller's formatted detail. */
static void trace_vline(struct trace_point_set *set, const char *arrow,
			const char *fn, const struct inode *inode,
			const char *fmt, va_list ap)
{
	char tail[96];

	format_tail(tail, sizeof(tail) - 1, fmt, ap);
	trace_line(set, arrow, fn, inode, tail);
}

void __trace_enter(struct trace_point_set *set, const char *fn,
		   const struct inode *inode, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_vline(set, "->", fn, inode, fmt, ap);
	va_end(ap);
	current->trace_depth++;
}

void __trace_exit(struct trace_point_set *set, const char *fn,
		  const struct inode *inode, long ret)
{
	char tail[32];

	if (current->trace_depth > 0)
		current->trace_depth--;
	snprintf(tail, sizeof(tail), " = %ld", ret);
	/* "<- fn = ret ino N i_size S": the result first, it matters most */
	if (inode)
		pr_info("trace: %s: %*s<- %s%s ino %lu i_size %ld\n", set->name,
			2 * min(current->trace_depth, MAX_INDENT / 2), "", fn,
			tail, inode->i_ino, (long)inode->i_size);
	else
		trace_line(set, "<-", fn, NULL, tail);
}

void __trace_note(struct trace_point_set *set, const char *fn,
		  const struct inode *inode, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_vline(set, "..", fn, inode, fmt, ap);
	va_end(ap);
}

static int trace_show(struct seq_file *m, void *data)
{
	seq_printf(m, "%d\n", ((struct trace_point_set *)data)->on);
	return 0;
}

static int trace_write(const char *buf, size_t len, void *data)
{
	struct trace_point_set *set = data;

	if (len < 1 || (buf[0] != '0' && buf[0] != '1') ||
	    (len > 1 && buf[1] != '\n'))
		return -EINVAL;
	set->on = buf[0] == '1';
	return 0;
}

static int trace_init(void)
{
	char name[32];

	proc_mkdir("trace");
	for (size_t i = 0; i < ARRAY_SIZE(all_sets); i++) {
		snprintf(name, sizeof(name), "trace/%s", all_sets[i]->name);
		proc_create_rw_data(name, 0644, trace_show, trace_write,
				    all_sets[i]);
	}
	return 0;
}
device_initcall(trace_init);
