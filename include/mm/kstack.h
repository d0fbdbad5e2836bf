/*
 * Kernel stacks with an unmapped guard below each (mm/kstack.c), so that
 * running off the end of one faults instead of overwriting memory.
 */
#ifndef _MM_KSTACK_H
#define _MM_KSTACK_H

#include <mm/mm.h>
#include <asm/pgtable_64_types.h>	/* KSTACK_START, KSTACK_SLOTS */

/* A THREAD_SIZE stack, THREAD_SIZE aligned, or NULL. May sleep. */
void *alloc_kernel_stack(void);
void free_kernel_stack(void *stack);	/* maybe lazily: see below */
/* Free the stacks freed lazily (several CPUs). Interrupts on. */
void kstack_purge(void);
/* Is addr in the guard below some kernel stack? (The double-fault
 * handler asks, to say "stack overflow".) */
bool in_kstack_guard(unsigned long addr);

#endif
