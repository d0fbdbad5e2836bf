/*
 * Buffer heads (fs/buffer.c, fs/buffer_page.c): one file system block in
 * memory, and where it lives on the disk. Linux's
 * include/linux/buffer_head.h.
 *
 * Two kinds, one structure:
 *   - page buffers: a page-cache page of a file split into blocks (four
 *     1 KiB blocks on a 4 KiB page). Each buffer says whether its block is
 *     mapped (b_blocknr is valid; a hole is unmapped), uptodate (the page
 *     holds the block's data) and dirty (the page's copy must be written).
 *     They hang off page->private in a ring (b_this_page), PG_private set,
 *     and hold a reference on the page.
 *   - metadata buffers: bitmaps, inode tables, indirect blocks, found by
 *     block number (sb_bread, sb_getblk) and released with brelse. As in
 *     Linux they are page buffers too, on pages of the block device's own
 *     page cache (bdev->bd_inode), so reclaim frees them like other clean
 *     pages; they carry BH_Cache, and their pages are never PG_dirty
 *     (sync_blockdev finds the dirty buffers itself: fs/buffer.c).
 *
 * Locking: BH_Lock (lock_buffer, sleeping) is held while a buffer is under
 * I/O and while its state changes together with its data; b_count pins a
 * buffer so the cache cannot drop it. A page's buffers are created and
 * freed under the page lock.
 */
#ifndef _FS_BUFFER_HEAD_H
#define _FS_BUFFER_HEAD_H

#include <fs/blkdev.h>
#include <kernel/list.h>

enum bh_state_bits {
	BH_Uptodate,	/* contains valid data */
	BH_Dirty,	/* must be written back */
	BH_Lock,	/* locked: I/O in flight, or state changing */
	BH_Req,	/* has been submitted for I/O */
	BH_Mapped,	/* b_bdev and b_blocknr are valid */
	BH_New,	/* get_block just allocated the block: it holds garbage */
	BH_Async_Read,	/* one of a page's reads in flight */
	BH_Async_Write,	/* one of a page's writes in flight */
	BH_Write_EIO,	/* the last write failed */
	BH_Cache,	/* pagelab: on a block device page (metadata) */
};

struct buffer_head;
/* I/O completion: uptodate says whether it worked. May run in an
 * interrupt handler: must not sleep. */
typedef void(bh_end_io_t)(struct buffer_head *bh, int uptodate);

/* The most buffers a page can have: 512-byte blocks. */
#define MAX_BUF_PER_PAGE (PAGE_SIZE / 512)

struct buffer_head {
	unsigned long b_state;	/* BH_* bits */
	struct buffer_head *b_this_page;	/* the page's ring */
	struct page *b_page;	/* the page holding b_data */
	sector_t b_blocknr;	/* block number on b_bdev (if mapped) */
	size_t b_size;	/* block size */
	char *b_data;	/* the data, inside b_page */
	struct block_device *b_bdev;
	bh_end_io_t *b_end_io;
	void *b_private;
	struct list_head b_assoc_buffers;	/* on the assoc list of ... */
	struct address_space *b_assoc_map;	/* ... this inode's mapping */
	int b_count;	/* users; reclaim frees only unused buffers */
};

#define BUFFER_FNS(bit, name)                                              \
	static inline void set_buffer_##name(struct buffer_head *bh)       \
	{                                                                  \
		set_bit(BH_##bit, &bh->b_state);                           \
	}                                                                  \
	static inline void clear_buffer_##name(struct buffer_head *bh)     \
	{                                                                  \
		clear_bit(BH_##bit, &bh->b_state);                         \
	}                                                                  \
	static inline bool buffer_##name(const struct buffer_head *bh)     \
	{                                                                  \
		return test_bit(BH_##bit, &bh->b_state);                   \
	}
#define TAS_BUFFER_FNS(bit, name)                                          \
	static inline bool test_set_buffer_##name(struct buffer_head *bh)  \
	{                                                                  \
		return test_and_set_bit(BH_##bit, &bh->b_state);           \
	}                                                                  \
	static inline bool test_clear_buffer_##name(struct buffer_head *bh) \
	{                                                                  \
		return test_and_clear_bit(BH_##bit, &bh->b_state);         \
	}

BUFFER_FNS(Uptodate, uptodate)
BUFFER_FNS(Dirty, dirty)
TAS_BUFFER_FNS(Dirty, dirty)
BUFFER_FNS(Lock, locked)
BUFFER_FNS(Req, req)
BUFFER_FNS(Mapped, mapped)
BUFFER_FNS(New, new)
BUFFER_FNS(Async_Read, async_read)
BUFFER_FNS(Async_Write, async_write)
BUFFER_FNS(Write_EIO, write_io_error)

#define bh_offset(bh) ((unsigned long)(bh)->b_data & ~PAGE_MASK)
#define page_has_buffers(page) PagePrivate(page)
#define page_buffers(page) ((struct buffer_head *)(page)->private)

/* fs/buffer.c: a buffer in a state it must never be in; panics. */
__cold __noreturn void buffer_bug(const struct buffer_head *bh, const char *what);
/* fs/buffer.c: block is not one get_block may map on sb's disk. */
bool map_bh_bad_block(struct super_block *sb, sector_t block);

static inline void get_bh(struct buffer_head *bh)
{
	__atomic_add_fetch(&bh->b_count, 1, __ATOMIC_SEQ_CST);
}

static inline void put_bh(struct buffer_head *bh)
{
	if (unlikely(__atomic_sub_fetch(&bh->b_count, 1, __ATOMIC_SEQ_CST) < 0))
		buffer_bug(bh, "put_bh: reference count underflow (a put "
			       "without a get)");
}

/* Set b_bdev/b_blocknr/b_size and BH_Mapped: get_block's answer. A block
 * outside the disk (or block 0, the boot block and superblock) would
 * send file data over metadata, or past the end: stopped here. */
static inline void map_bh(struct buffer_head *bh, struct super_block *sb,
			  sector_t block)
{
	if (unlikely(map_bh_bad_block(sb, block)))
		buffer_bug(bh, "get_block mapped a block outside the file "
			       "system's disk");
	set_buffer_mapped(bh);
	bh->b_bdev = sb->s_bdev;
	bh->b_blocknr = block;
	bh->b_size = sb->s_blocksize;
}

/*
 * A block get_block allocates holds what the disk last held there (a
 * removed file's bytes): it must come back BH_New, and never be read.
 * block_write_begin watches the blocks the file system's allocator hands
 * out meanwhile (note_new_blocks, from ext2_new_blocks); submit_bh
 * refuses to read one of them into the page being prepared. (An
 * indirect block allocated for an earlier buffer of the page may be
 * read back, rightly: written out and evicted meanwhile.)
 */
#define NEW_BLOCKS_WATCHED 4
struct new_blocks_watch {
	struct page *page;	/* the page block_write_begin prepares */
	void *get_block;	/* the file system's, for the report */
	int n;
	unsigned long first[NEW_BLOCKS_WATCHED], count[NEW_BLOCKS_WATCHED];
};
void note_new_blocks(unsigned long first, unsigned long count);
void check_new_block_read(struct buffer_head *bh);	/* submit_bh */

/*
 * A file system's block mapping: map file block iblock of inode into bh
 * (map_bh), or leave bh unmapped for a hole. With create, allocate a
 * block for a hole and set BH_New. 0 or -errno (-ENOSPC, -EIO).
 */
typedef int(get_block_t)(struct inode *inode, sector_t iblock,
			 struct buffer_head *bh_result, int create);

/* ---- buffer heads, their locking and I/O (fs/buffer.c) --------------------- */

struct buffer_head *alloc_buffer_head(void);
void free_buffer_head(struct buffer_head *bh);

void lock_buffer(struct buffer_head *bh);
bool trylock_buffer(struct buffer_head *bh);
void unlock_buffer(struct buffer_head *bh);
/* Sleep until nobody holds the buffer's lock (its I/O is over). */
void buffer_init(void);	/* boot: the buffer-lock wait queues */
void wait_on_buffer(struct buffer_head *bh);

/*
 * Start I/O on a locked, mapped buffer; bh->b_end_io runs when it is over
 * (and unlocks it). 0, or -ENOMEM (b_end_io has then run with failure).
 */
int submit_bh(enum req_op op, struct buffer_head *bh);
/* Read a locked, mapped buffer and wait (it comes back unlocked):
 * 0, or -EIO with a log line. */
int bh_submit_read(struct buffer_head *bh);
void end_buffer_read_sync(struct buffer_head *bh, int uptodate);
void end_buffer_write_sync(struct buffer_head *bh, int uptodate);

/* Dirty a buffer (and its page, for page buffers). Does not sleep. */
void mark_buffer_dirty(struct buffer_head *bh);
/* Write bh now if it is dirty and wait: 0 or -EIO. */
int sync_dirty_buffer(struct buffer_head *bh);

/* ---- the metadata buffer cache -------------------------------------------- */

/* The cached buffer of block on bdev, referenced, maybe not uptodate;
 * NULL when out of memory. */
struct buffer_head *__getblk(struct block_device *bdev, sector_t block,
			     unsigned int size);
/* The same, read from the disk if needed; NULL on I/O error or ENOMEM. */
struct buffer_head *__bread(struct block_device *bdev, sector_t block,
			    unsigned int size);
/* Drop a reference (NULL is fine). */
void brelse(struct buffer_head *bh);
/* brelse for a buffer whose block was freed: its data is not written. */
void bforget(struct buffer_head *bh);
/* Write every dirty cached buffer of bdev and wait: 0 or -EIO. */
int sync_blockdev(struct block_device *bdev);
/* Drop bdev's page cache (umount). Dirty buffers are written first;
 * pages with buffers still in use stay (and are reported). */
void invalidate_bdev(struct block_device *bdev);
/*
 * A block that was metadata (an indirect block, freed) became file data:
 * forget any cached copy so that it neither gets written over the new
 * data nor read back later. Called by whoever sees BH_New.
 */
void unmap_underlying_metadata(struct block_device *bdev, sector_t block);

static inline struct buffer_head *sb_bread(struct super_block *sb,
					   sector_t block)
{
	return __bread(sb->s_bdev, block, sb->s_blocksize);
}

static inline struct buffer_head *sb_getblk(struct super_block *sb,
					    sector_t block)
{
	return __getblk(sb->s_bdev, block, sb->s_blocksize);
}

/*
 * Metadata that belongs to one file (its indirect blocks): dirtied with
 * mark_buffer_dirty_inode, written by fsync through sync_mapping_buffers,
 * forgotten when the inode goes (invalidate_inode_buffers).
 */
void mark_buffer_dirty_inode(struct buffer_head *bh, struct inode *inode);
int sync_mapping_buffers(struct address_space *mapping);
void invalidate_inode_buffers(struct inode *inode);

/* ---- page buffers: file data (fs/buffer_page.c) --------------------------- */

/* Attach a ring of unmapped buffers of blocksize to a locked page,
 * with b_state set in each. 0 or -ENOMEM. (Linux's cannot fail: it
 * retries the allocation forever.) */
int create_empty_buffers(struct page *page, unsigned long blocksize,
			 unsigned long b_state);
/* ->readpage: read the page's blocks (holes read as zeroes). */
int block_read_full_page(struct page *page, get_block_t *get_block);
/* Read-ahead's batch in few large bios (fs/mpage.c): pages new, locked,
 * in index order; each unlocked when read. */
void mpage_readpages(struct page **pages, unsigned int nr,
		     get_block_t *get_block);
/* ->writepage: write the page's mapped dirty buffers inside i_size. */
int block_write_full_page(struct page *page, get_block_t *get_block,
			  struct writeback_control *wbc);
int __block_write_full_page(struct inode *inode, struct page *page,
			    get_block_t *get_block,
			    struct writeback_control *wbc);
/*
 * ->write_begin: lock the page at pos, map (allocating) the blocks under
 * pos..pos+len and read the ones the write covers only in part. On
 * failure the page is released, *pagep is NULL, and blocks allocated past
 * i_size are trimmed: by truncate_blocks for an old-sequence file, by the
 * file system itself for a new one (doc/design.md, "After a failed
 * write").
 */
int block_write_begin(struct file *file, struct address_space *mapping,
		      loff_t pos, unsigned int len, unsigned int flags,
		      struct page **pagep, void **fsdata,
		      get_block_t *get_block);
int __block_prepare_write(struct inode *inode, struct page *page,
			  unsigned int from, unsigned int to,
			  get_block_t *get_block);
/* Mark the copied buffers uptodate and dirty (the page too). */
int block_write_end(struct file *file, struct address_space *mapping,
		    loff_t pos, unsigned int len, unsigned int copied,
		    struct page *page, void *fsdata);
/* ->write_end: block_write_end, grow i_size, unlock and release. */
int generic_write_end(struct file *file, struct address_space *mapping,
		      loff_t pos, unsigned int len, unsigned int copied,
		      struct page *page, void *fsdata);
/*
 * Zero the rest of the block that contains byte from, in the page cache,
 * and dirty it, so that the disk block holds zeroes past a new EOF.
 * Reads the block if needed; a hole needs nothing. 0 or -errno.
 */
__traced int block_truncate_page(struct address_space *mapping, loff_t from,
				 get_block_t *get_block);
/* The page's buffers, made (clean, unmapped) if it has none; NULL when out
 * of memory. Page locked. (Buffer layer internal: fs/buffer_*.c.) */
struct buffer_head *get_page_buffers(struct page *page,
				     unsigned int blocksize);
/* ->set_page_dirty for buffer-backed pages: every buffer dirty too. */
bool __set_page_dirty_buffers(struct page *page);
/* ->invalidatepage: the page (locked) is being truncated from offset on:
 * forget those buffers; offset 0 frees them all. */
void block_invalidatepage(struct page *page, unsigned long offset);
/* ->releasepage: free the buffers of a locked clean page; false when one
 * is dirty, locked or in use. */
bool try_to_free_buffers(struct page *page);
/* ->bmap for block file systems: get_block without create, on a buffer
 * head of the stack; the disk block or 0. */
sector_t generic_block_bmap(struct address_space *mapping, sector_t block,
			    get_block_t *get_block);

/*
 * ->page_mkwrite for block file systems: a store is about to make vmf->page
 * dirty through a shared mapping. Allocates the blocks under the page up
 * to i_size (get_block, create) and dirties them. Returns VM_FAULT_LOCKED
 * with the page locked, VM_FAULT_NOPAGE if it was truncated meanwhile (the
 * fault is retried), VM_FAULT_SIGBUS when no block can be had (ENOSPC).
 */
struct vm_area_struct;
struct vm_fault;
int block_page_mkwrite(struct vm_area_struct *vma, struct vm_fault *vmf,
		       get_block_t *get_block);

#endif
