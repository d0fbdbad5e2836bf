/*
 * Time: a periodic tick (jiffies, HZ per second, from the PIT) drives
 * preemption and wakes sleepers; the monotonic clock reads the TSC,
 * calibrated at boot (kernel/time/clock.c), for nanosecond timestamps.
 *
 * Every timeout a program can see (nanosleep, alarm, setitimer) is a
 * deadline on the clock, not a count of ticks: the tick only says when to
 * look. Ticks can be lost when the host is busy, so the two drift apart,
 * and a program measures its sleep with the clock (POSIX: a timer never
 * expires early by the clock it is measured with).
 */
#ifndef _KERNEL_TIME_H
#define _KERNEL_TIME_H

#include <kernel/types.h>

#define HZ 100
#define NSEC_PER_SEC 1000000000UL
#define NSEC_PER_MSEC 1000000UL
#define NSEC_PER_USEC 1000UL
/* The nominal tick, for converting ticks to clock time. */
#define TICK_NSEC (NSEC_PER_SEC / HZ)

/* The PIT's input clock, and its divisor for HZ rounded as Linux's LATCH:
 * the real tick is 10.000017 ms, never shorter than TICK_NSEC. */
#define PIT_TICK_RATE 1193182
#define LATCH ((PIT_TICK_RATE + HZ / 2) / HZ)

extern volatile u64 jiffies;
extern unsigned long tsc_khz;

void tsc_calibrate(void);
void timer_init(void);
/* Nanoseconds since boot; 0 until tsc_calibrate() has run. */
u64 ktime_get_ns(void);
/* Read the CMOS real-time clock once (arch/x86/kernel/rtc.c). */
void rtc_init(void);
/* Nanoseconds since 1970 (UTC): the RTC at boot plus ktime since. */
u64 ktime_get_real_ns(void);
/* Busy-wait; for drivers that need a short delay before the tick runs. */
void ndelay_ns(u64 ns);
/*
 * Sleep until ktime_get_ns() reaches expires, a signal arrives, or someone
 * wakes the task (wake_up_process, a wait queue it is on): 0 when the time
 * has come, -EINTR otherwise. Late by up to a tick, never early.
 */
int schedule_hrtimeout(u64 expires);
/* The same, with current's state set (and the wait's condition tested)
 * by the caller. */
int __schedule_hrtimeout(u64 expires);
/*
 * Sleep for ticks * TICK_NSEC of clock time, or until a signal or a wake-up
 * as above: returns the ticks left (rounded up), 0 when the time ran out.
 * Loop if only the time matters.
 */
u64 schedule_timeout_interruptible(u64 ticks);
u64 schedule_timeout(u64 ticks);	/* state set by the caller */

/* Is jiffies value a later than b? (Written to survive wrap-around.) */
static inline bool time_after_jiffies(u64 a, u64 b)
{
	return (s64)(b - a) < 0;
}

#endif
