/*
 * mm/pagecheck.c: /proc/pagecheck, an audit of every page frame, for the
 * tests' leak check (as xv6's usertests count free pages before and after).
 *
 * Counting free pages alone cannot tell a leak from a cache: the page
 * cache, slabs and dentries grow and shrink as tests run. So the audit
 * sorts the pages that are in use, and checks one invariant exactly:
 *
 *   user_ptes == page_maps
 *
 * user_ptes counts the present PTEs of every process's user half;
 * page_maps adds up each page's map count (_mapcount + 1). Every PTE that
 * maps a page is one map count of that page, so the two are equal
 * whenever no fault or unmap is half done; a zap that clears a PTE
 * without dropping the map count (and its reference) leaves page_maps
 * higher for good. The other lines are for comparing before and after:
 *
 *   free       pages on the buddy lists
 *   pagecache  pages in a file's page cache
 *   slab       kmalloc's pages
 *   mapped     other pages some PTE maps (anonymous memory, COW copies)
 *   other      in use and none of the above: page tables, kernel stacks,
 *              buffers, and leaked pages (a page truncated from the page
 *              cache but never freed lands here)
 *   pgtables   of "other": the page tables of every process's user half,
 *              its top-level table included (Linux's PageTables line in
 *              /proc/meminfo)
 *   kstacks    of "other": kernel stacks' pages (Linux's KernelStack)
 *   alloc_seq  page allocations so far: /proc/page_owner names where the
 *              pages of a class allocated after a snapshot came from
 *
 * The walk runs with interrupts off and every other CPU parked
 * (smp_park_others): nothing moves while it counts. It costs a pass over
 * mem_map and the page tables.
 */
#include <mm/mm.h>
#include <mm/pagecheck.h>
#include <mm/gfp.h>
#include <mm/kstack.h>
#include <mm/mm_types.h>
#include <mm/pgtable.h>
#include <fs/proc_fs.h>
#include <kernel/init.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <asm/processor.h>

struct page_audit {
	unsigned long user_ptes, page_maps;
	unsigned long free, pagecache, slab, mapped, other;
	unsigned long pgtables, kstacks;	/* parts of other */
};

/* Present leaf entries below a table of the given level (4: pgd); the
 * tables below it are added to a->pgtables. */
static unsigned long count_ptes(struct page_audit *a, pte_t *table,
				int level, int entries)
{
	unsigned long n = 0;

	for (int i = 0; i < entries; i++) {
		if (!(table[i] & _PAGE_PRESENT))
			continue;
		if (level == 1) {
			n++;
		} else if (!(table[i] & _PAGE_PSE)) {
			a->pgtables++;
			n += count_ptes(a, pte_table(table[i]), level - 1,
					PTRS_PER_TABLE);
		}
	}
	return n;
}

/* Each mm once, though threads (and a vfork child) share one: the mms
 * counted so far (at most one per task; the other CPUs are parked, so
 * the array is ours). */
static struct mm_struct *audited[KSTACK_SLOTS];

static bool audited_before(struct mm_struct *mm, int n)
{
	for (int i = 0; i < n; i++)
		if (audited[i] == mm)
			return true;
	return false;
}

static void audit_ptes(struct page_audit *a)
{
	struct task_struct *t;
	int n = 0;

	list_for_each_entry(t, &task_list, tasks) {
		if (!t->mm || audited_before(t->mm, n) || n == KSTACK_SLOTS)
			continue;
		audited[n++] = t->mm;
		a->pgtables++;	/* the pgd */
		a->user_ptes += count_ptes(a, t->mm->pgd, 4,
					   PTRS_PER_TABLE / 2);
	}
}

static void audit_pages(struct page_audit *a)
{
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		struct page *page = pfn_to_page(pfn);

		enum page_class c = page_class(page);

		if (c == PC_FREE)
			continue;	/* free (or a tail of a block) */
		if (page->_mapcount >= 0)
			a->page_maps += page->_mapcount + 1;
		a->slab += c == PC_SLAB;
		a->pagecache += c == PC_PAGECACHE;
		a->mapped += c == PC_MAPPED;
		a->other += c == PC_OTHER;
	}
	a->free = nr_free_pages();
}

static int pagecheck_show(struct seq_file *m, void *data)
{
	struct page_audit a = { 0 };
	unsigned long flags;

	kstack_purge_hold();	/* exited tasks' stacks, freed lazily (SMP) */
	flags = smp_park_others();

	audit_ptes(&a);
	audit_pages(&a);
	a.kstacks = kstack_pages();
	smp_unpark_others(flags);
	kstack_purge_release();
	seq_printf(m, "user_ptes %lu\npage_maps %lu\nfree %lu\npagecache %lu\n"
		   "slab %lu\nmapped %lu\nother %lu\npgtables %lu\n"
		   "kstacks %lu\n", a.user_ptes, a.page_maps, a.free,
		   a.pagecache, a.slab, a.mapped, a.other, a.pgtables,
		   a.kstacks);
	/* The allocations so far: a leak check asks /proc/page_owner about
	 * the pages allocated after its first snapshot. */
	seq_printf(m, "alloc_seq %u\n", page_owner_alloc_seq());
	seq_printf(m, "verdict %s\n", a.user_ptes == a.page_maps ?
		   "ok" : "map counts disagree with the page tables");
	return 0;
}

static int pagecheck_init(void)
{
	proc_create_single("pagecheck", pagecheck_show);
	return 0;
}
device_initcall(pagecheck_init);
