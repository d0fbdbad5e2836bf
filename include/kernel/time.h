/*
 * Time: a periodic tick (jiffies, HZ per second, from the PIT) drives
 * preemption and timeouts; the monotonic clock reads the TSC, calibrated
 * against the PIT at boot, for nanosecond timestamps.
 */
#ifndef _KERNEL_TIME_H
#define _KERNEL_TIME_H

#include <kernel/types.h>

#define HZ 100
#define NSEC_PER_SEC 1000000000UL
#define NSEC_PER_MSEC 1000000UL

extern volatile u64 jiffies;
extern unsigned long tsc_khz;

void tsc_calibrate(void);
void timer_init(void);
/* Nanoseconds since boot; 0 until tsc_calibrate() has run. */
u64 ktime_get_ns(void);
/* Read the CMOS real-time clock once (kernel/time/rtc.c). */
void rtc_init(void);
/* Nanoseconds since 1970 (UTC): the RTC at boot plus ktime since. */
u64 ktime_get_real_ns(void);
/* Busy-wait; for drivers that need a short delay before the tick runs. */
void ndelay_ns(u64 ns);
/*
 * Sleep until ticks have passed, a signal arrives, or someone wakes the
 * task (wake_up_process, a wait queue it is on): returns the ticks left,
 * 0 when the time ran out. Loop if only the time matters.
 */
u64 schedule_timeout_interruptible(u64 ticks);

/* Is jiffies value a later than b? (Written to survive wrap-around.) */
static inline bool time_after_jiffies(u64 a, u64 b)
{
	return (s64)(b - a) < 0;
}

#endif
