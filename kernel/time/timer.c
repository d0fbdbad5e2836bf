/*
 * kernel/time/timer.c: sleeping for a while. schedule_timeout() puts the
 * task on a list with its wake-up tick; the timer interrupt wakes those
 * whose tick has come. The list is short (sleeping tasks), so it is a list.
 */
#include <kernel/time.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>

struct sleeper {
	struct task_struct *task;
	u64 expires;
	struct list_head list;
};

static LIST_HEAD(sleepers);
static DEFINE_SPINLOCK(timer_lock);

/* From the tick, interrupts off. */
void run_timers(void)
{
	struct sleeper *s;

	spin_lock(&timer_lock);
	list_for_each_entry(s, &sleepers, list)
		if (s->expires <= jiffies)
			wake_up_process(s->task);
	spin_unlock(&timer_lock);
}

/*
 * Sleep interruptibly for up to `ticks` (see <kernel/time.h>). The tick
 * keeps waking an expired sleeper until it leaves the list, so a wake-up
 * that races with going to sleep is never lost, only late by a tick.
 */
u64 schedule_timeout_interruptible(u64 ticks)
{
	/* +1: the current tick is partly over; never wake early. */
	struct sleeper s = { current, jiffies + ticks + 1 };
	unsigned long flags;

	spin_lock_irqsave(&timer_lock, flags);
	list_add(&s.list, &sleepers);
	spin_unlock_irqrestore(&timer_lock, flags);
	current->state = TASK_INTERRUPTIBLE;
	if (jiffies < s.expires && !signal_pending(current))
		schedule();
	current->state = TASK_RUNNING;
	spin_lock_irqsave(&timer_lock, flags);
	list_del(&s.list);
	spin_unlock_irqrestore(&timer_lock, flags);
	return jiffies < s.expires ? s.expires - jiffies : 0;
}
