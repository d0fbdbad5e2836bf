/*
 * fs/ext2/ialloc.c: inode allocation and the end of an inode's life
 * (Linux's fs/ext2/ialloc.c, and ext2_delete_inode from inode.c).
 *
 * Inode ino lives in group (ino - 1) / inodes_per_group, bit
 * (ino - 1) % inodes_per_group of that group's inode bitmap. Allocating
 * sets the bit and takes one from bg_free_inodes_count and
 * s_free_inodes_count (a directory also adds to bg_used_dirs_count);
 * freeing does the reverse, all under sbi->s_lock, so the counts stay
 * exact. Placement, simplified from Linux: a new directory goes to the
 * group with the most free inodes (spreading the tree), a file next to
 * its directory.
 *
 * A new inode whose inode-table block holds no other inode in use (the
 * common case on a fresh file system, which fills its table in order)
 * gets that block as a zeroed buffer instead of a read: nothing in it is
 * worth reading, and create must not wait for the disk (itable_prime).
 * Likewise the inode bitmap of a group with every inode free
 * (fresh_inode_bitmap).
 *
 * Above: namei.c (create, mkdir, ...) and the VFS's iput, which calls
 * ext2_evict_inode when the last reference to an inode goes.
 */
#include "ext2.h"
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>

/*
 * The bitmap of a group whose inodes are all free, built instead of read:
 * zeroes for its inodes, ones in the padding after them (as mke2fs and
 * e2fsck want). Allocation entering a fresh group must not wait for the
 * disk. NULL if out of memory (the caller reads instead).
 */
static struct buffer_head *fresh_inode_bitmap(struct super_block *sb,
					      struct ext2_group_desc *gdp)
{
	unsigned long ipg = EXT2_SB(sb)->s_inodes_per_group;
	struct buffer_head *bh = sb_getblk(sb, gdp->bg_inode_bitmap);

	if (!bh)
		return NULL;
	lock_buffer(bh);
	if (!buffer_uptodate(bh)) {
		memset(bh->b_data, 0, bh->b_size);
		for (unsigned long i = ipg; i < bh->b_size * 8; i++)
			ext2_set_bit(i, bh->b_data);
		set_buffer_uptodate(bh);
	}
	unlock_buffer(bh);
	return bh;
}

static struct buffer_head *read_inode_bitmap(struct super_block *sb,
					     unsigned long group)
{
	struct ext2_group_desc *gdp = ext2_get_group_desc(sb, group, NULL);
	struct buffer_head *bh = NULL;

	if (gdp->bg_free_inodes_count == EXT2_SB(sb)->s_inodes_per_group)
		bh = fresh_inode_bitmap(sb, gdp);
	if (!bh)
		bh = sb_bread(sb, gdp->bg_inode_bitmap);

	if (!bh)
		ext2_error(sb, __func__, "cannot read inode bitmap of group "
			   "%lu", group);
	return bh;
}

/* The group for a new inode; s_lock held. -1 when all are full. */
static long find_group(struct super_block *sb, struct inode *dir,
		       bool is_dir)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long parent = EXT2_I(dir)->i_block_group, best = 0;
	long found = -1;

	for (unsigned long i = 0; i < sbi->s_groups_count; i++) {
		unsigned long g = (parent + i) % sbi->s_groups_count;
		struct ext2_group_desc *gdp = ext2_get_group_desc(sb, g, NULL);

		if (!gdp->bg_free_inodes_count)
			continue;
		if (!is_dir)	/* the parent's group, or the next with room */
			return g;
		if (gdp->bg_free_inodes_count > best) {
			best = gdp->bg_free_inodes_count;
			found = g;
		}
	}
	return found;
}

/* Take a free inode number: s_lock held. 0 with *err set on failure. */
/*
 * Are all inodes of bit's inode-table block but bit itself free in the
 * group's bitmap? Never for the block of the reserved inodes (whatever a
 * damaged bitmap says of them). s_lock held.
 */
static bool itable_block_free(struct super_block *sb, unsigned long g,
			      const char *bitmap, unsigned long bit)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long ipb = sbi->s_inodes_per_block, first = bit - bit % ipb;

	if (g == 0 && first < sbi->s_first_ino)
		return false;
	for (unsigned long i = first;
	     i < first + ipb && i < sbi->s_inodes_per_group; i++)
		if (i != bit && ext2_test_bit(i, bitmap))
			return false;
	return true;
}

/* Give ino's inode-table block a zeroed buffer if it is not cached, so
 * that writing the new inode needs no read (itable_block_free said so). */
static void itable_prime(struct super_block *sb, unsigned long ino)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long index = (ino - 1) % sbi->s_inodes_per_group;
	struct ext2_group_desc *gdp =
		ext2_get_group_desc(sb, (ino - 1) / sbi->s_inodes_per_group,
				    NULL);
	struct buffer_head *bh;

	if (!gdp)
		return;
	bh = sb_getblk(sb, gdp->bg_inode_table +
			   index / sbi->s_inodes_per_block);
	if (!bh)
		return;	/* the write will read it */
	lock_buffer(bh);
	if (!buffer_uptodate(bh)) {
		memset(bh->b_data, 0, bh->b_size);
		set_buffer_uptodate(bh);
		mark_buffer_dirty(bh);
	}
	unlock_buffer(bh);
	brelse(bh);
}

/* A free inode number near dir, taken; 0 and *err if none. *fresh says
 * whether its inode-table block holds no other inode in use. */
static unsigned long alloc_ino(struct super_block *sb, struct inode *dir,
			       umode_t mode, int *err, bool *fresh)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	long start = find_group(sb, dir, S_ISDIR(mode));

	*err = -ENOSPC;
	for (unsigned long i = 0; start >= 0 && i < sbi->s_groups_count;
	     i++) {
		unsigned long g = (start + i) % sbi->s_groups_count, bit;
		struct buffer_head *gdbh, *bh;
		struct ext2_group_desc *gdp = ext2_get_group_desc(sb, g, &gdbh);

		if (!gdp->bg_free_inodes_count)
			continue;
		bh = read_inode_bitmap(sb, g);
		if (!bh) {
			*err = -EIO;
			continue;
		}
		/* Inodes below s_first_ino are reserved, whatever the
		 * bitmap says. */
		bit = g ? 0 : sbi->s_first_ino - 1;
		bit = ext2_find_next_zero_bit(bh->b_data,
					      sbi->s_inodes_per_group, bit);
		if (bit >= sbi->s_inodes_per_group) {
			ext2_error(sb, __func__, "group %lu: free inodes count "
				   "%u, but its bitmap is full", g,
				   gdp->bg_free_inodes_count);
			brelse(bh);
			*err = -EIO;
			continue;
		}
		ext2_set_bit(bit, bh->b_data);
		*fresh = itable_block_free(sb, g, bh->b_data, bit);
		mark_buffer_dirty(bh);
		brelse(bh);
		gdp->bg_free_inodes_count--;
		if (S_ISDIR(mode))
			gdp->bg_used_dirs_count++;
		mark_buffer_dirty(gdbh);
		sbi->s_es->s_free_inodes_count--;
		ext2_sb_dirty(sb);
		*err = 0;
		return g * sbi->s_inodes_per_group + bit + 1;
	}
	return 0;
}

/* Give inode number ino back (the inode is gone or was never used). */
static void free_ino(struct super_block *sb, unsigned long ino, bool is_dir)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long group = (ino - 1) / sbi->s_inodes_per_group;
	unsigned long bit = (ino - 1) % sbi->s_inodes_per_group;
	struct buffer_head *bh, *gdbh;
	struct ext2_group_desc *gdp;

	if (ino < sbi->s_first_ino || ino > sbi->s_inodes_count) {
		ext2_error(sb, __func__, "freeing reserved or bad inode %lu",
			   ino);
		return;
	}
	mutex_lock(&sbi->s_lock);
	gdp = ext2_get_group_desc(sb, group, &gdbh);
	bh = read_inode_bitmap(sb, group);
	if (!bh)
		goto out;
	if (!ext2_test_bit(bit, bh->b_data)) {
		ext2_error(sb, __func__, "bit already cleared for inode %lu",
			   ino);
		brelse(bh);
		goto out;
	}
	ext2_clear_bit(bit, bh->b_data);
	mark_buffer_dirty(bh);
	brelse(bh);
	gdp->bg_free_inodes_count++;
	if (is_dir)
		gdp->bg_used_dirs_count--;
	mark_buffer_dirty(gdbh);
	sbi->s_es->s_free_inodes_count++;
	ext2_sb_dirty(sb);
out:
	mutex_unlock(&sbi->s_lock);
}

/*
 * A new inode of mode in dir: a number from the bitmap, then the in-core
 * inode (hashed, so iput keeps it cached like any other). The caller sets
 * the operations (ext2_set_inode_ops) and links it into a directory.
 * Returns the inode (nlink 1, dirty) or an ERR_PTR.
 */
struct inode *ext2_new_inode(struct inode *dir, umode_t mode)
{
	struct super_block *sb = dir->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_inode_info *ei;
	struct inode *inode;
	unsigned long ino;
	bool fresh = false;
	u32 generation;
	int err;

	mutex_lock(&sbi->s_lock);
	ino = alloc_ino(sb, dir, mode, &err, &fresh);
	generation = sbi->s_next_generation++;	/* two CPUs: two numbers */
	mutex_unlock(&sbi->s_lock);
	if (!ino)
		return ERR_PTR(err);
	inode = iget_locked(sb, ino);
	if (!inode) {
		free_ino(sb, ino, S_ISDIR(mode));
		return ERR_PTR(-ENOMEM);
	}
	if (!(inode->i_state & I_NEW)) {
		/* In use in memory, free in the bitmap: the disk is wrong.
		 * Keep the bit set (it is in use) and refuse. */
		ext2_error(sb, __func__, "inode %lu is in use but free in the "
			   "bitmap", ino);
		iput(inode);
		return ERR_PTR(-EIO);
	}
	if (fresh)
		itable_prime(sb, ino);
	inode_init_owner(inode, dir, mode);
	ei = EXT2_I(inode);
	ei->i_new = true;
	ei->i_block_group = (ino - 1) / sbi->s_inodes_per_group;
	ei->i_generation = generation;
	inode->i_size = 0;
	inode->i_blocks = 0;
	inode->i_mtime = inode->i_atime = inode->i_ctime = current_time(inode);
	unlock_new_inode(inode);
	mark_inode_dirty(inode);
	return inode;
}

/* An extended attribute block is shared by reference count; drop ours
 * (we never create them, but mke2fs -d and other systems may have). */
static void ext2_xattr_delete_inode(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct buffer_head *bh;
	struct ext2_xattr_header *h;

	if (!ei->i_file_acl)
		return;
	if (!ext2_data_block_valid(inode->i_sb, ei->i_file_acl, 1) ||
	    !(bh = sb_bread(inode->i_sb, ei->i_file_acl))) {
		ext2_error(inode->i_sb, __func__, "inode %lu: bad extended "
			   "attribute block %u", inode->i_ino, ei->i_file_acl);
		return;
	}
	h = (struct ext2_xattr_header *)bh->b_data;
	if (h->h_magic != EXT2_XATTR_MAGIC || !h->h_refcount) {
		ext2_error(inode->i_sb, __func__, "inode %lu: bad extended "
			   "attribute block %u", inode->i_ino, ei->i_file_acl);
		brelse(bh);
		return;
	}
	if (--h->h_refcount == 0) {
		bforget(bh);
		ext2_free_blocks(inode, ei->i_file_acl, 1);
	} else {
		mark_buffer_dirty(bh);
		brelse(bh);
		inode->i_blocks -= inode->i_sb->s_blocksize >> 9;
	}
	ei->i_file_acl = 0;
}

/*
 * The last reference went (iput), the page cache is already gone. With
 * no links left the file dies here: its blocks, then (with dtime set, as
 * e2fsck expects of a deleted inode) its bitmap bit. Otherwise the inode
 * is just written back if it changed (umount).
 */
void ext2_evict_inode(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;

	if (ei->i_bad || sb_rdonly(sb))
		goto out;
	if (inode->i_nlink) {
		ext2_write_inode(inode, 0);
		goto out;
	}
	ei->i_dtime = ext2_dtime(sb);
	inode->i_size = 0;
	if (inode->i_blocks && ext2_truncate_blocks(inode, 0))
		ext2_error(sb, __func__, "inode %lu: some blocks could not be "
			   "freed", inode->i_ino);
	ext2_xattr_delete_inode(inode);
	ext2_write_inode(inode, 0);
	free_ino(sb, inode->i_ino, S_ISDIR(inode->i_mode));
out:
	invalidate_inode_buffers(inode);
}
