/*
 * timer_alarm: alarm(), setitimer(ITIMER_REAL) and nanosleep.
 * SIGALRM must arrive after the requested time, not before; an interval
 * timer must fire repeatedly; alarm() returns the seconds left of the
 * previous alarm; a sleep interrupted by a handled signal returns EINTR
 * with the time remaining. Times are checked only from below (a slow
 * machine may be late, never early), so the test does not depend on speed.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_alarm(void)
{
	double start = now();

	alarms = 0;
	is_int(alarm(1), 0, "alarm(1) with no alarm pending returns 0");
	while (!alarms)
		pause();
	ok(now() - start >= 0.95, "SIGALRM came after at least 1 s (%.3f s)",
	   now() - start);
	alarm(10);
	is_int(alarm(0), 10, "alarm(0) returns the 10 s left of the last alarm");
}

static void test_interval(void)
{
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } }, old;
	double start = now();

	alarms = 0;
	is_int(setitimer(ITIMER_REAL, &it, NULL), 0, "setitimer 20 ms interval");
	while (alarms < 5)
		pause();
	memset(&it, 0, sizeof(it));
	is_int(setitimer(ITIMER_REAL, &it, &old), 0, "setitimer disarm");
	is_int(old.it_interval.tv_usec, 20000, "old interval read back");
	ok(now() - start >= 0.09, "5 periods took at least 0.1 s (%.3f s)",
	   now() - start);
	is_errno(setitimer(99, &it, NULL), EINVAL, "unknown timer: EINVAL");
}

static void test_interrupted_sleep(void)
{
	struct timespec req = { 5, 0 }, rem = { 0, 0 };
	struct itimerval it = { { 0, 0 }, { 0, 100000 } };

	alarms = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	is_errno(nanosleep(&req, &rem), EINTR,
		 "nanosleep interrupted by a handled SIGALRM: EINTR");
	ok(rem.tv_sec >= 3 && rem.tv_sec <= 5, "remaining time reported (%ld s)",
	   (long)rem.tv_sec);
	req.tv_sec = 0;
	req.tv_nsec = 50000000;
	is_int(nanosleep(&req, NULL), 0, "a 50 ms nanosleep completes");
	req.tv_nsec = 1000000000;
	is_errno(nanosleep(&req, NULL), EINVAL, "tv_nsec of 1e9: EINVAL");
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	plan(12);
	test_alarm();
	test_interval();
	test_interrupted_sleep();
	return done_testing();
}
