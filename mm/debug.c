/*
 * mm/debug.c: reports of a struct page in a state it must never be in.
 *
 * Each report names what was wrong ("freed while locked"), shows the page
 * (count, mapcount, mapping, index, flags by name) and panics, so that the
 * backtrace points at the function that broke the rule rather than at
 * whoever trips over the page later: a page freed while locked is
 * otherwise seen only when a second waiter sleeps on its lock for ever, a
 * double put only when the leak audit counts pages after the program.
 * (Linux: mm/debug.c dump_page, mm/page_alloc.c bad_page.)
 */
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/mm.h>
#include <mm/mmdebug.h>

static const char *const page_flag_names[] = {
	[PG_locked] = "locked",		[PG_uptodate] = "uptodate",
	[PG_dirty] = "dirty",		[PG_writeback] = "writeback",
	[PG_lru] = "lru",		[PG_reserved] = "reserved",
	[PG_buddy] = "buddy",		[PG_slab] = "slab",
	[PG_large_kmalloc] = "large_kmalloc",
	[PG_private] = "private",	[PG_referenced] = "referenced",
	[PG_reclaim] = "reclaim",	[PG_readahead] = "readahead",
	[PG_poisoned] = "poisoned",	[PG_pcp] = "pcp",
};

/* "locked|dirty" into buf, or "none". */
static void flag_names(unsigned long flags, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int b = 0; b < ARRAY_SIZE(page_flag_names); b++)
		if ((flags & (1UL << b)) && page_flag_names[b])
			n += snprintf(buf + n, n < size ? size - n : 0, "%s%s",
				      n ? "|" : "", page_flag_names[b]);
	if (!n)
		strlcpy(buf, "none", size);
}

void dump_page(const struct page *page, const char *reason)
{
	char names[128];

	flag_names(page->flags, names, sizeof(names));
	printk(KERN_EMERG "page:%p pfn:0x%lx refcount:%d mapcount:%d "
	       "mapping:%p index:0x%lx\n", page, page_to_pfn(page),
	       page->_refcount, page->_mapcount + 1,
	       PageSlab(page) ? NULL : page->mapping,
	       PageSlab(page) ? 0 : page->index);
	printk(KERN_EMERG "flags: 0x%lx(%s)\n", page->flags, names);
	page_owner_dump(page);
	printk(KERN_EMERG "page dumped because: %s\n", reason);
}

void bad_page(const struct page *page, const char *reason)
{
	printk(KERN_EMERG "BUG: Bad page state: pfn 0x%lx %s\n",
	       page_to_pfn(page), reason);
	dump_page(page, reason);
	panic("Bad page state: %s", reason);
}

void vm_bug_page(const struct page *page, const char *cond, const char *file,
		 int line)
{
	char why[96];

	snprintf(why, sizeof(why), "VM_BUG_ON_PAGE(%s)", cond);
	dump_page(page, why);
	panic("kernel BUG at %s:%d: %s", file, line, why);
}

void page_ref_bug(const struct page *page, const char *what)
{
	printk(KERN_EMERG "BUG: %s: pfn 0x%lx\n", what, page_to_pfn(page));
	dump_page(page, what);
	panic("%s", what);
}
