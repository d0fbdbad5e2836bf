/*
 * Kernel stacks with an unmapped guard below each (mm/kstack.c), so that
 * running off the end of one faults instead of overwriting memory.
 */
#ifndef _MM_KSTACK_H
#define _MM_KSTACK_H

#include <mm/mm.h>
#include <kernel/pci.h>

/* Above the ioremap area, in the same top-level page-table entry. */
#define KSTACK_START (IOREMAP_START + IOREMAP_SIZE)
#define KSTACK_SLOTS 1024	/* tasks alive at once */

/* A THREAD_SIZE stack, THREAD_SIZE aligned, or NULL. May sleep. */
void *alloc_kernel_stack(void);
void free_kernel_stack(void *stack);
/* Is addr in the guard below some kernel stack? (The double-fault
 * handler asks, to say "stack overflow".) */
bool in_kstack_guard(unsigned long addr);

#endif
