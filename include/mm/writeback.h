/*
 * Writeback (mm/page-writeback.c) and reclaim (mm/vmscan.c): how dirty
 * page-cache pages reach the disk, and how clean ones are given back when
 * memory runs short.
 *
 * Page states: a page is dirtied (set_page_dirty: PG_dirty, its inode gets
 * I_DIRTY_PAGES), then written: under the page lock clear_page_dirty_for_io
 * takes PG_dirty off and ->writepage sets PG_writeback, starts the I/O and
 * unlocks; when the I/O ends end_page_writeback clears PG_writeback. Only
 * clean pages without writeback, users or mappings can be reclaimed.
 */
#ifndef _MM_WRITEBACK_H
#define _MM_WRITEBACK_H

#include <fs/fs.h>
#include <kernel/bitops.h>
#include <kernel/panic.h>

/* Does this mapping have a backing store to write dirty pages to? */
static inline bool mapping_cap_writeback(struct address_space *mapping)
{
	return mapping && mapping->a_ops && mapping->a_ops->writepage;
}

/* An I/O error seen while writing back mapping, for fsync to report. */
#define AS_EIO 0
void mapping_set_error(struct address_space *mapping, int err);

/*
 * The file's size is changing (pagelab's; Linux has no such bit): set
 * with i_mutex held before i_size moves (do_truncate, a write that
 * leaves a gap past the old EOF in generic_write_end), cleared once the
 * page cache agrees with the new size (truncate_pagecache's second unmap,
 * or pagecache_isize_extended, done). Meanwhile the page cache may hold
 * what the new size contradicts, and that is not a bug: a dropped page
 * still mapped until the second unmap, bytes a mapping stored past the
 * old EOF not yet zeroed. check_stale_pte (mm/memory.c) waits for the end
 * instead of judging; writeback (fs/buffer_page.c) trusts only what both
 * sizes hold, so it remembers the size the change started from.
 */
#define AS_RESIZING 1

static inline void mapping_resize_begin(struct address_space *mapping)
{
	BUG_ON(!mutex_is_locked(&mapping->host->i_mutex));
	WRITE_ONCE(mapping->resize_from, i_size_read(mapping->host));
	set_bit(AS_RESIZING, &mapping->flags);	/* after resize_from */
}

static inline void mapping_resize_end(struct address_space *mapping)
{
	clear_bit(AS_RESIZING, &mapping->flags);
}

static inline bool mapping_resizing(struct address_space *mapping)
{
	return test_bit(AS_RESIZING, &mapping->flags);
}

/* What writeback may take as EOF, given i_size read just before: i_size,
 * or while the size changes the smaller of the old and the new (the part
 * both call file data). i_size first: a new size read means the flag was
 * set before it, and is seen set (or already cleared, the change done). */
static inline loff_t mapping_settled_size(struct address_space *mapping,
					  loff_t i_size)
{
	barrier();
	if (mapping_resizing(mapping))
		return min(i_size, READ_ONCE(mapping->resize_from));
	return i_size;
}

bool __set_page_dirty_nobuffers(struct page *page);
/* Account a page that just became dirty (the inode is marked too). */
void account_page_dirtied(struct page *page);
/* Page locked: take PG_dirty off before ->writepage; true if it was set. */
bool clear_page_dirty_for_io(struct page *page);
void set_page_writeback(struct page *page);
/* The I/O is over (possibly from an interrupt handler). */
void end_page_writeback(struct page *page);
void wait_on_page_writeback(struct page *page);

int write_cache_pages(struct address_space *mapping,
		      struct writeback_control *wbc);
int filemap_fdatawrite(struct address_space *mapping);
/* Wait for writeback under way; -EIO if any of it failed. */
int filemap_fdatawait(struct address_space *mapping);
int filemap_write_and_wait(struct address_space *mapping);
/* Pages and then the inode itself; wait with WB_SYNC_ALL. */
int writeback_single_inode(struct inode *inode, struct writeback_control *wbc);
/* Every dirty inode of sb, written and waited for (sync, umount). */
void sync_inodes_sb(struct super_block *sb);
/* Writers call this after dirtying a page: over the dirty limit, they
 * write back some pages themselves. */
void balance_dirty_pages_ratelimited(struct address_space *mapping);
unsigned long nr_dirty_pages(void);
unsigned long nr_writeback_pages(void);	/* under PG_writeback */

/* The LRU of reclaimable page-cache pages (mm/vmscan.c). */
void lru_cache_add(struct page *page);
/* Pages on the LRU: the page cache reclaim could give back. */
unsigned long nr_lru_pages(void);
void lru_cache_del(struct page *page);
void mark_page_accessed(struct page *page);
/* Free up to nr pages; returns how many were freed. */
unsigned long try_to_free_pages(unsigned long nr);
/* /proc/sys/vm/drop_caches: drop clean unused page-cache pages. */
unsigned long drop_pagecache(void);

#endif
