/*
 * kernel/time/clock.c: the monotonic clock.
 *
 * The TSC counts at a fixed rate on every CPU QEMU emulates (under TCG it
 * is the host's TSC), so ktime_get_ns() is one rdtsc and a multiply. The
 * rate is learnt once, at boot: from CPUID when the hypervisor or the CPU
 * states it, else by timing the TSC against the PIT.
 *
 * Why the PIT measurement is bracketed. The host may stop QEMU for
 * milliseconds at any instant when other processes want its CPUs. Timing
 * how long PIT channel 2 takes to count down, as this file once did,
 * counts such a pause in the TSC interval or not depending on where it
 * falls, and a boot under load ran its clock 30% slow for its whole life
 * while the tick kept real time: a timer due on the tick fired early by the
 * clock. Here each end of the interval is a read of the PIT's counter
 * between two TSC reads. A pause between the two ends costs nothing (both
 * counters kept running), a pause inside a read widens its bracket, and of
 * a few reads in a row the narrowest is kept. A measurement whose brackets
 * are still wide is repeated.
 *
 * Roadmap:
 *   tsc_khz_from_cpuid      leaf 0x40000010 (hypervisor), leaf 0x15 (CPU)
 *   pit_read, pit_read_best one bracketed read of channel 2's counter
 *   pit_measure_tsc_khz     one measurement over a window, with its error
 *   tsc_calibrate           choose the rate at boot; tsc_report says which
 *   ktime_get_ns, ndelay_ns
 */
#include <kernel/time.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <asm/io.h>
#include <asm/processor.h>
#include "clock.h"

#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_GATE 0x61		/* bit 0 gates channel 2, bit 1 the speaker */
#define PIT_GATE_OUT2 0x20	/* channel 2's output: mode 0 reached 0 */
#define PIT_LATCH_CH2 0x80	/* command: latch channel 2's count */

#define CAL_WINDOW_MS 40	/* < 55 ms, when a 16-bit count runs out */
#define CAL_READS 4		/* reads per end; the narrowest is kept */
#define CAL_TRIES 8
#define CAL_GOOD_PPM 100	/* stop trying once this sure */

unsigned long tsc_khz;
static u64 tsc_at_boot;
static u64 ns_mult;	/* ns = (cycles * ns_mult) >> 32 */
static const char *tsc_source = "nothing (assumed)";
unsigned long tsc_error_ppm;	/* the PIT measurement's bound; 0 from CPUID */
static unsigned long tsc_tries;

/*
 * The TSC rate, if CPUID states it; 0 if not. QEMU's TCG states nothing
 * (its -cpu max has basic leaves up to 0xd and hypervisor leaves up to
 * 0x40000001); KVM fills the VMware timing leaf when the TSC is invariant.
 */
static unsigned long tsc_khz_from_cpuid(void)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1U << 31)) {	/* a hypervisor is present */
		cpuid(0x40000000, 0, &a, &b, &c, &d);
		if (a >= 0x40000010) {
			cpuid(0x40000010, 0, &a, &b, &c, &d);
			if (a) {
				tsc_source = "hypervisor CPUID leaf";
				return a;	/* eax: TSC kHz */
			}
		}
	}
	cpuid(0, 0, &a, &b, &c, &d);
	if (a < 0x15)
		return 0;
	cpuid(0x15, 0, &a, &b, &c, &d);	/* TSC = crystal * b / a */
	if (!a || !b || !c)
		return 0;
	tsc_source = "CPUID leaf 0x15";
	return (u64)c * b / a / 1000;
}

/* A latched count of channel 2; the latch happened in [tsc, tsc + width]. */
struct pit_read {
	u64 tsc, width;
	u16 count;
};

static void pit_read(struct pit_read *r)
{
	u64 after;
	u8 lo, hi;

	r->tsc = rdtsc();
	outb(PIT_CMD, PIT_LATCH_CH2);
	after = rdtsc();
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	r->width = after - r->tsc;
	r->count = lo | hi << 8;
}

/* A pause lands in at most one of a few back-to-back reads. */
static void pit_read_best(struct pit_read *best)
{
	struct pit_read r;
	int i;

	pit_read(best);
	for (i = 1; i < CAL_READS; i++) {
		pit_read(&r);
		if (r.width < best->width)
			*best = r;
	}
}

/*
 * Count TSC ticks over about ms milliseconds of channel 2 (ms < 55):
 * returns the TSC rate in kHz and sets *ppm to its error bound from the
 * brackets and the PIT's resolution, or returns 0 when the count ran out
 * (the host stopped us for longer than the window).
 */
unsigned long pit_measure_tsc_khz(unsigned int ms, unsigned long *ppm)
{
	u32 counts = PIT_TICK_RATE / 1000 * ms;
	struct pit_read a, b;
	u64 cycles, slack;
	u32 done;

	outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_CMD, 0xb0);	/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, 0xff);
	outb(PIT_CH2, 0xff);
	pit_read_best(&a);
	do
		pit_read(&b);
	while ((u16)(a.count - b.count) < counts &&
	       !(inb(PIT_GATE) & PIT_GATE_OUT2));
	pit_read_best(&b);
	if (inb(PIT_GATE) & PIT_GATE_OUT2)
		return 0;
	done = (u16)(a.count - b.count);
	/* Each latch is known to its bracket, each count to one PIT tick. */
	cycles = b.tsc + b.width / 2 - (a.tsc + a.width / 2);
	slack = (a.width + b.width) / 2;
	*ppm = slack * 1000000 / cycles + 2 * 1000000 / done;
	return cycles * PIT_TICK_RATE / done / 1000;
}

/* The PIT's answer with the smallest error bound of a few tries. */
static unsigned long tsc_khz_from_pit(void)
{
	unsigned long khz = 0, best = ~0UL, k, ppm;

	while (tsc_tries < CAL_TRIES && best > CAL_GOOD_PPM) {
		tsc_tries++;
		k = pit_measure_tsc_khz(CAL_WINDOW_MS, &ppm);
		if (k && ppm < best) {
			khz = k;
			best = ppm;
		}
	}
	tsc_source = "PIT";
	tsc_error_ppm = best;
	return khz;
}

void tsc_calibrate(void)
{
	u64 start = rdtsc();

	tsc_khz = tsc_khz_from_cpuid();
	if (!tsc_khz)
		tsc_khz = tsc_khz_from_pit();
	if (!tsc_khz)
		tsc_khz = 1000000;	/* absurd, but keep the clock moving */
	ns_mult = (1000000UL << 32) / tsc_khz;
	tsc_at_boot = start;	/* calibration time counts too */
}

/* Said once the command line's loglevel is known. */
static int tsc_report(void)
{
	if (tsc_error_ppm)
		pr_info("clock: tsc rate from the %s, +-%lu ppm, %lu %s\n",
			tsc_source, tsc_error_ppm, tsc_tries,
			tsc_tries == 1 ? "try" : "tries");
	else
		pr_info("clock: tsc rate from the %s\n", tsc_source);
	return 0;
}
device_initcall(tsc_report);

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
