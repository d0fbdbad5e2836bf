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
#include <kernel/bootinfo.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#define EARLY_MAP_LIMIT (1UL << 30)

struct memblock_type {
	int cnt;
	struct { phys_addr_t base, size; } r[MEMBLOCK_MAX_REGIONS];
};

static struct memblock_type memory, reserved;

/* A range that ends where the next begins grows into it: early page
 * tables come one page at a time, each just below the last. */
static bool memblock_merge(struct memblock_type *t, phys_addr_t base,
			   phys_addr_t size)
{
	for (int i = 0; i < t->cnt; i++) {
		if (t->r[i].base == base + size) {
			t->r[i].base = base;
			t->r[i].size += size;
			return true;
		}
		if (t->r[i].base + t->r[i].size == base) {
			t->r[i].size += size;
			return true;
		}
	}
	return false;
}

/* Insert keeping the array sorted by base (a merge keeps it sorted: the
 * ranges do not overlap). */
static void memblock_insert(struct memblock_type *t, phys_addr_t base,
			    phys_addr_t size)
{
	int i;

	if (!size || memblock_merge(t, base, size))
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

/* Does a reserved range overlap [base, end)? *start: the first one's
 * start (which may be 0: the BIOS area is reserved from address 0). */
static bool reserved_overlap(phys_addr_t base, phys_addr_t end,
			     phys_addr_t *start)
{
	int i;

	for (i = 0; i < reserved.cnt; i++) {
		phys_addr_t rb = reserved.r[i].base;
		phys_addr_t re = rb + reserved.r[i].size;

		if (rb < end && re > base) {
			*start = rb;
			return true;
		}
	}
	return false;
}

/*
 * Out of memory before the page allocator even runs: the boot modules
 * (the initramfs) took what the page tables needed. Say how much the
 * machine would need, as fs/init.c does when the initramfs cannot be
 * unpacked: what is held now, the initramfs again (it is unpacked into
 * ramfs), and a working set.
 */
static __noreturn void memblock_oom(phys_addr_t size)
{
	unsigned long mod_kib = 0, ram_kib = memblock_total_ram() >> 10;
	unsigned long held_kib = memblock_reserved_size() >> 10;
	unsigned long work_kib = 4096;

	for (int i = 0; i < boot_info.nr_modules; i++)
		mod_kib += (boot_info.modules[i].end -
			    boot_info.modules[i].start + 1023) >> 10;
	printk(KERN_EMERG "pagelab needs at least %lu MiB; this machine has "
	       "%lu MiB (the kernel and boot modules hold %lu KiB, and no "
	       "%lu bytes are left for the kernel's page tables)\n",
	       (held_kib + mod_kib + work_kib + 1023) / 1024,
	       (ram_kib + 1023) / 1024, held_kib, (unsigned long)size);
	panic("not enough memory to boot: give QEMU more (-m)");
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
			phys_addr_t clash;

			if (!reserved_overlap(cand, cand + size, &clash)) {
				memblock_reserve(cand, size);
				memset(phys_to_virt(cand), 0, size);
				return cand;
			}
			if (clash < lo + size)
				break;
			cand = ALIGN_DOWN(clash - size, align);
		}
	}
	memblock_oom(size);
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
