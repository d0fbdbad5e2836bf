/*
 * mm/filemap.c: the page cache.
 *
 * Roadmap, bottom to top:
 *   1. The page lock (PG_locked) and its sleepers: a small hashed table of
 *      wait queues, so struct page needs no wait queue of its own.
 *   2. The index: each address_space maps page offsets to struct pages in
 *      a radix tree (lib/radix_tree.c) under mapping->tree_lock.
 *      find_get_page looks up, add_to_page_cache inserts,
 *      delete_from_page_cache removes (mm/truncate.c removes ranges).
 *   3. generic_file_read: the read(2) loop over pages, calling the file
 *      system's ->readpage for pages that are missing or not uptodate.
 *   4. generic_file_write: the write(2) loop, handing each page to the
 *      file system's ->write_begin / ->write_end around the user copy.
 *
 * Above sit read(2)/write(2) (fs/read_write.c) through a file system's
 * file_operations; below, the file system's address_space_operations (for
 * ramfs, the simple_* helpers in fs/libfs.c, which keep pages in memory
 * for good). Page references: the cache owns one per indexed page; every
 * find_* returns one more for the caller.
 */
#include <kernel/preempt.h>
#include <kernel/explore.h>
#include <mm/filemap.h>
#include <mm/writeback.h>
#include <fs/fs.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/wait.h>
#include <kernel/vmstat.h>

static unsigned long pagecache_pages;	/* in every mapping together */

unsigned long nr_pagecache_pages(void)
{
	return READ_ONCE(pagecache_pages);
}

void address_space_init_once(struct address_space *mapping,
			     struct inode *host)
{
	INIT_RADIX_TREE(&mapping->page_tree);
	spin_lock_init(&mapping->tree_lock);
	mapping->nrpages = 0;
	mapping->host = host;
	mapping->a_ops = NULL;
	INIT_LIST_HEAD(&mapping->i_mmap);
	spin_lock_init(&mapping->i_mmap_lock);
	spin_lock_init(&mapping->private_lock);
	mapping->flags = 0;
}

/* ---- 1. the page lock ---------------------------------------------------- */

/*
 * Sleepers on a page lock wait on one of these queues, chosen by hashing
 * the page. Two pages may share a queue: wake_up wakes both waiters and
 * each re-checks its own page, which is all wait_event needs.
 */
#define PAGE_WAIT_TABLE_BITS 6
static wait_queue_head_t page_wait_table[1 << PAGE_WAIT_TABLE_BITS];

/* At boot, before anything can wait (start_kernel). */
void pagecache_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(page_wait_table); i++)
		init_waitqueue_head(&page_wait_table[i]);
}

wait_queue_head_t *page_waitqueue(struct page *page)
{
	unsigned long hash;

	hash = page_to_pfn(page) * 0x9e3779b97f4a7c15UL;
	return &page_wait_table[hash >> (64 - PAGE_WAIT_TABLE_BITS)];
}

bool trylock_page(struct page *page)
{
	if (test_and_set_bit(PG_locked, &page->flags))
		return false;
	if (unlikely(page_owner_on))
		__page_owner_lock(page, _RET_IP_);	/* our caller took it */
	return true;
}

void __sched lock_page(struct page *page)
{
	wait_queue_head_t *wq = page_waitqueue(page);

	might_sleep();
	explore_point(EP_LOCK_PAGE, _RET_IP_);
	while (test_and_set_bit(PG_locked, &page->flags))
		wait_event(*wq, !PageLocked(page));
	if (unlikely(page_owner_on))
		__page_owner_lock(page, _RET_IP_);
	if (unlikely(explore_active))
		explore_page_locked();
}

void unlock_page(struct page *page)
{
	BUG_ON(!PageLocked(page));
	clear_bit(PG_locked, &page->flags);
	wake_up(page_waitqueue(page));
	explore_point(EP_UNLOCK_PAGE, _RET_IP_);
}

void __sched wait_on_page_locked(struct page *page)
{
	if (PageLocked(page))
		wait_event(*page_waitqueue(page), !PageLocked(page));
}

bool set_page_dirty(struct page *page)
{
	struct address_space *mapping = page->mapping;

	if (mapping && mapping->a_ops && mapping->a_ops->set_page_dirty)
		return mapping->a_ops->set_page_dirty(page);
	return __set_page_dirty_nobuffers(page);
}

/* ---- 2. the index ---------------------------------------------------------- */

/*
 * LAB pagecache: find_get_page and add_to_page_cache start from these.
 * struct page *find_get_page(struct address_space *mapping, pgoff_t index)
 * {
 *	return NULL;
 * }
 *
 * int add_to_page_cache(struct page *page, struct address_space *mapping,
 *		      pgoff_t index, gfp_t gfp)
 * {
 *	return -ENOMEM;
 * }
 */
/* LAB pagecache: BEGIN */
struct page *find_get_page(struct address_space *mapping, pgoff_t index)
{
	unsigned long flags;
	struct page *page;

	/* The reference is taken under tree_lock: once the lock is dropped
	 * the page could be deleted from the cache and freed. */
	spin_lock_irqsave(&mapping->tree_lock, flags);
	page = radix_tree_lookup(&mapping->page_tree, index);
	if (page)
		page_cache_get(page);
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	return page;
}

int add_to_page_cache(struct page *page, struct address_space *mapping,
		      pgoff_t index, gfp_t gfp)
{
	unsigned long flags;
	int err;

	BUG_ON(PageLocked(page) || page->mapping);
	/* The tree's nodes are allocated now, while we may still sleep to
	 * reclaim memory: under tree_lock (interrupts off) kmalloc could only
	 * fail, and a write would return ENOMEM with plenty of clean cache
	 * left to reclaim. */
	err = radix_tree_preload(gfp);
	if (err)
		return err;
	/* Nobody else can see the page yet, so locking it cannot block; it
	 * must be locked before it is visible, so that a reader finding it
	 * waits for ->readpage instead of reading garbage. */
	SetPageLocked(page);
	page_cache_get(page);
	page->mapping = mapping;
	page->index = index;
	spin_lock_irqsave(&mapping->tree_lock, flags);
	err = radix_tree_insert(&mapping->page_tree, index, page);
	if (!err) {
		mapping->nrpages++;
		pagecache_pages++;
	}
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	if (err) {
		page->mapping = NULL;
		ClearPageLocked(page);
		page_cache_release(page);
	}
	return err;
}
/* LAB pagecache: END */

/*
 * add_to_page_cache, and onto the LRU when reclaim could ever free the
 * page (its file has a ->writepage to clean it with).
 */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping,
			  pgoff_t index, gfp_t gfp)
{
	int err = add_to_page_cache(page, mapping, index, gfp);

	if (!err && mapping_cap_writeback(mapping))
		lru_cache_add(page);
	return err;
}

void delete_from_page_cache(struct page *page)
{
	struct address_space *mapping = page->mapping;
	unsigned long flags;

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	lru_cache_del(page);
	spin_lock_irqsave(&mapping->tree_lock, flags);
	cancel_dirty_page(page);	/* nobody will write it now */
	radix_tree_delete(&mapping->page_tree, page->index);
	mapping->nrpages--;
	pagecache_pages--;
	/* mapping == NULL tells anyone who locks the page next that it is
	 * no longer part of the file. */
	page->mapping = NULL;
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	explore_page_removed(page);	/* it must be freed by the end */
	page_cache_release(page);
}

/*
 * Count first, then mapping: truncation clears ->mapping before it drops
 * the cache's reference, so a count of 1 with the mapping still set is
 * never that. (A page with buffers holds one more, and other holders may
 * too: then a missing reference goes unseen here, never wrongly seen.)
 */
void __check_found_page(struct page *page, struct address_space *mapping,
			unsigned long ip)
{
	int count;

	if (!page)
		return;
	count = page_count(page);
	barrier();
	if (likely(count > 1 || READ_ONCE(page->mapping) != mapping))
		return;
	printk(KERN_EMERG "BUG: find_get_page returned page index %lu of "
	       "inode %lu with no reference of its own (count %d: the page "
	       "cache's alone); it must take one, under tree_lock, before it "
	       "returns the page (seen in %pS)\n", page->index,
	       mapping->host ? mapping->host->i_ino : 0, count, (void *)ip);
	dump_page(page, "find_get_page returned it unreferenced");
	panic("find_get_page returned page index %lu without a reference",
	      page->index);
}

struct page *find_lock_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page;

repeat:
	page = find_get_page(mapping, index);
	check_found_page(page, mapping);
	if (page) {
		lock_page(page);
		/* Truncated while we slept on the lock? Look again. */
		if (page->mapping != mapping) {
			unlock_page(page);
			page_cache_release(page);
			goto repeat;
		}
	}
	return page;
}

struct page *find_or_create_page(struct address_space *mapping,
				 pgoff_t index, gfp_t gfp)
{
	struct page *page;
	int err;

repeat:
	page = find_lock_page(mapping, index);
	if (page)
		return page;
	page = alloc_page(gfp);
	if (!page)
		return NULL;
	err = add_to_page_cache_lru(page, mapping, index, gfp);
	if (err) {
		page_cache_release(page);
		if (err == -EEXIST)	/* someone else added it first */
			goto repeat;
		return NULL;
	}
	return page;
}

/* Up to nr pages at or after start, each referenced. */
unsigned int find_get_pages(struct address_space *mapping,
				   pgoff_t start, unsigned int nr,
				   struct page **pages)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&mapping->tree_lock, flags);
	n = radix_tree_gang_lookup(&mapping->page_tree, (void **)pages, start,
				   nr);
	for (unsigned int i = 0; i < n; i++)
		page_cache_get(pages[i]);
	spin_unlock_irqrestore(&mapping->tree_lock, flags);
	return n;
}

/* ---- 3. reading ---------------------------------------------------------- */

/*
 * Read-ahead for a read through file (mm/readahead.c): a miss (page
 * NULL) starts a window, reaching a marked page starts the next one.
 * Returns the page at index, referenced: cached (perhaps locked, being
 * read) unless read-ahead could not add it (NULL).
 */
static struct page *readahead_page(struct address_space *mapping,
				   pgoff_t index, struct file *file,
				   struct page *page)
{
	struct file_ra_state *ra = &file->f_ra;

	if (!page) {
		page_cache_sync_readahead(mapping, ra, file, index);
		page = find_get_page(mapping, index);
		check_found_page(page, mapping);
	} else if (PageReadahead(page)) {
		page_cache_async_readahead(mapping, ra, file, page, index);
	}
	ra->prev_index = index + 1;
	return page;
}

/*
 * The uptodate page at index, referenced: from the cache, or read in by
 * ->readpage (with read-ahead around it when a file is given).
 * ERR_PTR(-ENOMEM, -EIO, ...) when that fails.
 */
struct page *read_mapping_page(struct address_space *mapping, pgoff_t index,
			       struct file *file)
{
	struct page *page;
	int err;

repeat:
	page = find_get_page(mapping, index);
	check_found_page(page, mapping);
	/* A miss is a page that had to be read in: read-ahead counts the
	 * ones it reads, so a page it has just added is no hit. */
	if (page)
		count_vm_event(PGCACHE_HIT);
	if (file)
		page = readahead_page(mapping, index, file, page);
	if (!page) {
		count_vm_event(PGCACHE_MISS);
		page = page_cache_alloc(mapping);
		if (!page)
			return ERR_PTR(-ENOMEM);
		err = add_to_page_cache_lru(page, mapping, index, GFP_KERNEL);
		if (err) {
			page_cache_release(page);
			if (err == -EEXIST)
				goto repeat;
			return ERR_PTR(err);
		}
		goto readpage;	/* new pages come back locked */
	}
	if (PageUptodate(page))
		return page;
	lock_page(page);
	if (!page->mapping) {	/* truncated while we waited */
		unlock_page(page);
		page_cache_release(page);
		goto repeat;
	}
	if (PageUptodate(page)) {	/* someone else read it meanwhile */
		unlock_page(page);
		return page;
	}
readpage:
	/* ->readpage unlocks the page when the data is there (or not). */
	err = mapping->a_ops->readpage(file, page);
	if (err) {
		page_cache_release(page);
		return ERR_PTR(err);
	}
	wait_on_page_locked(page);
	if (!PageUptodate(page)) {
		page_cache_release(page);
		return ERR_PTR(-EIO);
	}
	return page;
}

/*
 * LAB pagecache: generic_file_read starts from this.
 * ssize_t generic_file_read(struct file *file, struct iov_iter *to,
 *			  loff_t *pos)
 * {
 *	return -ENOSYS;
 * }
 */
/* LAB pagecache: BEGIN */
ssize_t generic_file_read(struct file *file, struct iov_iter *to, loff_t *ppos)
{
	struct address_space *mapping = file->f_inode->i_mapping;
	struct inode *inode = mapping->host;
	loff_t pos = *ppos;
	ssize_t copied = 0;
	int error = 0;

	if (pos < 0)
		return -EINVAL;
	while (iov_iter_count(to)) {
		unsigned int offset = pos & ~PAGE_MASK;
		struct page *page;
		loff_t isize;
		size_t nr, ret;

		if (pos >= i_size_read(inode))
			break;
		page = read_mapping_page(mapping, pos >> PAGE_SHIFT, file);
		if (IS_ERR(page)) {
			error = PTR_ERR(page);
			break;
		}
		/* Read i_size again: a truncate may have run while the page
		 * was being read, and bytes past EOF must not be returned. */
		isize = i_size_read(inode);
		if (pos >= isize) {
			page_cache_release(page);
			break;
		}
		nr = min(PAGE_SIZE - offset, (size_t)(isize - pos));
		nr = min(nr, iov_iter_count(to));
		mark_page_accessed(page);
		ret = copy_to_iter((char *)page_address(page) + offset, nr, to);
		page_cache_release(page);
		copied += ret;
		pos += ret;
		if (ret < nr) {	/* the user buffer faulted */
			error = -EFAULT;
			break;
		}
	}
	*ppos = pos;
	touch_atime(file);
	return copied ? copied : error;
}
/* LAB pagecache: END */

/* ---- 4. writing ------------------------------------------------------------ */

int generic_write_checks(struct file *file, loff_t pos, size_t *count)
{
	struct inode *inode = file->f_inode;
	unsigned long limit = current->rlim[RLIMIT_FSIZE].rlim_cur;
	loff_t maxbytes = inode->i_sb->s_maxbytes;

	if (pos < 0)
		return -EINVAL;
	if (limit != RLIM_INFINITY && S_ISREG(inode->i_mode)) {
		if ((unsigned long)pos >= limit) {
			send_sig_info(SIGXFSZ, NULL, current);
			return -EFBIG;
		}
		*count = min(*count, limit - (unsigned long)pos);
	}
	if (pos >= maxbytes)
		return *count ? -EFBIG : 0;
	*count = min(*count, (size_t)(maxbytes - pos));
	return 0;
}

ssize_t generic_file_write(struct file *file, struct iov_iter *from,
			   loff_t *ppos)
{
	struct address_space *mapping = file->f_inode->i_mapping;
	const struct address_space_operations *a_ops = mapping->a_ops;
	size_t count = iov_iter_count(from);
	loff_t pos = *ppos;
	ssize_t written = 0;
	int err;

	if (file->f_flags & O_APPEND)
		pos = i_size_read(mapping->host);
	err = generic_write_checks(file, pos, &count);
	if (err || !count)
		return err;
	file_update_time(file);
	while (count) {
		unsigned int offset = pos & ~PAGE_MASK;
		unsigned int bytes = min(PAGE_SIZE - offset, count);
		struct page *page;
		void *fsdata = NULL;
		size_t copied;

		err = a_ops->write_begin(file, mapping, pos, bytes, 0, &page,
					 &fsdata);
		if (err)
			break;
		/* The copy runs with the page locked. Linux first faults the
		 * user buffer in, because a buffer mmapped from this very
		 * page would deadlock here; the mmap work must do the same. */
		copied = copy_from_iter((char *)page_address(page) + offset,
					bytes, from);
		err = a_ops->write_end(file, mapping, pos, bytes, copied, page,
				       fsdata);
		if (err < 0)
			break;
		written += err;
		pos += err;
		count -= err;
		balance_dirty_pages_ratelimited(mapping);
		if (copied < bytes) {	/* the user buffer faulted */
			err = -EFAULT;
			break;
		}
		err = 0;
	}
	*ppos = pos;
	return written ? written : err;
}

ssize_t generic_file_write_iter(struct file *file, struct iov_iter *from,
				loff_t *pos)
{
	struct inode *inode = file->f_inode;
	ssize_t ret;

	mutex_lock(&inode->i_mutex);
	ret = generic_file_write(file, from, pos);
	mutex_unlock(&inode->i_mutex);
	return ret;
}
