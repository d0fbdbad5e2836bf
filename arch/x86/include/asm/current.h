/*
 * current: the running task, read from this CPU's per-CPU area through GS
 * (include/kernel/percpu.h). Inline, as in Linux: it is read on hot paths
 * (every mutex_unlock checks the owner). The asm is not volatile on
 * purpose: a task is always its own current, also after it sleeps and
 * wakes, so the compiler may reuse one read for the whole function.
 */
#ifndef _ASM_X86_CURRENT_H
#define _ASM_X86_CURRENT_H

#include <kernel/percpu.h>

static inline struct task_struct *get_current(void)
{
	struct task_struct *t;

	__asm__("movq %%gs:%c1, %0" : "=r"(t) : "i"(PERCPU_CURRENT));
	return t;
}

#define current get_current()

#endif
