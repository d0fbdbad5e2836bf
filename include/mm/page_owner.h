/*
 * Page owner (mm/page_owner.c; Linux has mm/page_owner.c): for every page
 * frame, where it was allocated, where its lock was last taken, and its
 * last references taken and dropped, each as a call stack in the stack
 * depot. A report about a page (mm/debug.c) then names the function that
 * locked a page nobody unlocked or took the reference nobody dropped, and
 * the leak check (/proc/page_owner, userland/bin/pagecheck) names where
 * the leaked pages came from. On unless page_owner=off; the reference
 * history only with page_owner=refs.
 */
#ifndef _MM_PAGE_OWNER_H
#define _MM_PAGE_OWNER_H

#include <kernel/compiler.h>
#include <kernel/stackdepot.h>

struct page;

/* True once page_owner_init has made room (page_owner=on, the default). */
extern bool page_owner_on;
/* The reference history too (page_owner=refs): a stack walk per get_page
 * and put_page, which slows a fault path several times over. */
extern bool page_owner_refs;

/* At boot, after mem_map: the per-frame records and the stack depot. */
void page_owner_init(void);

/* Each hook records the stack of its caller's caller, skip frames up: 0
 * when the hook is reached from an inline function (get_page), 1 from an
 * out-of-line one (alloc_pages, __free_pages). The lock hook records one
 * address, where the lock was taken. */
void __page_owner_alloc(struct page *page, unsigned int order,
			unsigned int skip);
void __page_owner_ref(struct page *page, int delta, unsigned int skip);
void __page_owner_lock(struct page *page, unsigned long ip);
void __page_owner_free(struct page *page, unsigned int order,
		       unsigned int skip);

static inline void page_owner_ref(struct page *page, int delta)
{
	if (unlikely(page_owner_refs))
		__page_owner_ref(page, delta, 0);
}

/* The page's history, a line each, for a report (dump_page). */
void page_owner_dump(const struct page *page);

/* "filemap_fault+0x5e/0x120" (where the page's lock was last taken) into
 * buf, or "" when not recorded. */
void page_owner_lock_site(const struct page *page, char *buf, size_t size);

#endif
