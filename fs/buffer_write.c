/*
 * fs/buffer_write.c: changing the contents of buffer-backed pages (Linux
 * keeps this in fs/buffer.c too). Three ways in, all under the page lock:
 *
 *   write_begin  block_write_begin: map (allocate, get_block create) the
 *                blocks under a write(2) and read those it covers only
 *                in part (__block_prepare_write, the buffer-heads lab's);
 *                a failure trims what was allocated past EOF
 *                (truncate_blocks)
 *   write_end    block_write_end / generic_write_end: buffers and page
 *                dirty, i_size grown, and the page that held the old EOF
 *                re-protected when the write left a gap after it
 *   page_mkwrite block_page_mkwrite: a store through a shared mapping is
 *                about to dirty a clean page: allocate its blocks up to
 *                i_size, or SIGBUS
 *   truncation   block_truncate_page: zero the block tail past a new EOF
 *                on disk, so that a later extension reads zeroes
 *
 * Below: get_block (the file system) and the buffers of fs/buffer_page.c;
 * above: mm/filemap.c (write), mm/memory.c (faults), the truncate paths.
 */
#include <fs/buffer_head.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/fail_delay.h>
#include <kernel/panic.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/mmap.h>
#include <mm/writeback.h>

/* ---- write(2): write_begin and write_end ------------------------------- */

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

/*
 * In a student tree scripts/mklab puts block_prepare_write_whole_page,
 * which the stub calls, just above it (lab/buffer-heads/scaffold/).
 * LAB buffer-heads: __block_prepare_write starts from this.
 * int __block_prepare_write(struct inode *inode, struct page *page,
 *			  unsigned int from, unsigned int to,
 *			  get_block_t *get_block)
 * {
 *	return block_prepare_write_whole_page(inode, page, from, to,
 *					      get_block);
 * }
 */
/* LAB buffer-heads: BEGIN */
/*
 * Each buffer of the page, by where it lies against [from, to): outside,
 * it is left alone (uptodate if the page is); inside, it is mapped
 * (get_block, create), and a block just allocated is zeroed where the
 * write will not cover it; a mapped block the write covers only in part
 * is read, all such reads in flight at once, then waited for.
 */
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
/* LAB buffer-heads: END */

/*
 * What __block_prepare_write promised, checked where its result is taken:
 * a block the write covers only in part must hold the rest of its bytes,
 * read from the disk (uptodate) or, new, zeroed (new). One that is
 * neither was not read, or its read failed and the error was not
 * returned: the write would put the bytes it never read back on the
 * disk, over the file's data.
 */
static __cold __noreturn void partial_block_bug(struct page *page,
		struct buffer_head *bh, unsigned int start, unsigned int from,
		unsigned int to)
{
	printk(KERN_EMERG "BUG: __block_prepare_write returned 0 for bytes "
	       "%u-%u of page %lu (inode %lu), and the block at bytes %u-%u, "
	       "which the write covers only in part, is neither uptodate nor "
	       "new: it was not read, or its read failed (return -EIO then); "
	       "the bytes the write does not cover would go to the disk "
	       "unread\n", from, to, page->index, page->mapping->host->i_ino,
	       start, start + (unsigned int)bh->b_size);
	dump_stack();
	panic("__block_prepare_write left a partial block unread");
}

/* The allocator gave current blocks first..first+count-1 (see
 * <fs/buffer_head.h>): kept while block_write_begin watches. */
void note_new_blocks(unsigned long first, unsigned long count)
{
	struct new_blocks_watch *w = current->new_blocks;

	if (w && w->n < NEW_BLOCKS_WATCHED) {
		w->first[w->n] = first;
		w->count[w->n++] = count;
	}
}

static __cold __noreturn void new_block_read_bug(struct buffer_head *bh,
					      struct new_blocks_watch *w)
{
	printk(KERN_EMERG "BUG: a read of block %lu, which get_block %ps "
	       "allocated for this write just now: the disk holds a removed "
	       "file's bytes there. get_block must set_buffer_new() on a "
	       "block it allocates, and __block_prepare_write zero what the "
	       "write does not cover instead of reading it\n",
	       (unsigned long)bh->b_blocknr, w->get_block);
	buffer_bug(bh, "read of a block just allocated");
}

/* submit_bh, before a read: not one of the blocks just allocated, into
 * the page being prepared. */
void check_new_block_read(struct buffer_head *bh)
{
	struct new_blocks_watch *w = current->new_blocks;

	if (bh->b_page != w->page)
		return;
	for (int i = 0; i < w->n; i++)
		if (bh->b_blocknr >= w->first[i] &&
		    bh->b_blocknr - w->first[i] < w->count[i])
			new_block_read_bug(bh, w);
}

static void check_prepared_buffers(struct page *page, unsigned int from,
				   unsigned int to)
{
	struct buffer_head *head = page_buffers(page), *bh = head;
	unsigned int start = 0;

	do {
		unsigned int end = start + bh->b_size;
		bool partial = (start < from && from < end) ||
			       (start < to && to < end);

		if (partial && !buffer_uptodate(bh) && !buffer_new(bh))
			partial_block_bug(page, bh, start, from, to);
		start = end;
	} while ((bh = bh->b_this_page) != head);
}

int block_write_begin(struct file *file, struct address_space *mapping,
		      loff_t pos, unsigned int len, unsigned int flags,
		      struct page **pagep, void **fsdata,
		      get_block_t *get_block)
{
	unsigned int from = pos & ~PAGE_MASK;
	struct new_blocks_watch watch = { .get_block = get_block };
	struct page *page;
	int err;

	page = find_or_create_page(mapping, pos >> PAGE_SHIFT, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	/* Writeback of the old contents must end before they change. */
	wait_on_page_writeback(page);
	watch.page = page;
	current->new_blocks = &watch;
	err = __block_prepare_write(mapping->host, page, from, from + len,
				    get_block);
	current->new_blocks = NULL;
	if (!err && page_has_buffers(page))
		check_prepared_buffers(page, from, from + len);
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
	/* A gap between the old EOF and the write: until the page that held
	 * the old EOF is zeroed there, i_size says more than it holds. */
	if (pos > old_size)
		mapping_resize_begin(mapping);
	/* i_mutex held: i_size cannot move under us. It changes only once
	 * the data is in the page, so a reader never sees stale bytes. */
	if (pos + copied > old_size) {
		i_size_write(inode, pos + copied);
		grew = true;
	}
	unlock_page(page);
	page_cache_release(page);
	/* That page needs page_mkwrite again, and zeroes in the gap. */
	if (pos > old_size) {
		pagecache_isize_extended(inode, old_size, pos);
		mapping_resize_end(mapping);
	}
	if (grew)
		mark_inode_dirty(inode);
	return copied;
}


/* ---- stores through a shared mapping ----------------------------------- */

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

/* ---- truncation: the block that holds the new EOF ----------------------- */

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
		fail_delay(FD_BLOCK_TRUNCATE_READ);
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
