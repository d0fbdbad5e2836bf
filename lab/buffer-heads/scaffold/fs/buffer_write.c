/*
 * Scaffolding for the stub below, not part of the lab: scripts/mklab
 * copies it here from lab/buffer-heads/scaffold/ in every tree where
 * __block_prepare_write is a stub (the buffer-heads lab's and the earlier
 * labs'); the full tree has no such code. The stub calls it, so these
 * trees write files correctly, only slowly.
 *
 * block_prepare_write_whole_page prepares a write whole pages at a time:
 * unless the write covers the whole page, it reads every block of the
 * page that is not uptodate first, synchronously and under the page lock;
 * then it maps the blocks under the write, allocating. Right, but it
 * reads blocks that the write replaces whole and blocks that it never
 * touches (what the lab's tests count).
 */
/* Every block of the page that is not uptodate, read and waited for
 * (holes and blocks past EOF become zeroes); the page is then uptodate. */
static int __maybe_unused read_page_blocks(struct inode *inode,
					   struct page *page,
					   struct buffer_head *head,
					   get_block_t *get_block)
{
	unsigned int bbits = inode->i_blkbits;
	sector_t block = (sector_t)page->index << (PAGE_SHIFT - bbits);
	sector_t lblock = (i_size_read(inode) + (1U << bbits) - 1) >> bbits;
	struct buffer_head *bh = head, *wait[PAGE_SIZE / 512];
	int nr = 0, err = 0;

	do {
		if (buffer_uptodate(bh))
			continue;
		if (!buffer_mapped(bh) && block < lblock)
			err = get_block(inode, block, bh, 0);
		if (err)
			break;
		if (!buffer_mapped(bh)) {	/* a hole, or past EOF */
			memset(bh->b_data, 0, bh->b_size);
			set_buffer_uptodate(bh);
			continue;
		}
		lock_buffer(bh);
		get_bh(bh);
		bh->b_end_io = end_buffer_read_sync;
		submit_bh(REQ_OP_READ, bh);
		wait[nr++] = bh;
	} while (block++, (bh = bh->b_this_page) != head);
	for (int i = 0; i < nr; i++) {
		wait_on_buffer(wait[i]);
		if (!buffer_uptodate(wait[i]))
			err = -EIO;
	}
	if (!err)
		SetPageUptodate(page);
	return err;
}

/* __maybe_unused: a solution that does not call it must still build
 * (-Werror), in the student's tree and when graded. */
static int __maybe_unused
block_prepare_write_whole_page(struct inode *inode, struct page *page,
			       unsigned int from, unsigned int to,
			       get_block_t *get_block)
{
	unsigned int bbits = inode->i_blkbits, blocksize = 1U << bbits;
	sector_t block = (sector_t)page->index << (PAGE_SHIFT - bbits);
	struct buffer_head *head, *bh;
	unsigned int start = 0;
	int err = 0;

	head = get_page_buffers(page, blocksize);
	if (!head)
		return -ENOMEM;
	if (!PageUptodate(page) && (from || to < PAGE_SIZE))
		err = read_page_blocks(inode, page, head, get_block);
	for (bh = head; !err; block++, start += blocksize) {
		if (start + blocksize > from && start < to &&
		    !buffer_mapped(bh)) {
			clear_buffer_new(bh);
			err = get_block(inode, block, bh, 1);
			if (!err && buffer_new(bh)) {
				unmap_underlying_metadata(bh->b_bdev,
							  bh->b_blocknr);
				/* Uptodate (zeroes read for the hole): the
				 * whole block goes to the disk. Else the
				 * write covers the page, and write_end or
				 * page_zero_new_buffers takes it from here. */
				if (PageUptodate(page)) {
					clear_buffer_new(bh);
					set_buffer_uptodate(bh);
					mark_buffer_dirty(bh);
				}
			}
		}
		bh = bh->b_this_page;
		if (bh == head)
			break;
	}
	return err;
}

