/*
 * kernel/time/timer.c: sleeping for a while. A sleeper is on a list with
 * its deadline on the monotonic clock; each tick reads the clock and wakes
 * those whose deadline has passed. The list is short (sleeping tasks), so
 * it is a list. The deadline is never counted in ticks: a tick lost on a
 * busy host would make the sleep late, and a clock that disagreed with the
 * tick would make it early by the clock the sleeper measures with.
 */
#include <kernel/time.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>

struct sleeper {
	struct task_struct *task;
	u64 expires;	/* ktime_get_ns() */
	struct list_head list;
};

static LIST_HEAD(sleepers);
static DEFINE_SPINLOCK(timer_lock);

/* From the tick, interrupts off. */
void run_timers(void)
{
	u64 now = ktime_get_ns();
	struct sleeper *s;

	spin_lock(&timer_lock);
	list_for_each_entry(s, &sleepers, list)
		if (s->expires <= now)
			wake_up_process(s->task);
	spin_unlock(&timer_lock);
}

/*
 * See <kernel/time.h>. The tick keeps waking an expired sleeper until it
 * leaves the list, so a wake-up that races with going to sleep is never
 * lost, only late by a tick.
 */
int __sched schedule_hrtimeout(u64 expires)
{
	set_current_state(TASK_INTERRUPTIBLE);
	return __schedule_hrtimeout(expires);
}

/* The caller set its state (and tested what it waits for after that). */
int __sched __schedule_hrtimeout(u64 expires)
{
	struct sleeper s = { current, expires };
	unsigned long flags;

	spin_lock_irqsave(&timer_lock, flags);
	list_add(&s.list, &sleepers);
	spin_unlock_irqrestore(&timer_lock, flags);
	if (ktime_get_ns() < expires && !signal_pending(current))
		schedule();
	current->state = TASK_RUNNING;
	spin_lock_irqsave(&timer_lock, flags);
	list_del(&s.list);
	spin_unlock_irqrestore(&timer_lock, flags);
	return ktime_get_ns() < expires ? -EINTR : 0;
}

u64 __sched schedule_timeout_interruptible(u64 ticks)
{
	set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(ticks);
}

u64 __sched schedule_timeout(u64 ticks)
{
	u64 now = ktime_get_ns(), expires = U64_MAX;

	if (ticks < (U64_MAX - now) / TICK_NSEC)
		expires = now + ticks * TICK_NSEC;	/* else: forever */

	if (!__schedule_hrtimeout(expires))
		return 0;
	now = ktime_get_ns();
	return now < expires ? DIV_ROUND_UP(expires - now, TICK_NSEC) : 0;
}
