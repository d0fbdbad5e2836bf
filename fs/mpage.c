/*
 * fs/mpage.c: reading many pages of a file in few requests (Linux:
 * fs/mpage.c, mpage_readahead).
 *
 * ->readpage reads a page block by block: with 1 KiB blocks, four bios
 * of 1 KiB for each page, each a request to the disk. Read-ahead
 * (mm/readahead.c) hands a file system whole runs of new pages instead;
 * mpage_readpages maps their blocks (get_block, no allocation) and, while
 * the blocks follow each other on the disk, puts page after page into
 * one bio (BIO_MAX_VECS pages, 64 KiB), so a window of read-ahead is a
 * few large requests, all in flight at once. No buffer heads are
 * attached: the page is read whole, and a later write (write_begin,
 * page_mkwrite) attaches them to an uptodate page as it would anyway.
 *
 * A page the fast path cannot describe as "these blocks, contiguous, then
 * nothing but the part past i_size" (a hole inside it, blocks out of
 * order, buffers already attached, a mapping error) ends the current bio
 * and goes to block_read_full_page, which handles every case.
 *
 * Completion (mpage_end_io, in the disk's interrupt): each page becomes
 * uptodate, or stays not uptodate on an error (the reader then finds it so
 * and calls ->readpage, which reports the error), and is unlocked.
 */
#include <fs/blkdev.h>
#include <fs/buffer_head.h>
#include <kernel/string.h>
#include <mm/filemap.h>

static void mpage_end_io(struct bio *bio)
{
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct page *page = bio->bi_io_vec[i].bv_page;

		if (!bio->bi_status)
			SetPageUptodate(page);
		unlock_page(page);
	}
	bio_put(bio);
}

/*
 * How many of page's blocks, from its first, are mapped one after the
 * other on the disk (*first: the first one's number), with every block
 * after them past i_size; -1 when the page is not like that.
 */
static int map_page_blocks(struct page *page, get_block_t *get_block,
			   sector_t *first)
{
	struct inode *inode = page->mapping->host;
	unsigned int bbits = inode->i_blkbits;
	unsigned int per_page = PAGE_SIZE >> bbits, n;
	sector_t iblock = (sector_t)page->index << (PAGE_SHIFT - bbits);
	sector_t lblock = (i_size_read(inode) + (1UL << bbits) - 1) >> bbits;

	if (page_has_buffers(page))
		return -1;
	for (n = 0; n < per_page && iblock + n < lblock; n++) {
		/* 0: a hole, or the lookup failed; either way, not this way */
		sector_t b = generic_block_bmap(page->mapping, iblock + n,
						get_block);

		if (!b)
			return -1;
		if (!n)
			*first = b;
		else if (b != *first + n)
			return -1;
	}
	return n ? (int)n : -1;
}

/*
 * Read pages[0..nr) (new, locked, not uptodate, in index order, of one
 * file); each is unlocked when its read ends. The caller keeps its own
 * references.
 */
void mpage_readpages(struct page **pages, unsigned int nr,
		     get_block_t *get_block)
{
	struct bio *bio = NULL;
	sector_t next = 0;	/* the disk block that would extend bio */

	for (unsigned int i = 0; i < nr; i++) {
		struct page *page = pages[i];
		struct inode *inode = page->mapping->host;
		unsigned int bbits = inode->i_blkbits;
		unsigned int len;
		sector_t first;
		int n = map_page_blocks(page, get_block, &first);

		if (bio && (n < 0 || first != next ||
			    bio->bi_vcnt == bio->bi_max_vecs)) {
			submit_bio(bio);
			bio = NULL;
		}
		if (n < 0) {
			block_read_full_page(page, get_block);
			continue;
		}
		if (!bio) {
			bio = bio_alloc(inode->i_sb->s_bdev, BIO_MAX_VECS,
					REQ_OP_READ, GFP_KERNEL);
			if (!bio) {
				block_read_full_page(page, get_block);
				continue;
			}
			bio->bi_sector = first << (bbits - SECTOR_SHIFT);
			bio->bi_end_io = mpage_end_io;
		}
		len = (unsigned int)n << bbits;
		if (len < PAGE_SIZE)	/* the part past i_size reads zero */
			memset((char *)page_address(page) + len, 0,
			       PAGE_SIZE - len);
		bio_add_page(bio, page, len, 0);
		next = first + n;
		if (len < PAGE_SIZE) {	/* EOF: nothing can follow */
			submit_bio(bio);
			bio = NULL;
		}
	}
	if (bio)
		submit_bio(bio);
}
