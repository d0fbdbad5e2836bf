/*
 * kernel/hung_task.c: report tasks stuck in uninterruptible sleep (Linux's
 * khungtaskd). A kernel thread looks at every task every few seconds; one
 * that is still in TASK_UNINTERRUPTIBLE and has not run since the last
 * look, for hung_task_timeout_secs (10) or more, is reported once with its
 * call trace: a lost wake-up or a lock-order deadlock shows up as a name
 * and a stack instead of a silent hang. After a pass that reported one,
 * every task is shown too (show_state: who holds what the hung task
 * waits for is usually another task's stack), at most once a minute.
 *
 * hung_task_timeout_secs=N on the command line (Linux's sysctl name) sets
 * the limit, 0 turns the watchdog off; tests use a short one so that a
 * hang is reported within seconds. The look comes every 5 s, or every N
 * seconds when N is shorter.
 */
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/panic.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <fs/blkdev.h>

#define DUMP_INTERVAL (60 * HZ)	/* between two dumps of every task */

static unsigned long hung_task_timeout_secs = 10;

static int set_hung_task_timeout(const char *val)
{
	char *end;
	unsigned long secs = simple_strtoul(val, &end, 10);

	if (end == val || *end)
		return -EINVAL;
	hung_task_timeout_secs = secs;
	return 0;
}
__setup("hung_task_timeout_secs", set_hung_task_timeout);

/* True when t is newly reported. */
static bool check_task(struct task_struct *t)
{
	if (t->state != TASK_UNINTERRUPTIBLE || t->exit_state) {
		t->hung_since = 0;
		return false;
	}
	if (t->nvcsw != t->last_nvcsw || !t->hung_since) {
		t->last_nvcsw = t->nvcsw;
		t->hung_since = jiffies;
		t->hung_reported = false;
		return false;
	}
	if (t->hung_reported ||
	    jiffies - t->hung_since < hung_task_timeout_secs * HZ)
		return false;
	t->hung_reported = true;
	pr_err("INFO: task %s:%d blocked for more than %lu seconds.\n",
	       t->comm, t->pid, hung_task_timeout_secs);
	show_task_stack(t);
	return true;
}

static void khungtaskd(void *unused)
{
	u64 interval = min(hung_task_timeout_secs, 5UL) * HZ, last_dump = 0;

	for (;;) {
		struct task_struct *t;
		bool reported = false;

		while (schedule_timeout_interruptible(interval))
			;
		lock_tasklist();	/* the task list holds still */
		list_for_each_entry(t, &task_list, tasks)
			if (t != current && check_task(t))
				reported = true;
		unlock_tasklist();
		/* Most sleeps that last are waits for I/O: what do the disks
		 * hold? (Their lines come before the dump of every task.) */
		if (reported)
			show_disks_state();
		if (reported && (!last_dump || jiffies - last_dump >= DUMP_INTERVAL)) {
			last_dump = jiffies;
			show_state();
		}
	}
}

static int hung_task_init(void)
{
	if (!hung_task_timeout_secs)
		return 0;
	return kernel_thread(khungtaskd, NULL, "khungtaskd") < 0 ? -12 : 0;
}
device_initcall(hung_task_init);
