/* The page allocator's interface (mm/page_alloc.c), with Linux's names. */
#ifndef _MM_GFP_H
#define _MM_GFP_H

#include <kernel/preempt.h>
#include <mm/mm.h>

typedef unsigned int gfp_t;

#define __GFP_ZERO 0x1u	/* return zeroed memory */
#define __GFP_RECLAIM 0x2u	/* may sleep to reclaim page cache */
#define __GFP_MEMALLOC 0x4u	/* may use the reserve (tests; reclaim) */
#define __GFP_HIGH 0x8u	/* may use the reserve: small, must-succeed
			 * allocations on the writeback path (bios) */
#define GFP_KERNEL __GFP_RECLAIM	/* process context */
#define GFP_ATOMIC __GFP_HIGH	/* interrupt context: never sleeps */
#define GFP_NOIO (__GFP_RECLAIM | __GFP_HIGH)	/* in the I/O path */

/* Pages kept back from ordinary allocations, so that reclaim (which
 * needs memory to write dirty pages out) can always make progress. */
#define MIN_FREE_PAGES 128

#define MAX_ORDER 11	/* blocks of 1 .. 1024 pages (4 MiB) */

/* An allocation that may reclaim may sleep: never under a spinlock or in
 * an interrupt, even on the calls where memory is plentiful and it does
 * not (Linux's might_alloc; alloc_pages and kmalloc call it). A macro, so
 * that the report names the allocator's line, not this one. */
#define might_alloc(gfp)                                                \
	do {                                                            \
		if ((gfp) & __GFP_RECLAIM)                              \
			might_sleep();                                  \
	} while (0)

struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);

static inline struct page *alloc_page(gfp_t gfp)
{
	return alloc_pages(gfp, 0);
}

static inline void __free_page(struct page *page)
{
	__free_pages(page, 0);
}

/* Drop a reference to a page (anonymous or page cache); the last frees. */
static inline void put_page(struct page *page)
{
	__free_pages(page, 0);
}

/* Same, by direct-map address. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);

static inline void free_page(unsigned long addr)
{
	free_pages(addr, 0);
}

unsigned long nr_free_pages(void);
extern unsigned long totalram_pages;
/* Free blocks per order, for tests that check buddies merge back (after
 * drain_all_pages: the pages on the CPUs' lists are not merged). */
void free_area_counts(unsigned long counts[MAX_ORDER]);
/* Every CPU's list of free single pages back into the buddy lists. */
void drain_all_pages(void);

/* Hand a range of frames to the allocator at boot (mm/memblock.c). */
void free_boot_pages(unsigned long start_pfn, unsigned long end_pfn);

#endif
