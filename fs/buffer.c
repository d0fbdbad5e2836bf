/*
 * fs/buffer.c: buffer heads, the layer between a disk file system and the
 * block layer (Linux's fs/buffer.c, a fraction of it).
 *
 *      ext2 (get_block: file block -> disk block)
 *        |
 *   page cache of a file --- a page = blocksize buffers (fs/buffer_page.c)
 *   page cache of the disk --- bitmaps, inode tables, indirect blocks
 *                              (sb_bread), buffers on the block device's
 *                              own pages
 *        |
 *   block layer (submit_bio) -> disk driver
 *
 * Roadmap of this file:
 *   1. buffer locks (sleeping, hashed wait queues) and I/O (submit_bh)
 *   2. the metadata buffer cache, on the block device's page cache:
 *      __getblk, __bread, brelse, sync_blockdev, invalidate_bdev
 *   3. buffers that belong to an inode's metadata (fsync), and
 *      mark_buffer_dirty
 * fs/buffer_page.c builds the address_space operations (readpage,
 * writepage, write_begin/end, truncation) on these.
 *
 * Locks: the page lock of a block device page protects its ring of
 * buffers (made, found, freed under it); assoc_lock the inodes' metadata
 * lists. BH_Lock, a sleeping bit lock, is held while a buffer is under
 * I/O; its completion (possibly in an interrupt handler) releases it.
 * b_count pins a buffer (and so its page: try_to_free_buffers refuses).
 */
#include <fs/buffer_head.h>
#include <asm/cmpxchg.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/wait.h>
#include <mm/filemap.h>
#include <mm/gfp.h>
#include <mm/slab.h>
#include <mm/writeback.h>

/* ---- 1. locks and I/O ----------------------------------------------------- */

#define BH_WAIT_BITS 5
static wait_queue_head_t bh_wait_table[1 << BH_WAIT_BITS];

/* At boot, before anything can wait (start_kernel): made on first use,
 * two tasks (or a task and an I/O completion) could both make one. */
void buffer_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bh_wait_table); i++)
		init_waitqueue_head(&bh_wait_table[i]);
}

static wait_queue_head_t *bh_waitqueue(struct buffer_head *bh)
{
	unsigned long hash = (unsigned long)bh * 0x9e3779b97f4a7c15UL;

	return &bh_wait_table[hash >> (64 - BH_WAIT_BITS)];
}

void __sched wait_on_buffer(struct buffer_head *bh)
{
	if (buffer_locked(bh))
		wait_event(*bh_waitqueue(bh), !buffer_locked(bh));
}

bool trylock_buffer(struct buffer_head *bh)
{
	return !test_and_set_bit(BH_Lock, &bh->b_state);
}

void __sched lock_buffer(struct buffer_head *bh)
{
	while (!trylock_buffer(bh))
		wait_on_buffer(bh);
}

void unlock_buffer(struct buffer_head *bh)
{
	clear_buffer_locked(bh);
	wake_up(bh_waitqueue(bh));
}

static void end_bio_bh_io_sync(struct bio *bio)
{
	struct buffer_head *bh = bio->bi_private;

	bh->b_end_io(bh, bio->bi_status == 0);
	bio_put(bio);
}

int submit_bh(enum req_op op, struct buffer_head *bh)
{
	struct bio *bio;

	BUG_ON(!buffer_locked(bh) || !buffer_mapped(bh) || !bh->b_end_io);
	set_buffer_req(bh);
	if (op == REQ_OP_WRITE)
		clear_buffer_write_io_error(bh);
	else if (unlikely(current->new_blocks))
		check_new_block_read(bh);
	bio = bio_alloc(bh->b_bdev, 1, op, GFP_KERNEL);
	if (!bio) {	/* only where we may not wait for the bio reserve */
		pr_err("buffer: %s: no memory for a bio: block %lu fails\n",
		       bh->b_bdev->bd_name, (unsigned long)bh->b_blocknr);
		bh->b_end_io(bh, 0);
		return -ENOMEM;
	}
	bio->bi_sector = bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT);
	bio_add_page(bio, bh->b_page, bh->b_size, bh_offset(bh));
	bio->bi_end_io = end_bio_bh_io_sync;
	bio->bi_private = bh;
	submit_bio(bio);
	return 0;
}

/* Completions for one buffer whose submitter waits (and holds a ref). */
void end_buffer_read_sync(struct buffer_head *bh, int uptodate)
{
	if (uptodate)
		set_buffer_uptodate(bh);
	else
		clear_buffer_uptodate(bh);
	unlock_buffer(bh);
	put_bh(bh);
}

void end_buffer_write_sync(struct buffer_head *bh, int uptodate)
{
	if (!uptodate) {
		pr_err("buffer: %s: I/O error writing block %lu\n",
		       bh->b_bdev->bd_name, bh->b_blocknr);
		set_buffer_write_io_error(bh);
		clear_buffer_uptodate(bh);
	}
	unlock_buffer(bh);
	put_bh(bh);
}

int bh_submit_read(struct buffer_head *bh)
{
	get_bh(bh);
	bh->b_end_io = end_buffer_read_sync;
	submit_bh(REQ_OP_READ, bh);
	wait_on_buffer(bh);
	if (buffer_uptodate(bh))
		return 0;
	pr_err("buffer: %s: I/O error reading block %lu\n",
	       bh->b_bdev->bd_name, bh->b_blocknr);
	return -EIO;
}

/* Start writing bh if it is dirty (it must not be locked by us). */
static void write_dirty_buffer(struct buffer_head *bh)
{
	lock_buffer(bh);
	if (!test_clear_buffer_dirty(bh)) {
		unlock_buffer(bh);
		return;
	}
	get_bh(bh);
	bh->b_end_io = end_buffer_write_sync;
	submit_bh(REQ_OP_WRITE, bh);
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	write_dirty_buffer(bh);
	wait_on_buffer(bh);
	return test_and_clear_bit(BH_Write_EIO, &bh->b_state) ? -EIO : 0;
}

static DEFINE_SPINLOCK(assoc_lock);
static LIST_HEAD(assoc_list);	/* buffers with a b_assoc_map */

/* ---- 2. the metadata buffer cache: the block device's page cache ----------- */

/*
 * As in Linux, metadata buffers live on pages of the block device's own
 * page cache: block b of size s is in page b / (PAGE_SIZE / s) of the
 * mapping of bdev->bd_inode, one buffer of the page's ring. So they are
 * found by a page-cache lookup, and reclaim and drop_caches free them like
 * any clean page (->releasepage: try_to_free_buffers refuses buffers in
 * use or dirty), while memory allows them to stay.
 *
 * What differs from Linux: such a page is never PG_dirty. Whether a block
 * must be written is its buffer's BH_Dirty alone, and sync_blockdev finds
 * those by walking the mapping (as pagelab's buffer cache always wrote
 * metadata: at sync, fsync and umount; the flusher, which finds dirty
 * pages through the super blocks' inodes, never sees these). A page's
 * buffers are all of one size; a request of another size finds the
 * page's buffers freed and made again, or fails while they are in use.
 * BH_Cache marks these buffers (mark_buffer_dirty leaves their page
 * alone, brelse only drops the count).
 */
static int bdev_writepage(struct page *page, struct writeback_control *wbc);
static bool bdev_releasepage(struct page *page, gfp_t gfp)
{
	return try_to_free_buffers(page);
}

static const struct address_space_operations bdev_aops = {
	.writepage = bdev_writepage,	/* (also what puts pages on the LRU) */
	.releasepage = bdev_releasepage,
};

/* The block device's page cache, made on first use; NULL if no memory. */
static struct address_space *bdev_mapping(struct block_device *bdev)
{
	struct inode *inode = bdev->bd_inode;

	if (inode)
		return inode->i_mapping;
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	if (!inode)
		return NULL;
	inode->i_count = 1;
	inode->i_mode = S_IFBLK;
	inode->i_rdev = bdev->bd_dev;
	inode->i_size = bdev->bd_nr_sectors << SECTOR_SHIFT;
	mutex_init(&inode->i_mutex);
	INIT_LIST_HEAD(&inode->i_sb_list);
	INIT_LIST_HEAD(&inode->i_hash);
	address_space_init_once(&inode->i_data, inode);
	inode->i_data.a_ops = &bdev_aops;
	inode->i_mapping = &inode->i_data;
	/* Another task may have made one while we slept or were preempted:
	 * only the first is installed. */
	if (cmpxchg(&bdev->bd_inode, NULL, inode) != NULL) {
		kfree(inode);
		return bdev->bd_inode->i_mapping;
	}
	return inode->i_mapping;
}

/* The page's ring for blocks of size, starting at block first; made (or
 * made again, for another size) if need be. Page locked. NULL if the
 * page's buffers are of another size and busy, or no memory. */
static struct buffer_head *bdev_page_buffers(struct page *page,
					     struct block_device *bdev,
					     sector_t first, unsigned int size)
{
	struct buffer_head *head, *bh;

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	if (page_has_buffers(page) && page_buffers(page)->b_size != size &&
	    !try_to_free_buffers(page))
		return NULL;
	if (page_has_buffers(page))
		return page_buffers(page);
	if (create_empty_buffers(page, size, (1UL << BH_Mapped) |
						     (1UL << BH_Cache)))
		return NULL;
	head = bh = page_buffers(page);
	do {
		bh->b_bdev = bdev;
		bh->b_blocknr = first++;
		bh = bh->b_this_page;
	} while (bh != head);
	return head;
}

/*
 * Buffer heads and the buffer cache's pages come from the reserve
 * (GFP_NOIO) when memory runs out: a block read that fails for want of
 * a buffer head is an I/O error to its caller, and ext2 freeing a
 * file's blocks then leaves them allocated and the inode without its
 * dtime (e2fsck complains). Linux gets the same effect by never letting
 * these allocations fail (__GFP_NOFAIL in alloc_page_buffers and
 * grow_buffers). Found with stress-ng's memory hogs at 256 MiB.
 */
struct buffer_head *alloc_buffer_head(void)
{
	struct buffer_head *bh = kzalloc(sizeof(*bh), GFP_NOIO);

	if (bh)
		INIT_LIST_HEAD(&bh->b_assoc_buffers);
	return bh;
}

static void remove_assoc(struct buffer_head *bh)
{
	spin_lock(&assoc_lock);
	list_del_init(&bh->b_assoc_buffers);
	bh->b_assoc_map = NULL;
	spin_unlock(&assoc_lock);
}

void free_buffer_head(struct buffer_head *bh)
{
	if (!list_empty(&bh->b_assoc_buffers))	/* a clean metadata buffer */
		remove_assoc(bh);
	kfree(bh);
}

/* Blocks of size per page, as a shift. */
static unsigned int blocks_shift(unsigned int size)
{
	return PAGE_SHIFT - (__builtin_ctz(size));
}

struct buffer_head *__getblk(struct block_device *bdev, sector_t block,
			     unsigned int size)
{
	struct address_space *mapping = bdev_mapping(bdev);
	unsigned int shift = blocks_shift(size);
	struct buffer_head *bh = NULL, *head;
	struct page *page;

	if (!mapping)
		return NULL;
	page = find_or_create_page(mapping, block >> shift, GFP_NOIO);
	if (!page)
		return NULL;
	head = bdev_page_buffers(page, bdev, block & ~((1UL << shift) - 1),
				 size);
	if (head) {
		bh = head;
		for (sector_t b = block & ((1UL << shift) - 1); b; b--)
			bh = bh->b_this_page;
		get_bh(bh);
		mark_page_accessed(page);
	}
	unlock_page(page);
	page_cache_release(page);
	if (!bh)
		pr_warn_once("buffer: %s: block %lu: no buffer of size %u\n",
			     bdev->bd_name, (unsigned long)block, size);
	return bh;
}

struct buffer_head *__bread(struct block_device *bdev, sector_t block,
			    unsigned int size)
{
	struct buffer_head *bh = __getblk(bdev, block, size);

	if (!bh || buffer_uptodate(bh))
		return bh;
	lock_buffer(bh);
	if (buffer_uptodate(bh)) {	/* read by someone else meanwhile */
		unlock_buffer(bh);
		return bh;
	}
	if (bh_submit_read(bh)) {
		brelse(bh);
		return NULL;
	}
	return bh;
}

void brelse(struct buffer_head *bh)
{
	if (!bh)
		return;
	BUG_ON(bh->b_count <= 0);
	put_bh(bh);
}

void bforget(struct buffer_head *bh)
{
	if (!bh)
		return;
	clear_buffer_dirty(bh);
	remove_assoc(bh);
	brelse(bh);
}

/* The cached buffer of block (any size), referenced, or NULL; no page is
 * made. */
static struct buffer_head *bdev_find_buffer(struct block_device *bdev,
					    sector_t block)
{
	struct buffer_head *bh = NULL, *head, *p;
	struct page *page;

	if (!bdev->bd_inode)
		return NULL;
	for (unsigned int size = 1024; size <= PAGE_SIZE && !bh; size <<= 1) {
		unsigned int shift = blocks_shift(size);

		page = find_lock_page(bdev->bd_inode->i_mapping, block >> shift);
		if (!page)
			continue;
		if (page_has_buffers(page) &&
		    page_buffers(page)->b_size == size) {
			p = head = page_buffers(page);
			do {
				if (p->b_blocknr == block) {
					bh = p;
					get_bh(bh);
				}
				p = p->b_this_page;
			} while (p != head);
		}
		unlock_page(page);
		page_cache_release(page);
	}
	return bh;
}

/*
 * Up to n dirty buffers of bdev's cache, referenced; *index moves past
 * the pages looked at. With assoc, instead, those associated with that
 * mapping (taken off its list: they are about to be written).
 */
static int grab_dirty(struct block_device *bdev, struct address_space *assoc,
		      pgoff_t *index, struct buffer_head **bhs, int n)
{
	struct buffer_head *bh, *next;
	struct page *pages[8];
	int got = 0;

	if (assoc) {
		spin_lock(&assoc_lock);
		list_for_each_entry_safe(bh, next, &assoc_list,
					 b_assoc_buffers) {
			if (got == n)
				break;
			if (bh->b_assoc_map != assoc)
				continue;
			list_del_init(&bh->b_assoc_buffers);
			bh->b_assoc_map = NULL;
			get_bh(bh);
			bhs[got++] = bh;
		}
		spin_unlock(&assoc_lock);
		return got;
	}
	if (!bdev->bd_inode)
		return 0;
	while (got + (int)(PAGE_SIZE / 1024) <= n) {
		unsigned int nr = find_get_pages(bdev->bd_inode->i_mapping,
						 *index, ARRAY_SIZE(pages),
						 pages);

		if (!nr)
			break;
		for (unsigned int i = 0; i < nr; i++) {
			struct page *page = pages[i];

			*index = page->index + 1;
			if (got + (int)(PAGE_SIZE / 1024) > n) {
				*index = min(*index, page->index);
				page_cache_release(page);
				continue;
			}
			lock_page(page);
			if (page_has_buffers(page)) {
				struct buffer_head *head = page_buffers(page);

				bh = head;
				do {
					if (buffer_dirty(bh)) {
						get_bh(bh);
						bhs[got++] = bh;
					}
					bh = bh->b_this_page;
				} while (bh != head);
			}
			unlock_page(page);
			page_cache_release(page);
		}
	}
	return got;
}

/* Write (if dirty) and wait for each of bhs, releasing them. */
static int write_and_release(struct buffer_head **bhs, int n)
{
	struct blk_plug plug;
	int err = 0;

	blk_start_plug(&plug);
	for (int i = 0; i < n; i++)
		write_dirty_buffer(bhs[i]);
	blk_finish_plug(&plug);
	for (int i = 0; i < n; i++) {
		wait_on_buffer(bhs[i]);
		if (test_and_clear_bit(BH_Write_EIO, &bhs[i]->b_state))
			err = -EIO;
		brelse(bhs[i]);
	}
	return err;
}

/* Write every dirty buffer of bdev, or of mapping, in batches; the first
 * error. */
static int write_dirty_buffers(struct block_device *bdev,
			       struct address_space *mapping)
{
	struct buffer_head *bhs[32];
	pgoff_t index = 0;
	int n, err = 0, ret;

	while ((n = grab_dirty(bdev, mapping, &index, bhs, ARRAY_SIZE(bhs)))) {
		ret = write_and_release(bhs, n);
		err = err ? err : ret;
	}
	return err;
}

/* ->writepage: these pages are never PG_dirty (see above), but reclaim
 * may still ask; write what is dirty and let it come back later. */
static int bdev_writepage(struct page *page, struct writeback_control *wbc)
{
	struct buffer_head *bhs[PAGE_SIZE / 512], *head, *bh;
	int n = 0;

	if (page_has_buffers(page)) {
		head = bh = page_buffers(page);
		do {
			if (buffer_dirty(bh)) {
				get_bh(bh);
				bhs[n++] = bh;
			}
			bh = bh->b_this_page;
		} while (bh != head);
	}
	unlock_page(page);
	return write_and_release(bhs, n);
}

int sync_blockdev(struct block_device *bdev)
{
	return write_dirty_buffers(bdev, NULL);
}

void invalidate_bdev(struct block_device *bdev)
{
	struct address_space *mapping;
	struct page *pages[8];
	pgoff_t index = 0;
	unsigned int nr;
	int busy = 0;

	sync_blockdev(bdev);
	if (!bdev->bd_inode)
		return;
	mapping = bdev->bd_inode->i_mapping;
	while ((nr = find_get_pages(mapping, index, ARRAY_SIZE(pages),
				    pages))) {
		for (unsigned int i = 0; i < nr; i++) {
			struct page *page = pages[i];

			index = page->index + 1;
			lock_page(page);
			if (page->mapping == mapping &&
			    try_to_free_buffers(page))
				delete_from_page_cache(page);
			else if (page->mapping == mapping)
				busy++;
			unlock_page(page);
			page_cache_release(page);
		}
	}
	if (busy) {
		pr_warn("buffer: %s: %d pages of buffers still busy\n",
			bdev->bd_name, busy);
		return;
	}
	/* Empty: the next mount makes it again (the self-tests count the
	 * kmalloc objects a mount leaves behind). */
	bdev->bd_inode = NULL;
	kfree(mapping->host);
}

void unmap_underlying_metadata(struct block_device *bdev, sector_t block)
{
	struct buffer_head *bh = bdev_find_buffer(bdev, block);

	if (!bh)
		return;
	clear_buffer_dirty(bh);
	wait_on_buffer(bh);
	/* A later sb_bread of this block must see what is on the disk then,
	 * not this stale copy. */
	clear_buffer_uptodate(bh);
	bforget(bh);
}

/* ---- 3. an inode's metadata buffers ------------------------------------------ */

void mark_buffer_dirty_inode(struct buffer_head *bh, struct inode *inode)
{
	struct address_space *mapping = inode->i_mapping;

	mark_buffer_dirty(bh);
	if (bh->b_assoc_map == mapping)
		return;
	spin_lock(&assoc_lock);
	list_del_init(&bh->b_assoc_buffers);
	list_add(&bh->b_assoc_buffers, &assoc_list);
	bh->b_assoc_map = mapping;
	spin_unlock(&assoc_lock);
}

int sync_mapping_buffers(struct address_space *mapping)
{
	return write_dirty_buffers(NULL, mapping);
}

void invalidate_inode_buffers(struct inode *inode)
{
	struct buffer_head *bh, *next;

	spin_lock(&assoc_lock);
	list_for_each_entry_safe(bh, next, &assoc_list, b_assoc_buffers)
		if (bh->b_assoc_map == inode->i_mapping) {
			list_del_init(&bh->b_assoc_buffers);
			bh->b_assoc_map = NULL;
		}
	spin_unlock(&assoc_lock);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	struct page *page = bh->b_page;

	if (buffer_dirty(bh) || test_set_buffer_dirty(bh))
		return;
	/* A page buffer of a file dirties its page, so writeback finds it
	 * (the block device's own pages stay clean: see section 2). */
	if (!test_bit(BH_Cache, &bh->b_state) && page->mapping)
		__set_page_dirty_nobuffers(page);
}

/* ---- checks -------------------------------------------------------------- */

bool map_bh_bad_block(struct super_block *sb, sector_t block)
{
	u64 blocks = sb->s_bdev->bd_nr_sectors >> (sb->s_blocksize_bits - 9);

	return block == 0 || block >= blocks;
}

void buffer_bug(const struct buffer_head *bh, const char *what)
{
	printk(KERN_EMERG "BUG: %s\n", what);
	printk(KERN_EMERG "buffer_head:%p block:%llu size:%zu count:%d "
	       "state:0x%lx page:%p\n", bh, (unsigned long long)bh->b_blocknr,
	       (size_t)bh->b_size, bh->b_count, bh->b_state, bh->b_page);
	panic("%s", what);
}
