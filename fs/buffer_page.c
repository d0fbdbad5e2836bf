/*
 * fs/buffer_page.c: page buffers, the page-cache half of the buffer layer
 * (Linux keeps it in fs/buffer.c with the rest; here fs/buffer.c has the
 * buffer heads themselves, their I/O and the metadata buffer cache).
 *
 * A page of a file is split into blocksize buffers (four 1 KiB blocks on
 * a 4 KiB page), attached to it in a ring under the page lock. Each says
 * whether its block is mapped, uptodate, dirty. The file system's
 * address_space operations are built from these helpers:
 *
 *   readpage     block_read_full_page: map each block (get_block), read
 *                the ones not uptodate in one go, holes become zeroes;
 *                the last read to finish unlocks the page
 *   writepage    block_write_full_page: write the mapped dirty buffers
 *                inside i_size, under PG_writeback; the last write to
 *                finish ends it
 *   truncation   block_invalidatepage drops buffers past the new EOF
 *   reclaim      try_to_free_buffers (->releasepage)
 * Writing into pages (write_begin/write_end, page_mkwrite, the partial
 * block at a new EOF) is in fs/buffer_write.c.
 *
 * Above: the page cache (mm/filemap.c, mm/page-writeback.c, mm/vmscan.c)
 * and the file system's get_block. Below: submit_bh (fs/buffer.c).
 * Locking: the page lock for the ring and the page's state; async_lock
 * for the BH_Async_* bits, whose completions may run in interrupts; and
 * the mapping's private_lock between set_page_dirty and the ring's
 * owner. set_page_dirty runs without the page lock: zap_pte, on another
 * CPU, hands over the dirty bit of a PTE it takes away (munmap), while
 * the page's locker attaches buffers, discards them at a truncation or
 * frees them. Under private_lock the ring is never walked while it is
 * freed, and a buffer is never marked dirty just after a truncation
 * unmapped it (found by the race stress on four CPUs: a freed ring
 * walked, and a hole left dirty that writeback then called lost data).
 */
#include <fs/buffer_head.h>
#include <kernel/errno.h>
#include <kernel/fail_delay.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/writeback.h>

/* ---- 1. attaching, dirtying and freeing a page's buffers ------------------------------------------------------------ */

static DEFINE_SPINLOCK(async_lock);

int create_empty_buffers(struct page *page, unsigned long blocksize,
			 unsigned long b_state)
{
	struct address_space *mapping = page->mapping;
	struct buffer_head *head = NULL, *tail = NULL, *bh;

	BUG_ON(!PageLocked(page) || page_has_buffers(page));
	for (long off = PAGE_SIZE - blocksize; off >= 0; off -= blocksize) {
		bh = alloc_buffer_head();
		if (!bh)
			goto nomem;
		bh->b_state = b_state;
		bh->b_size = blocksize;
		bh->b_page = page;
		bh->b_data = (char *)page_address(page) + off;
		bh->b_this_page = head;
		head = bh;
		if (!tail)
			tail = bh;
	}
	tail->b_this_page = head;	/* close the ring */
	page_cache_get(page);	/* the buffers' reference */
	/* The page's state and the attach in one step for set_page_dirty:
	 * it either finds the ring or has set PG_dirty before we look. */
	if (mapping)
		spin_lock(&mapping->private_lock);
	bh = head;
	do {
		if (PageUptodate(page))
			set_buffer_uptodate(bh);
		if (PageDirty(page))
			set_buffer_dirty(bh);
		bh = bh->b_this_page;
	} while (bh != head);
	page->private = (unsigned long)head;
	SetPagePrivate(page);
	if (mapping)
		spin_unlock(&mapping->private_lock);
	return 0;
nomem:
	while (head) {
		bh = head->b_this_page;
		free_buffer_head(head);
		head = bh;
	}
	return -ENOMEM;
}

/* The page's ring, created (unmapped) if it has none. */
struct buffer_head *get_page_buffers(struct page *page,
				     unsigned int blocksize)
{
	if (!page_has_buffers(page) && create_empty_buffers(page, blocksize, 0))
		return NULL;
	return page_buffers(page);
}

/*
 * The whole page changed (a store through a mapping): every buffer with a
 * disk block under it is dirty. A hole stays a hole: only write_begin and
 * page_mkwrite give it a block (Linux dirties holes too and lets writepage
 * allocate them; pagelab's writepage allocates nothing, so that a store
 * page_mkwrite never saw shows up as lost, not quietly mended).
 */
bool __set_page_dirty_buffers(struct page *page)
{
	struct address_space *mapping = READ_ONCE(page->mapping);
	bool newly;

	if (!mapping)	/* truncated meanwhile: nobody will write it */
		return __set_page_dirty_nobuffers(page);
	spin_lock(&mapping->private_lock);
	if (page_has_buffers(page)) {
		struct buffer_head *head = page_buffers(page), *bh = head;

		do {
			if (buffer_mapped(bh)) {
				fail_spin(FD_DIRTY_MAPPED_BUFFER);
				set_buffer_dirty(bh);
			}
			bh = bh->b_this_page;
		} while (bh != head);
	}
	newly = !test_and_set_bit(PG_dirty, &page->flags);
	spin_unlock(&mapping->private_lock);
	if (newly)
		account_page_dirtied(page);
	return newly;
}

/* Page locked. */
bool try_to_free_buffers(struct page *page)
{
	struct address_space *mapping = page->mapping;
	struct buffer_head *head, *bh, *next;

	if (!page_has_buffers(page))
		return true;
	if (PageWriteback(page))
		return false;
	head = page_buffers(page);
	if (mapping)
		spin_lock(&mapping->private_lock);
	bh = head;
	do {
		if (bh->b_count || buffer_locked(bh) || buffer_dirty(bh)) {
			if (mapping)
				spin_unlock(&mapping->private_lock);
			return false;
		}
		bh = bh->b_this_page;
	} while (bh != head);
	ClearPagePrivate(page);
	page->private = 0;
	if (mapping)
		spin_unlock(&mapping->private_lock);
	bh = head;
	do {
		next = bh->b_this_page;
		free_buffer_head(bh);
		bh = next;
	} while (bh != head);
	page_cache_release(page);	/* the buffers' reference */
	return true;
}

/* The block under bh leaves the file: no write, no mapping. */
static void discard_buffer(struct address_space *mapping,
			   struct buffer_head *bh)
{
	lock_buffer(bh);
	spin_lock(&mapping->private_lock);	/* vs set_page_dirty */
	clear_buffer_dirty(bh);
	bh->b_bdev = NULL;
	clear_buffer_mapped(bh);
	spin_unlock(&mapping->private_lock);
	clear_buffer_req(bh);
	clear_buffer_new(bh);
	unlock_buffer(bh);
}

void block_invalidatepage(struct page *page, unsigned long offset)
{
	struct buffer_head *head, *bh;
	unsigned long start = 0;

	BUG_ON(!PageLocked(page));
	if (!page_has_buffers(page))
		return;
	head = page_buffers(page);
	bh = head;
	do {
		if (start >= offset)
			discard_buffer(page->mapping, bh);
		start += bh->b_size;
		bh = bh->b_this_page;
	} while (bh != head);
	/* The whole page goes: its buffers too, unless someone holds one
	 * (then the page lingers, with them, until they let go). */
	if (offset == 0)
		try_to_free_buffers(page);
}

/* ---- 2. reading a page ------------------------------------------------------------ */

/*
 * One of a page's reads is over. The last one to finish decides: the page
 * is uptodate if every buffer is, and is unlocked either way, which wakes
 * the reader (generic_file_read waits on the page lock).
 */
static void end_buffer_async_read(struct buffer_head *bh, int uptodate)
{
	struct page *page = bh->b_page;
	struct buffer_head *tmp;
	unsigned long flags;
	bool page_uptodate = true;

	if (uptodate) {
		set_buffer_uptodate(bh);
	} else {
		clear_buffer_uptodate(bh);
		pr_err("buffer: %s: I/O error reading block %lu\n",
		       bh->b_bdev->bd_name, bh->b_blocknr);
	}
	spin_lock_irqsave(&async_lock, flags);
	clear_buffer_async_read(bh);
	unlock_buffer(bh);
	tmp = bh;
	do {
		if (!buffer_uptodate(tmp))
			page_uptodate = false;
		if (buffer_async_read(tmp)) {	/* not the last one */
			spin_unlock_irqrestore(&async_lock, flags);
			return;
		}
		tmp = tmp->b_this_page;
	} while (tmp != bh);
	spin_unlock_irqrestore(&async_lock, flags);
	if (page_uptodate)
		SetPageUptodate(page);
	unlock_page(page);
}

int block_read_full_page(struct page *page, get_block_t *get_block)
{
	struct inode *inode = page->mapping->host;
	unsigned int bbits = inode->i_blkbits, blocksize = 1U << bbits;
	sector_t iblock = (sector_t)page->index << (PAGE_SHIFT - bbits);
	sector_t lblock = (i_size_read(inode) + blocksize - 1) >> bbits;
	struct buffer_head *head, *bh, *arr[MAX_BUF_PER_PAGE];
	int nr = 0, err = 0;

	head = get_page_buffers(page, blocksize);
	if (!head) {
		unlock_page(page);
		return -ENOMEM;
	}
	bh = head;
	do {
		if (buffer_uptodate(bh))
			continue;
		if (!buffer_mapped(bh)) {
			int e = 0;

			if (iblock < lblock) {
				e = get_block(inode, iblock, bh, 0);
				if (e)
					err = e;
			}
			if (!buffer_mapped(bh)) {	/* a hole, or past EOF */
				memset(bh->b_data, 0, blocksize);
				if (!e)
					set_buffer_uptodate(bh);
				continue;
			}
			if (buffer_uptodate(bh))
				continue;
		}
		arr[nr++] = bh;
	} while (iblock++, (bh = bh->b_this_page) != head);

	if (!nr) {
		if (!err)
			SetPageUptodate(page);
		unlock_page(page);
		return err;
	}
	/* Mark them all before starting any: a read that completes at once
	 * must not find the others idle and unlock the page early. */
	for (int i = 0; i < nr; i++) {
		lock_buffer(arr[i]);
		arr[i]->b_end_io = end_buffer_async_read;
		set_buffer_async_read(arr[i]);
	}
	for (int i = 0; i < nr; i++) {
		if (buffer_uptodate(arr[i]))
			end_buffer_async_read(arr[i], 1);
		else
			submit_bh(REQ_OP_READ, arr[i]);
	}
	return 0;
}

/* ---- 3. writing a page ------------------------------------------------------------ */

static void end_buffer_async_write(struct buffer_head *bh, int uptodate)
{
	struct page *page = bh->b_page;
	struct buffer_head *tmp;
	unsigned long flags;

	if (!uptodate) {
		pr_err("buffer: %s: I/O error writing block %lu\n",
		       bh->b_bdev->bd_name, bh->b_blocknr);
		set_buffer_write_io_error(bh);
		clear_buffer_uptodate(bh);
		if (page->mapping)
			mapping_set_error(page->mapping, -EIO);
	}
	spin_lock_irqsave(&async_lock, flags);
	clear_buffer_async_write(bh);
	unlock_buffer(bh);
	for (tmp = bh->b_this_page; tmp != bh; tmp = tmp->b_this_page)
		if (buffer_async_write(tmp)) {
			spin_unlock_irqrestore(&async_lock, flags);
			return;
		}
	spin_unlock_irqrestore(&async_lock, flags);
	end_page_writeback(page);
}

/*
 * Write the page's dirty buffers. Linux 2.6.30 allocates blocks here for
 * dirty buffers that have none (get_block with create), and an ENOSPC at
 * this point loses data without telling anyone. pagelab's rule is that a
 * block is allocated before its buffer is dirtied (write_begin, and
 * page_mkwrite for stores through a mapping), so writeback only looks
 * blocks up. A hole is never dirtied (__set_page_dirty_buffers), so it
 * must read zeroes; one that does not holds a store that page_mkwrite
 * never saw: data nobody can write, reported and dropped (EIO for fsync
 * and msync). That is the blocksize < pagesize bug made visible.
 *
 * While the size changes (AS_RESIZING, <mm/writeback.h>), the page cache
 * may hold what neither size allows yet: bytes a mapping stored past the
 * old EOF, which pagecache_isize_extended has not zeroed although i_size
 * already covers them. So writeback writes only the blocks that lie
 * wholly inside both the old and the new size, and leaves the rest dirty
 * for the next writeback, once the change is done: written earlier, such
 * a block put the bytes on the disk, and the zeroing that came after
 * changed only the page cache. (Linux writes them; the bytes come back
 * if the page is dropped.)
 */

/* The offset in bh of its first word that is not zero, or -1. */
static long buffer_first_data(struct buffer_head *bh)
{
	const unsigned long *p = (const unsigned long *)bh->b_data;

	for (size_t i = 0; i < bh->b_size / sizeof(*p); i++)
		if (p[i])
			return (long)(i * sizeof(*p));
	return -1;
}

/* Does bh's part of the page hold anything but zeroes? */
static bool buffer_has_data(struct buffer_head *bh)
{
	return buffer_first_data(bh) >= 0;
}

/* A block inside EOF with data and no disk block: say what there is to
 * know, for whoever hunts the store that page_mkwrite never saw. */
static void report_lost_block(struct inode *inode, struct page *page,
			      struct buffer_head *bh, sector_t block,
			      loff_t size, bool fresh)
{
	long at = buffer_first_data(bh);

	pr_warn("buffer: inode %lu: block %lu holds data but has no disk "
		"block; the data is dropped\n", inode->i_ino, block);
	pr_warn("buffer: i_size %ld%s (from %ld), page %lu flags %#lx "
		"mapcount %d, buffer state %#lx%s; first data at +%ld: "
		"%#lx\n", (long)size,
		mapping_resizing(page->mapping) ? ", resizing" : "",
		(long)READ_ONCE(page->mapping->resize_from), page->index,
		page->flags, page->_mapcount + 1, bh->b_state,
		fresh ? " (buffers made here: the page had none)" : "",
		at, at < 0 ? 0UL : *(unsigned long *)(bh->b_data + at));
}

int __block_write_full_page(struct inode *inode, struct page *page,
			    get_block_t *get_block,
			    struct writeback_control *wbc)
{
	unsigned int bbits = inode->i_blkbits, blocksize = 1U << bbits;
	sector_t block = (sector_t)page->index << (PAGE_SHIFT - bbits);
	loff_t size = i_size_read(inode);
	struct address_space *mapping = page->mapping;
	sector_t nr_blocks = (size + blocksize - 1) >> bbits;
	loff_t settled_size = mapping_settled_size(mapping, size);
	/* Blocks from here to nr_blocks wait: the size is changing. */
	sector_t settled = settled_size == size ? nr_blocks :
			   settled_size >> bbits;
	struct buffer_head *head, *bh, *arr[MAX_BUF_PER_PAGE];
	unsigned int i = 0, later = 0;	/* later: buffers left dirty */
	int err = 0, nr = 0;
	bool fresh = !page_has_buffers(page);

	if (fresh && create_empty_buffers(page, blocksize,
					  (1UL << BH_Dirty) |
					  (1UL << BH_Uptodate))) {
		__set_page_dirty_nobuffers(page);	/* try again later */
		unlock_page(page);
		return -ENOMEM;
	}
	head = page_buffers(page);
	bh = head;
	do {
		if (block >= nr_blocks) {	/* past EOF: never written */
			clear_buffer_dirty(bh);
			set_buffer_uptodate(bh);
		} else if (block >= settled) {	/* the size is changing */
			if (buffer_dirty(bh) ||
			    (!buffer_mapped(bh) && PageUptodate(page) &&
			     buffer_has_data(bh)))
				later |= 1U << i;
		} else if (!buffer_mapped(bh) &&
			   (buffer_dirty(bh) ||
			    (PageUptodate(page) && buffer_has_data(bh)))) {
			int e = get_block(inode, block, bh, 0);

			/* A hole: only data in it is a loss. (Buffers made
			 * for a dirty page are all dirty, holes too.) */
			if (!e && !buffer_mapped(bh)) {
				clear_buffer_dirty(bh);
				if (PageUptodate(page) && buffer_has_data(bh)) {
					report_lost_block(inode, page, bh, block,
							  size, fresh);
					e = -EIO;
				}
			}
			if (e) {
				clear_buffer_dirty(bh);
				err = e;
			}
		}
	} while (block++, i++, (bh = bh->b_this_page) != head);

	i = 0;
	do {
		if (buffer_mapped(bh) && buffer_dirty(bh) &&
		    !(later & (1U << i))) {
			lock_buffer(bh);
			if (test_clear_buffer_dirty(bh)) {
				bh->b_end_io = end_buffer_async_write;
				set_buffer_async_write(bh);
				arr[nr++] = bh;
			} else {
				unlock_buffer(bh);
			}
		}
	} while (i++, (bh = bh->b_this_page) != head);
	if (later)
		__set_page_dirty_nobuffers(page);
	BUG_ON(PageWriteback(page));
	set_page_writeback(page);
	unlock_page(page);
	/* Writeback keeps the buffers attached (try_to_free_buffers refuses
	 * a page under writeback) only until the last write completes, which
	 * may be before submit_bh returns, and then anyone may lock the page
	 * and free them: so no buffer is touched after the last submit, not
	 * even to walk b_this_page (a preempted walk read freed buffers). */
	for (int i = 0; i < nr; i++)
		submit_bh(REQ_OP_WRITE, arr[i]);
	if (!nr)
		end_page_writeback(page);
	if (err)
		mapping_set_error(mapping, err);
	return err;
}

int block_write_full_page(struct page *page, get_block_t *get_block,
			  struct writeback_control *wbc)
{
	struct inode *inode = page->mapping->host;
	loff_t i_size = i_size_read(inode);
	pgoff_t end_index = i_size >> PAGE_SHIFT;
	unsigned int offset = i_size & ~PAGE_MASK;

	if (page->index < end_index)
		return __block_write_full_page(inode, page, get_block, wbc);
	if (page->index > end_index || !offset) {
		/* Wholly past EOF: a truncate is on its way to drop it. */
		block_invalidatepage(page, 0);
		unlock_page(page);
		return 0;
	}
	/* The page straddles EOF. What lies past EOF (a store through a
	 * mapping, say) must not reach the disk: if the file grows later,
	 * those bytes have to read back as zeroes. */
	memset((char *)page_address(page) + offset, 0, PAGE_SIZE - offset);
	return __block_write_full_page(inode, page, get_block, wbc);
}

/*
 * Ask the file system where a block is without touching the page cache:
 * no page, no buffer ring, nothing allocated. A block the page's buffers
 * have not mapped yet (a write mapped only the blocks it covered) may be
 * on disk all the same; this is how pagemap and FIBMAP find out.
 */
sector_t generic_block_bmap(struct address_space *mapping, sector_t block,
			    get_block_t *get_block)
{
	struct inode *inode = mapping->host;
	struct buffer_head tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.b_size = 1UL << inode->i_blkbits;
	if (get_block(inode, block, &tmp, 0) || !buffer_mapped(&tmp))
		return 0;
	return tmp.b_blocknr;
}
