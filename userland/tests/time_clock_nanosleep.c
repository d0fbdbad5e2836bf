/*
 * time_clock_nanosleep: clock_nanosleep as Linux answers it.
 *  - TIMER_ABSTIME on CLOCK_MONOTONIC, CLOCK_REALTIME and CLOCK_BOOTTIME:
 *    a sleep to now + 50 ms wakes no earlier than the deadline, read on
 *    the same clock; a deadline in the past returns at once;
 *  - the clocks: an unknown one is EINVAL; the thread's CPU-time clock
 *    and the raw monotonic clock cannot time a sleep (EOPNOTSUPP from the
 *    system call; musl's wrapper says EINVAL for the thread's CPU clock
 *    without asking); a bad timespec is EINVAL;
 *  - clock_nanosleep() returns the error number (the system call returns
 *    -errno, so syscall() gives -1 and errno);
 *  - interrupted by a handler, an absolute sleep returns EINTR and leaves
 *    rem alone (even with SA_RESTART: POSIX); a relative one writes the
 *    time left to rem.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

#define MS 1000000L

static long long ns_of(struct timespec t)
{
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct timespec ts_of(long long ns)
{
	struct timespec t = { ns / 1000000000LL, ns % 1000000000LL };

	return t;
}

static long long now(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return ns_of(t);
}

static void test_absolute(clockid_t clk, const char *name)
{
	long long deadline = now(clk) + 50 * MS, woke;
	struct timespec t = ts_of(deadline);
	int r = clock_nanosleep(clk, TIMER_ABSTIME, &t, NULL);

	woke = now(clk);
	is_str(tap_errname(r), "0", "%s: absolute sleep to now + 50 ms", name);
	ok(woke >= deadline, "%s: woke no earlier than the deadline "
	   "(%lld ns after it)", name, woke - deadline);
}

static void test_past(clockid_t clk, const char *name)
{
	struct timespec t = ts_of(now(clk) / 2);	/* >= 0 just after boot */
	long long t0 = now(CLOCK_MONOTONIC);
	int r = clock_nanosleep(clk, TIMER_ABSTIME, &t, NULL);

	ok(r == 0 && now(CLOCK_MONOTONIC) - t0 < 500 * MS,
	   "%s: a deadline in the past returns 0 at once", name);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Interrupt whatever sleeps in 50 ms with a handler (flags: SA_RESTART
 * or not). */
static void arm(int flags)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = flags;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void test_interrupted(void)
{
	struct timespec t, rem = { 12345, 678 };
	long long t0 = now(CLOCK_MONOTONIC);
	int r;

	arm(0);
	t = ts_of(t0 + 5000 * MS);
	r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, &rem);
	is_str(tap_errname(r), "EINTR",
	       "an absolute sleep interrupted by a handler: EINTR");
	ok(rem.tv_sec == 12345 && rem.tv_nsec == 678,
	   "and rem is left alone");
	ok(now(CLOCK_MONOTONIC) - t0 < 4000 * MS, "and it ended early");

	arm(SA_RESTART);
	t = ts_of(now(CLOCK_REALTIME) + 5000 * MS);
	r = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &t, &rem);
	is_str(tap_errname(r), "EINTR",
	       "EINTR even when the handler has SA_RESTART");

	arm(0);
	t = ts_of(5000 * MS);
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &rem);
	is_str(tap_errname(r), "EINTR", "a relative sleep interrupted: EINTR");
	ok(ns_of(rem) > 3000 * MS && ns_of(rem) <= 5000 * MS &&
	   rem.tv_nsec < 1000000000L,
	   "and rem holds the time left (%lld ms)", ns_of(rem) / MS);
	signal(SIGALRM, SIG_IGN);
}

static void test_errors(void)
{
	struct timespec t = { 0, 1000 }, bad = { 0, 1000000000L },
			neg = { -1, 0 };

	is_str(tap_errname(clock_nanosleep(99, 0, &t, NULL)), "EINVAL",
	       "an unknown clock: EINVAL (the error number, returned)");
	errno = 0;
	ok(syscall(SYS_clock_nanosleep, 99, 0, &t, NULL) == -1 &&
	   errno == EINVAL, "the system call itself: -EINVAL");
	is_str(tap_errname(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					   &bad, NULL)),
	       "EINVAL", "tv_nsec of 1e9: EINVAL");
	is_str(tap_errname(clock_nanosleep(CLOCK_MONOTONIC, 0, &neg, NULL)),
	       "EINVAL", "a negative tv_sec: EINVAL");
	is_str(tap_errname(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &t,
					   NULL)),
	       "EINVAL", "the thread's CPU-time clock: EINVAL from libc");
	errno = 0;
	ok(syscall(SYS_clock_nanosleep, CLOCK_THREAD_CPUTIME_ID, 0, &t,
		   NULL) == -1 && errno == EOPNOTSUPP,
	   "and EOPNOTSUPP from the system call");
	errno = 0;
	ok(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC_RAW, 0, &t, NULL) ==
		   -1 && errno == EOPNOTSUPP,
	   "CLOCK_MONOTONIC_RAW: EOPNOTSUPP");
	t.tv_nsec = 0;
	is_str(tap_errname(clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID,
					   TIMER_ABSTIME, &t, NULL)),
	       "0", "the process's CPU-time clock: a past deadline returns 0");
}

int main(void)
{
	plan(22);
	test_absolute(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	test_absolute(CLOCK_REALTIME, "CLOCK_REALTIME");
	test_absolute(CLOCK_BOOTTIME, "CLOCK_BOOTTIME");
	test_past(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	test_past(CLOCK_REALTIME, "CLOCK_REALTIME");
	test_interrupted();
	test_errors();
	return done_testing();
}
