/*
 * The physical memory model: one struct page per 4 KiB frame, in the array
 * mem_map indexed by page frame number (pfn), and the address conversions
 * between physical addresses, the direct map and struct page.
 */
#ifndef _MM_MM_H
#define _MM_MM_H

#include <kernel/list.h>
#include <kernel/bitops.h>
#include <asm/boot.h>
#include <mm/mmdebug.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) ALIGN((unsigned long)(x), PAGE_SIZE)

/* Kernel stacks: THREAD_SIZE bytes, THREAD_SIZE aligned (backtraces rely
 * on it to find a stack's bounds). */
#define THREAD_SIZE 16384
#define KERNEL_SPACE_START 0xffff800000000000UL

enum pageflags {
	PG_locked,	/* page lock held (I/O in flight, being truncated) */
	PG_uptodate,	/* contents valid */
	PG_dirty,	/* must be written back before it is dropped */
	PG_writeback,	/* being written back */
	PG_lru,		/* on an LRU list */
	PG_reserved,	/* not managed by the page allocator */
	PG_buddy,	/* free, heading a block on a buddy free list */
	PG_slab,	/* holds kmalloc objects */
	PG_large_kmalloc,	/* first page of a multi-page kmalloc */
	PG_private,	/* page->private holds fs data (buffer heads) */
	PG_referenced,	/* used since reclaim last looked: a second chance */
	PG_reclaim,	/* written back for reclaim: free it when done */
	PG_readahead,	/* read ahead: reaching it starts the next window */
	PG_poisoned,	/* free, filled with PAGE_POISON (mm/page_alloc.c) */
	PG_pcp,		/* free, on a CPU's list of single pages (page_alloc.c) */
};

struct address_space;
struct kmem_cache;

#include <mm/page_owner.h>

struct page {
	unsigned long flags;
	int _refcount;	/* users; the page is freed when it drops to 0 */
	int _mapcount;	/* page-table mappings minus one */
	union {
		struct {	/* page cache and anonymous pages */
			struct address_space *mapping;
			unsigned long index;	/* offset in mapping, pages */
		};
		struct {	/* slab pages */
			struct kmem_cache *slab_cache;
			void *freelist;	/* first free object */
		};
	};
	struct list_head lru;	/* free list, slab list or LRU */
	unsigned long private;	/* buddy order, slab objects in use, ... */
};

#define PAGEFLAG(name, bit)                                               \
	static inline bool Page##name(const struct page *p)               \
	{                                                                 \
		return test_bit(PG_##bit, &p->flags);                     \
	}                                                                 \
	static inline void SetPage##name(struct page *p)                  \
	{                                                                 \
		set_bit(PG_##bit, &p->flags);                             \
	}                                                                 \
	static inline void ClearPage##name(struct page *p)                \
	{                                                                 \
		clear_bit(PG_##bit, &p->flags);                           \
	}
/* By hand: taking the lock is recorded for page_owner's reports. */
static inline bool PageLocked(const struct page *p)
{
	return test_bit(PG_locked, &p->flags);
}
static inline void SetPageLocked(struct page *p)
{
	set_bit(PG_locked, &p->flags);
	if (unlikely(page_owner_on))
		__page_owner_lock(p, _THIS_IP_);
}
static inline void ClearPageLocked(struct page *p)
{
	clear_bit(PG_locked, &p->flags);
}
PAGEFLAG(Uptodate, uptodate)
PAGEFLAG(Dirty, dirty)
PAGEFLAG(Writeback, writeback)
PAGEFLAG(LRU, lru)
PAGEFLAG(Reserved, reserved)
PAGEFLAG(Buddy, buddy)
PAGEFLAG(Pcp, pcp)
PAGEFLAG(Slab, slab)
PAGEFLAG(LargeKmalloc, large_kmalloc)
PAGEFLAG(Private, private)
PAGEFLAG(Referenced, referenced)
PAGEFLAG(Reclaim, reclaim)
PAGEFLAG(Readahead, readahead)

extern struct page *mem_map;
extern unsigned long max_pfn;	/* one past the highest RAM frame */

static inline void *phys_to_virt(phys_addr_t pa)
{
	return (void *)(pa + PAGE_OFFSET);
}

/* Works for direct-map and kernel-image addresses alike. */
static inline phys_addr_t virt_to_phys(const void *va)
{
	unsigned long a = (unsigned long)va;

	return a >= KERNEL_VMA ? a - KERNEL_VMA : a - PAGE_OFFSET;
}

#define __pa(x) virt_to_phys(x)
#define __va(x) phys_to_virt(x)

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return page - mem_map;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

static inline void *page_address(const struct page *page)
{
	return phys_to_virt(page_to_phys(page));
}

static inline struct page *virt_to_page(const void *va)
{
	return pfn_to_page(virt_to_phys(va) >> PAGE_SHIFT);
}

static inline int page_count(const struct page *page)
{
	return __atomic_load_n(&page->_refcount, __ATOMIC_RELAXED);
}

/* How many PTEs map the page (Linux's names). */
static inline int page_mapcount(const struct page *page)
{
	return __atomic_load_n(&page->_mapcount, __ATOMIC_RELAXED) + 1;
}

static inline bool page_mapped(const struct page *page)
{
	return page_mapcount(page) > 0;
}

/* A count no page can reach: every PTE, buffer and cache entry of 64 MiB
 * of memory together are far fewer. Past it, a count is being leaked. */
#define PAGE_REF_IMPOSSIBLE (1 << 24)

/* Take a reference; the caller must already hold one (or know the page
 * is in use): a page with no reference may be free, or about to be. */
static inline void get_page(struct page *page)
{
	int n = __atomic_add_fetch(&page->_refcount, 1, __ATOMIC_SEQ_CST);

	/* one compare for both: n <= 1 wraps to a huge unsigned value */
	if (unlikely((unsigned int)n - 2 >= PAGE_REF_IMPOSSIBLE - 1))
		page_ref_bug(page, n <= 1 ? "get_page on a page with no "
					    "reference (freed?)"
					  : "page reference count overflow");
	page_owner_ref(page, 1);
}

/* Take a reference unless the count is 0 (the page is being freed): for
 * finding pages through a list that holds none (the LRU). */
static inline bool get_page_unless_zero(struct page *page)
{
	int n = page_count(page);

	while (n > 0)
		if (__atomic_compare_exchange_n(&page->_refcount, &n, n + 1,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED)) {
			page_owner_ref(page, 1);
			return true;
		}
	return false;
}

/* Drop a reference; true when it was the last one. */
static inline bool put_page_testzero(struct page *page)
{
	int n = __atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_SEQ_CST);

	if (unlikely(n < 0))
		page_ref_bug(page, "put_page: reference count underflow "
				   "(a put without a get)");
	page_owner_ref(page, -1);
	return n == 0;
}

/* Kernel image boundaries, from the linker script. */
extern char _text[], _etext[], _erodata[], _edata[], _end[], __bss_start[];

void mem_init(void);

#endif
