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
 *   write_begin  block_write_begin: map (allocate) the blocks under the
 *                write and read the ones it covers only in part
 *   write_end    generic_write_end: buffers and page dirty, i_size grown
 *   truncation   block_truncate_page zeroes the tail of the block at the
 *                new EOF; block_invalidatepage drops buffers past it
 *   reclaim      try_to_free_buffers (->releasepage)
 *
 * Above: the page cache (mm/filemap.c, mm/page-writeback.c, mm/vmscan.c)
 * and the file system's get_block. Below: submit_bh (fs/buffer.c).
 * Locking: the page lock for the ring and the page's state; async_lock
 * for the BH_Async_* bits, whose completions may run in interrupts.
 */
#include <fs/buffer_head.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/mmap.h>
#include <mm/writeback.h>

/* ---- 1. attaching, dirtying and freeing a page's buffers ------------------------------------------------------------ */

static DEFINE_SPINLOCK(async_lock);

int create_empty_buffers(struct page *page, unsigned long blocksize,
			 unsigned long b_state)
{
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
	bh = head;
	do {
		if (PageUptodate(page))
			set_buffer_uptodate(bh);
		if (PageDirty(page))
			set_buffer_dirty(bh);
		bh = bh->b_this_page;
	} while (bh != head);
	page_cache_get(page);	/* the buffers' reference */
	page->private = (unsigned long)head;
	SetPagePrivate(page);
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
static struct buffer_head *get_page_buffers(struct page *page,
					    unsigned int blocksize)
{
	if (!page_has_buffers(page) && create_empty_buffers(page, blocksize, 0))
		return NULL;
	return page_buffers(page);
}

bool __set_page_dirty_buffers(struct page *page)
{
	if (page_has_buffers(page)) {
		struct buffer_head *head = page_buffers(page), *bh = head;

		do {
			set_buffer_dirty(bh);
			bh = bh->b_this_page;
		} while (bh != head);
	}
	return __set_page_dirty_nobuffers(page);
}

bool try_to_free_buffers(struct page *page)
{
	struct buffer_head *head, *bh, *next;

	if (!page_has_buffers(page))
		return true;
	if (PageWriteback(page))
		return false;
	head = page_buffers(page);
	bh = head;
	do {
		if (bh->b_count || buffer_locked(bh) || buffer_dirty(bh))
			return false;
		bh = bh->b_this_page;
	} while (bh != head);
	ClearPagePrivate(page);
	page->private = 0;
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
static void discard_buffer(struct buffer_head *bh)
{
	lock_buffer(bh);
	clear_buffer_dirty(bh);
	bh->b_bdev = NULL;
	clear_buffer_mapped(bh);
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
			discard_buffer(bh);
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
	struct buffer_head *head, *bh, *arr[PAGE_SIZE / 512];
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
 * blocks up; a dirty buffer without a block is data nobody can write, and
 * is reported and dropped: the blocksize < pagesize bug made visible.
 */
int __block_write_full_page(struct inode *inode, struct page *page,
			    get_block_t *get_block,
			    struct writeback_control *wbc)
{
	unsigned int bbits = inode->i_blkbits, blocksize = 1U << bbits;
	sector_t block = (sector_t)page->index << (PAGE_SHIFT - bbits);
	sector_t nr_blocks = (i_size_read(inode) + blocksize - 1) >> bbits;
	struct address_space *mapping = page->mapping;
	struct buffer_head *head, *bh, *next;
	int err = 0, nr = 0;

	if (!page_has_buffers(page) &&
	    create_empty_buffers(page, blocksize,
				 (1UL << BH_Dirty) | (1UL << BH_Uptodate))) {
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
		} else if (!buffer_mapped(bh) && buffer_dirty(bh)) {
			int e = get_block(inode, block, bh, 0);

			if (!e && !buffer_mapped(bh)) {
				pr_warn("buffer: inode %lu: dirty block %lu has "
					"no disk block; its data is dropped\n",
					inode->i_ino, block);
				e = -EIO;
			}
			if (e) {
				clear_buffer_dirty(bh);
				err = e;
			}
		}
	} while (block++, (bh = bh->b_this_page) != head);

	do {
		if (buffer_mapped(bh) && buffer_dirty(bh)) {
			lock_buffer(bh);
			if (test_clear_buffer_dirty(bh)) {
				bh->b_end_io = end_buffer_async_write;
				set_buffer_async_write(bh);
			} else {
				unlock_buffer(bh);
			}
		}
	} while ((bh = bh->b_this_page) != head);
	BUG_ON(PageWriteback(page));
	set_page_writeback(page);
	unlock_page(page);
	/* Writeback keeps the buffers attached (try_to_free_buffers refuses
	 * a page under writeback), but read next before each submit anyway:
	 * the last completion ends the page's writeback. */
	do {
		next = bh->b_this_page;
		if (buffer_async_write(bh)) {
			submit_bh(REQ_OP_WRITE, bh);
			nr++;
		}
		bh = next;
	} while (bh != head);
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

/* ---- 4. writing through the page cache ------------------------------------------- */

/*
 * A write failed after get_block allocated blocks in from..to: what the
 * page holds there is garbage, so make it zeroes (dirty, so that the disk
 * agrees) rather than expose whatever the block held before.
 */
static void page_zero_new_buffers(struct page *page, unsigned int from,
				  unsigned int to)
{
	struct buffer_head *head = page_buffers(page), *bh = head;
	unsigned int start = 0;

	do {
		unsigned int end = start + bh->b_size;

		if (buffer_new(bh) && end > from && start < to) {
			if (!buffer_uptodate(bh)) {
				unsigned int a = max(start, from);

				memset((char *)page_address(page) + a, 0,
				       min(end, to) - a);
				set_buffer_uptodate(bh);
			}
			clear_buffer_new(bh);
			mark_buffer_dirty(bh);
		}
		start = end;
	} while ((bh = bh->b_this_page) != head);
}

int __block_prepare_write(struct inode *inode, struct page *page,
			  unsigned int from, unsigned int to,
			  get_block_t *get_block)
{
	unsigned int bbits = inode->i_blkbits, blocksize = 1U << bbits;
	sector_t block = (sector_t)page->index << (PAGE_SHIFT - bbits);
	struct buffer_head *head, *bh, *wait[PAGE_SIZE / 512];
	unsigned int start = 0, end;
	int nr = 0, err = 0;

	BUG_ON(!PageLocked(page) || from > PAGE_SIZE || to > PAGE_SIZE ||
	       from > to);
	head = get_page_buffers(page, blocksize);
	if (!head)
		return -ENOMEM;
	for (bh = head; !err; block++, start = end) {
		end = start + blocksize;
		if (end <= from || start >= to) {	/* outside the write */
			if (PageUptodate(page))
				set_buffer_uptodate(bh);
			goto next;
		}
		clear_buffer_new(bh);
		if (!buffer_mapped(bh)) {
			err = get_block(inode, block, bh, 1);
			if (err)
				break;
			if (buffer_new(bh)) {
				unmap_underlying_metadata(bh->b_bdev,
							  bh->b_blocknr);
				if (PageUptodate(page)) {
					clear_buffer_new(bh);
					set_buffer_uptodate(bh);
					mark_buffer_dirty(bh);
					goto next;
				}
				/* A fresh block: what the write does not
				 * cover must be zeroes, not old disk data. */
				if (start < from)
					memset(bh->b_data, 0, from - start);
				if (end > to)
					memset(bh->b_data + (to - start), 0,
					       end - to);
				goto next;
			}
		}
		if (PageUptodate(page)) {
			set_buffer_uptodate(bh);
			goto next;
		}
		/* Only partly overwritten: the rest must come from the disk. */
		if (!buffer_uptodate(bh) && (start < from || end > to)) {
			lock_buffer(bh);
			get_bh(bh);
			bh->b_end_io = end_buffer_read_sync;
			submit_bh(REQ_OP_READ, bh);
			wait[nr++] = bh;
		}
next:
		bh = bh->b_this_page;
		if (bh == head)
			break;
	}
	for (int i = 0; i < nr; i++) {
		wait_on_buffer(wait[i]);
		if (!buffer_uptodate(wait[i]))
			err = -EIO;
	}
	if (err)
		page_zero_new_buffers(page, from, to);
	return err;
}

int block_write_begin(struct file *file, struct address_space *mapping,
		      loff_t pos, unsigned int len, unsigned int flags,
		      struct page **pagep, void **fsdata,
		      get_block_t *get_block)
{
	unsigned int from = pos & ~PAGE_MASK;
	struct page *page;
	int err;

	page = find_or_create_page(mapping, pos >> PAGE_SHIFT, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	/* Writeback of the old contents must end before they change. */
	wait_on_page_writeback(page);
	err = __block_prepare_write(mapping->host, page, from, from + len,
				    get_block);
	if (err) {
		unlock_page(page);
		page_cache_release(page);
		page = NULL;
		/* get_block may have allocated blocks past i_size before
		 * failing: trim them (a new-sequence file system does it in
		 * its own ->write_begin). i_mutex held: i_size is stable. */
		if (pos + len > mapping->host->i_size)
			truncate_blocks(mapping->host, mapping->host->i_size);
	}
	*pagep = page;
	return err;
}

static void __block_commit_write(struct page *page, unsigned int from,
				 unsigned int to)
{
	struct buffer_head *head = page_buffers(page), *bh = head;
	unsigned int start = 0;
	bool partial = false;

	do {
		unsigned int end = start + bh->b_size;

		if (end <= from || start >= to) {
			if (!buffer_uptodate(bh))
				partial = true;
		} else {
			set_buffer_uptodate(bh);
			mark_buffer_dirty(bh);
		}
		clear_buffer_new(bh);
		start = end;
	} while ((bh = bh->b_this_page) != head);
	/* Every buffer valid: the whole page is, and readpage may skip it. */
	if (!partial)
		SetPageUptodate(page);
}

int block_write_end(struct file *file, struct address_space *mapping,
		    loff_t pos, unsigned int len, unsigned int copied,
		    struct page *page, void *fsdata)
{
	unsigned int start = pos & ~PAGE_MASK;

	if (copied < len) {
		/*
		 * A short copy (the user buffer faulted) into a page that is
		 * not uptodate may have filled a buffer only in part: its
		 * rest would never be read. Take none of it; the caller
		 * retries from pos.
		 */
		if (!PageUptodate(page))
			copied = 0;
		page_zero_new_buffers(page, start + copied, start + len);
	}
	__block_commit_write(page, start, start + copied);
	return copied;
}

int generic_write_end(struct file *file, struct address_space *mapping,
		      loff_t pos, unsigned int len, unsigned int copied,
		      struct page *page, void *fsdata)
{
	struct inode *inode = mapping->host;
	loff_t old_size = inode->i_size;
	bool grew = false;

	copied = block_write_end(file, mapping, pos, len, copied, page,
				 fsdata);
	/* i_mutex held: i_size cannot move under us. It changes only once
	 * the data is in the page, so a reader never sees stale bytes. */
	if (pos + copied > old_size) {
		i_size_write(inode, pos + copied);
		grew = true;
	}
	unlock_page(page);
	page_cache_release(page);
	/* A gap between the old EOF and the write: the page that held the
	 * old EOF needs page_mkwrite again, and zeroes in the gap. */
	if (pos > old_size)
		pagecache_isize_extended(inode, old_size, pos);
	if (grew)
		mark_inode_dirty(inode);
	return copied;
}


/* ---- 5. stores through a shared mapping -------------------------------- */

/*
 * LAB mkwrite: block_page_mkwrite starts from this.
 * int block_page_mkwrite(struct vm_area_struct *vma, struct vm_fault *vmf,
 *			  get_block_t *get_block)
 * {
 *	lock_page(vmf->page);
 *	return VM_FAULT_LOCKED;
 * }
 */
/* LAB mkwrite: BEGIN */
int block_page_mkwrite(struct vm_area_struct *vma, struct vm_fault *vmf,
		       get_block_t *get_block)
{
	struct page *page = vmf->page;
	struct inode *inode = vma->vm_file->f_inode;
	loff_t size;
	unsigned int end;
	int err;

	lock_page(page);
	size = i_size_read(inode);
	/* Truncated (or shrunk past this page) since the fault looked: let
	 * the fault run again, and find SIGBUS or the new page. */
	if (page->mapping != inode->i_mapping ||
	    ((loff_t)page->index << PAGE_SHIFT) >= size) {
		unlock_page(page);
		return VM_FAULT_NOPAGE;
	}
	/* Only blocks inside i_size: the rest of the page is past EOF and
	 * gets its blocks when i_size grows (pagecache_isize_extended
	 * write-protects the page so that we are called again then). */
	end = PAGE_SIZE;
	if (page->index == (size - 1) >> PAGE_SHIFT)
		end = size - ((loff_t)page->index << PAGE_SHIFT);
	err = __block_prepare_write(inode, page, 0, end, get_block);
	if (err) {
		unlock_page(page);
		/* No block (ENOSPC, EIO): the store must not look done. */
		return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	}
	__block_commit_write(page, 0, end);
	set_page_dirty(page);
	return VM_FAULT_LOCKED;
}
/* LAB mkwrite: END */
int block_truncate_page(struct address_space *mapping, loff_t from,
			get_block_t *get_block)
{
	struct inode *inode = mapping->host;
	unsigned int bbits = inode->i_blkbits, blocksize = 1U << bbits;
	unsigned int offset = from & ~PAGE_MASK;
	unsigned int length = offset & (blocksize - 1);
	sector_t iblock = (sector_t)(from >> PAGE_SHIFT) << (PAGE_SHIFT - bbits);
	struct buffer_head *bh;
	struct page *page;
	int err = 0;

	if (!length)	/* from is on a block boundary: nothing to zero */
		return 0;
	length = blocksize - length;
	page = find_or_create_page(mapping, from >> PAGE_SHIFT, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	wait_on_page_writeback(page);
	bh = get_page_buffers(page, blocksize);
	if (!bh) {
		err = -ENOMEM;
		goto unlock;
	}
	for (unsigned int pos = blocksize; offset >= pos; pos += blocksize) {
		bh = bh->b_this_page;
		iblock++;
	}
	if (!buffer_mapped(bh)) {
		err = get_block(inode, iblock, bh, 0);
		if (err || !buffer_mapped(bh))	/* a hole reads zeroes */
			goto unlock;
	}
	if (PageUptodate(page))
		set_buffer_uptodate(bh);
	if (!buffer_uptodate(bh)) {
		lock_buffer(bh);
		err = bh_submit_read(bh);
		if (err)
			goto unlock;
	}
	memset((char *)page_address(page) + offset, 0, length);
	mark_buffer_dirty(bh);
unlock:
	unlock_page(page);
	page_cache_release(page);
	return err;
}
