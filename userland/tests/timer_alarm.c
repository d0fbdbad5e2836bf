/*
 * timer_alarm: alarm(), setitimer(ITIMER_REAL), getitimer, nanosleep and
 * clock_nanosleep never end early by CLOCK_MONOTONIC.
 *
 * POSIX: a timer never expires before its time by the clock it is
 * measured with. Every expiry here is measured with CLOCK_MONOTONIC in
 * whole nanoseconds against the exact requested time, and checked only
 * from below (a slow or loaded machine may be late, never early), so the
 * test does not depend on speed. Also: an interval timer fires repeatedly,
 * its k-th signal no earlier than k periods after the start; alarm()
 * returns the seconds left of the previous alarm; getitimer reads back what
 * was set; a sleep interrupted by a handled signal returns EINTR with the
 * time remaining; CLOCK_REALTIME keeps a fixed offset from CLOCK_MONOTONIC.
 *
 * Roadmap: now_ns, on_alarm; test_alarm, test_interval, test_one_shots,
 * test_getitimer, test_sleeps, test_interrupted_sleep, test_realtime; main.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

#define NS 1000000000LL
#define PERIODS 6

static volatile int alarms;
static volatile long long alarm_at[PERIODS];

static long long now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * NS + ts.tv_nsec;
}

static void on_alarm(int sig)
{
	(void)sig;
	if (alarms < PERIODS)
		alarm_at[alarms] = now_ns(CLOCK_MONOTONIC);
	alarms++;
}

static double secs(long long ns)
{
	return ns / 1e9;
}

static void test_alarm(void)
{
	long long start = now_ns(CLOCK_MONOTONIC);

	alarms = 0;
	is_int(alarm(1), 0, "alarm(1) with no alarm pending returns 0");
	while (!alarms)
		pause();
	ok(alarm_at[0] - start >= NS, "SIGALRM came after at least 1 s (%.6f s)",
	   secs(alarm_at[0] - start));
	alarm(10);
	is_int(alarm(0), 10, "alarm(0) returns the 10 s left of the last alarm");
}

/* The k-th signal of a 20 ms interval timer, no earlier than k * 20 ms. */
static void test_interval(void)
{
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } }, old;
	long long start = now_ns(CLOCK_MONOTONIC);
	int early = -1;

	alarms = 0;
	is_int(setitimer(ITIMER_REAL, &it, NULL), 0, "setitimer 20 ms interval");
	while (alarms < PERIODS)
		pause();
	memset(&it, 0, sizeof(it));
	is_int(setitimer(ITIMER_REAL, &it, &old), 0, "setitimer disarm");
	is_int(old.it_interval.tv_usec, 20000, "old interval read back");
	for (int k = 0; k < PERIODS; k++)
		if (early < 0 && alarm_at[k] - start < (k + 1) * 20000000LL)
			early = k;
	if (!ok(early < 0, "signal k came no earlier than k periods"))
		diag("signal %d came after %.6f s", early + 1,
		     secs(alarm_at[early] - start));
	ok(alarm_at[4] - start >= NS / 10, "5 periods took at least 0.1 s "
	   "(%.6f s)", secs(alarm_at[4] - start));
	is_errno(setitimer(99, &it, NULL), EINVAL, "unknown timer: EINVAL");
}

/* One-shot timers around the tick's length (10 ms on pagelab). */
static void test_one_shots(void)
{
	static const long usecs[] = { 1, 1000, 9999, 10000, 10001, 15000, 25000 };
	int n = sizeof(usecs) / sizeof(usecs[0]), bad = -1;
	long long took = 0;

	for (int i = 0; i < n; i++) {
		struct itimerval it = { { 0, 0 }, { 0, usecs[i] } };
		long long start = now_ns(CLOCK_MONOTONIC);

		alarms = 0;
		setitimer(ITIMER_REAL, &it, NULL);
		while (!alarms)
			pause();
		if (bad < 0 && alarm_at[0] - start < usecs[i] * 1000LL) {
			bad = i;
			took = alarm_at[0] - start;
		}
	}
	if (!ok(bad < 0, "one-shot setitimer of 1 us to 25 ms never fired early"))
		diag("%ld us fired after %lld ns", usecs[bad], took);
}

static void test_getitimer(void)
{
	struct itimerval it = { { 0, 250000 }, { 1, 0 } }, cur;
	long long left;

	setitimer(ITIMER_REAL, &it, NULL);
	is_int(getitimer(ITIMER_REAL, &cur), 0, "getitimer");
	left = cur.it_value.tv_sec * 1000000LL + cur.it_value.tv_usec;
	ok(left > 0 && left <= 1000000, "time left is in (0, 1 s] (%lld us)",
	   left);
	ok(cur.it_interval.tv_sec == 0 && cur.it_interval.tv_usec == 250000,
	   "interval read back (%ld.%06ld)", (long)cur.it_interval.tv_sec,
	   (long)cur.it_interval.tv_usec);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	getitimer(ITIMER_REAL, &cur);
	ok(!cur.it_value.tv_sec && !cur.it_value.tv_usec,
	   "a disarmed timer reads 0");
}

/* Sleeps of 1 ns to 50 ms, each at least as long as asked. */
static void test_sleeps(void)
{
	static const long nsecs[] = { 1, 1000000, 9999999, 10000000, 15000000,
				      50000000 };
	int n = sizeof(nsecs) / sizeof(nsecs[0]), bad = -1, rc = 0;
	long long took = 0;

	for (int i = 0; i < 2 * n; i++) {
		struct timespec req = { 0, nsecs[i % n] };
		long long start = now_ns(CLOCK_MONOTONIC), t;

		if (i < n)
			rc |= nanosleep(&req, NULL);
		else
			rc |= clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL);
		t = now_ns(CLOCK_MONOTONIC) - start;
		if (bad < 0 && t < nsecs[i % n]) {
			bad = i;
			took = t;
		}
	}
	is_int(rc, 0, "nanosleep and clock_nanosleep of 1 ns to 50 ms succeed");
	if (!ok(bad < 0, "and never end early"))
		diag("%s of %ld ns took %lld ns",
		     bad < n ? "nanosleep" : "clock_nanosleep", nsecs[bad % n],
		     took);
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
	req.tv_nsec = 1000000000;
	is_errno(nanosleep(&req, NULL), EINVAL, "tv_nsec of 1e9: EINVAL");
}

/* The offset of CLOCK_REALTIME from CLOCK_MONOTONIC (a read of each,
 * taken where they are closest), and its change over the test. */
static long long realtime_offset(void)
{
	long long best = -1, off = 0;

	for (int i = 0; i < 5; i++) {
		long long m0 = now_ns(CLOCK_MONOTONIC);
		long long r = now_ns(CLOCK_REALTIME);
		long long m1 = now_ns(CLOCK_MONOTONIC);

		if (best < 0 || m1 - m0 < best) {
			best = m1 - m0;
			off = r - (m0 + m1) / 2;
		}
	}
	return off;
}

/* 10 ms: far more than NTP's slewing could move a host's clock in the few
 * seconds this test runs, far less than a clock running at another rate. */
static void test_realtime(long long before)
{
	long long drift = realtime_offset() - before;
	struct timeval tv;
	long long rt;

	ok(drift > -NS / 100 && drift < NS / 100,
	   "CLOCK_REALTIME kept its offset from CLOCK_MONOTONIC (moved %lld ns)",
	   drift);
	rt = now_ns(CLOCK_REALTIME);
	gettimeofday(&tv, NULL);
	ok(tv.tv_sec * NS + tv.tv_usec * 1000LL >= rt - 1000,
	   "gettimeofday is not behind CLOCK_REALTIME");
}

int main(void)
{
	long long offset = realtime_offset();
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	plan(21);
	test_alarm();
	test_interval();
	test_one_shots();
	test_getitimer();
	test_sleeps();
	test_interrupted_sleep();
	test_realtime(offset);
	return done_testing();
}
