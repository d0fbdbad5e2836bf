/*
 * The classes of pages in use that the page audit counts (mm/pagecheck.c,
 * /proc/pagecheck) and the leak report sorts by (mm/page_owner.c).
 */
#ifndef _MM_PAGECHECK_H
#define _MM_PAGECHECK_H

#include <mm/mm.h>

enum page_class {
	PC_FREE,	/* free, reserved, or the tail of a block */
	PC_SLAB,	/* kmalloc's */
	PC_PAGECACHE,	/* in a file's page cache */
	PC_MAPPED,	/* mapped by some PTE, in no file */
	PC_OTHER,	/* in use and none of the above */
};

static inline enum page_class page_class(const struct page *page)
{
	if (PageReserved(page) || page_count(page) <= 0)
		return PC_FREE;
	if (PageSlab(page) || PageLargeKmalloc(page))
		return PC_SLAB;
	if (page->mapping)
		return PC_PAGECACHE;
	if (page->_mapcount >= 0)
		return PC_MAPPED;
	return PC_OTHER;
}

/* Allocations made so far (page_owner): a snapshot's mark. */
u32 page_owner_alloc_seq(void);

/* /proc/page_owner's report on the console: where the pages of class
 * allocated after allocation number since came from. */
void page_owner_print_leaks(enum page_class class, u32 since);

#endif
