/*
 * Per-CPU data, reached through the GS segment base in kernel mode (user
 * mode has its own GS; entry code swaps them with swapgs). One struct
 * percpu per CPU, cpu_data[0] being the boot CPU's; the first fields have
 * fixed offsets because assembly reads them.
 * need_resched is per CPU (Linux folds it into preempt_count): the tick
 * sets it for the task running here, schedule() clears it.
 */
#ifndef _KERNEL_PERCPU_H
#define _KERNEL_PERCPU_H

#define PERCPU_SELF 0
#define PERCPU_CURRENT 8
#define PERCPU_KERNEL_SP 16	/* top of current's kernel stack */
#define PERCPU_USER_SP 24	/* scratch: user rsp during syscall entry */
#define PERCPU_PREEMPT_COUNT 32	/* <kernel/preempt.h> */
#define PERCPU_NEED_RESCHED 36	/* <kernel/preempt.h> */
#define PERCPU_CPU 40		/* this CPU's number, 0 to nr_cpu_ids - 1 */

#define NR_CPUS 8

#ifndef __ASSEMBLY__
#include <kernel/types.h>

struct task_struct;
struct tss;

struct percpu {
	struct percpu *self;
	struct task_struct *current_task;
	unsigned long kernel_sp;
	unsigned long user_sp;
	int preempt_count;
	int need_resched;
	int cpu;
	u32 apic_id;		/* the local APIC's ID, for IPIs */
	struct task_struct *idle;	/* this CPU's pid 0 */
	struct task_struct *dead_task;	/* freed once we are off its stack */
	struct tss *tss;	/* rsp0 changes with every switch */
	bool idling;		/* halted in cpu_idle: wake it with an IPI */
	u64 busy_ticks, idle_ticks;	/* ticks that found a task, or idle */
	u64 stress_seed;	/* preempt_stress's generator, this CPU's */
	unsigned long ist_df_top, ist_nmi_top;	/* its TSS's IST stacks */
	unsigned long tasklist_flags;	/* saved by lock_tasklist */
	struct task_struct *prev_task;	/* switched away from, not yet off
					 * its stack (kernel/sched/core.c) */
} __attribute__((aligned(64)));	/* a CPU's area shares no cache line
					 * with another's: preempt_count is
					 * written at every spin_lock */

extern struct percpu cpu_data[NR_CPUS];
#define boot_cpu cpu_data[0]

/* This CPU's area (the self pointer saves a GS-relative address). */
static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(p) : "i"(PERCPU_SELF));
	return p;
}

/* Volatile: a preemptible task may move to another CPU between reads. */
static inline int smp_processor_id(void)
{
	int c;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(c) : "i"(PERCPU_CPU));
	return c;
}

void percpu_init(struct percpu *p);
#endif

#endif
