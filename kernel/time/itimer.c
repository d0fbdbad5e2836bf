/*
 * kernel/time/itimer.c: ITIMER_REAL, the timer behind alarm() and
 * setitimer(): SIGALRM when it expires, re-armed for an interval timer.
 * Armed tasks sit on armed_list; the tick checks them. Only ITIMER_REAL is
 * implemented: the CPU-time timers return EINVAL.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>

#define ITIMER_REAL 0
#define USEC_PER_TICK (1000000 / HZ)

struct itimerval_k {
	long interval_sec, interval_usec;
	long value_sec, value_usec;
};

static LIST_HEAD(armed_list);
static DEFINE_SPINLOCK(itimer_lock);

/* From the timer interrupt. */
void run_itimers(void)
{
	struct task_struct *t, *tmp;

	spin_lock(&itimer_lock);
	list_for_each_entry_safe(t, tmp, &armed_list, itimer_list) {
		if (t->it_real_expires > jiffies)
			continue;
		send_sig_info(SIGALRM, NULL, t);
		if (t->it_real_incr) {
			t->it_real_expires = jiffies + t->it_real_incr;
		} else {
			t->it_real_expires = 0;
			list_del_init(&t->itimer_list);
		}
	}
	spin_unlock(&itimer_lock);
}

/* Disarm t's timer (exit). */
void itimer_cancel(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	if (t->it_real_expires)
		list_del_init(&t->itimer_list);
	t->it_real_expires = 0;
	spin_unlock_irqrestore(&itimer_lock, flags);
}

/* Ticks until t's timer fires, without the slack tick added when armed. */
static u64 itimer_left(struct task_struct *t)
{
	if (!t->it_real_expires || t->it_real_expires <= jiffies + 1)
		return t->it_real_expires ? 1 : 0;
	return t->it_real_expires - jiffies - 1;
}

static u64 to_ticks(long sec, long usec)
{
	return sec * HZ + DIV_ROUND_UP((unsigned long)usec, USEC_PER_TICK);
}

/* Arm (or disarm with value 0); returns the old setting. */
static void itimer_set(u64 value, u64 incr, u64 *old_value, u64 *old_incr)
{
	struct task_struct *t = current;
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	*old_value = itimer_left(t);
	*old_incr = t->it_real_incr;
	if (t->it_real_expires)
		list_del_init(&t->itimer_list);
	/* +1: the current tick is partly over; never fire early. */
	t->it_real_expires = value ? jiffies + value + 1 : 0;
	t->it_real_incr = incr;
	if (value)
		list_add(&t->itimer_list, &armed_list);
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static void ticks_to_timeval(u64 ticks, long *sec, long *usec)
{
	*sec = ticks / HZ;
	*usec = (ticks % HZ) * USEC_PER_TICK;
}

SYSCALL_DEFINE3(setitimer, int, which, const struct itimerval_k __user *, new,
		struct itimerval_k __user *, old)
{
	struct itimerval_k v = { 0 }, o;
	u64 ov, oi;

	if (which != ITIMER_REAL)
		return -EINVAL;
	if (new && copy_from_user(&v, new, sizeof(v)))
		return -EFAULT;
	if (v.value_usec < 0 || v.value_usec >= 1000000 || v.value_sec < 0 ||
	    v.interval_usec < 0 || v.interval_usec >= 1000000 ||
	    v.interval_sec < 0)
		return -EINVAL;
	itimer_set(to_ticks(v.value_sec, v.value_usec),
		   to_ticks(v.interval_sec, v.interval_usec), &ov, &oi);
	ticks_to_timeval(ov, &o.value_sec, &o.value_usec);
	ticks_to_timeval(oi, &o.interval_sec, &o.interval_usec);
	if (old && copy_to_user(old, &o, sizeof(o)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(getitimer, int, which, struct itimerval_k __user *, cur)
{
	struct task_struct *t = current;
	struct itimerval_k o;
	u64 left = itimer_left(t);

	if (which != ITIMER_REAL)
		return -EINVAL;
	ticks_to_timeval(left, &o.value_sec, &o.value_usec);
	ticks_to_timeval(t->it_real_incr, &o.interval_sec, &o.interval_usec);
	return copy_to_user(cur, &o, sizeof(o)) ? -EFAULT : 0;
}

SYSCALL_DEFINE1(alarm, unsigned int, seconds)
{
	u64 ov, oi;

	itimer_set((u64)seconds * HZ, 0, &ov, &oi);
	/* Like Linux: round to the nearest second, but never report 0 for
	 * an alarm that had time left. */
	return ov ? max(1UL, (ov + HZ / 2) / HZ) : 0;
}
