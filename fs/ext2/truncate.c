/*
 * fs/ext2/truncate.c: making a file shorter, both ways: the old sequence,
 * and the new one of Nick Piggin's 2009 "new truncate sequence" patches
 * (doc/design.md, "The two truncate sequences").
 *
 *   old: notify_change -> ext2_setattr -> vmtruncate: truncate_setsize
 *        moves i_size and cuts the page cache, then ->truncate =
 *        ext2_truncate(inode) frees the blocks. It returns nothing: an
 *        error (a block it cannot read) is only logged, and by then
 *        i_size has moved anyway.
 *   new: notify_change -> ext2_setattr -> ext2_setsize(inode, size):
 *        what can fail happens first (the partial block is zeroed on
 *        disk, which may need a read), then truncate_setsize commits
 *        (i_size, then the page cache), and ext2_truncate_blocks frees
 *        the blocks; its error goes back to the caller.
 * The mount option -o truncate=old|new decides which one a regular file
 * speaks: ext2_set_inode_ops gives it an inode_operations table with
 * new_truncate set, or one with ->truncate.
 *
 * Linux has all of this file in fs/ext2/inode.c (ext2_setsize,
 * ext2_setattr, ext2_truncate_blocks, and in 2.6.3x ext2_truncate):
 * pagelab gives the size change a file of its own, so that inode.c stays
 * the two translations (lab pagecache) and both truncate labs are here.
 *
 * ext2_truncate_blocks is the common core: every block past the new size
 * goes back to balloc.c, indirect blocks included, and the block map is
 * cut under i_truncate_mutex. An indirect block that cannot be read is
 * skipped (its blocks leak, reported) rather than trusted.
 */
#include "ext2.h"
#include <kernel/errno.h>
#include <kernel/fault_inject.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/writeback.h>

/* Blocks freed in runs, so a large file costs few bitmap updates. */
struct free_run {
	struct inode *inode;
	unsigned long start, len;
	int err;	/* a run that could not be freed */
};

/*
 * /proc/fail/block_free makes a run fail as an I/O error on the bitmap
 * would: the blocks are already out of the map, so they leak (e2fsck
 * will say so), and the error goes up to whoever can report it.
 */
static void free_run_flush(struct free_run *run)
{
	if (run->len && should_fail(&fail_block_free)) {
		ext2_error(run->inode->i_sb, __func__, "inode %lu: cannot "
			   "free blocks %lu-%lu", run->inode->i_ino, run->start,
			   run->start + run->len - 1);
		run->err = -EIO;
	} else if (run->len) {
		ext2_free_blocks(run->inode, run->start, run->len);
	}
	run->len = 0;
}

static void free_run_add(struct free_run *run, unsigned long block)
{
	struct ext2_sb_info *sbi = EXT2_SB(run->inode->i_sb);
	unsigned long bpg = sbi->s_blocks_per_group;

	if (run->len && block == run->start + run->len &&
	    (block - sbi->s_first_data_block) % bpg != 0) {
		run->len++;
		return;
	}
	free_run_flush(run);
	run->start = block;
	run->len = 1;
}

/* An indirect block's buffer, or NULL (logged) if it is not one. */
static struct buffer_head *read_indirect(struct inode *inode, u32 nr)
{
	struct buffer_head *bh = NULL;

	if (ext2_data_block_valid(inode->i_sb, nr, 1))
		bh = sb_bread(inode->i_sb, nr);
	if (!bh)
		ext2_error(inode->i_sb, __func__, "inode %lu: cannot use "
			   "indirect block %u; its blocks are not freed",
			   inode->i_ino, nr);
	return bh;
}

/* Free block nr and, for depth > 0, everything below it. */
static int free_branches(struct free_run *run, u32 nr, int depth)
{
	struct inode *inode = run->inode;
	unsigned int ptrs = inode->i_sb->s_blocksize / sizeof(u32);
	struct buffer_head *bh;
	int err = 0;

	if (depth == 0) {
		free_run_add(run, nr);
		return 0;
	}
	bh = read_indirect(inode, nr);
	if (!bh)
		return -EIO;
	for (unsigned int i = 0; i < ptrs; i++) {
		u32 child = ((u32 *)bh->b_data)[i];

		if (child && free_branches(run, child, depth - 1))
			err = -EIO;
	}
	bforget(bh);	/* freed: its contents must never be written */
	free_run_add(run, nr);
	return err;
}

/*
 * *p holds the indirect block of a subtree of depth levels covering file
 * blocks [0, ptrs^depth) of it; keep blocks below from, free the rest.
 * parent is the buffer holding p (NULL: p is in i_data).
 */
static int trim_branch(struct free_run *run, u32 *p,
		       struct buffer_head *parent, int depth, u64 from)
{
	struct inode *inode = run->inode;
	unsigned int bits = EXT2_SB(inode->i_sb)->s_addr_per_block_bits;
	unsigned int ptrs = 1U << bits, first;
	u64 span = 1ULL << (bits * (depth - 1));	/* blocks per child */
	struct buffer_head *bh;
	u32 *child;
	int err = 0;

	if (!*p)
		return 0;
	if (from == 0) {	/* the whole subtree goes */
		err = free_branches(run, *p, depth);
		*p = 0;
		if (parent)
			mark_buffer_dirty_inode(parent, inode);
		return err;
	}
	bh = read_indirect(inode, *p);
	if (!bh)
		return -EIO;
	child = (u32 *)bh->b_data;
	first = from / span;
	if (from % span) {	/* that child keeps its first part */
		err = trim_branch(run, &child[first], bh, depth - 1,
				  from % span);
		first++;
	}
	for (unsigned int i = first; i < ptrs; i++) {
		if (!child[i])
			continue;
		if (free_branches(run, child[i], depth - 1))
			err = -EIO;
		child[i] = 0;
		mark_buffer_dirty_inode(bh, inode);
	}
	/* What the cut kept may be holes only: then this indirect block
	 * maps nothing and goes too (Linux's ext2 frees it the same way). */
	for (unsigned int i = 0; i < ptrs; i++)
		if (child[i]) {
			brelse(bh);
			return err;
		}
	bforget(bh);
	free_run_add(run, *p);
	*p = 0;
	if (parent)
		mark_buffer_dirty_inode(parent, inode);
	return err;
}

int ext2_truncate_blocks(struct inode *inode, loff_t offset)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	unsigned int bits = EXT2_SB(inode->i_sb)->s_addr_per_block_bits;
	u64 iblock = (offset + inode->i_sb->s_blocksize - 1) >>
		     inode->i_sb->s_blocksize_bits;
	u64 start = EXT2_NDIR_BLOCKS, size;
	struct free_run run = { .inode = inode };
	int err = 0;

	if (!(S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) ||
	      S_ISLNK(inode->i_mode)) || ext2_inode_is_fast_symlink(inode))
		return 0;
	mutex_lock(&ei->i_truncate_mutex);
	for (u64 i = iblock; i < EXT2_NDIR_BLOCKS; i++) {
		if (ei->i_data[i])
			free_run_add(&run, ei->i_data[i]);
		ei->i_data[i] = 0;
	}
	/* Single, double, triple: each root covers ptrs^level blocks. */
	for (int level = 1; level <= 3; level++, start += size) {
		size = 1ULL << (bits * level);
		if (iblock >= start + size)
			continue;
		if (trim_branch(&run, &ei->i_data[EXT2_IND_BLOCK + level - 1],
				NULL, level, iblock > start ? iblock - start : 0))
			err = -EIO;
	}
	free_run_flush(&run);
	mutex_unlock(&ei->i_truncate_mutex);
	mark_inode_dirty(inode);
	return err ? err : run.err;
}


/*
 * write_begin failed after allocating blocks past i_size (a short write
 * at the end of the file): give them back. Only under truncate=new: the
 * old sequence leaves it to the generic truncate_blocks (Nick Piggin's
 * ext2 patch does the same in ext2_write_begin).
 */
void ext2_write_failed(struct address_space *mapping, loff_t to)
{
	struct inode *inode = mapping->host;

	if (to <= inode->i_size)
		return;
	truncate_pagecache(inode, to, inode->i_size);
	ext2_truncate_blocks(inode, inode->i_size);
}

/*
 * The old ->truncate: i_size is already the new size and the page cache
 * is cut. It cannot fail, so what goes wrong is only logged.
 */
/*
 * LAB truncate-old: ext2_truncate starts from this.
 * void ext2_truncate(struct inode *inode)
 * {
 * }
 */
/* LAB truncate-old: BEGIN */
void ext2_truncate(struct inode *inode)
{
	int err;

	if (!(S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) ||
	      S_ISLNK(inode->i_mode)) || ext2_inode_is_fast_symlink(inode))
		return;
	/* Too late to refuse: i_size has moved, whatever happens here. */
	err = block_truncate_page(inode->i_mapping, inode->i_size,
				  ext2_get_block);
	if (ext2_truncate_blocks(inode, inode->i_size) && !err)
		err = -EIO;
	if (err)
		pr_err("ext2: %s: inode %lu: truncate failed (error %d), "
		       "nobody can be told\n", EXT2_SB(inode->i_sb)->s_id,
		       inode->i_ino, err);
	inode->i_mtime = inode->i_ctime = current_time(inode);
	mark_inode_dirty(inode);
	/* void: whatever err was, the caller is told nothing */
}
/* LAB truncate-old: END */

/*
 * LAB truncate-new: ext2_setsize starts from this.
 * int ext2_setsize(struct inode *inode, loff_t newsize)
 * {
 *	return -ENOSYS;
 * }
 */
/* LAB truncate-new: BEGIN */
int ext2_setsize(struct inode *inode, loff_t newsize)
{
	int err;

	if (!(S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) ||
	      S_ISLNK(inode->i_mode)) || ext2_inode_is_fast_symlink(inode))
		return -EINVAL;
	/* Fallible steps first: nothing has changed if they fail. */
	err = inode_newsize_ok(inode, newsize);
	if (err)
		goto out;
	err = block_truncate_page(inode->i_mapping, newsize, ext2_get_block);
	if (err)
		goto out;
	/* Commit: i_size, then the page cache. Nothing above changed
	 * anything a failure would have to undo. */
	truncate_setsize(inode, newsize);
	/* A failure from here leaves i_size at newsize and the blocks past
	 * it partly freed (the rest leak, as e2fsck will say): a safe point,
	 * since nothing past i_size is ever read. The caller is told. */
	err = ext2_truncate_blocks(inode, newsize);
	inode->i_mtime = inode->i_ctime = current_time(inode);
	mark_inode_dirty(inode);
out:
	return err;
}
/* LAB truncate-new: END */

int ext2_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	int err;

	err = inode_change_ok(inode, attr);
	if (!err && (attr->ia_valid & ATTR_SIZE) &&
	    attr->ia_size != inode->i_size)
		err = inode->i_op->new_truncate
			      ? ext2_setsize(inode, attr->ia_size)
			      : vmtruncate(inode, attr->ia_size);
	if (!err) {
		/* The size is done: the generic code applies the rest. */
		attr->ia_valid &= ~ATTR_SIZE;
		err = inode_setattr(inode, attr);
	}
	return err;
}
