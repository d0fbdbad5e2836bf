/*
 * fs/ext2/balloc.c: block allocation (Linux's fs/ext2/balloc.c, without
 * reservation windows).
 *
 * Each group has a block bitmap, one bit per block of the group (bit i is
 * block first_block + i; bits past the end of the last group are set by
 * mke2fs). Allocating a block sets its bit and takes one from three
 * counters: the group descriptor's bg_free_blocks_count, the superblock's
 * s_free_blocks_count, and the inode's i_blocks grows. Freeing does the
 * reverse. All three change together under sbi->s_lock, so the counts on
 * disk are exact whenever the buffers are written: e2fsck must agree.
 *
 * Above: ext2_get_block and truncation (and xattr blocks). Below: the
 * buffer cache (bitmaps and descriptors are metadata buffers).
 */
#include "ext2.h"
#include <kernel/errno.h>
#include <kernel/fault_inject.h>
#include <kernel/sched.h>

/*
 * The block bitmap of group, referenced, or NULL (logged) when it cannot
 * be read or is not believable: the group's own bitmaps and inode table
 * must be marked in use, else allocating from it would hand them out.
 */
static struct buffer_head *read_block_bitmap(struct super_block *sb,
					     unsigned long group)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_group_desc *gdp = ext2_get_group_desc(sb, group, NULL);
	unsigned long first = ext2_group_first_block(sbi, group);
	struct buffer_head *bh = sb_getblk(sb, gdp->bg_block_bitmap);
	bool ok, cached = bh && buffer_uptodate(bh);

	/* A bitmap already in memory was checked when it was read, and only
	 * ext2 changes it since: check it once, not on every allocation
	 * (as Linux: the check costs a bit per inode-table block). */
	brelse(bh);
	bh = sb_bread(sb, gdp->bg_block_bitmap);
	if (!bh) {
		ext2_error(sb, __func__, "cannot read block bitmap of group "
			   "%lu", group);
		return NULL;
	}
	if (cached)
		return bh;
	ok = ext2_test_bit(gdp->bg_block_bitmap - first, bh->b_data) &&
	     ext2_test_bit(gdp->bg_inode_bitmap - first, bh->b_data);
	for (unsigned long i = 0; ok && i < sbi->s_itb_per_group; i++)
		ok = ext2_test_bit(gdp->bg_inode_table + i - first, bh->b_data);
	if (!ok) {
		ext2_error(sb, __func__, "group %lu: block bitmap does not "
			   "mark the group's metadata in use", group);
		brelse(bh);
		return NULL;
	}
	return bh;
}

/* Blocks in group (the last group may be short). */
static unsigned long group_blocks(struct ext2_sb_info *sbi,
				  unsigned long group)
{
	return min(sbi->s_blocks_per_group,
		   sbi->s_blocks_count - ext2_group_first_block(sbi, group));
}

/* May the caller dip into the blocks reserved for the super-user? */
static bool may_use_reserved(struct ext2_super_block *es)
{
	return current->cred.fsuid == 0 ||
	       current->cred.fsuid == es->s_def_resuid;
}

/* s_lock held: take run blocks from group's counts and the superblock's. */
static void count_used(struct super_block *sb, struct buffer_head *gdbh,
		       struct ext2_group_desc *gdp, long run)
{
	gdp->bg_free_blocks_count -= run;
	EXT2_SB(sb)->s_es->s_free_blocks_count -= run;
	mark_buffer_dirty(gdbh);
	ext2_sb_dirty(sb);
}

unsigned long ext2_new_blocks(struct inode *inode, unsigned long goal,
			      unsigned long *count, int *err)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;
	unsigned long group, start, block = 0, run = 0;

	*err = -ENOSPC;
	if (should_fail(&fail_block_alloc)) {	/* /proc/fail/block_alloc */
		*count = 0;
		return 0;
	}
	mutex_lock(&sbi->s_lock);
	if (!es->s_free_blocks_count ||
	    (es->s_free_blocks_count <= es->s_r_blocks_count &&
	     !may_use_reserved(es)))
		goto out;
	if (goal < sbi->s_first_data_block || goal >= sbi->s_blocks_count)
		goal = sbi->s_first_data_block;
	group = (goal - sbi->s_first_data_block) / sbi->s_blocks_per_group;
	start = (goal - sbi->s_first_data_block) % sbi->s_blocks_per_group;
	for (unsigned long i = 0; i < sbi->s_groups_count; i++) {
		unsigned long g = (group + i) % sbi->s_groups_count, bit, n;
		struct buffer_head *gdbh, *bh;
		struct ext2_group_desc *gdp = ext2_get_group_desc(sb, g, &gdbh);

		if (!gdp->bg_free_blocks_count)
			continue;
		bh = read_block_bitmap(sb, g);
		if (!bh) {
			*err = -EIO;
			continue;
		}
		n = group_blocks(sbi, g);
		bit = ext2_find_next_zero_bit(bh->b_data, n, i ? 0 : start);
		if (bit >= n)	/* nothing after the goal: from the start */
			bit = ext2_find_next_zero_bit(bh->b_data, n, 0);
		if (bit >= n) {
			ext2_error(sb, __func__, "group %lu: free blocks count "
				   "%u, but its bitmap is full", g,
				   gdp->bg_free_blocks_count);
			brelse(bh);
			*err = -EIO;
			continue;
		}
		while (run < *count && bit + run < n &&
		       run < gdp->bg_free_blocks_count &&
		       !ext2_test_bit(bit + run, bh->b_data))
			run++;
		block = ext2_group_first_block(sbi, g) + bit;
		if (!ext2_data_block_valid(sb, block, run)) {
			ext2_error(sb, __func__, "bitmap of group %lu marks "
				   "metadata block %lu free", g, block);
			brelse(bh);
			block = run = 0;
			*err = -EIO;
			continue;
		}
		for (unsigned long j = 0; j < run; j++)
			ext2_set_bit(bit + j, bh->b_data);
		mark_buffer_dirty(bh);
		brelse(bh);
		count_used(sb, gdbh, gdp, run);
		*err = 0;
		break;
	}
out:
	mutex_unlock(&sbi->s_lock);
	*count = run;
	if (!block)
		return 0;
	note_new_blocks(block, run);	/* never to be read: fs/buffer_write.c */
	inode->i_blocks += run << (sb->s_blocksize_bits - 9);
	mark_inode_dirty(inode);
	return block;
}

void ext2_free_blocks(struct inode *inode, unsigned long block,
		      unsigned long count)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long group, bit, freed = 0;
	struct ext2_group_desc *gdp;
	struct buffer_head *bh, *gdbh;

	if (!ext2_data_block_valid(sb, block, count)) {
		ext2_error(sb, __func__, "inode %lu: freeing blocks %lu-%lu "
			   "outside the data area", inode->i_ino, block,
			   block + count - 1);
		return;
	}
	group = (block - sbi->s_first_data_block) / sbi->s_blocks_per_group;
	bit = (block - sbi->s_first_data_block) % sbi->s_blocks_per_group;
	mutex_lock(&sbi->s_lock);
	gdp = ext2_get_group_desc(sb, group, &gdbh);
	bh = read_block_bitmap(sb, group);
	if (!bh)
		goto out;
	for (unsigned long j = 0; j < count; j++) {
		if (!ext2_test_bit(bit + j, bh->b_data)) {
			ext2_error(sb, __func__, "bit already cleared for "
				   "block %lu", block + j);
			continue;
		}
		ext2_clear_bit(bit + j, bh->b_data);
		freed++;
	}
	mark_buffer_dirty(bh);
	brelse(bh);
	count_used(sb, gdbh, gdp, -(long)freed);
out:
	mutex_unlock(&sbi->s_lock);
	/* The inode held them, even if the bitmap disagreed. */
	inode->i_blocks -= count << (sb->s_blocksize_bits - 9);
	mark_inode_dirty(inode);
}
