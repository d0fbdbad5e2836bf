/*
 * kernel/time/clock.h: what the clock offers the rest of kernel/time
 * (the self-test re-measures the TSC against the PIT).
 */
#ifndef _KERNEL_TIME_CLOCK_H
#define _KERNEL_TIME_CLOCK_H

/*
 * The TSC rate in kHz over about ms (< 55) milliseconds of PIT channel 2,
 * with its error bound in *ppm; 0 when the measurement failed. Interrupts
 * off, or nobody else using channel 2.
 */
unsigned long pit_measure_tsc_khz(unsigned int ms, unsigned long *ppm);
/* The error bound of the boot's rate, when it came from the PIT. */
extern unsigned long tsc_error_ppm;

#endif
