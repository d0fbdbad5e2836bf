/*
 * kernel/sched/preempt_test.c: does kernel code that never sleeps give the
 * CPU away? (selftest=preempt)
 *
 * The test starts a kernel thread and then spins in the kernel, interrupts
 * on, no lock held, for up to SPIN_TICKS ticks, watching for the thread
 * to run. With preempt=full the tick preempts the spinner and the thread
 * runs within a tick or two; with preempt=none it cannot run until the
 * spinner sleeps. Either way the test then sleeps until the thread has
 * run, so it never leaves it behind.
 */
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/selftest.h>
#include <kernel/time.h>

#define SPIN_TICKS 50

static volatile bool thread_ran;

static void mark_ran(void *unused)
{
	thread_ran = true;
	do_exit(0);
}

static int test_preempt(void)
{
	unsigned long nivcsw = current->nivcsw;
	u64 start = jiffies, waited;
	bool ran_while_spinning;
	pid_t pid;

	thread_ran = false;
	pid = kernel_thread(mark_ran, NULL, "preempt-test");
	if (pid < 0)
		return selftest_fail("kernel_thread: %d", pid);
	while (!thread_ran && jiffies - start < SPIN_TICKS)
		cpu_relax();
	ran_while_spinning = thread_ran;
	waited = jiffies - start;
	while (!thread_ran)
		schedule_timeout_interruptible(1);
	pr_info("selftest: preempt: preempt=%s: the other task %s while this "
		"one spun in the kernel (%lu ticks, preempted %lu times)\n",
		preempt_full ? "full" : "none",
		ran_while_spinning ? "ran" : "did not run", (unsigned long)waited,
		current->nivcsw - nivcsw);
	if (preempt_full && !ran_while_spinning)
		return selftest_fail("preempt=full, but kernel code spinning "
				     "for %d ticks was never preempted",
				     SPIN_TICKS);
	if (preempt_full && current->nivcsw == nivcsw)
		return selftest_fail("preempted, but nivcsw did not count it");
	if (!preempt_full && ran_while_spinning)
		return selftest_fail("preempt=none, yet another task ran while "
				     "this one spun in the kernel");
	return 0;
}
DEFINE_SELFTEST(preempt, test_preempt);
