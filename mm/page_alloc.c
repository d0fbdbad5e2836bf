/*
 * mm/page_alloc.c: the buddy allocator.
 *
 * Free memory is kept as blocks of 2^order pages, each block aligned to its
 * size, on one free list per order. Allocating an order takes a block of
 * that order or splits a bigger one in halves ("buddies"); freeing merges a
 * block with its buddy, repeatedly, while the buddy is free too. A block's
 * buddy is found by flipping bit `order` of its pfn.
 *
 * The first page of a free block has PG_buddy set and its order in
 * page->private; nothing else in the block is touched. zone_lock (taken
 * with interrupts off) protects the lists and the counts.
 *
 * Single pages, most of what is allocated and freed (every page fault,
 * every page-cache page), go through a short list per CPU first (Linux's
 * per_cpu_pages, "pcp"): a free puts the page on this CPU's list, an
 * allocation takes from it, and only every PCP_BATCH pages does a CPU
 * take zone_lock, to refill its list or give back its coldest pages.
 * With one lock for the whole machine on every fault and free, two CPUs
 * faulting ran slower than one (they queued on zone_lock and passed its
 * cache line back and forth); /proc/lock_stat showed it. A page on a
 * per-CPU list is free (count 0, poisoned, out of the direct map) but
 * not merged with its buddy; so an allocation that finds nothing first
 * empties every CPU's list into the buddy lists (drain_all_pages) and
 * tries again, before reclaim. Each list has its own lock, taken by its
 * CPU with interrupts off (uncontended: its cache line stays on its CPU)
 * and by a drain from another CPU.
 *
 * Page poisoning (on unless page_poison=off): every page freed after use
 * is filled with PAGE_POISON (PG_poisoned, and where it was freed in
 * page->index), and checked when it is handed out again: a write through
 * a stale pointer or a stale PTE in between is reported with the byte it
 * changed and the place that freed the page. Pages freed at boot were
 * never used and are filled at their first allocation instead (without
 * __GFP_ZERO), so that every page handed out unzeroed holds the poison.
 *
 * debug_pagealloc (on unless debug_pagealloc=off): a free page is also
 * out of the direct map (kernel_map_pages, arch/x86/mm/pgtable.c), so a
 * kernel read or write of it faults at once, with the page's history.
 */
#include <mm/gfp.h>
#include <kernel/explore.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <mm/writeback.h>
#include <asm/processor.h>
#include <kernel/param.h>
#include <kernel/errno.h>
#include <mm/mmdebug.h>
#include <mm/pgtable.h>
#include <kernel/fault_inject.h>

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;	/* blocks, not pages */
};

#define PAGE_POISON 0xaa
static bool page_poisoning = true;

static struct free_area free_area[MAX_ORDER];
static unsigned long free_pages_count;	/* in the buddy lists */
unsigned long totalram_pages;
static DEFINE_SPINLOCK(zone_lock);

#define PCP_BATCH 16	/* pages moved at a time to or from the buddy lists */
#define PCP_HIGH (4 * PCP_BATCH)	/* a list this long gives a batch back */

struct per_cpu_pages {
	spinlock_t lock;	/* taken before zone_lock, never after */
	int count;
	struct list_head list;	/* hottest (last freed) first */
} __attribute__((aligned(64)));	/* a cache line each */

static struct per_cpu_pages pcp_lists[NR_CPUS];

static void init_free_areas(void)
{
	static bool done;

	if (done)
		return;
	for (int o = 0; o < MAX_ORDER; o++)
		INIT_LIST_HEAD(&free_area[o].free_list);
	for (int c = 0; c < NR_CPUS; c++) {
		spin_lock_init(&pcp_lists[c].lock);
		INIT_LIST_HEAD(&pcp_lists[c].list);
	}
	done = true;
}

static void add_to_free_list(struct page *page, unsigned int order)
{
	SetPageBuddy(page);
	page->private = order;
	list_add(&page->lru, &free_area[order].free_list);
	free_area[order].nr_free++;
}

static void del_from_free_list(struct page *page, unsigned int order)
{
	list_del_init(&page->lru);
	ClearPageBuddy(page);
	page->private = 0;
	free_area[order].nr_free--;
}

/* Is the block at pfn a free block of exactly this order? */
static bool page_is_buddy(unsigned long pfn, unsigned int order)
{
	struct page *p;

	if (pfn >= max_pfn)
		return false;
	p = pfn_to_page(pfn);
	return PageBuddy(p) && p->private == order;
}

/* Called with zone_lock held. */
static void __free_one_block(unsigned long pfn, unsigned int order)
{
	while (order < MAX_ORDER - 1) {
		unsigned long buddy = pfn ^ (1UL << order);

		if (!page_is_buddy(buddy, order))
			break;
		del_from_free_list(pfn_to_page(buddy), order);
		pfn &= ~(1UL << order);	/* the merged block starts lower */
		order++;
	}
	add_to_free_list(pfn_to_page(pfn), order);
}

/* Split a block of order `high` until one of order `low` is left. */
static struct page *expand(struct page *page, unsigned int low,
			   unsigned int high)
{
	while (high > low) {
		high--;
		add_to_free_list(page + (1UL << high), high);
	}
	return page;
}

/* Take a block from the free lists, respecting the reserve. */
/* A block of order from the smallest list that has one, split down;
 * NULL when none. zone_lock held. */
static struct page *__rmqueue(unsigned int order)
{
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		struct page *page;

		if (list_empty(&free_area[o].free_list))
			continue;
		page = list_first_entry(&free_area[o].free_list, struct page,
					lru);
		del_from_free_list(page, o);
		expand(page, order, o);
		free_pages_count -= 1UL << order;
		return page;
	}
	return NULL;
}

static struct page *rmqueue(unsigned int order, bool use_reserve)
{
	struct page *page = NULL;
	unsigned long flags;

	spin_lock_irqsave(&zone_lock, flags);
	if (use_reserve || free_pages_count >= MIN_FREE_PAGES + (1UL << order))
		page = __rmqueue(order);
	spin_unlock_irqrestore(&zone_lock, flags);
	return page;
}

/* ---- the per-CPU lists ------------------------------------------------- */

/* Move up to n single pages from the buddy lists to p (p->lock held),
 * leaving the reserve alone. */
static void pcp_refill(struct per_cpu_pages *p, int n)
{
	spin_lock(&zone_lock);
	while (n-- > 0 && free_pages_count >= MIN_FREE_PAGES + PCP_BATCH) {
		struct page *page = __rmqueue(0);

		if (!page)
			break;
		SetPagePcp(page);
		list_add_tail(&page->lru, &p->list);
		p->count++;
	}
	spin_unlock(&zone_lock);
}

/* Give n pages of p (p->lock held), the coldest, back to the buddies. */
static void pcp_give_back(struct per_cpu_pages *p, int n)
{
	spin_lock(&zone_lock);
	while (n-- > 0 && p->count) {
		struct page *page = list_last_entry(&p->list, struct page, lru);

		list_del_init(&page->lru);
		p->count--;
		ClearPagePcp(page);
		__free_one_block(page_to_pfn(page), 0);
		free_pages_count++;
	}
	spin_unlock(&zone_lock);
}

/* A single page from this CPU's list, refilled when empty; NULL when the
 * buddy lists are down to the reserve (the caller goes there itself). */
static struct page *pcp_alloc(void)
{
	struct per_cpu_pages *p;
	struct page *page = NULL;
	unsigned long flags = local_irq_save();

	p = &pcp_lists[smp_processor_id()];
	spin_lock(&p->lock);
	if (READ_ONCE(free_pages_count) >= MIN_FREE_PAGES) {
		if (!p->count)
			pcp_refill(p, PCP_BATCH);
		if (p->count) {
			page = list_first_entry(&p->list, struct page, lru);
			list_del_init(&page->lru);
			p->count--;
			ClearPagePcp(page);
		}
	}
	spin_unlock(&p->lock);
	local_irq_restore(flags);
	return page;
}

static void pcp_free(struct page *page)
{
	struct per_cpu_pages *p;
	unsigned long flags = local_irq_save();

	p = &pcp_lists[smp_processor_id()];
	spin_lock(&p->lock);
	SetPagePcp(page);
	list_add(&page->lru, &p->list);
	if (++p->count >= PCP_HIGH)
		pcp_give_back(p, PCP_BATCH);
	spin_unlock(&p->lock);
	local_irq_restore(flags);
}

void drain_all_pages(void)
{
	for (int c = 0; c < NR_CPUS; c++) {
		struct per_cpu_pages *p = &pcp_lists[c];
		unsigned long flags;

		if (!READ_ONCE(p->count))
			continue;
		spin_lock_irqsave(&p->lock, flags);
		pcp_give_back(p, p->count);
		spin_unlock_irqrestore(&p->lock, flags);
	}
}

/* A block from the per-CPU list (single pages) or the buddy lists; after
 * a miss, from the buddy lists again once every CPU's list is back in
 * them (the pages a miss needs may wait on another CPU's list). */
static struct page *get_page_from_freelist(unsigned int order, bool reserve)
{
	struct page *page = NULL;

	if (order == 0)
		page = pcp_alloc();
	if (!page)
		page = rmqueue(order, reserve);
	if (!page) {
		drain_all_pages();
		page = rmqueue(order, reserve);
	}
	return page;
}

/* May this allocation sleep in reclaim? (__GFP_RECLAIM, interrupts on,
 * and not reclaim itself.) */
static bool may_reclaim(gfp_t gfp)
{
	return (gfp & __GFP_RECLAIM) && !(current->flags & PF_MEMALLOC) &&
	       (local_save_flags() & X86_EFLAGS_IF);
}

/*
 * Out of free pages: reclaim page cache and try again, if the caller may
 * sleep.
 */
static struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;

	if (!may_reclaim(gfp))
		return NULL;
	for (int tries = 0; !page && tries < 32; tries++) {
		/* Nothing freeable: the pages are probably being written;
		 * give the disk a tick to finish some. */
		if (!try_to_free_pages(32UL << order) && tries > 1)
			schedule_timeout_interruptible(1);
		page = get_page_from_freelist(order, false);
	}
	if (!page)
		pr_warn_once("page_alloc: %s[%d]: out of memory (order %u)\n",
			     current->comm, current->pid, order);
	return page;
}

static int set_page_poison(const char *val)
{
	return param_set_onoff(val, &page_poisoning);
}
__setup("page_poison", set_page_poison);

static void poison_pages(struct page *page, unsigned int order,
			 unsigned long ip)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		memset(page_address(page + i), PAGE_POISON, PAGE_SIZE);
		page[i].flags |= 1UL << PG_poisoned;
		page[i].index = ip;
	}
}

static __cold __noreturn void poison_bug(struct page *page, unsigned int off)
{
	const u8 *p = page_address(page);

	console_loglevel = 15;
	printk(KERN_EMERG "BUG: page poison overwritten: pfn 0x%lx, byte %u "
	       "is 0x%02x, not 0x%02x: written after the page was freed "
	       "(freed at %pS)\n", page_to_pfn(page), off, p[off], PAGE_POISON,
	       (void *)page->index);
	printk(KERN_EMERG "bytes %u-%u:", off & ~15U, (off & ~15U) + 15);
	for (unsigned int i = off & ~15U; i < (off & ~15U) + 16; i++)
		printk(KERN_CONT " %02x", p[i]);
	printk(KERN_CONT "\n");
	dump_page(page, "poison overwritten");
	panic("page poison overwritten: pfn 0x%lx", page_to_pfn(page));
}

#define POISON_WORD (0x0101010101010101ULL * PAGE_POISON)

/* The first 8-byte word of page that is not all poison, or -1. */
static long first_unpoisoned_word(struct page *page)
{
	const u64 *w = page_address(page);

	for (unsigned int i = 0; i < PAGE_SIZE / 8; i++)
		if (w[i] != POISON_WORD)
			return i;
	return -1;
}

/*
 * Does page still hold its last free's poison in every byte? Then nobody
 * has written it since alloc_page gave it out (mm/memory.c asks before
 * it maps a new anonymous page). False with page_poison=off. The first
 * and last words answer for almost every page; the rest only then.
 */
bool page_never_written(struct page *page)
{
	const u64 *w = page_address(page);

	return page_poisoning && w[0] == POISON_WORD &&
	       w[PAGE_SIZE / 8 - 1] == POISON_WORD &&
	       first_unpoisoned_word(page) < 0;
}

/*
 * A page never used since boot (not filled when the boot freed it: that
 * would write all of memory at every boot) gets the poison at its first
 * use instead, so that a caller that maps or reads it unwritten sees what
 * it would see in a page used before. Without this the paging lab's COW
 * that forgets its copy was caught only when the copy happened to be a
 * recycled page: a change in the initramfs's size made it a fresh one,
 * full of QEMU's zeros, and the checker silent.
 */
static void fill_first_use(struct page *page)
{
	memset(page_address(page), PAGE_POISON, PAGE_SIZE);
}

static void check_poison(struct page *page)
{
	long i = first_unpoisoned_word(page);

	if (unlikely(i >= 0))
		for (unsigned int b = i * 8; ; b++)
			if (((const u8 *)page_address(page))[b] != PAGE_POISON)
				poison_bug(page, b);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	bool reserve = (gfp & (__GFP_MEMALLOC | __GFP_HIGH)) ||
		       (current->flags & PF_MEMALLOC);
	struct page *page;

	might_alloc(gfp);
	if (order >= MAX_ORDER)
		return NULL;
	/* /proc/fail/alloc_reclaim: reclaim everything it can now, as the
	 * slow path would when memory runs out. */
	if (fault_armed(&fail_alloc_reclaim) && may_reclaim(gfp) &&
	    should_fail(&fail_alloc_reclaim))
		try_to_free_pages(~0UL);
	page = get_page_from_freelist(order, reserve);
	if (!page)
		page = alloc_pages_slowpath(gfp, order);
	if (!page)
		return NULL;
	kernel_map_pages(page, 1U << order, true);	/* debug_pagealloc */
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (page[i].flags & (1UL << PG_poisoned))
			check_poison(&page[i]);
		else if (page_poisoning && !(gfp & __GFP_ZERO))
			fill_first_use(&page[i]);
		page[i].flags = 0;
		page[i].mapping = NULL;
		page[i].index = 0;
		page[i]._mapcount = -1;
	}
	page->_refcount = 1;
	if (unlikely(page_owner_on))
		__page_owner_alloc(page, order, 1);	/* our caller's */
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	return page;
}

/*
 * A page coming back to the allocator must be nobody's: not locked (a
 * waiter would sleep for ever), not under writeback (its I/O still
 * writes into it), not mapped by a PTE, not in a mapping, without
 * buffers. Linux checks the same in free_pages_prepare.
 */
static void free_pages_check(struct page *page, unsigned int order)
{
	const unsigned long busy = 1UL << PG_locked | 1UL << PG_writeback |
				   1UL << PG_private;
	bool mapped = false;

	for (unsigned long i = 0; i < (1UL << order); i++)
		mapped |= page[i]._mapcount != -1;
	if (likely(!(page->flags & busy) && !mapped &&
		   (PageSlab(page) || !page->mapping)))
		return;
	if (PageLocked(page)) {
		char site[128], why[192];

		/* Name the function that took the lock: the free is only
		 * where the mistake shows. */
		page_owner_lock_site(page, site, sizeof(site));
		snprintf(why, sizeof(why), "freed while locked (a path "
			 "returned without unlock_page%s%s)",
			 site[0] ? "; locked in " : "", site);
		bad_page(page, why);
	}
	if (PageWriteback(page))
		bad_page(page, "freed while under writeback");
	if (PagePrivate(page))
		bad_page(page, "freed with buffers attached (PG_private)");
	if (mapped)
		bad_page(page, "freed while mapped by a page table");
	bad_page(page, "freed while still in a mapping (page cache)");
}

static void free_block(struct page *page, unsigned int order,
		       unsigned long ip)
{
	unsigned long flags, pfn = page_to_pfn(page);

	if (PageBuddy(page) || PagePcp(page) || PageReserved(page))
		panic("page_alloc: freeing pfn 0x%lx (order %u) that is %s",
		      pfn, order, PageReserved(page) ? "reserved" : "already free");
	if (!IS_ALIGNED(pfn, 1UL << order))
		panic("page_alloc: pfn 0x%lx misaligned for order %u", pfn,
		      order);
	free_pages_check(page, order);
	page->flags = 0;
	if (page_poisoning)
		poison_pages(page, order, ip);
	/* Out of the direct map until it is handed out again: a kernel
	 * access meanwhile faults (debug_pagealloc). */
	kernel_map_pages(page, 1U << order, false);
	if (order == 0) {
		pcp_free(page);
		return;
	}
	spin_lock_irqsave(&zone_lock, flags);
	__free_one_block(pfn, order);
	free_pages_count += 1UL << order;
	spin_unlock_irqrestore(&zone_lock, flags);
}

/* Drop a reference; the block is freed with the last one. */
void __free_pages(struct page *page, unsigned int order)
{
	/* The count is checked here, before the drop (a free page would
	 * otherwise go to -1 and be reported as an underflow), so the drop
	 * itself need not check again. */
	if (unlikely(page_count(page) <= 0))
		page_ref_bug(page, "put_page of a free page (a double put?)");
	if (unlikely(page_owner_refs))
		__page_owner_ref(page, -1, 1);	/* put_page's caller */
	if (__atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_SEQ_CST) != 0)
		return;
	/* A page-cache page can be on the LRU when its last reference
	 * goes: reclaim put it back there while a truncate removed it from
	 * the file. Take it off, as Linux's __page_cache_release does. */
	if (PageLRU(page))
		lru_cache_del(page);
	explore_page_freed(page);
	if (unlikely(page_owner_on))
		__page_owner_free(page, order, 1);	/* put_page's caller */
	free_block(page, order, _RET_IP_);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((void *)addr), order);
}

/* The buddy lists' pages and every CPU's list's (a moment's sum: the
 * CPUs move pages between them meanwhile). */
unsigned long nr_free_pages(void)
{
	unsigned long n = READ_ONCE(free_pages_count);

	for (int c = 0; c < NR_CPUS; c++)
		n += READ_ONCE(pcp_lists[c].count);
	return n;
}

void free_area_counts(unsigned long counts[MAX_ORDER])
{
	unsigned long flags;

	spin_lock_irqsave(&zone_lock, flags);
	for (int o = 0; o < MAX_ORDER; o++)
		counts[o] = free_area[o].nr_free;
	spin_unlock_irqrestore(&zone_lock, flags);
}

/*
 * Boot: frames [start, end) become free. Feed them as the largest aligned
 * blocks that fit, so the lists start out fully merged.
 */
void free_boot_pages(unsigned long start, unsigned long end)
{
	init_free_areas();
	while (start < end) {
		unsigned int order = MAX_ORDER - 1;

		while (order && (!IS_ALIGNED(start, 1UL << order) ||
				 start + (1UL << order) > end))
			order--;
		for (unsigned long i = 0; i < (1UL << order); i++)
			ClearPageReserved(pfn_to_page(start + i));
		pfn_to_page(start)->_refcount = 0;
		kernel_map_pages(pfn_to_page(start), 1U << order, false);
		__free_one_block(start, order);
		free_pages_count += 1UL << order;
		totalram_pages += 1UL << order;
		start += 1UL << order;
	}
}
