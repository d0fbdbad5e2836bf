/*
 * fs/buffer.c: buffer heads, the layer between a disk file system and the
 * block layer (Linux's fs/buffer.c, a fraction of it).
 *
 *      ext2 (get_block: file block -> disk block)
 *        |
 *   page cache  --- a page of a file = blocksize buffers (fs/buffer_page.c)
 *   buffer cache --- bitmaps, inode tables, indirect blocks (sb_bread)
 *        |
 *   block layer (submit_bio) -> disk driver
 *
 * Roadmap of this file:
 *   1. buffer locks (sleeping, hashed wait queues) and I/O (submit_bh)
 *   2. the metadata buffer cache: __getblk, __bread, brelse, sync_blockdev,
 *      and how big it may grow (bcache_shrink, bcache_drop)
 *   3. buffers that belong to an inode's metadata (fsync), and
 *      mark_buffer_dirty
 * fs/buffer_page.c builds the address_space operations (readpage,
 * writepage, write_begin/end, truncation) on these.
 *
 * Locks: bcache_lock protects the cache's hash, its LRU of unused buffers
 * and b_count of cached buffers; assoc_lock the inodes' metadata lists
 * (taken inside bcache_lock). BH_Lock, a sleeping bit lock, is held while
 * a buffer is under I/O; its completion (possibly in an interrupt handler)
 * releases it.
 */
#include <fs/buffer_head.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/wait.h>
#include <mm/filemap.h>
#include <mm/gfp.h>
#include <mm/slab.h>
#include <mm/writeback.h>

/* ---- 1. locks and I/O ----------------------------------------------------- */

#define BH_WAIT_BITS 5
static wait_queue_head_t bh_wait_table[1 << BH_WAIT_BITS];

static wait_queue_head_t *bh_waitqueue(struct buffer_head *bh)
{
	static bool ready;
	unsigned long hash = (unsigned long)bh * 0x9e3779b97f4a7c15UL;

	if (unlikely(!ready)) {
		for (size_t i = 0; i < ARRAY_SIZE(bh_wait_table); i++)
			init_waitqueue_head(&bh_wait_table[i]);
		ready = true;
	}
	return &bh_wait_table[hash >> (64 - BH_WAIT_BITS)];
}

void wait_on_buffer(struct buffer_head *bh)
{
	if (buffer_locked(bh))
		wait_event(*bh_waitqueue(bh), !buffer_locked(bh));
}

bool trylock_buffer(struct buffer_head *bh)
{
	return !test_and_set_bit(BH_Lock, &bh->b_state);
}

void lock_buffer(struct buffer_head *bh)
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

/* ---- 2. the metadata buffer cache ------------------------------------------ */

/*
 * How much metadata stays cached. Unused buffers sit on an LRU; the cache
 * keeps up to an eighth of RAM of them (the inode tables, bitmaps and
 * indirect blocks of a busy file system: an unlink must not wait to
 * re-read the inode table block it read at create time), and gives them
 * back oldest first when memory runs short (bcache_shrink, called by
 * reclaim) or on drop_caches. Linux keeps them in the block device's page
 * cache, where reclaim sees them as pages; this is the smaller step.
 */
#define BH_HASH_BITS 12
#define BCACHE_RAM_SHARE 8	/* unused buffers: at most RAM / this */

static struct list_head bh_hash[1 << BH_HASH_BITS];
static LIST_HEAD(bh_lru);	/* unused cached buffers, newest first */
static unsigned long bh_lru_len, bh_lru_bytes;
static DEFINE_SPINLOCK(bcache_lock);
static DEFINE_SPINLOCK(assoc_lock);
static LIST_HEAD(assoc_list);	/* buffers with a b_assoc_map */

/* The hash starts empty; first use sets it up. bcache_lock held. */
static void bh_hash_init(void)
{
	static bool ready;

	if (unlikely(!ready)) {
		for (size_t i = 0; i < ARRAY_SIZE(bh_hash); i++)
			INIT_LIST_HEAD(&bh_hash[i]);
		ready = true;
	}
}

static struct list_head *hash_head(struct block_device *bdev, sector_t block)
{
	unsigned long h = ((unsigned long)bdev >> 4) + block;

	bh_hash_init();
	return &bh_hash[(h * 0x9e3779b97f4a7c15UL) >> (64 - BH_HASH_BITS)];
}

struct buffer_head *alloc_buffer_head(void)
{
	struct buffer_head *bh = kzalloc(sizeof(*bh), GFP_KERNEL);

	if (bh) {
		INIT_LIST_HEAD(&bh->b_assoc_buffers);
		INIT_LIST_HEAD(&bh->b_hash);
		INIT_LIST_HEAD(&bh->b_lru);
	}
	return bh;
}

void free_buffer_head(struct buffer_head *bh)
{
	kfree(bh);
}

static void remove_assoc(struct buffer_head *bh)
{
	spin_lock(&assoc_lock);
	list_del_init(&bh->b_assoc_buffers);
	bh->b_assoc_map = NULL;
	spin_unlock(&assoc_lock);
}

/* bcache_lock held; bh unused, clean and unlocked. */
static void free_cached_buffer(struct buffer_head *bh)
{
	list_del(&bh->b_hash);
	list_del(&bh->b_lru);
	bh_lru_len--;
	bh_lru_bytes -= bh->b_size;
	remove_assoc(bh);
	kfree(bh->b_data);
	kfree(bh);
}

/* Free the oldest clean unused buffers until at most limit bytes of
 * them are left; bytes freed. bcache_lock held. */
static unsigned long shrink_bcache(unsigned long limit)
{
	struct list_head *p = bh_lru.prev, *prev;
	unsigned long freed = 0;

	for (; p != &bh_lru && bh_lru_bytes > limit; p = prev) {
		struct buffer_head *bh = list_entry(p, struct buffer_head,
						    b_lru);

		prev = p->prev;	/* oldest first */
		if (!buffer_dirty(bh) && !buffer_locked(bh)) {
			freed += bh->b_size;
			free_cached_buffer(bh);
		}
	}
	return freed;
}

static unsigned long bcache_limit(void)
{
	return (totalram_pages << PAGE_SHIFT) / BCACHE_RAM_SHARE;
}

unsigned long bcache_shrink(unsigned long nr_pages)
{
	unsigned long want = nr_pages << PAGE_SHIFT, freed;

	spin_lock(&bcache_lock);
	freed = shrink_bcache(bh_lru_bytes > want ? bh_lru_bytes - want : 0);
	spin_unlock(&bcache_lock);
	return freed >> PAGE_SHIFT;
}

unsigned long bcache_drop(void)
{
	unsigned long freed;

	spin_lock(&bcache_lock);
	freed = shrink_bcache(0);
	spin_unlock(&bcache_lock);
	return freed;
}

/* Take a reference on a cached buffer; bcache_lock held. */
static void bh_grab_locked(struct buffer_head *bh)
{
	if (bh->b_count++ == 0 && test_bit(BH_Cache, &bh->b_state)) {
		list_del_init(&bh->b_lru);
		bh_lru_len--;
		bh_lru_bytes -= bh->b_size;
	}
}

static struct buffer_head *bcache_lookup(struct block_device *bdev,
					 sector_t block, unsigned int size)
{
	struct buffer_head *bh;

	list_for_each_entry(bh, hash_head(bdev, block), b_hash) {
		if (bh->b_bdev == bdev && bh->b_blocknr == block &&
		    bh->b_size == size) {
			bh_grab_locked(bh);
			return bh;
		}
	}
	return NULL;
}

struct buffer_head *__getblk(struct block_device *bdev, sector_t block,
			     unsigned int size)
{
	struct buffer_head *bh, *found;

	spin_lock(&bcache_lock);
	found = bcache_lookup(bdev, block, size);
	spin_unlock(&bcache_lock);
	if (found)
		return found;
	bh = alloc_buffer_head();
	if (!bh)
		return NULL;
	/* kmalloc gives power-of-two sizes their natural alignment, so a
	 * block never straddles a page: one bio segment is enough. */
	bh->b_data = kzalloc(size, GFP_KERNEL);
	if (!bh->b_data) {
		kfree(bh);
		return NULL;
	}
	bh->b_page = virt_to_page(bh->b_data);
	bh->b_bdev = bdev;
	bh->b_blocknr = block;
	bh->b_size = size;
	bh->b_count = 1;
	bh->b_state = (1UL << BH_Mapped) | (1UL << BH_Cache);
	spin_lock(&bcache_lock);
	found = bcache_lookup(bdev, block, size);	/* raced? */
	if (!found)
		list_add(&bh->b_hash, hash_head(bdev, block));
	spin_unlock(&bcache_lock);
	if (found) {
		kfree(bh->b_data);
		kfree(bh);
		return found;
	}
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
	if (!test_bit(BH_Cache, &bh->b_state)) {
		put_bh(bh);
		return;
	}
	spin_lock(&bcache_lock);
	BUG_ON(bh->b_count <= 0);
	if (--bh->b_count == 0) {
		list_add(&bh->b_lru, &bh_lru);
		bh_lru_len++;
		bh_lru_bytes += bh->b_size;
		if (bh_lru_bytes > bcache_limit())
			shrink_bcache(bcache_limit());
	}
	spin_unlock(&bcache_lock);
}

void bforget(struct buffer_head *bh)
{
	if (!bh)
		return;
	clear_buffer_dirty(bh);
	remove_assoc(bh);
	brelse(bh);
}

/*
 * Up to n dirty cached buffers of bdev (any bdev if NULL), referenced.
 * With assoc, only those associated with that mapping (taken off its
 * list: they are about to be written).
 */
static int grab_dirty(struct block_device *bdev, struct address_space *assoc,
		      struct buffer_head **bhs, int n)
{
	struct buffer_head *bh, *next;
	int got = 0;

	spin_lock(&bcache_lock);
	bh_hash_init();
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
			bh_grab_locked(bh);
			bhs[got++] = bh;
		}
		spin_unlock(&assoc_lock);
	}
	for (size_t i = 0; !assoc && i < ARRAY_SIZE(bh_hash) && got < n; i++)
		list_for_each_entry(bh, &bh_hash[i], b_hash) {
			if (got == n)
				break;
			if (bh->b_bdev != bdev || !buffer_dirty(bh))
				continue;
			bh_grab_locked(bh);
			bhs[got++] = bh;
		}
	spin_unlock(&bcache_lock);
	return got;
}

/* Write (if dirty) and wait for each of bhs, releasing them. */
static int write_and_release(struct buffer_head **bhs, int n)
{
	int err = 0;

	for (int i = 0; i < n; i++)
		write_dirty_buffer(bhs[i]);
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
	int n, err = 0, ret;

	while ((n = grab_dirty(bdev, mapping, bhs, ARRAY_SIZE(bhs)))) {
		ret = write_and_release(bhs, n);
		err = err ? err : ret;
	}
	return err;
}

int sync_blockdev(struct block_device *bdev)
{
	return write_dirty_buffers(bdev, NULL);
}

void invalidate_bdev(struct block_device *bdev)
{
	struct buffer_head *bh, *next;
	int busy = 0;

	sync_blockdev(bdev);
	spin_lock(&bcache_lock);
	bh_hash_init();
	for (size_t i = 0; i < ARRAY_SIZE(bh_hash); i++)
		list_for_each_entry_safe(bh, next, &bh_hash[i], b_hash) {
			if (bh->b_bdev != bdev)
				continue;
			if (bh->b_count || buffer_locked(bh) ||
			    buffer_dirty(bh))
				busy++;
			else
				free_cached_buffer(bh);
		}
	spin_unlock(&bcache_lock);
	if (busy)
		pr_warn("buffer: %s: %d buffers still busy\n", bdev->bd_name,
			busy);
}

void unmap_underlying_metadata(struct block_device *bdev, sector_t block)
{
	struct buffer_head *bh = NULL;

	spin_lock(&bcache_lock);
	for (unsigned int size = 1024; size <= PAGE_SIZE && !bh; size <<= 1)
		bh = bcache_lookup(bdev, block, size);
	spin_unlock(&bcache_lock);
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
	/* A page buffer dirties its page, so writeback finds it. */
	if (!test_bit(BH_Cache, &bh->b_state) && page->mapping)
		__set_page_dirty_nobuffers(page);
}
