/*
 * memblock: the boot-time memory map. Usable RAM regions come from the boot
 * loader; the kernel image, modules and early allocations are reserved.
 * It hands out memory before the page allocator exists (mem_map itself,
 * the first page tables), then gives every unreserved frame to it.
 */
#ifndef _MM_MEMBLOCK_H
#define _MM_MEMBLOCK_H

#include <kernel/types.h>

#define MEMBLOCK_MAX_REGIONS 64

void memblock_add(phys_addr_t base, phys_addr_t size);
void memblock_reserve(phys_addr_t base, phys_addr_t size);
/* Zeroed, physically contiguous memory below the early direct map limit;
 * panics when there is none (nothing can run without it). */
phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align);
phys_addr_t memblock_end_of_ram(void);
phys_addr_t memblock_total_ram(void);
phys_addr_t memblock_reserved_size(void);
/* Give every unreserved frame to the page allocator; returns the count. */
unsigned long memblock_free_all(void);

#endif
