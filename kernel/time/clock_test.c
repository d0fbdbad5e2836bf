/*
 * kernel/time/clock_test.c: self-test "clock": the clock keeps the PIT's
 * time, the tick never runs ahead of it, and sleeps end on the clock.
 *
 *   rate      the boot's TSC rate agrees with a new measurement against
 *             the PIT to CLOCK_TOLERANCE_PPM beyond both error bounds (a
 *             boot calibrated while the host was busy used to be off by
 *             0.2% to 50%)
 *   tick      over a second, jiffies advance no more than the clock allows
 *             (ticks may be lost on a busy host, never gained: a clock
 *             3% slow fails this, a smaller error the rate check)
 *   sleeps    schedule_timeout_interruptible and schedule_hrtimeout never
 *             return before their time by the clock
 *
 * Every check is one-sided or has a bound far from any speed effect, so a
 * slow or loaded host makes the test slower, not failed.
 */
#include <kernel/selftest.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include "clock.h"

#define CLOCK_TOLERANCE_PPM 500
#define RATE_TRIES 3
/* The tick's real length: LATCH counts of the PIT. */
#define PIT_TICK_NS ((u64)LATCH * NSEC_PER_SEC / PIT_TICK_RATE)

static int check_rate(void)
{
	unsigned long khz = 0, best = ~0UL, k, ppm;
	long diff;

	for (int i = 0; i < RATE_TRIES; i++) {
		k = pit_measure_tsc_khz(40, &ppm);
		if (k && ppm < best) {
			khz = k;
			best = ppm;
		}
	}
	if (!khz)
		return selftest_fail("could not measure the TSC against the PIT");
	if (tsc_error_ppm > CLOCK_TOLERANCE_PPM)
		return selftest_fail("the boot's rate is only known to %lu ppm",
				     tsc_error_ppm);
	diff = (long)tsc_khz - (long)khz;
	if ((u64)(diff < 0 ? -diff : diff) * 1000000 / khz >
	    CLOCK_TOLERANCE_PPM + best + tsc_error_ppm)
		return selftest_fail("clock runs at %lu kHz, the PIT says %lu "
				     "kHz (+-%lu ppm)", tsc_khz, khz, best);
	return 0;
}

/*
 * Ticks counted between two clock reads: at most one per PIT_TICK_NS of
 * clock, one more for the fencepost, and two more that the PIC may hold
 * (one pending, one in service) from before the first read. The clock is
 * read before jiffies at the start and after it at the end, so that a
 * pause of the vCPU between the two reads only widens the window.
 */
static int check_tick(void)
{
	u64 t0, j0, t1, j1, allowed;

	t0 = ktime_get_ns();
	j0 = jiffies;
	while (schedule_timeout_interruptible(HZ))
		;
	j1 = jiffies;
	t1 = ktime_get_ns();
	allowed = (t1 - t0) / PIT_TICK_NS + 3;
	if (j1 - j0 > allowed)
		return selftest_fail("%lu ticks in %lu us of clock (at most "
				     "%lu): the clock is slow", j1 - j0,
				     (t1 - t0) / 1000, allowed);
	return 0;
}

static int check_sleeps(void)
{
	static const u64 waits_us[] = { 1, 3000, 10000, 15000, 25000 };
	u64 start, end, want;

	for (u64 ticks = 1; ticks <= 4; ticks++) {
		start = ktime_get_ns();
		while (schedule_timeout_interruptible(ticks))
			;
		end = ktime_get_ns();
		if (end - start < ticks * TICK_NSEC)
			return selftest_fail("%lu ticks of sleep ended after "
					     "%lu us", ticks,
					     (end - start) / 1000);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(waits_us); i++) {
		want = ktime_get_ns() + waits_us[i] * NSEC_PER_USEC;
		while (schedule_hrtimeout(want))
			;
		end = ktime_get_ns();
		if (end < want)
			return selftest_fail("a sleep until %lu ns ended at %lu",
					     want, end);
	}
	return 0;
}

static int test_clock(void)
{
	int err = check_rate();

	if (!err)
		err = check_tick();
	if (!err)
		err = check_sleeps();
	return err;
}
DEFINE_SELFTEST(clock, test_clock);
