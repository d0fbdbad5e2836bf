/*
 * kernel/time/itimer.c: ITIMER_REAL, the timer behind alarm() and
 * setitimer(): SIGALRM when it expires, re-armed for an interval timer.
 * Only ITIMER_REAL is implemented: the CPU-time timers return EINVAL.
 *
 * Expiry is a deadline on the monotonic clock (task->it_real_expires, ns of
 * ktime_get_ns(), 0 = disarmed), the clock the program measures with; the
 * tick (run_itimers) only says when to look, and a timer whose deadline the
 * clock has not reached yet stays armed for the next tick. An interval
 * timer's next deadline is the next point of its grid, start + k * period
 * (Linux's hrtimer_forward): a late tick does not push later periods back,
 * and periods missed altogether give one signal, as on Linux.
 *
 * Roadmap: run_itimers (the tick), itimer_cancel (exit), itimer_left,
 * itimer_set (setitimer and alarm), then the system calls.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>

#define ITIMER_REAL 0
#define USEC_PER_SEC 1000000L

struct itimerval_k {
	long interval_sec, interval_usec;
	long value_sec, value_usec;
};

static LIST_HEAD(armed_list);
static DEFINE_SPINLOCK(itimer_lock);

/* The first point after now of the grid expires + k * incr. */
static u64 itimer_forward(u64 expires, u64 now, u64 incr)
{
	u64 periods = (now - expires) / incr + 1;

	if (periods > (U64_MAX - expires) / incr)
		return U64_MAX;
	return expires + periods * incr;
}

/* From the timer interrupt. */
void run_itimers(void)
{
	struct task_struct *t, *tmp;
	u64 now = ktime_get_ns();

	spin_lock(&itimer_lock);
	list_for_each_entry_safe(t, tmp, &armed_list, itimer_list) {
		if (t->it_real_expires > now)
			continue;
		group_send_sig_info(SIGALRM, NULL, t);
		if (t->it_real_incr) {
			t->it_real_expires = itimer_forward(t->it_real_expires,
							    now, t->it_real_incr);
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

/* Nanoseconds until t's timer fires; a due timer the tick has not seen yet
 * has 1 us left (as Linux: an armed timer never reads as disarmed). */
static u64 itimer_left(struct task_struct *t, u64 now)
{
	if (!t->it_real_expires)
		return 0;
	if (t->it_real_expires <= now)
		return NSEC_PER_USEC;
	return t->it_real_expires - now;
}

/* A timeval in ns; values too large for 64 bits mean "never". */
static u64 timeval_to_ns(long sec, long usec)
{
	if ((u64)sec >= (U64_MAX - NSEC_PER_SEC) / NSEC_PER_SEC)
		return U64_MAX;
	return sec * NSEC_PER_SEC + usec * NSEC_PER_USEC;
}

/* Rounded up, so that a pending timer never reads as 0. */
static void ns_to_timeval(u64 ns, long *sec, long *usec)
{
	u64 us = ns / NSEC_PER_USEC + !!(ns % NSEC_PER_USEC);

	*sec = us / USEC_PER_SEC;
	*usec = us % USEC_PER_SEC;
}

/* Arm for value ns from now (or disarm with 0); returns the old setting. */
static void itimer_set(u64 value, u64 incr, u64 *old_value, u64 *old_incr)
{
	struct task_struct *t = current;
	u64 now = ktime_get_ns();
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	*old_value = itimer_left(t, now);
	*old_incr = t->it_real_incr;
	if (t->it_real_expires)
		list_del_init(&t->itimer_list);
	t->it_real_expires = 0;
	if (value)
		t->it_real_expires = value < U64_MAX - now ? now + value :
							      U64_MAX;
	t->it_real_incr = incr;
	if (value)
		list_add(&t->itimer_list, &armed_list);
	spin_unlock_irqrestore(&itimer_lock, flags);
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
	if (v.value_usec < 0 || v.value_usec >= USEC_PER_SEC ||
	    v.value_sec < 0 || v.interval_usec < 0 ||
	    v.interval_usec >= USEC_PER_SEC || v.interval_sec < 0)
		return -EINVAL;
	itimer_set(timeval_to_ns(v.value_sec, v.value_usec),
		   timeval_to_ns(v.interval_sec, v.interval_usec), &ov, &oi);
	ns_to_timeval(ov, &o.value_sec, &o.value_usec);
	ns_to_timeval(oi, &o.interval_sec, &o.interval_usec);
	if (old && copy_to_user(old, &o, sizeof(o)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(getitimer, int, which, struct itimerval_k __user *, cur)
{
	struct task_struct *t = current;
	struct itimerval_k o;
	unsigned long flags;
	u64 left, incr;

	if (which != ITIMER_REAL)
		return -EINVAL;
	spin_lock_irqsave(&itimer_lock, flags);
	left = itimer_left(t, ktime_get_ns());
	incr = t->it_real_incr;
	spin_unlock_irqrestore(&itimer_lock, flags);
	ns_to_timeval(left, &o.value_sec, &o.value_usec);
	ns_to_timeval(incr, &o.interval_sec, &o.interval_usec);
	return copy_to_user(cur, &o, sizeof(o)) ? -EFAULT : 0;
}

SYSCALL_DEFINE1(alarm, unsigned int, seconds)
{
	u64 ov, oi;

	itimer_set((u64)seconds * NSEC_PER_SEC, 0, &ov, &oi);
	/* Like Linux: round to the nearest second, but never report 0 for
	 * an alarm that had time left. */
	return ov ? max(1UL, (ov + NSEC_PER_SEC / 2) / NSEC_PER_SEC) : 0;
}
