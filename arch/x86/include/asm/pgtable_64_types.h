/*
 * The kernel's half of the x86-64 virtual address space (4-level paging,
 * 48-bit addresses), from the top down as Linux lays it out
 * (Documentation/arch/x86/x86_64/mm.rst):
 *
 *   0xffffffff80000000  KERNEL_VMA: the kernel image (asm/boot.h)
 *   0xffffc90040000000  KSTACK_START: kernel stacks, each with an unmapped
 *                       guard below (mm/kstack.c)
 *   0xffffc90000000000  IOREMAP_START: device memory (arch/x86/mm/ioremap.c)
 *   0xffff888000000000  PAGE_OFFSET: all of RAM, the direct map (asm/boot.h)
 *
 * The two middle areas share one top-level page-table entry, made at boot
 * (paging_init), so that every address space, which copies the kernel half
 * of init_pgd once, sees what is mapped there later.
 */
#ifndef _ASM_PGTABLE_64_TYPES_H
#define _ASM_PGTABLE_64_TYPES_H

#define IOREMAP_START 0xffffc90000000000UL	/* Linux's vmalloc base */
#define IOREMAP_SIZE (1UL << 30)

#define KSTACK_START (IOREMAP_START + IOREMAP_SIZE)
#define KSTACK_SLOTS 1024	/* tasks alive at once */

#endif
