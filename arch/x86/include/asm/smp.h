/* The AP trampoline (arch/x86/kernel/trampoline_64.S, smpboot.c). */
#ifndef _ASM_SMP_H
#define _ASM_SMP_H

/* A page below 1 MiB, kept from the allocator (memblock_reserve of low
 * memory in kernel/main.c); a STARTUP IPI names it by page number. */
#define TRAMPOLINE_PHYS 0x8000

#ifndef __ASSEMBLY__
#include <kernel/types.h>

struct trampoline_params {
	u32 cr0, cr3, cr4, efer;	/* 32 bits: loaded in real mode */
	u64 stack;	/* the idle task's stack top */
	u64 entry;	/* start_secondary */
	u64 percpu;	/* its argument */
};

extern char trampoline_start[], trampoline_end[], tr_params[];
#endif

#endif
