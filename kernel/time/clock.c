/*
 * kernel/time/clock.c: the monotonic clock.
 *
 * The TSC counts at a fixed rate on every CPU QEMU emulates; we learn that
 * rate once by counting TSC ticks across a known PIT interval (channel 2,
 * the speaker timer, which can be polled without interrupts). After that
 * ktime_get_ns() is one rdtsc and a multiply.
 */
#include <kernel/time.h>
#include <kernel/printk.h>
#include <asm/io.h>
#include <asm/processor.h>

#define PIT_HZ 1193182
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_GATE 0x61
#define CALIBRATE_MS 10

unsigned long tsc_khz;
static u64 tsc_at_boot;
static u64 ns_mult;	/* ns = (cycles * ns_mult) >> 32 */

/* Count TSC ticks while PIT channel 2 counts down CALIBRATE_MS. */
static u64 tsc_ticks_over_pit_interval(void)
{
	u32 count = PIT_HZ * CALIBRATE_MS / 1000;
	u64 start, end;
	int spins = 0;

	outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_CMD, 0xb0);	/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	start = rdtsc();
	while (!(inb(PIT_GATE) & 0x20) && ++spins < 100000000)
		;	/* bit 5: channel 2 output went high, count reached 0 */
	end = rdtsc();
	return end - start;
}

void tsc_calibrate(void)
{
	u64 ticks = tsc_ticks_over_pit_interval();

	tsc_khz = ticks / CALIBRATE_MS;
	if (!tsc_khz)
		tsc_khz = 1000000;	/* absurd, but keep the clock moving */
	ns_mult = (1000000UL << 32) / tsc_khz;
	tsc_at_boot = rdtsc() - ticks;	/* calibration time counts too */
}

u64 ktime_get_ns(void)
{
	u64 cycles;

	if (!ns_mult)
		return 0;
	cycles = rdtsc() - tsc_at_boot;
	return (u64)(((unsigned __int128)cycles * ns_mult) >> 32);
}

void ndelay_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		cpu_relax();
}
