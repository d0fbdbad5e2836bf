/*
 * mm/page_alloc_test.c: self-test "pagealloc".
 *
 * Allocate every free page one at a time, checking that no page is handed
 * out twice (each gets its pfn written into it, read back at the end) and
 * that the allocator then reports empty; free them all and check that the
 * free count and the per-order histogram are exactly as before, i.e. every
 * buddy merged back. Then a contiguous run: an order-3 block is 8 aligned
 * frames.
 */
#include <mm/gfp.h>
#include <kernel/selftest.h>
#include <kernel/printk.h>
#include <kernel/string.h>

static int check_all_pages(unsigned long before)
{
	LIST_HEAD(taken);
	unsigned long n = 0, bad = 0;
	struct page *p, *tmp;

	/* __GFP_MEMALLOC: the reserve too; no reclaim, there is nothing. */
	while ((p = alloc_page(__GFP_MEMALLOC))) {
		*(unsigned long *)page_address(p) = page_to_pfn(p);
		list_add(&p->lru, &taken);
		n++;
	}
	if (nr_free_pages() != 0)
		return selftest_fail("allocator empty but nr_free_pages=%lu",
				     nr_free_pages());
	list_for_each_entry_safe(p, tmp, &taken, lru) {
		if (*(unsigned long *)page_address(p) != page_to_pfn(p))
			bad++;	/* someone else got this page too */
		list_del_init(&p->lru);
		__free_page(p);
	}
	pr_info("selftest: pagealloc: allocated and freed %lu pages\n", n);
	if (n != before)
		return selftest_fail("allocated %lu pages, %lu were free", n,
				     before);
	if (bad)
		return selftest_fail("%lu pages were handed out twice", bad);
	return 0;
}

static int check_contiguous(void)
{
	struct page *p = alloc_pages(GFP_KERNEL | __GFP_ZERO, 3);
	unsigned char *mem;

	if (!p)
		return selftest_fail("no order-3 block");
	if (page_to_pfn(p) % 8)
		return selftest_fail("order-3 block at pfn 0x%lx not aligned",
				     page_to_pfn(p));
	mem = page_address(p);
	for (unsigned long i = 0; i < 8 * PAGE_SIZE; i++)
		if (mem[i])
			return selftest_fail("__GFP_ZERO block not zero");
	__free_pages(p, 3);
	return 0;
}

static int test_page_alloc(void)
{
	unsigned long before, after;
	unsigned long hist_before[MAX_ORDER], hist_after[MAX_ORDER];

	drain_all_pages();
	before = nr_free_pages();
	free_area_counts(hist_before);
	if (check_all_pages(before) || check_contiguous())
		return -1;
	drain_all_pages();
	after = nr_free_pages();
	free_area_counts(hist_after);
	if (after != before)
		return selftest_fail("free pages %lu before, %lu after", before,
				     after);
	for (int o = 0; o < MAX_ORDER; o++)
		if (hist_before[o] != hist_after[o])
			return selftest_fail("order %d: %lu free blocks before, "
					     "%lu after (buddies not merged)",
					     o, hist_before[o], hist_after[o]);
	return 0;
}
DEFINE_SELFTEST(pagealloc, test_page_alloc);
