/*
 * kernel/fail_delay.c: /proc/fail/delay, named race windows held open
 * (see <kernel/fail_delay.h>). Each point has a count of tasks still to
 * delay and a length; a task passing an armed point takes one from the
 * count and sleeps. Sleeping where the caller may not sleep would be a
 * bug of its own, so a point passed with interrupts off is skipped and
 * logged instead. A point may also be the entry of traced functions
 * (at_entry): the tracer holds the task there (kernel/trace.c).
 */
#include <kernel/fail_delay.h>
#include <kernel/errno.h>
#include <kernel/explore.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/trace.h>
#include <asm/processor.h>
#include <fs/proc_fs.h>

struct delay_point {
	const char *name;
	const char *at_entry[2];	/* or the entry of these functions */
	bool spins;	/* called atomic: wait without sleeping */
	unsigned long count;	/* tasks still to delay */
	unsigned long ms;
	unsigned long hits;	/* delays served since boot */
};

static struct delay_point points[FD_NR_POINTS] = {
	/* Every size change writes i_size, then brings the page cache into
	 * line: these are where the second step starts, whoever wrote the
	 * first (vmtruncate, ext2_setsize, generic_write_end). */
	[FD_ISIZE_SET] = { "isize_set",
			   { "truncate_pagecache", "pagecache_isize_extended" } },
	[FD_FAULT_PAGE_LOCKED] = { "fault_page_locked" },
	[FD_MKWRITE_BEFORE_LOCK] = { "mkwrite_before_lock" },
	[FD_TRUNCATE_PAGES_DROPPED] = { "truncate_pages_dropped" },
	[FD_BLOCK_TRUNCATE_READ] = { "block_truncate_read" },
	[FD_PAGE_MKCLEAN] = { "page_mkclean" },
	[FD_FAULT_PAGE_FOUND] = { "fault_page_found" },
	[FD_DIRTY_MAPPED_BUFFER] = { "dirty_mapped_buffer", .spins = true },
};

unsigned long fail_delay_armed;
static DEFINE_SPINLOCK(delay_lock);

/* Sleep ms milliseconds; SIGKILL ends the wait early, other signals
 * (a SIGCHLD, an alarm) do not: the window must stay open. */
static void delay_ms(unsigned long ms)
{
	u64 until = jiffies + (ms * HZ + 999) / 1000;

	while (time_after_jiffies(until, jiffies) &&
	       !fatal_signal_pending(current))
		if (schedule_timeout_interruptible(until - jiffies) &&
		    signal_pending(current))
			schedule();	/* a signal waits: yield, go on */
}

const char *fail_delay_name(enum fail_delay_point point)
{
	return points[point].name;
}

void __fail_delay(enum fail_delay_point point)
{
	struct delay_point *p = &points[point];
	unsigned long flags, ms = 0;

	/* For the explorer a window is a place to switch, never a wait
	 * (but not where the caller may not sleep). */
	if (!p->spins)
		explore_point(EP_DELAY + point, _RET_IP_);
	if (!(fail_delay_armed & (1UL << point)))
		return;

	spin_lock_irqsave(&delay_lock, flags);
	if (p->count) {
		ms = p->ms;
		p->hits++;
		if (--p->count == 0)
			fail_delay_armed &= ~(1UL << point);
	}
	spin_unlock_irqrestore(&delay_lock, flags);
	if (!ms)
		return;
	if (p->spins) {
		pr_info("fail_delay: %s: %s[%d] spins for %lu ms\n", p->name,
			current->comm, current->pid, ms);
		ndelay_ns((u64)ms * NSEC_PER_MSEC);
		pr_info("fail_delay: %s: %s[%d] goes on\n", p->name,
			current->comm, current->pid);
		return;
	}
	if (!(flags & X86_EFLAGS_IF)) {
		pr_warn("fail_delay: %s: passed with interrupts off, not "
			"delayed\n", p->name);
		return;
	}
	pr_info("fail_delay: %s: holding %s[%d] for %lu ms\n", p->name,
		current->comm, current->pid, ms);
	delay_ms(ms);
	pr_info("fail_delay: %s: %s[%d] goes on\n", p->name, current->comm,
		current->pid);
}

static int delay_show(struct seq_file *m, void *data)
{
	for (int i = 0; i < FD_NR_POINTS; i++) {
		struct delay_point *p = &points[i];

		if (p->count)
			seq_printf(m, "%-24s armed: %lu ms for the next %lu, "
				   "%lu served\n", p->name, p->ms, p->count,
				   p->hits);
		else
			seq_printf(m, "%-24s disarmed, %lu served\n", p->name,
				   p->hits);
	}
	return 0;
}

/* "POINT MS [COUNT]": arm (MS 0 disarms). */
static int delay_write(const char *buf, size_t len, void *data)
{
	char *end;
	const char *sp = memchr(buf, ' ', len);
	long ms, count = 1;
	unsigned long flags;
	int i;

	if (!sp)
		return -EINVAL;
	for (i = 0; i < FD_NR_POINTS; i++)
		if (strlen(points[i].name) == (size_t)(sp - buf) &&
		    !strncmp(points[i].name, buf, sp - buf))
			break;
	if (i == FD_NR_POINTS)
		return -ENOENT;
	ms = simple_strtol(sp + 1, &end, 10);
	if (end == sp + 1 || ms < 0 || ms > 60000)
		return -EINVAL;
	if (*end == ' ') {
		const char *s = end + 1;

		count = simple_strtol(s, &end, 10);
		if (end == s || count < 1)
			return -EINVAL;
	}
	if (*end && *end != '\n')
		return -EINVAL;
	spin_lock_irqsave(&delay_lock, flags);
	points[i].ms = ms;
	points[i].count = ms ? count : 0;
	if (ms)
		fail_delay_armed |= 1UL << i;
	else
		fail_delay_armed &= ~(1UL << i);
	spin_unlock_irqrestore(&delay_lock, flags);
	return 0;
}

/* Called by fault_inject_init, which makes /proc/fail. */
void fail_delay_proc_init(void)
{
	for (int i = 0; i < FD_NR_POINTS; i++)
		for (int j = 0; j < 2 && points[i].at_entry[j]; j++)
			if (trace_entry_delay(points[i].at_entry[j], i))
				pr_warn("fail_delay: %s: %s is not traced\n",
					points[i].name, points[i].at_entry[j]);
	proc_create_rw_data("fail/delay", 0644, delay_show, delay_write, NULL);
}
