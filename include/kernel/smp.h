/*
 * Several CPUs (arch/x86/kernel/smpboot.c brings them up, arch/x86/kernel/
 * smp.c carries messages between them).
 *
 * Every CPU runs the same scheduler on one shared run queue; the boot CPU
 * also takes the device interrupts and keeps jiffies. A CPU tells another
 * something with an inter-processor interrupt (IPI):
 *	reschedule	"a task was queued while you were halted"
 *	TLB flush	"drop your cached translations of this mm's range"
 *			(flush_tlb_mm_range waits until every CPU did)
 *	stop		"halt for good" (panic, so one report is printed)
 */
#ifndef _KERNEL_SMP_H
#define _KERNEL_SMP_H

#include <kernel/percpu.h>
#include <kernel/types.h>

typedef unsigned long cpumask_t;	/* bit n: CPU n (NR_CPUS <= 64) */

extern int nr_cpu_ids;		/* CPUs brought up */
extern volatile cpumask_t cpu_online_mask;

#define for_each_online_cpu(c)                                           \
	for ((c) = 0; (c) < NR_CPUS; (c)++)                              \
		if (cpu_online_mask & (1UL << (c)))

static inline int num_online_cpus(void)
{
	cpumask_t m = cpu_online_mask;
	int n = 0;

	for (; m; m &= m - 1)	/* no popcnt: -march may lack it */
		n++;
	return n;
}

void smp_prepare_boot_cpu(void);	/* the boot CPU's APIC (smpboot.c) */
void smp_init(void);	/* start the other CPUs */
void smp_send_reschedule(int cpu);
void smp_send_stop(void);	/* panic: every other CPU halts */
/* Hold every other CPU in an interrupt handler, and interrupts off here,
 * until smp_unpark_others(flags): an audit (mm/pagecheck.c) that must see
 * memory hold still. Nothing else may be waited for in between (a parked
 * CPU may hold any lock). */
unsigned long smp_park_others(void);
void smp_unpark_others(unsigned long flags);
/* Say what each CPU of want that is not in got runs (it has not answered
 * what for a while). */
void smp_report_late(cpumask_t want, cpumask_t got, const char *what);
/* The CPUs of mask show their registers and backtraces, even with
 * interrupts off (an NMI); waits a second for them. */
void smp_nmi_backtrace(cpumask_t mask);
struct pt_regs;
/* From the NMI: true if it was ours (the backtrace is shown). */
bool nmi_backtrace_handler(struct pt_regs *regs);

#endif
