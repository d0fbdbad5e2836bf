/*
 * arch/x86/mm/pgtable.c: the kernel's page tables, and the walk of the
 * x86-64 four-level tables that mm/ uses for user ones too.
 *
 * paging_init() replaces the boot tables (head.S: 1 GiB mapped three times,
 * all writable and executable) with the real ones:
 *   - the kernel image at KERNEL_VMA in 4 KiB pages, each part with its
 *     own rights: .text read-only and executable; .rodata read-only, no
 *     execute; .data and .bss writable, no execute;
 *   - all of RAM at PAGE_OFFSET (the direct map), writable, no execute:
 *     in 4 KiB pages, so that free pages can be unmapped (debug_pagealloc,
 *     below), or in 2 MiB pages with debug_pagealloc=off;
 *   - nothing at low addresses: the identity map is gone, so a NULL or
 *     user pointer dereferenced by the kernel faults.
 * No page is ever both writable and executable (selftest "paging" checks).
 * Until the page allocator runs, table pages come from memblock.
 */
#include <mm/pgtable.h>
#include <mm/gfp.h>
#include <mm/memblock.h>
#include <asm/pgtable_64_types.h>
#include <mm/mm.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/cmpxchg.h>
#include <asm/processor.h>

pte_t *init_pgd;
static bool page_allocator_ready;
/* arch/x86/lib/usercopy.c brackets user accesses with stac/clac */
bool smap_enabled;

static pte_t *alloc_table(void)
{
	if (!page_allocator_ready)
		return phys_to_virt(memblock_alloc(PAGE_SIZE, PAGE_SIZE));
	return (pte_t *)get_zeroed_page(GFP_KERNEL);
}

/* Entry for va in the table at `level` below `table`, allocating down. */
static pte_t *next_table(pte_t *entry, bool alloc)
{
	pte_t *t, e = READ_ONCE(*entry), seen;

	if (e & _PAGE_PRESENT)
		return (e & _PAGE_PSE) ? NULL : pte_table(e);
	if (!alloc || !(t = alloc_table()))
		return NULL;
	/* Upper levels allow everything; the leaf entry decides. The
	 * allocation may have slept, and another task (a fork's kernel stack
	 * in the same 2 MiB, a thread of this mm) installed a table here
	 * meanwhile: then use that one (Linux's __pte_alloc). */
	e = virt_to_phys(t) | _PAGE_TABLE;
	seen = cmpxchg(entry, 0, e);
	if (!seen)
		return t;
	if (page_allocator_ready)
		free_page((unsigned long)t);
	return (seen & _PAGE_PSE) ? NULL : pte_table(seen);
}

pte_t *lookup_pte(pte_t *pgd, unsigned long va, bool alloc)
{
	pte_t *pud, *pmd, *pt;

	if (!(pud = next_table(&pgd[pt_index(va, PGDIR_SHIFT)], alloc)))
		return NULL;
	if (!(pmd = next_table(&pud[pt_index(va, PUD_SHIFT)], alloc)))
		return NULL;
	if (!(pt = next_table(&pmd[pt_index(va, PMD_SHIFT)], alloc)))
		return NULL;
	return &pt[pt_index(va, PAGE_SHIFT)];
}

unsigned long next_pte_table(pte_t *pgd, unsigned long va, unsigned long end)
{
	static const int shifts[] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT };

	while (va < end) {
		pte_t *table = pgd;
		int level;

		for (level = 0; level < 3; level++) {
			pte_t e = table[pt_index(va, shifts[level])];

			if (!(e & _PAGE_PRESENT) || (e & _PAGE_PSE))
				break;
			table = pte_table(e);
		}
		if (level == 3)
			return va;	/* a PTE table covers va */
		/* Nothing mapped up to the end of this entry's span. */
		va = (va | ((1UL << shifts[level]) - 1)) + 1;
	}
	return end;
}

/* Kernel-half upper tables are never user-accessible. */
static void clear_user_bit_kernel_half(pte_t *pgd)
{
	for (int i = PTRS_PER_TABLE / 2; i < PTRS_PER_TABLE; i++)
		pgd[i] &= ~_PAGE_USER;
}

static void map_kernel_range(char *start, char *end, pte_t prot)
{
	for (unsigned long va = (unsigned long)start; va < (unsigned long)end;
	     va += PAGE_SIZE) {
		pte_t *pte = lookup_pte(init_pgd, va, true);

		if (!pte)
			panic("paging: no page table for %lx", va);
		*pte = virt_to_phys((void *)va) | prot;
	}
}

/*
 * debug_pagealloc (on unless debug_pagealloc=off): the direct map in 4 KiB
 * pages, their PTEs in one array indexed by pfn, so that the page
 * allocator can take a free page out of the direct map and put it back
 * when it hands the page out (kernel_map_pages). A kernel access to a
 * free page then faults at the access itself (report_freed_page_access,
 * arch/x86/kernel/traps.c), where page poisoning sees a write only at the
 * next allocation and a read never. Unmapping flushes this CPU's TLB
 * only: another CPU's stale entry for the page maps the same frame with
 * the same rights, so it can only miss an access, never allow a wrong
 * one, and mapping again needs no flush (x86 keeps no "not present" in
 * its TLB). Linux: CONFIG_DEBUG_PAGEALLOC, debug_pagealloc=on.
 */
bool debug_pagealloc = true;
static pte_t *direct_ptes;	/* the direct map's PTE of pfn, by pfn */
static unsigned long direct_pfns;

static int set_debug_pagealloc(const char *val)
{
	return param_set_onoff(val, &debug_pagealloc);
}
__setup("debug_pagealloc", set_debug_pagealloc);

static void map_direct(phys_addr_t end)
{
	if (debug_pagealloc) {
		direct_pfns = end >> PAGE_SHIFT;
		direct_ptes = phys_to_virt(memblock_alloc(
			direct_pfns * sizeof(pte_t), PAGE_SIZE));
	}
	for (phys_addr_t pa = 0; pa < end; pa += PMD_SIZE) {
		unsigned long va = (unsigned long)phys_to_virt(pa);
		pte_t *pud, *pmd, *pt;

		pud = next_table(&init_pgd[pt_index(va, PGDIR_SHIFT)], true);
		pmd = next_table(&pud[pt_index(va, PUD_SHIFT)], true);
		if (!pmd)
			panic("paging: cannot map RAM at %lx", pa);
		if (!direct_ptes) {
			pmd[pt_index(va, PMD_SHIFT)] = pa | PAGE_KERNEL |
						       _PAGE_PSE;
			continue;
		}
		pt = &direct_ptes[pa >> PAGE_SHIFT];
		for (int i = 0; i < PTRS_PER_TABLE; i++)
			pt[i] = (pa + i * PAGE_SIZE) | PAGE_KERNEL;
		pmd[pt_index(va, PMD_SHIFT)] = virt_to_phys(pt) |
					       _PAGE_PRESENT | _PAGE_RW |
					       _PAGE_ACCESSED;
	}
}

void kernel_map_pages(struct page *page, unsigned int n, bool present)
{
	unsigned long pfn = page_to_pfn(page);

	if (!direct_ptes || pfn + n > direct_pfns)
		return;
	for (unsigned int i = 0; i < n; i++) {
		pte_t *pte = &direct_ptes[pfn + i];

		if (present) {
			WRITE_ONCE(*pte, *pte | _PAGE_PRESENT);
		} else {
			WRITE_ONCE(*pte, *pte & ~_PAGE_PRESENT);
			invlpg((unsigned long)page_address(page + i));
		}
	}
}

bool kernel_page_unmapped(unsigned long va, unsigned long *pfn)
{
	unsigned long start = (unsigned long)phys_to_virt(0);

	if (!direct_ptes || va < start ||
	    va >= start + direct_pfns * PAGE_SIZE)
		return false;
	*pfn = (va - start) >> PAGE_SHIFT;
	return !(READ_ONCE(direct_ptes[*pfn]) & _PAGE_PRESENT);
}

static void enable_cpu_protections(void)
{
	u32 a, b, c, d;
	unsigned long cr4 = read_cr4() | X86_CR4_PGE;

	cpuid(0, 0, &a, &b, &c, &d);
	if (a >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		if (b & (1 << 7))
			cr4 |= X86_CR4_SMEP;	/* never run user pages */
		if (b & (1 << 20)) {
			cr4 |= X86_CR4_SMAP;	/* never touch them by accident */
			smap_enabled = true;
		}
	}
	write_cr4(cr4);
	pr_info("paging: NX on, SMEP %s, SMAP %s\n",
		cr4 & X86_CR4_SMEP ? "on" : "not supported",
		cr4 & X86_CR4_SMAP ? "on" : "not supported");
}

void paging_init(void)
{
	init_pgd = phys_to_virt(memblock_alloc(PAGE_SIZE, PAGE_SIZE));
	map_kernel_range(_text, _etext, PAGE_KERNEL_EXEC);
	map_kernel_range(_etext, _erodata, PAGE_KERNEL_RO);
	map_kernel_range(_erodata, _end, PAGE_KERNEL);
	map_direct(ALIGN(memblock_end_of_ram(), PMD_SIZE));
	/* The top-level entry of the ioremap and kernel-stack areas exists
	 * from the start, so every address space made later shares it
	 * (mm_alloc copies the kernel half once). */
	next_table(&init_pgd[pt_index(IOREMAP_START, PGDIR_SHIFT)], true);
	clear_user_bit_kernel_half(init_pgd);
	enable_cpu_protections();
	write_cr3(virt_to_phys(init_pgd));
}

void paging_allocator_ready(void)
{
	page_allocator_ready = true;
}
