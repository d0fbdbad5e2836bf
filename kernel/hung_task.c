/*
 * kernel/hung_task.c: report tasks stuck in uninterruptible sleep (Linux's
 * khungtaskd). Every 5 s a kernel thread looks at every task; one that is
 * still in TASK_UNINTERRUPTIBLE and has not run since the last look, for
 * HUNG_TASK_SECS or more, is reported once with its call trace: a lost
 * wake-up or a lock-order deadlock shows up as a name and a stack instead
 * of a silent hang.
 */
#include <kernel/init.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <fs/blkdev.h>

#define HUNG_TASK_SECS 10
#define CHECK_INTERVAL (5 * HZ)

/* The frame __switch_to_asm left: r15 r14 r13 r12 rbx rbp, return. */
static void show_sleeping_stack(struct task_struct *t)
{
	unsigned long *frame = (unsigned long *)t->thread_sp;

	show_trace(frame[6], frame[5]);
}

static void check_task(struct task_struct *t)
{
	if (t->state != TASK_UNINTERRUPTIBLE || t->exit_state) {
		t->hung_since = 0;
		return;
	}
	if (t->nvcsw != t->last_nvcsw || !t->hung_since) {
		t->last_nvcsw = t->nvcsw;
		t->hung_since = jiffies;
		t->hung_reported = false;
		return;
	}
	if (t->hung_reported || jiffies - t->hung_since < HUNG_TASK_SECS * HZ)
		return;
	t->hung_reported = true;
	pr_err("INFO: task %s:%d blocked for more than %d seconds.\n",
	       t->comm, t->pid, HUNG_TASK_SECS);
	show_sleeping_stack(t);
	show_disks_state();	/* most sleeps that last are waits for I/O */
}

static void khungtaskd(void *unused)
{
	for (;;) {
		struct task_struct *t;
		unsigned long flags;

		while (schedule_timeout_interruptible(CHECK_INTERVAL))
			;
		flags = local_irq_save();	/* the task list holds still */
		list_for_each_entry(t, &task_list, tasks)
			if (t != current)
				check_task(t);
		local_irq_restore(flags);
	}
}

static int hung_task_init(void)
{
	return kernel_thread(khungtaskd, NULL, "khungtaskd") < 0 ? -12 : 0;
}
device_initcall(hung_task_init);
