/*
 * Per-CPU data, reached through the GS segment base in kernel mode (user
 * mode has its own GS; entry code swaps them with swapgs). One CPU today;
 * the layout is what SMP would use. Offsets are fixed for assembly.
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

#ifndef __ASSEMBLY__
#include <kernel/types.h>

struct task_struct;

struct percpu {
	struct percpu *self;
	struct task_struct *current_task;
	unsigned long kernel_sp;
	unsigned long user_sp;
	int preempt_count;
	int need_resched;
};

extern struct percpu boot_cpu;

void percpu_init(void);
#endif

#endif
