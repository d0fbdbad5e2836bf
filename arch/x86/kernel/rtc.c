/*
 * arch/x86/kernel/rtc.c: the PC's CMOS real-time clock (MC146818), read once
 * at boot to set the wall clock: CLOCK_REALTIME, gettimeofday and file
 * times are the RTC's time at boot plus the monotonic clock since (Linux
 * reads the RTC the same way at boot and then keeps time itself). QEMU's
 * RTC holds the host's time in UTC by default.
 *
 * The RTC is read between updates: wait until "update in progress" is
 * clear, read every field, and read again until two reads agree, as the
 * hardware can roll over between fields.
 */
#include <kernel/time.h>
#include <kernel/printk.h>
#include <asm/io.h>

#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define RTC_SECONDS 0x00
#define RTC_MINUTES 0x02
#define RTC_HOURS 0x04
#define RTC_DAY 0x07
#define RTC_MONTH 0x08
#define RTC_YEAR 0x09
#define RTC_REG_A 0x0a
#define RTC_REG_B 0x0b
#define RTC_CENTURY 0x32	/* where QEMU and most PCs keep it */
#define RTC_UIP 0x80	/* A: update in progress */
#define RTC_DM_BINARY 0x04	/* B: binary, not BCD */
#define RTC_24H 0x02	/* B: 24-hour mode */

static u64 boot_epoch_ns;	/* CLOCK_REALTIME at ktime 0 */

static unsigned int cmos_read(unsigned int reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

struct rtc_time {
	unsigned int sec, min, hour, day, mon, year, century;
};

static void rtc_read_raw(struct rtc_time *t)
{
	for (int spins = 0; (cmos_read(RTC_REG_A) & RTC_UIP) && spins < 100000;
	     spins++)
		;
	t->sec = cmos_read(RTC_SECONDS);
	t->min = cmos_read(RTC_MINUTES);
	t->hour = cmos_read(RTC_HOURS);
	t->day = cmos_read(RTC_DAY);
	t->mon = cmos_read(RTC_MONTH);
	t->year = cmos_read(RTC_YEAR);
	t->century = cmos_read(RTC_CENTURY);
}

static unsigned int bcd(unsigned int v)
{
	return (v & 15) + (v >> 4) * 10;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian, m 1..12). */
static u64 days_since_epoch(unsigned int y, unsigned int m, unsigned int d)
{
	/* March-based year: leap days fall at the end. */
	if (m <= 2) {
		y--;
		m += 12;
	}
	return 365ULL * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5
	       + d - 1 - 719468;
}

void rtc_init(void)
{
	struct rtc_time a, b;
	unsigned int regb = cmos_read(RTC_REG_B), pm, year;
	u64 secs;

	do {
		rtc_read_raw(&a);
		rtc_read_raw(&b);
	} while (a.sec != b.sec || a.min != b.min || a.hour != b.hour ||
		 a.day != b.day || a.mon != b.mon || a.year != b.year);
	pm = a.hour & 0x80;
	a.hour &= 0x7f;
	if (!(regb & RTC_DM_BINARY)) {
		a.sec = bcd(a.sec), a.min = bcd(a.min), a.hour = bcd(a.hour);
		a.day = bcd(a.day), a.mon = bcd(a.mon), a.year = bcd(a.year);
		a.century = bcd(a.century);
	}
	if (!(regb & RTC_24H) && pm)
		a.hour = (a.hour % 12) + 12;
	year = (a.century >= 19 && a.century <= 30 ? a.century : 20) * 100 +
	       a.year;
	if (a.mon < 1 || a.mon > 12 || a.day < 1 || a.day > 31 ||
	    a.hour > 23 || a.min > 59 || a.sec > 59) {
		pr_warn("rtc: nonsense time %u-%u-%u %u:%u:%u; the clock "
			"starts at 1970\n", year, a.mon, a.day, a.hour, a.min,
			a.sec);
		return;
	}
	secs = days_since_epoch(year, a.mon, a.day) * 86400 +
	       a.hour * 3600 + a.min * 60 + a.sec;
	boot_epoch_ns = secs * NSEC_PER_SEC - ktime_get_ns();
	pr_info("rtc: %04u-%02u-%02u %02u:%02u:%02u UTC\n", year, a.mon, a.day,
		a.hour, a.min, a.sec);
}

u64 ktime_get_real_ns(void)
{
	return boot_epoch_ns + ktime_get_ns();
}
