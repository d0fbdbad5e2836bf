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
/* The same, then no purge (unmapped pages not yet freed) until release:
 * for the page audit, which must not count a purge half done. */
void kstack_purge_hold(void);
void kstack_purge_release(void);
/* Pages held by kernel stacks now (the page audit's count). */
unsigned long kstack_pages(void);
/* Is addr in the guard below some kernel stack? (The double-fault
 * handler asks, to say "stack overflow".) */
bool in_kstack_guard(unsigned long addr);

#endif
