/*
 * mm/memblock.c: boot-time memory bookkeeping (Linux's memblock, tiny).
 *
 * Two sorted arrays of [base, base+size) ranges: memory (usable RAM) and
 * reserved. memblock_alloc() searches memory top-down for a range that
 * overlaps nothing reserved, below 1 GiB because the boot page tables only
 * map that much. Nothing here is freed; after memblock_free_all() the page
 * allocator owns everything that was not reserved.
 */
#include <mm/memblock.h>
#include <mm/gfp.h>
#include <kernel/panic.h>
#include <kernel/string.h>

#define EARLY_MAP_LIMIT (1UL << 30)

struct memblock_type {
	int cnt;
	struct { phys_addr_t base, size; } r[MEMBLOCK_MAX_REGIONS];
};

static struct memblock_type memory, reserved;

/* Insert keeping the array sorted by base; merging is not needed. */
static void memblock_insert(struct memblock_type *t, phys_addr_t base,
			    phys_addr_t size)
{
	int i;

	if (!size)
		return;
	if (t->cnt == MEMBLOCK_MAX_REGIONS)
		panic("memblock: more than %d regions", MEMBLOCK_MAX_REGIONS);
	for (i = t->cnt; i > 0 && t->r[i - 1].base > base; i--)
		t->r[i] = t->r[i - 1];
	t->r[i].base = base;
	t->r[i].size = size;
	t->cnt++;
}

void memblock_add(phys_addr_t base, phys_addr_t size)
{
	/* Only whole frames are usable. */
	phys_addr_t start = PAGE_ALIGN(base), end = (base + size) & PAGE_MASK;

	if (end > start)
		memblock_insert(&memory, start, end - start);
}

void memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	memblock_insert(&reserved, base, size);
}

/* End of the first reserved range overlapping [base, end), or 0. */
static phys_addr_t reserved_overlap(phys_addr_t base, phys_addr_t end)
{
	int i;

	for (i = 0; i < reserved.cnt; i++) {
		phys_addr_t rb = reserved.r[i].base;
		phys_addr_t re = rb + reserved.r[i].size;

		if (rb < end && re > base)
			return rb;
	}
	return 0;
}

phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	int i;

	size = PAGE_ALIGN(size);
	for (i = memory.cnt - 1; i >= 0; i--) {
		phys_addr_t lo = memory.r[i].base;
		phys_addr_t hi = min(lo + memory.r[i].size, EARLY_MAP_LIMIT);
		phys_addr_t cand;

		if (hi < lo + size)
			continue;
		cand = ALIGN_DOWN(hi - size, align);
		while (cand >= lo) {
			phys_addr_t clash = reserved_overlap(cand, cand + size);

			if (!clash) {
				memblock_reserve(cand, size);
				memset(phys_to_virt(cand), 0, size);
				return cand;
			}
			if (clash < lo + size)
				break;
			cand = ALIGN_DOWN(clash - size, align);
		}
	}
	panic("memblock: out of memory allocating %lu bytes", size);
}

phys_addr_t memblock_end_of_ram(void)
{
	if (!memory.cnt)
		return 0;
	return memory.r[memory.cnt - 1].base + memory.r[memory.cnt - 1].size;
}

phys_addr_t memblock_total_ram(void)
{
	phys_addr_t sum = 0;
	int i;

	for (i = 0; i < memory.cnt; i++)
		sum += memory.r[i].size;
	return sum;
}

phys_addr_t memblock_reserved_size(void)
{
	phys_addr_t sum = 0;
	int i;

	for (i = 0; i < reserved.cnt; i++)
		sum += reserved.r[i].size;
	return sum;
}

static bool pfn_reserved(unsigned long pfn, int *hint)
{
	phys_addr_t pa = (phys_addr_t)pfn << PAGE_SHIFT;

	/* pfns arrive in increasing order: skip ranges wholly below. */
	while (*hint < reserved.cnt &&
	       reserved.r[*hint].base + reserved.r[*hint].size <= pa)
		(*hint)++;
	for (int i = *hint; i < reserved.cnt && reserved.r[i].base <= pa; i++)
		if (pa < reserved.r[i].base + reserved.r[i].size)
			return true;
	return false;
}

unsigned long memblock_free_all(void)
{
	unsigned long freed = 0;
	int i, hint = 0;

	for (i = 0; i < memory.cnt; i++) {
		unsigned long pfn = memory.r[i].base >> PAGE_SHIFT;
		unsigned long end = (memory.r[i].base + memory.r[i].size) >>
				    PAGE_SHIFT;
		unsigned long run = pfn;

		/* Free maximal runs of unreserved frames at once. */
		for (; pfn <= end; pfn++) {
			if (pfn < end && !pfn_reserved(pfn, &hint))
				continue;
			if (pfn > run) {
				free_boot_pages(run, pfn);
				freed += pfn - run;
			}
			run = pfn + 1;
		}
	}
	return freed;
}
