/*
 * fs/pagemap.c: PAGELAB_IOC_PAGEMAP (<pagelab/pagemap.h>), the page cache
 * of one file as a student would draw it: for each page of a range, is it
 * cached, uptodate, dirty, under writeback, locked, mapped how many
 * times; and for each of its buffers, does it have a disk block, is it
 * new, dirty, uptodate. /bin/pagemap prints it, i_size marked, so that
 * the page straddling EOF with its holes (blocksize < pagesize) shows.
 *
 * A buffer that is not mapped is not always a hole: a write maps only the
 * buffers it covers, a page read ahead has no buffers at all. For those
 * blocks the file system is asked (->bmap, as FIBMAP does; it allocates
 * nothing), after the page lock is dropped: a block it places on disk is
 * reported PMB_ON_DISK, and only the rest are holes.
 *
 * A snapshot: pages are looked at one by one, each under its page lock
 * when it can be had at once (a page being read or written is reported
 * locked, its buffers as they are). Any regular file that has a page
 * cache answers; the rest get ENOTTY.
 */
#include <pagelab/pagemap.h>
#include <fs/buffer_head.h>
#include <fs/file.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/filemap.h>

_Static_assert(sizeof(struct pagemap_request) == 32,
	       "PAGELAB_IOC_PAGEMAP encodes the request's size");

static unsigned int buffer_state(struct buffer_head *bh)
{
	return (buffer_mapped(bh) ? PMB_MAPPED : 0) |
	       (buffer_uptodate(bh) ? PMB_UPTODATE : 0) |
	       (buffer_dirty(bh) ? PMB_DIRTY : 0) |
	       (buffer_new(bh) ? PMB_NEW : 0) |
	       (buffer_locked(bh) ? PMB_LOCKED : 0);
}

/* Fill *pm from page (referenced); its buffers only under its lock. */
static void describe_page(struct page *page, struct pagemap_page *pm)
{
	bool locked = PageLocked(page);

	pm->flags = PM_CACHED | (PageUptodate(page) ? PM_UPTODATE : 0) |
		    (PageDirty(page) ? PM_DIRTY : 0) |
		    (PageWriteback(page) ? PM_WRITEBACK : 0) |
		    (locked ? PM_LOCKED : 0);
	pm->mapcount = page->_mapcount + 1;
	pm->refcount = page_count(page) - 1;	/* not counting ours */
	if (locked || !trylock_page(page)) {
		pm->flags |= PM_LOCKED;	/* (it is, now) */
		return;
	}
	if (page_has_buffers(page)) {
		struct buffer_head *head = page_buffers(page), *bh = head;

		pm->flags |= PM_BUFFERS;
		do {
			unsigned int i = pm->nr_buffers++;

			pm->buf_flags[i] = buffer_state(bh);
			pm->block[i] = buffer_mapped(bh) ? bh->b_blocknr : 0;
			bh = bh->b_this_page;
		} while (bh != head && pm->nr_buffers < PAGEMAP_MAX_BUFFERS);
	}
	unlock_page(page);
}

/* Where the file system has the blocks no buffer of the page maps. */
static void bmap_unmapped(struct inode *inode, struct pagemap_page *pm)
{
	unsigned int per_page = PAGE_SIZE >> inode->i_blkbits;
	sector_t first = pm->index * per_page, block;

	if (!inode->i_mapping->a_ops || !inode->i_mapping->a_ops->bmap ||
	    (pm->flags & PM_LOCKED) || per_page > PAGEMAP_MAX_BUFFERS)
		return;
	if (!(pm->flags & PM_BUFFERS)) {
		pm->flags |= PM_BMAP;
		pm->nr_buffers = per_page;
	}
	for (unsigned int i = 0; i < pm->nr_buffers; i++) {
		if (pm->buf_flags[i] & PMB_MAPPED)
			continue;
		block = first + i;
		if (!bmap(inode, &block) && block) {
			pm->buf_flags[i] |= PMB_ON_DISK;
			pm->block[i] = block;
		}
	}
}

long pagemap_ioctl(struct file *file, unsigned long arg)
{
	struct inode *inode = file->f_inode;
	struct pagemap_request req;
	struct pagemap_page pm;
	struct page *page;

	if (!S_ISREG(inode->i_mode) || !inode->i_mapping)
		return -ENOTTY;
	if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
		return -EFAULT;
	if (req.count > 4096)
		req.count = 4096;
	for (unsigned int i = 0; i < req.count; i++) {
		memset(&pm, 0, sizeof(pm));
		pm.index = req.first + i;
		page = find_get_page(inode->i_mapping, pm.index);
		check_found_page(page, inode->i_mapping);
		if (page) {
			describe_page(page, &pm);
			page_cache_release(page);
			bmap_unmapped(inode, &pm);
		}
		if (copy_to_user((void __user *)(unsigned long)req.pages +
				 i * sizeof(pm), &pm, sizeof(pm)))
			return -EFAULT;
	}
	req.blocksize = 1U << inode->i_blkbits;
	req.i_size = i_size_read(inode);
	if (copy_to_user((void __user *)arg, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}
