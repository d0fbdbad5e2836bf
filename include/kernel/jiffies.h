/*
 * Timeouts in ticks (Linux's include/linux/jiffies.h, a part of it): the
 * waits of poll, epoll, futex and sigtimedwait sleep whole ticks (HZ per
 * second), rounded up so that they never end early.
 * MAX_SCHEDULE_TIMEOUT (<kernel/wait.h>) means no limit.
 */
#ifndef _KERNEL_JIFFIES_H
#define _KERNEL_JIFFIES_H

#include <kernel/time.h>
#include <kernel/wait.h>

/* struct timespec as system calls take it (uapi time_types.h). */
struct __kernel_timespec {
	s64 tv_sec;
	long tv_nsec;
};

/* struct timeval (select). */
struct __kernel_old_timeval {
	long tv_sec;
	long tv_usec;
};

#define TICK_NSEC (NSEC_PER_SEC / HZ)

static inline bool timespec_valid(const struct __kernel_timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 &&
	       (unsigned long)ts->tv_nsec < NSEC_PER_SEC;
}

/* A valid timespec as ticks, rounded up; far futures mean no limit. */
static inline long timespec_to_jiffies(const struct __kernel_timespec *ts)
{
	if (ts->tv_sec >= (s64)(MAX_SCHEDULE_TIMEOUT / HZ / 2))
		return MAX_SCHEDULE_TIMEOUT;
	return ts->tv_sec * HZ + DIV_ROUND_UP((u64)ts->tv_nsec, TICK_NSEC);
}

/* poll/epoll_wait's milliseconds: negative means no limit. */
static inline long msecs_to_jiffies_timeout(int ms)
{
	if (ms < 0)
		return MAX_SCHEDULE_TIMEOUT;
	return DIV_ROUND_UP((u64)ms * HZ, 1000);
}

static inline void jiffies_to_timespec(long j, struct __kernel_timespec *ts)
{
	ts->tv_sec = j / HZ;
	ts->tv_nsec = (j % HZ) * TICK_NSEC;
}

#endif
