/*
 * Checks on struct page (mm/debug.c), in Linux's names: a broken page
 * invariant is reported where it is broken, with the page's state and a
 * backtrace, instead of surfacing later as a leak, a hang or bad data.
 *
 *	VM_BUG_ON_PAGE(!PageLocked(page), page);	caller holds the lock
 *	dump_page(page, "why");				state, no panic
 *	bad_page(page, "freed while locked");		"BUG: Bad page state"
 */
#ifndef _MM_MMDEBUG_H
#define _MM_MMDEBUG_H

#include <kernel/compiler.h>

struct page;

void dump_page(const struct page *page, const char *reason);
/* Every byte still the poison of its last free (mm/page_alloc.c). */
bool page_never_written(struct page *page);
__cold __noreturn void bad_page(const struct page *page, const char *reason);
__cold __noreturn void vm_bug_page(const struct page *page, const char *cond,
				   const char *file, int line);
/* get_page or put_page saw an impossible count (include/mm/mm.h). */
__cold __noreturn void page_ref_bug(const struct page *page, const char *what);

#define VM_BUG_ON_PAGE(cond, page)                                      \
	do {                                                            \
		if (unlikely(cond))                                     \
			vm_bug_page(page, #cond, __FILE__, __LINE__);   \
	} while (0)

#endif
