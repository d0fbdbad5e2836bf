/*
 * mm/readahead.c: reading a file ahead of a sequential reader.
 *
 * Without it a cold read(2) costs one disk round trip per page: the
 * reader asks for a page, waits for its blocks, copies, asks for the
 * next. With it the page cache is filled a window at a time, in large
 * requests that are all in flight together, and while the reader copies
 * one window the next is already being read. The shape is Linux's
 * on-demand read-ahead (mm/readahead.c since 2.6.23, "On-demand
 * readahead" by Wu Fengguang), simplified:
 *
 *   page_cache_sync_readahead   a miss. A reader that is sequential (at
 *                               page 0, or just after the page it read
 *                               last) gets a window from the missing page
 *                               on, twice the last one (RA_INIT_PAGES to
 *                               start, RA_MAX_PAGES at most); any other
 *                               miss reads that page alone.
 *   page_cache_async_readahead  the reader reached the page marked
 *                               PG_readahead, the first page of the
 *                               window's lookahead part: the next window
 *                               (twice as large) is started now, so it is
 *                               in memory when the reader gets there.
 *   do_readahead                the I/O: allocate the pages not cached
 *                               yet, add them to the cache locked, mark
 *                               one PG_readahead, hand them in batches to
 *                               a_ops->readpages (one request for many
 *                               blocks, fs/mpage.c) or ->readpage each.
 *                               Nothing waits: the reader then finds each
 *                               page locked until its read ends.
 *
 * Read-ahead is a hint: a page it cannot allocate or add is simply not
 * read ahead, and the reader's own ->readpage reads it later. It never
 * reads past i_size. Called by read_mapping_page (mm/filemap.c) for
 * reads through a file, so read(2) and file faults both use it.
 */
#include <mm/filemap.h>
#include <mm/writeback.h>
#include <fs/fs.h>
#include <kernel/errno.h>
#include <kernel/vmstat.h>

#define RA_INIT_PAGES 16UL	/* 64 KiB: one full bio */
#define RA_MAX_PAGES 256UL	/* 1 MiB */
#define RA_BATCH 32		/* pages handed to ->readpages at once */

/* Hand the batch to the file system; nothing waits for it. */
static void read_pages(struct address_space *mapping, struct file *file,
		       struct page **pages, unsigned int nr)
{
	const struct address_space_operations *a_ops = mapping->a_ops;

	if (a_ops->readpages) {
		a_ops->readpages(file, mapping, pages, nr);
	} else {
		for (unsigned int i = 0; i < nr; i++)
			a_ops->readpage(file, pages[i]);	/* unlocks */
	}
	for (unsigned int i = 0; i < nr; i++)
		page_cache_release(pages[i]);
}

/*
 * Start reading pages [start, start + nr) that are not cached, clipped to
 * i_size; the page at mark (if read here) gets PG_readahead. Batches hold
 * consecutive pages only: a cached page in between ends one.
 */
static void do_readahead(struct address_space *mapping, struct file *file,
			 pgoff_t start, unsigned long nr, pgoff_t mark)
{
	loff_t isize = i_size_read(mapping->host);
	struct page *pages[RA_BATCH];
	unsigned int n = 0;
	pgoff_t end;
	int err;

	if (!isize || !mapping->a_ops->readpage)
		return;
	end = min(start + nr, (pgoff_t)((isize - 1) >> PAGE_SHIFT) + 1);
	for (pgoff_t index = start; index < end; index++) {
		struct page *page = find_get_page(mapping, index);

		check_found_page(page, mapping);
		if (page) {	/* cached already: the batch ends here */
			page_cache_release(page);
			goto flush;
		}
		page = page_cache_alloc(mapping);
		if (!page)
			break;
		err = add_to_page_cache_lru(page, mapping, index, GFP_KERNEL);
		if (err) {
			page_cache_release(page);
			if (err != -EEXIST)	/* no memory: stop here */
				break;
			goto flush;	/* someone else added it */
		}
		count_vm_event(PGCACHE_MISS);	/* it has to be read in */
		if (index == mark)
			SetPageReadahead(page);
		pages[n++] = page;	/* locked, two references */
		if (n < RA_BATCH)
			continue;
flush:
		if (n)
			read_pages(mapping, file, pages, n);
		n = 0;
	}
	if (n)
		read_pages(mapping, file, pages, n);
}

/* Read the window ra describes; its lookahead part starts at the mark. */
static void ra_submit(struct file_ra_state *ra, struct address_space *mapping,
		      struct file *file)
{
	do_readahead(mapping, file, ra->start, ra->size,
		     ra->start + ra->size - ra->async_size);
}

void page_cache_sync_readahead(struct address_space *mapping,
			       struct file_ra_state *ra, struct file *file,
			       pgoff_t index)
{
	pgoff_t next = ra->prev_index;	/* the page after the last read */
	bool sequential = index == 0 || index == next || index + 1 == next;

	if (!sequential) {	/* random: just this page */
		ra->size = 0;
		do_readahead(mapping, file, index, 1, ~0UL);
		return;
	}
	ra->start = index;
	ra->size = ra->size ? min(2UL * ra->size, RA_MAX_PAGES) : RA_INIT_PAGES;
	/* All but the page asked for is lookahead: the next window starts
	 * as soon as the reader moves on. */
	ra->async_size = ra->size - 1;
	ra_submit(ra, mapping, file);
}

void page_cache_async_readahead(struct address_space *mapping,
				struct file_ra_state *ra, struct file *file,
				struct page *page, pgoff_t index)
{
	ClearPageReadahead(page);
	if (index >= ra->start && index < ra->start + ra->size)
		ra->start += ra->size;	/* the window after the current one */
	else
		ra->start = index + 1;	/* someone else's mark: go on from it */
	ra->size = ra->size ? min(2UL * ra->size, RA_MAX_PAGES) : RA_INIT_PAGES;
	ra->async_size = ra->size;
	ra_submit(ra, mapping, file);
}
