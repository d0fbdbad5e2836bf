/*
 * mm/page-writeback.c: getting dirty page-cache pages to disk.
 *
 * Three callers want writeback, for three reasons:
 *   - data integrity: sync, fsync, umount (WB_SYNC_ALL: every dirty page
 *     of the file or file system, then wait for the I/O);
 *   - age: the flusher thread wakes every 5 s and writes inodes that have
 *     been dirty for 30 s (Linux's dirty_writeback/expire defaults);
 *   - pressure: a writer that finds more than dirty_limit pages dirty
 *     writes some back itself before dirtying more (so a file larger than
 *     RAM can be written), and reclaim writes dirty pages it wants to free.
 * All of them come down to write_cache_pages(): lock each dirty page,
 * clear_page_dirty_for_io(), ->writepage().
 *
 * Only mappings with a ->writepage count as dirty: ramfs pages stay dirty
 * forever by design and are not writeback's business.
 */
#include <mm/writeback.h>
#include <mm/rmap.h>
#include <kernel/panic.h>
#include <mm/filemap.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/init.h>
#include <kernel/string.h>
#include <fs/blkdev.h>
#include <fs/proc_fs.h>

/* /proc/sys/vm/dirty_expire_centisecs and dirty_writeback_centisecs,
 * Linux's names and defaults: write inodes dirty for 30 s, look every 5 s. */
static unsigned long dirty_expire_cs = 3000, dirty_writeback_cs = 500;
#define DIRTY_EXPIRE (dirty_expire_cs * HZ / 100)
#define FLUSH_INTERVAL max(1UL, dirty_writeback_cs * HZ / 100)

static unsigned long dirty_pages;	/* dirty pages of writeback mappings */
static unsigned long writeback_pages;	/* pages under PG_writeback */
static unsigned long dirty_limit = 1024;	/* pages; set from RAM size */
static DECLARE_WAIT_QUEUE_HEAD(flusher_wait);


unsigned long nr_dirty_pages(void)
{
	return READ_ONCE(dirty_pages);
}

unsigned long nr_writeback_pages(void)
{
	return READ_ONCE(writeback_pages);
}

void mapping_set_error(struct address_space *mapping, int err)
{
	if (err)
		set_bit(AS_EIO, &mapping->flags);
}

/*
 * Counted only while the page is still in its file, decided under the
 * tree_lock that delete_from_page_cache takes: set_page_dirty may come
 * from zap_pte on another CPU while truncation takes the page away, and
 * a page counted after it left would be counted for ever.
 */
void account_page_dirtied(struct page *page)
{
	struct address_space *mapping = READ_ONCE(page->mapping);
	unsigned long flags;
	bool counted = false;

	if (!mapping || !mapping_cap_writeback(mapping))
		return;
	spin_lock_irqsave(&mapping->tree_lock, flags);
	if (page->mapping == mapping) {
		__atomic_add_fetch(&dirty_pages, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&mapping->nrdirty, 1, __ATOMIC_RELAXED);
		counted = true;
	}
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	if (counted)
		__mark_inode_dirty(mapping->host, I_DIRTY_PAGES);
}

static void account_page_cleaned(struct page *page)
{
	if (!mapping_cap_writeback(page->mapping))
		return;
	__atomic_sub_fetch(&dirty_pages, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&page->mapping->nrdirty, 1, __ATOMIC_RELAXED);
}

bool __set_page_dirty_nobuffers(struct page *page)
{
	if (test_and_set_bit(PG_dirty, &page->flags))
		return false;
	account_page_dirtied(page);
	return true;
}

/*
 * Before a dirty page is written: write-protect it in every shared mapping
 * (page_mkclean), so that a store made after the write started faults,
 * calls page_mkwrite and dirties the page again instead of being lost.
 */
bool clear_page_dirty_for_io(struct page *page)
{
	BUG_ON(!PageLocked(page));
	if (page_mkclean(page))
		set_page_dirty(page);
	if (!test_and_clear_bit(PG_dirty, &page->flags))
		return false;
	account_page_cleaned(page);
	return true;
}

/* A dirty page leaves the cache unwritten (truncate): uncount it.
 * Under the tree_lock, with page->mapping still set. */
void cancel_dirty_page(struct page *page)
{
	if (test_and_clear_bit(PG_dirty, &page->flags) && page->mapping)
		account_page_cleaned(page);
}

/* Ends may come from a disk interrupt: the count is changed atomically. */
void set_page_writeback(struct page *page)
{
	if (!test_and_set_bit(PG_writeback, &page->flags))
		__atomic_add_fetch(&writeback_pages, 1, __ATOMIC_RELAXED);
}

void end_page_writeback(struct page *page)
{
	ClearPageReclaim(page);
	if (test_and_clear_bit(PG_writeback, &page->flags))
		__atomic_sub_fetch(&writeback_pages, 1, __ATOMIC_RELAXED);
	wake_up(page_waitqueue(page));
}

void __sched wait_on_page_writeback(struct page *page)
{
	if (PageWriteback(page))
		wait_event(*page_waitqueue(page), !PageWriteback(page));
}

/* Write one locked page if it is still dirty and ours; unlocks it. */
static int write_one_page(struct page *page, struct address_space *mapping,
			  struct writeback_control *wbc)
{
	VM_BUG_ON_PAGE(!PageLocked(page), page);
	if (page->mapping != mapping || (PageWriteback(page) &&
					 wbc->sync_mode == WB_SYNC_NONE)) {
		unlock_page(page);
		return 0;
	}
	wait_on_page_writeback(page);
	if (!clear_page_dirty_for_io(page)) {
		unlock_page(page);
		return 0;
	}
	wbc->nr_to_write--;
	return mapping->a_ops->writepage(page, wbc);
}

/*
 * Data integrity (WB_SYNC_ALL) walks the whole file from the start.
 * Cleaning (WB_SYNC_NONE) goes on where it stopped last time and wraps
 * once, as Linux's range_cyclic, so a big file is not rescanned from page
 * 0 by every throttled write.
 */
int write_cache_pages(struct address_space *mapping,
		      struct writeback_control *wbc)
{
	bool cyclic = wbc->sync_mode == WB_SYNC_NONE;
	pgoff_t start = cyclic ? mapping->writeback_index : 0, index = start;
	pgoff_t end = (pgoff_t)-1;	/* after wrapping: stop at start */
	struct page *pages[16];
	struct blk_plug plug;
	unsigned int n;
	int err = 0;

	blk_start_plug(&plug);	/* a page's blocks, and the next page's,
				 * reach the disk as one batch */
	while (wbc->nr_to_write > 0 && mapping->nrdirty) {
		n = find_get_pages(mapping, index, 16, pages);
		if (!n || index >= end) {
			while (n)
				page_cache_release(pages[--n]);
			if (start == 0 || end != (pgoff_t)-1)
				break;	/* the whole file has been seen */
			end = start;	/* once more from the start */
			index = 0;
			continue;
		}
		for (unsigned int i = 0; i < n; i++) {
			struct page *page = pages[i];
			int ret = 0;

			index = page->index + 1;
			if (PageDirty(page) && wbc->nr_to_write > 0 &&
			    page->index < end) {
				if (wbc->sync_mode == WB_SYNC_ALL)
					lock_page(page);
				else if (!trylock_page(page))
					goto next;
				ret = write_one_page(page, mapping, wbc);
			}
			if (ret && !err)
				err = ret;
next:
			page_cache_release(page);
		}
	}
	blk_finish_plug(&plug);
	if (cyclic)
		mapping->writeback_index = index;
	if (err)
		mapping_set_error(mapping, err);
	return err;
}

int filemap_fdatawrite(struct address_space *mapping)
{
	struct writeback_control wbc = { WB_SYNC_ALL, LONG_MAX, false };

	if (!mapping_cap_writeback(mapping))
		return 0;
	return write_cache_pages(mapping, &wbc);
}

int filemap_fdatawait(struct address_space *mapping)
{
	struct page *pages[16];
	pgoff_t index = 0;
	unsigned int n;

	while ((n = find_get_pages(mapping, index, 16, pages))) {
		for (unsigned int i = 0; i < n; i++) {
			index = pages[i]->index + 1;
			wait_on_page_writeback(pages[i]);
			page_cache_release(pages[i]);
		}
	}
	return test_and_clear_bit(AS_EIO, &mapping->flags) ? -EIO : 0;
}

int filemap_write_and_wait(struct address_space *mapping)
{
	int err = filemap_fdatawrite(mapping);
	int err2 = filemap_fdatawait(mapping);

	return err ? err : err2;
}

/*
 * One writeback of an inode at a time (Linux's I_SYNC). Two at once, on
 * two CPUs, could each take a dirty bit the other then trusts: sync(2)
 * finding I_DIRTY_SYNC already cleared by the flusher, which has not yet
 * copied the inode to its buffer, would return with the inode unwritten.
 * Cleaning (WB_SYNC_NONE) leaves a busy inode to its writer; data
 * integrity (WB_SYNC_ALL) waits for it, then does its own pass.
 */
static DECLARE_WAIT_QUEUE_HEAD(inode_sync_wait);

static bool inode_sync_begin(struct inode *inode,
			     enum writeback_sync_modes mode)
{
	while (__atomic_fetch_or(&inode->i_state, I_SYNC, __ATOMIC_SEQ_CST) &
	       I_SYNC) {
		if (mode == WB_SYNC_NONE)
			return false;
		wait_event(inode_sync_wait, !(READ_ONCE(inode->i_state) &
					      I_SYNC));
	}
	return true;
}

static void inode_sync_end(struct inode *inode)
{
	inode_state_clear(inode, I_SYNC);
	wake_up(&inode_sync_wait);
}

/* The pass itself; I_SYNC held. */
static int __writeback_single_inode(struct inode *inode,
				    struct writeback_control *wbc)
{
	struct address_space *mapping = inode->i_mapping;
	int err = 0, err2;

	inode_state_clear(inode, I_DIRTY_PAGES);
	if (mapping_cap_writeback(mapping))
		err = write_cache_pages(mapping, wbc);
	if (wbc->sync_mode == WB_SYNC_ALL) {
		err2 = filemap_fdatawait(mapping);
		err = err ? err : err2;
	}
	if (mapping_cap_writeback(mapping) && mapping->nrdirty)
		inode_state_set(inode, I_DIRTY_PAGES);	/* not all written */
	if ((inode->i_state & I_DIRTY_SYNC) && inode->i_sb->s_op &&
	    inode->i_sb->s_op->write_inode) {
		inode_state_clear(inode, I_DIRTY_SYNC);
		err2 = inode->i_sb->s_op->write_inode(
			inode, wbc->sync_mode == WB_SYNC_ALL);
		err = err ? err : err2;
	}
	return err;
}

int writeback_single_inode(struct inode *inode, struct writeback_control *wbc)
{
	int err;

	if (!inode_sync_begin(inode, wbc->sync_mode))
		return 0;
	err = __writeback_single_inode(inode, wbc);
	inode_sync_end(inode);
	return err;
}

/*
 * Write back the dirty inodes of sb: all of them (WB_SYNC_ALL), or, for
 * the flusher and throttled writers, until nr_to_write pages went out,
 * only those dirtied before older_than (jiffies; 0: any age).
 */
/* Dirty, and dirtied before *older_than (0: any age)? inode_lock held. */
static bool wants_writeback(struct inode *inode, void *older_than)
{
	unsigned long before = *(unsigned long *)older_than;

	return (inode->i_state & I_DIRTY) &&
	       !(before && time_after_jiffies(inode->dirtied_when, before));
}

static void writeback_inodes_sb(struct super_block *sb,
				struct writeback_control *wbc,
				unsigned long older_than)
{
	struct inode *inode = NULL, *prev;

	while ((inode = sb_next_inode(sb, prev = inode, wants_writeback,
				      &older_than))) {
		if (prev)
			iput(prev);	/* pinned until its successor was */
		writeback_single_inode(inode, wbc);
		if (wbc->sync_mode == WB_SYNC_NONE && wbc->nr_to_write <= 0)
			break;
	}
	if (inode)
		iput(inode);
	else if (prev)
		iput(prev);
}

void sync_inodes_sb(struct super_block *sb)
{
	struct writeback_control wbc = { WB_SYNC_ALL, LONG_MAX, false };

	writeback_inodes_sb(sb, &wbc, 0);
}

static void writeback_some(struct super_block *sb, void *arg)
{
	struct writeback_control *wbc = arg;

	if (!sb_rdonly(sb) && wbc->nr_to_write > 0)
		writeback_inodes_sb(sb, wbc, 0);
}

void balance_dirty_pages_ratelimited(struct address_space *mapping)
{
	struct writeback_control wbc = { WB_SYNC_NONE, 64, false };

	if (nr_dirty_pages() <= dirty_limit)
		return;
	wake_up(&flusher_wait);
	/* This file first: its pages are the ones we are piling up. */
	writeback_single_inode(mapping->host, &wbc);
	if (wbc.nr_to_write > 0 && nr_dirty_pages() > dirty_limit) {
		wbc.nr_to_write = 64;
		iterate_supers(writeback_some, &wbc);
	}
}

static void writeback_old(struct super_block *sb, void *arg)
{
	struct writeback_control wbc = { WB_SYNC_NONE, 1024, false };
	bool over = nr_dirty_pages() > dirty_limit / 2;

	if (!sb_rdonly(sb))
		writeback_inodes_sb(sb, &wbc,
				    over ? 0 : max(jiffies - DIRTY_EXPIRE, 1UL));
}

/* The flusher: Linux's bdi writeback thread, one for all disks. */
static void flusher_thread(void *unused)
{
	for (;;) {
		struct wait_queue_entry w = { 0 };

		prepare_to_wait(&flusher_wait, &w, TASK_INTERRUPTIBLE);
		if (nr_dirty_pages() <= dirty_limit / 2)
			schedule_timeout_interruptible(FLUSH_INTERVAL);
		finish_wait(&flusher_wait, &w);
		if (nr_dirty_pages())
			iterate_supers(writeback_old, NULL);
	}
}

static int show_cs(struct seq_file *m, void *data)
{
	seq_printf(m, "%lu\n", *(unsigned long *)data);
	return 0;
}

static int write_cs(const char *buf, size_t len, void *data)
{
	char *end;
	unsigned long v = simple_strtoul(buf, &end, 10);

	if (end == buf || (*end && *end != '\n') || v > 360000)
		return -EINVAL;
	*(unsigned long *)data = v;
	wake_up(&flusher_wait);	/* a shorter interval applies now */
	return 0;
}

static int writeback_init(void)
{
	proc_create_rw_data("sys/vm/dirty_expire_centisecs", 0644, show_cs,
			    write_cs, &dirty_expire_cs);
	proc_create_rw_data("sys/vm/dirty_writeback_centisecs", 0644, show_cs,
			    write_cs, &dirty_writeback_cs);
	/* Linux's vm.dirty_ratio is 20 % of memory; 10 % starts the flusher
	 * early. Small machines are the point here, so use 10 %. */
	dirty_limit = max(256UL, totalram_pages / 10);
	return kernel_thread(flusher_thread, NULL, "flush") < 0 ? -ENOMEM : 0;
}
device_initcall(writeback_init);
