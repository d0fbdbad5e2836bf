/*
 * arch/x86/mm/pgtable_test.c: self-test "paging". Walk every present mapping
 * of the kernel page tables and check the W^X rule (no page writable and
 * executable), that kernel text is read-only, that nothing is mapped at low
 * (user) addresses, that no kernel mapping is user-accessible, and that
 * a freed page leaves the direct map (debug_pagealloc).
 */
#include <mm/pgtable.h>
#include <mm/gfp.h>
#include <mm/mm.h>
#include <kernel/selftest.h>
#include <kernel/printk.h>

struct walk_stats {
	unsigned long leaves, wx, user, low;
};

static void check_leaf(struct walk_stats *st, unsigned long va, pte_t e,
		       bool user_path)
{
	st->leaves++;
	if ((e & _PAGE_RW) && !(e & _PAGE_NX)) {
		if (!st->wx)
			pr_err("paging: W+X mapping at %lx\n", va);
		st->wx++;
	}
	if (user_path && (e & _PAGE_USER))
		st->user++;
	if (va < KERNEL_SPACE_START)
		st->low++;
}

/* Recursive walk; level 3 is the PML4, 0 the page table. */
static void walk(struct walk_stats *st, pte_t *table, int level,
		 unsigned long base, bool user_path)
{
	static const int shift[] = { PAGE_SHIFT, PMD_SHIFT, PUD_SHIFT,
				     PGDIR_SHIFT };

	for (int i = 0; i < PTRS_PER_TABLE; i++) {
		pte_t e = table[i];
		unsigned long va = base + ((unsigned long)i << shift[level]);

		if (level == 3 && i >= 256)
			va |= 0xffff000000000000UL;	/* sign extension */
		if (!(e & _PAGE_PRESENT))
			continue;
		if (level == 0 || (e & _PAGE_PSE))
			check_leaf(st, va, e, user_path && (e & _PAGE_USER));
		else
			walk(st, pte_table(e), level - 1, va,
			     user_path && (e & _PAGE_USER));
	}
}

/* debug_pagealloc: a page is in the direct map while allocated, out of
 * it once freed; with debug_pagealloc=off the map is in 2 MiB pages. */
static int test_direct_map(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	pte_t *pte;

	if (!page)
		return selftest_fail("no page");
	pte = lookup_pte(init_pgd, (unsigned long)page_address(page), false);
	pr_info("selftest: paging: the direct map is in %s pages\n",
		pte ? "4 KiB" : "2 MiB");
	if (!debug_pagealloc) {
		put_page(page);
		return pte ? selftest_fail("4 KiB direct map with "
					   "debug_pagealloc=off") : 0;
	}
	if (!pte || !(*pte & _PAGE_PRESENT)) {
		put_page(page);
		return selftest_fail("an allocated page is not in the "
				     "direct map");
	}
	put_page(page);
	if (*pte & _PAGE_PRESENT)
		return selftest_fail("a freed page is still in the direct "
				     "map (debug_pagealloc)");
	return 0;
}

static int test_paging(void)
{
	struct walk_stats st = { 0 };
	pte_t *text = lookup_pte(init_pgd, (unsigned long)_text, false);

	walk(&st, init_pgd, 3, 0, true);
	pr_info("selftest: paging: %lu leaf mappings checked\n", st.leaves);
	if (st.wx)
		return selftest_fail("%lu mappings are writable and executable",
				     st.wx);
	if (st.low)
		return selftest_fail("%lu mappings in the user half", st.low);
	if (st.user)
		return selftest_fail("%lu kernel mappings are user-accessible",
				     st.user);
	if (!text || (*text & _PAGE_RW) || (*text & _PAGE_NX))
		return selftest_fail("kernel text is not mapped read-only "
				     "and executable");
	return test_direct_map();
}
DEFINE_SELFTEST(paging, test_paging);
