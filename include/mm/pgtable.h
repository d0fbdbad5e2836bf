/*
 * x86-64 4-level page tables: PML4 (Linux: pgd) -> PDPT (pud) -> PD (pmd)
 * -> PT (pte), 512 entries each, 9 bits of the address per level.
 */
#ifndef _MM_PGTABLE_H
#define _MM_PGTABLE_H

#include <mm/mm.h>

typedef u64 pte_t;

#define _PAGE_PRESENT (1UL << 0)
#define _PAGE_RW (1UL << 1)
#define _PAGE_USER (1UL << 2)
#define _PAGE_PWT (1UL << 3)
#define _PAGE_PCD (1UL << 4)
#define _PAGE_ACCESSED (1UL << 5)
#define _PAGE_DIRTY (1UL << 6)
#define _PAGE_PSE (1UL << 7)	/* in a PD or PDPT entry: a large page */
#define _PAGE_GLOBAL (1UL << 8)
#define _PAGE_NX (1UL << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000UL

/*
 * Accessed (and, where writable, dirty) from the start, as Linux's are:
 * the kernel never asks these bits of its own mappings, and an entry
 * without them costs the MMU a write into the page table at the first
 * use (under QEMU, a slow-path store that also marks the page-table page
 * in a dirty bitmap every CPU shares).
 */
#define PAGE_KERNEL (_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | \
		     _PAGE_DIRTY | _PAGE_GLOBAL | _PAGE_NX)
#define PAGE_KERNEL_RO (_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_GLOBAL | \
			_PAGE_NX)
#define PAGE_KERNEL_EXEC (_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_GLOBAL)
/* An entry of an upper level (a table of tables): allows everything, the
 * leaf entry decides; accessed from the start too. */
#define _PAGE_TABLE (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED)

#define PGDIR_SHIFT 39
#define PUD_SHIFT 30
#define PMD_SHIFT 21
#define PMD_SIZE (1UL << PMD_SHIFT)
#define PTRS_PER_TABLE 512

static inline unsigned int pt_index(unsigned long va, int shift)
{
	return (va >> shift) & (PTRS_PER_TABLE - 1);
}

static inline pte_t *pte_table(pte_t entry)
{
	return phys_to_virt(entry & PTE_ADDR_MASK);
}

/* No page here. (pagelab keeps no swap entries in PTEs: a PTE either
 * maps a page or is empty.) */
static inline bool pte_none(pte_t pte)
{
	return !(pte & _PAGE_PRESENT);
}

/* Is the PTE still the one read before the lock was taken? Compared
 * whole: another thread may have mapped a copy, made it writable, or
 * unmapped it meanwhile. */
static inline bool pte_same(pte_t a, pte_t b)
{
	return a == b;
}

/* The kernel's own PML4; every address space shares its upper half. */
extern pte_t *init_pgd;

void paging_init(void);
/* debug_pagealloc (arch/x86/mm/pgtable.c): take n pages starting at page
 * out of the direct map (present false) or put them back; nothing when
 * debug_pagealloc=off. */
struct page;
extern bool debug_pagealloc;
void kernel_map_pages(struct page *page, unsigned int n, bool present);
/* Is va in the direct map, on a page kernel_map_pages took out? Its pfn
 * in *pfn. */
bool kernel_page_unmapped(unsigned long va, unsigned long *pfn);
/* mem_init(): page tables come from the page allocator from now on. */
void paging_allocator_ready(void);
/* The 4 KiB PTE for va in pgd; allocates tables when alloc is set.
 * Returns NULL when a table is missing (or cannot be allocated), or when
 * va is covered by a large page. */
pte_t *lookup_pte(pte_t *pgd, unsigned long va, bool alloc);
/* The first address in [va, end) that a PTE table covers, or end: a walk
 * over a sparse range skips what was never mapped, so its cost follows
 * what is mapped, not the range's size (a 1 TiB munmap). */
unsigned long next_pte_table(pte_t *pgd, unsigned long va, unsigned long end);

#endif
