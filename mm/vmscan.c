/*
 * mm/vmscan.c: reclaim, giving page-cache memory back when it runs short.
 *
 * Page-cache pages of files with a backing store sit on one LRU list, new
 * ones at the head. When the page allocator comes up empty it calls
 * try_to_free_pages(), which looks at pages from the tail (the oldest):
 *   - used since the last look (PG_referenced): a second chance, to the head;
 *   - locked, under writeback, or held by someone else: busy, to the head;
 *   - mapped into processes: unmapped from all of them (mm/rmap.c),
 *     unless an mlock()ed VMA maps it: then it stays, busy;
 *   - dirty: start ->writepage (PG_reclaim) and move on; a later pass
 *     frees it once it is clean;
 *   - clean: release its buffer heads, remove it from the cache: free.
 * ramfs pages never come here: without a ->writepage they cannot be
 * cleaned (they are not added to the LRU at all).
 *
 * The scanning task is marked PF_MEMALLOC: its own allocations (a bio for
 * the writeback) may use the reserve and never recurse into reclaim.
 */
#include <fs/dcache.h>
#include <mm/writeback.h>
#include <mm/filemap.h>
#include <mm/rmap.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>

static LIST_HEAD(lru);
static unsigned long lru_pages;
static DEFINE_SPINLOCK(lru_lock);

unsigned long nr_lru_pages(void)
{
	return READ_ONCE(lru_pages);
}

void lru_cache_add(struct page *page)
{
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	if (!PageLRU(page)) {
		SetPageLRU(page);
		list_add(&page->lru, &lru);
		lru_pages++;
	}
	spin_unlock_irqrestore(&lru_lock, flags);
}

void lru_cache_del(struct page *page)
{
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	if (PageLRU(page)) {
		ClearPageLRU(page);
		list_del_init(&page->lru);
		lru_pages--;
	}
	spin_unlock_irqrestore(&lru_lock, flags);
}

void mark_page_accessed(struct page *page)
{
	SetPageReferenced(page);
}

/* Take the oldest page off the LRU with a reference, or NULL. */
static struct page *isolate_lru_tail(void)
{
	struct page *page = NULL;
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	for (unsigned long n = lru_pages; n && !page; n--) {
		struct page *p = list_entry(lru.prev, struct page, lru);

		/* Its last reference is going (__free_pages will take it
		 * off the list once it has our lock): not ours to take. */
		if (!get_page_unless_zero(p)) {
			list_move(&p->lru, &lru);
			continue;
		}
		list_del_init(&p->lru);
		ClearPageLRU(p);
		lru_pages--;
		page = p;
	}
	spin_unlock_irqrestore(&lru_lock, flags);
	return page;
}

/* Put a page we could not free back at the head. */
static void putback_page(struct page *page)
{
	if (page->mapping)
		lru_cache_add(page);
	page_cache_release(page);
}

/* Start writeback of a locked dirty page for reclaim; unlocks it. */
static void pageout(struct page *page)
{
	struct writeback_control wbc = { WB_SYNC_NONE, 1, true };

	if (!clear_page_dirty_for_io(page)) {
		unlock_page(page);
		return;
	}
	SetPageReclaim(page);
	page->mapping->a_ops->writepage(page, &wbc);
}

/* Try to free one isolated page (we hold a reference); unmap: take it
 * from processes that map it (reclaim), or leave mapped pages alone
 * (drop_caches, as Linux). */
static bool shrink_page(struct page *page, bool unmap)
{
	struct address_space *mapping;

	if (PageReferenced(page)) {
		ClearPageReferenced(page);
		return false;
	}
	if (!trylock_page(page))
		return false;
	mapping = page->mapping;
	if (!mapping || PageWriteback(page))
		goto keep;
	/* Mapped into processes: take it out of their page tables first (a
	 * later access faults it back in); a dirty PTE dirties the page. */
	if (page->_mapcount >= 0 && (!unmap || !try_to_unmap(page)))
		goto keep;
	if (PageDirty(page)) {
		if (mapping_cap_writeback(mapping))
			pageout(page);
		else
			unlock_page(page);
		return false;
	}
	if (PagePrivate(page) && (!mapping->a_ops->releasepage ||
				  !mapping->a_ops->releasepage(page, 0)))
		goto keep;
	if (page_count(page) != 2)	/* the cache's and ours: no one else */
		goto keep;
	delete_from_page_cache(page);
	unlock_page(page);
	return true;
keep:
	unlock_page(page);
	return false;
}

unsigned long try_to_free_pages(unsigned long nr)
{
	struct task_struct *t = current;
	unsigned long freed = 0, scan = 2 * lru_pages + 1;
	bool was_memalloc = t->flags & PF_MEMALLOC;

	t->flags |= PF_MEMALLOC;
	while (freed < nr && scan--) {
		struct page *page = isolate_lru_tail();

		if (!page)
			break;
		if (shrink_page(page, true)) {
			page_cache_release(page);	/* the last reference */
			freed++;
		} else {
			putback_page(page);
		}
	}
	/* Then negative dentries (about 16 to a page), which hold no inode:
	 * freeing them reaches no file system, which reclaim may have been
	 * called from. */
	if (freed < nr)
		freed += prune_dcache_negative(16 * (nr - freed)) / 16;
	if (!was_memalloc)
		t->flags &= ~PF_MEMALLOC;
	return freed;
}

/* Drop every clean, unused page-cache page: echo 1 > drop_caches. */
unsigned long drop_pagecache(void)
{
	unsigned long freed = 0, scan = lru_pages;

	while (scan--) {
		struct page *page = isolate_lru_tail();

		if (!page)
			break;
		ClearPageReferenced(page);
		if (!PageDirty(page) && shrink_page(page, false)) {
			page_cache_release(page);
			freed++;
		} else {
			putback_page(page);
		}
	}
	return freed;
}
