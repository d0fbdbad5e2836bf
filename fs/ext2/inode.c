/*
 * fs/ext2/inode.c: ext2's two translations (Linux's fs/ext2/inode.c).
 *
 *   inode number -> on-disk inode: ext2_iget reads and checks the raw
 *     inode in its group's inode table and fills a struct inode;
 *     ext2_write_inode copies it back.
 *   file block -> disk block: ext2_get_block walks i_block[] (12 direct
 *     blocks, then single, double and triple indirect blocks), allocating
 *     the missing pieces when asked to.
 *
 * Above: the VFS (iget from lookup, write_inode from writeback) and the
 * page cache, through ext2_aops and the buffer heads of fs/buffer.c, which
 * call ext2_get_block for each block of a page. Below: the buffer cache
 * (inode tables and indirect blocks are metadata buffers) and balloc.c.
 *
 * Locking: the block map of an inode (i_data and its indirect blocks)
 * changes only under EXT2_I(inode)->i_truncate_mutex: ext2_get_block and
 * truncation both take it, so a walk never sees a half-freed branch.
 * Nothing that takes a page lock may be called with it held.
 */
#include "ext2.h"
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/filemap.h>

/* The buffer holding inode ino's raw inode, and where in it. */
static struct ext2_inode *ext2_get_raw_inode(struct super_block *sb,
					     unsigned long ino,
					     struct buffer_head **bh)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long group = (ino - 1) / sbi->s_inodes_per_group;
	unsigned long index = (ino - 1) % sbi->s_inodes_per_group;
	struct ext2_group_desc *gdp = ext2_get_group_desc(sb, group, NULL);
	unsigned long block;

	if (!gdp)
		return NULL;
	block = gdp->bg_inode_table + index / sbi->s_inodes_per_block;
	*bh = sb_bread(sb, block);
	if (!*bh) {
		ext2_error(sb, __func__, "unable to read inode block %lu "
			   "(inode %lu)", block, ino);
		return NULL;
	}
	return (struct ext2_inode *)((*bh)->b_data +
				     (index % sbi->s_inodes_per_block) *
					     sbi->s_inode_size);
}

void ext2_set_inode_ops(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);

	inode->i_mapping->a_ops = &ext2_aops;
	if (S_ISREG(inode->i_mode)) {
		/* The mount option picks which truncate sequence the file
		 * speaks: the new_truncate flag lives in the i_op table. */
		inode->i_op = sbi->s_truncate == EXT2_TRUNCATE_OLD ?
				      &ext2_file_inode_operations_old :
				      &ext2_file_inode_operations;
		inode->i_fop = &ext2_file_operations;
	} else if (S_ISDIR(inode->i_mode)) {
		inode->i_op = &ext2_dir_inode_operations;
		inode->i_fop = &ext2_dir_operations;
	} else if (S_ISLNK(inode->i_mode)) {
		inode->i_op = ext2_inode_is_fast_symlink(inode) ?
				      &ext2_fast_symlink_inode_operations :
				      &ext2_symlink_inode_operations;
	} else {
		inode->i_op = &ext2_special_inode_operations;
		init_special_inode(inode, inode->i_mode, inode->i_rdev);
	}
}

/* What a raw inode must satisfy before anything trusts it. NULL or why. */
static const char *bad_raw_inode(struct inode *inode, struct ext2_inode *raw)
{
	struct super_block *sb = inode->i_sb;
	umode_t mode = raw->i_mode;
	bool blocks = S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode);

	if (!raw->i_links_count)
		return "deleted inode referenced";
	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFCHR:
	case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		break;
	default:
		return "bad file type in mode";
	}
	if (S_ISDIR(mode) && inode->i_size % sb->s_blocksize)
		return "directory size is not a multiple of the block size";
	if (inode->i_size < 0 || inode->i_size > sb->s_maxbytes)
		return "impossible size";
	if (S_ISLNK(mode) && inode->i_size >= (raw->i_blocks ?
					       (loff_t)sb->s_blocksize : 60))
		return "symlink too long";
	/* A fast symlink keeps text in i_block[], a device its number. */
	if (!blocks || (S_ISLNK(mode) && !raw->i_blocks))
		return NULL;
	for (int i = 0; i < EXT2_N_BLOCKS; i++)
		if (raw->i_block[i] &&
		    !ext2_data_block_valid(sb, raw->i_block[i], 1))
			return "block pointer beyond the disk or into metadata";
	return NULL;
}

static void copy_from_raw(struct inode *inode, struct ext2_inode *raw)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	inode->i_mode = raw->i_mode;
	inode->i_uid = raw->i_uid | (u32)raw->i_uid_high << 16;
	inode->i_gid = raw->i_gid | (u32)raw->i_gid_high << 16;
	inode->i_nlink = raw->i_links_count;
	inode->i_size = raw->i_size;
	if (S_ISREG(inode->i_mode))
		inode->i_size |= (loff_t)raw->i_size_high << 32;
	inode->i_atime = (struct timespec64){ raw->i_atime, 0 };
	inode->i_ctime = (struct timespec64){ raw->i_ctime, 0 };
	inode->i_mtime = (struct timespec64){ raw->i_mtime, 0 };
	inode->i_blocks = raw->i_blocks;
	ei->i_dtime = raw->i_dtime;
	ei->i_flags = raw->i_flags;
	ei->i_file_acl = raw->i_file_acl;
	ei->i_generation = raw->i_generation;
	ei->i_block_group = (inode->i_ino - 1) /
			    EXT2_SB(inode->i_sb)->s_inodes_per_group;
	memcpy(ei->i_data, raw->i_block, sizeof(ei->i_data));
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		/* Old 8:8 numbers in i_block[0], else the new encoding. */
		inode->i_rdev = raw->i_block[0] ?
			MKDEV((raw->i_block[0] >> 8) & 0xff,
			      raw->i_block[0] & 0xff) :
			new_decode_dev(raw->i_block[1]);
}

struct inode *ext2_iget(struct super_block *sb, unsigned long ino)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct buffer_head *bh;
	struct ext2_inode *raw;
	struct inode *inode;
	const char *why;

	if ((ino != EXT2_ROOT_INO && ino < sbi->s_first_ino) ||
	    ino > sbi->s_inodes_count) {
		ext2_error(sb, __func__, "bad inode number %lu", ino);
		return ERR_PTR(-EIO);
	}
	inode = iget_locked(sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	raw = ext2_get_raw_inode(sb, ino, &bh);
	if (!raw) {
		why = NULL;
		goto bad;
	}
	copy_from_raw(inode, raw);
	why = bad_raw_inode(inode, raw);
	brelse(bh);
	if (why)
		goto bad;
	ext2_set_inode_ops(inode);
	ext2_set_inode_flags(inode);
	unlock_new_inode(inode);
	return inode;
bad:
	if (why)
		ext2_error(sb, __func__, "inode %lu: %s", ino, why);
	/* Never written back or freed: evict just lets it go. */
	EXT2_I(inode)->i_bad = true;
	clear_nlink(inode);
	unlock_new_inode(inode);
	iput(inode);
	return ERR_PTR(-EIO);
}

static void copy_to_raw(struct inode *inode, struct ext2_inode *raw)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	raw->i_mode = inode->i_mode;
	raw->i_uid = inode->i_uid & 0xffff;
	raw->i_uid_high = inode->i_uid >> 16;
	raw->i_gid = inode->i_gid & 0xffff;
	raw->i_gid_high = inode->i_gid >> 16;
	raw->i_links_count = inode->i_nlink;
	raw->i_size = inode->i_size;
	raw->i_size_high = S_ISREG(inode->i_mode) ? inode->i_size >> 32 : 0;
	raw->i_atime = inode->i_atime.tv_sec;
	raw->i_ctime = inode->i_ctime.tv_sec;
	raw->i_mtime = inode->i_mtime.tv_sec;
	raw->i_dtime = ei->i_dtime;
	raw->i_blocks = inode->i_blocks;
	raw->i_flags = ei->i_flags;
	raw->i_file_acl = ei->i_file_acl;
	raw->i_generation = ei->i_generation;
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode)) {
		memset(raw->i_block, 0, sizeof(raw->i_block));
		raw->i_block[1] = new_encode_dev(inode->i_rdev);
	} else {
		memcpy(raw->i_block, ei->i_data, sizeof(raw->i_block));
	}
}

/*
 * Copy the inode into its inode table block (dirtying the buffer only if
 * a byte changed); sync: write that block now and wait. A new inode's
 * slot is cleared first: its ext3/ext4 fields must not come from a
 * previous owner. 0 or -EIO.
 */
int ext2_write_inode(struct inode *inode, int sync)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;
	struct ext2_inode tmp, *raw;
	struct buffer_head *bh;
	int err = 0;

	if (ei->i_bad)
		return -EIO;
	raw = ext2_get_raw_inode(sb, inode->i_ino, &bh);
	if (!raw)
		return -EIO;
	if (ei->i_new)
		memset(&tmp, 0, sizeof(tmp));
	else
		tmp = *raw;
	copy_to_raw(inode, &tmp);
	if (inode->i_size > 0x7fffffff &&
	    !ext2_has_ro_compat(sb, EXT2_FEATURE_RO_COMPAT_LARGE_FILE)) {
		/* Old kernels would misread i_size_high: say it is used. */
		EXT2_SB(sb)->s_es->s_feature_ro_compat |=
			EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
		ext2_sb_dirty(sb);
	}
	if (ei->i_new || memcmp(raw, &tmp, sizeof(tmp))) {
		if (ei->i_new)
			memset(raw, 0, EXT2_SB(sb)->s_inode_size);
		*raw = tmp;
		ei->i_new = false;
		mark_buffer_dirty(bh);
	}
	if (sync)
		err = sync_dirty_buffer(bh);
	brelse(bh);
	return err;
}

/* ---- the block map --------------------------------------------------------------- */

/*
 * LAB pagecache: ext2_get_block starts from this. Map file block iblock
 * of inode through i_data[] and the indirect blocks (map_bh); leave
 * bh_result unmapped for a hole, or with create allocate what is missing
 * (ext2_new_blocks) and set_buffer_new(). Hold i_truncate_mutex.
 *
 * int ext2_get_block(struct inode *inode, sector_t iblock,
 *		   struct buffer_head *bh_result, int create)
 * {
 *	return -EIO;
 * }
 */
/* LAB pagecache: BEGIN */

/* One step of a walk down the block map. */
struct ext2_indirect {
	u32 *p;	/* where the block number is kept (i_data or a block) */
	u32 key;	/* the block number read there (0: a hole) */
	struct buffer_head *bh;	/* the indirect block holding p, or NULL */
};

/*
 * Where file block i_block is: offsets[k] is the index at depth k (in
 * i_data, then in each indirect block). Returns the depth (1-4), or 0
 * for a block beyond what the map can address.
 */
static int ext2_block_to_path(struct inode *inode, sector_t i_block,
			      int offsets[4])
{
	unsigned int bits = EXT2_SB(inode->i_sb)->s_addr_per_block_bits;
	sector_t ptrs = 1ULL << bits, mask = ptrs - 1;

	if (i_block < EXT2_NDIR_BLOCKS) {
		offsets[0] = i_block;
		return 1;
	}
	i_block -= EXT2_NDIR_BLOCKS;
	if (i_block < ptrs) {
		offsets[0] = EXT2_IND_BLOCK;
		offsets[1] = i_block;
		return 2;
	}
	i_block -= ptrs;
	if (i_block < ptrs * ptrs) {
		offsets[0] = EXT2_DIND_BLOCK;
		offsets[1] = i_block >> bits;
		offsets[2] = i_block & mask;
		return 3;
	}
	i_block -= ptrs * ptrs;
	if (i_block < ptrs * ptrs * ptrs) {
		offsets[0] = EXT2_TIND_BLOCK;
		offsets[1] = i_block >> (2 * bits);
		offsets[2] = (i_block >> bits) & mask;
		offsets[3] = i_block & mask;
		return 4;
	}
	return 0;
}

/*
 * Walk the path as far as it exists. Returns NULL when every step is
 * there (the data block is chain[depth - 1].key), else the step whose key
 * is 0 (a hole from there down). A block number that points outside the
 * data area, or back at a block already on the path (a loop), is damage:
 * *err = -EIO, never a hang. The caller brelse()s the chain's buffers.
 */
static struct ext2_indirect *ext2_get_branch(struct inode *inode, int depth,
					     int *offsets,
					     struct ext2_indirect chain[4],
					     int *err)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_indirect *p = chain;

	*err = 0;
	p->bh = NULL;
	p->p = EXT2_I(inode)->i_data + offsets[0];
	p->key = *p->p;
	for (int k = 1;; k++) {
		if (!p->key)
			return p;
		for (int j = 0; j < k - 1; j++)
			if (chain[j].key == p->key)
				goto bad;
		if (!ext2_data_block_valid(sb, p->key, 1))
			goto bad;
		if (k == depth)
			return NULL;
		p++;
		p->bh = sb_bread(sb, (p - 1)->key);
		if (!p->bh) {
			*err = -EIO;
			return p - 1;
		}
		p->p = (u32 *)p->bh->b_data + offsets[k];
		p->key = *p->p;
	}
bad:
	ext2_error(sb, __func__, "inode %lu: bad block number %u in its map",
		   inode->i_ino, p->key);
	*err = -EIO;
	return p;
}

/* A block near where the new one goes: after its left neighbour in the
 * same indirect block (or i_data), else the inode's group. */
static unsigned long ext2_find_goal(struct inode *inode,
				    struct ext2_indirect *partial)
{
	u32 *start = partial->bh ? (u32 *)partial->bh->b_data
				 : EXT2_I(inode)->i_data;
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);

	for (u32 *p = partial->p - 1; p >= start; p--)
		if (*p)
			return *p + 1;
	if (partial->bh)
		return partial->bh->b_blocknr + 1;
	return ext2_group_first_block(sbi, EXT2_I(inode)->i_block_group);
}

/*
 * Allocate the num indirect blocks below partial and the data block, and
 * link them to each other (each new indirect block zeroed, pointing to
 * the next). Nothing is visible until the caller splices blocks[0] in.
 * 0 or -errno, with everything allocated here freed again.
 */
static int ext2_alloc_branch(struct inode *inode, int num, int *offsets,
			     unsigned long goal, u32 *blocks)
{
	struct super_block *sb = inode->i_sb;
	int err = 0, i;

	for (i = 0; i <= num; i++) {
		unsigned long count = 1;

		blocks[i] = ext2_new_blocks(inode, goal, &count, &err);
		if (!blocks[i])
			goto fail;
		goal = blocks[i] + 1;
	}
	for (i = 0; i < num; i++) {
		struct buffer_head *bh = sb_getblk(sb, blocks[i]);

		if (!bh) {
			err = -ENOMEM;
			i = num + 1;
			goto fail;
		}
		lock_buffer(bh);
		memset(bh->b_data, 0, sb->s_blocksize);
		((u32 *)bh->b_data)[offsets[i + 1]] = blocks[i + 1];
		set_buffer_uptodate(bh);
		unlock_buffer(bh);
		mark_buffer_dirty_inode(bh, inode);
		brelse(bh);
	}
	return 0;
fail:
	while (i--) {
		if (i < num)
			bforget(sb_getblk(sb, blocks[i]));
		ext2_free_blocks(inode, blocks[i], 1);
	}
	return err;
}

int ext2_get_block(struct inode *inode, sector_t iblock,
		   struct buffer_head *bh_result, int create)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_indirect chain[4], *partial;
	int offsets[4], depth, err, num;
	u32 blocks[4];

	depth = ext2_block_to_path(inode, iblock, offsets);
	if (!depth)
		return create ? -EFBIG : 0;
	mutex_lock(&ei->i_truncate_mutex);
	partial = ext2_get_branch(inode, depth, offsets, chain, &err);
	if (!partial) {
		map_bh(bh_result, inode->i_sb, chain[depth - 1].key);
		partial = chain + depth - 1;
		goto out;
	}
	if (err || !create)	/* damage, or a hole: stays unmapped */
		goto out;
	num = chain + depth - 1 - partial;	/* indirect blocks missing */
	err = ext2_alloc_branch(inode, num, offsets + (partial - chain),
				ext2_find_goal(inode, partial), blocks);
	if (err)
		goto out;
	/* Splice: one store makes the whole new branch part of the file. */
	*partial->p = blocks[0];
	if (partial->bh)
		mark_buffer_dirty_inode(partial->bh, inode);
	else
		mark_inode_dirty(inode);
	map_bh(bh_result, inode->i_sb, blocks[num]);
	set_buffer_new(bh_result);
out:
	for (struct ext2_indirect *p = chain; p <= partial; p++)
		brelse(p->bh);
	mutex_unlock(&ei->i_truncate_mutex);
	return err;
}
/* LAB pagecache: END */

/* ---- address space operations ----------------------------------------------------- */

static int ext2_readpage(struct file *file, struct page *page)
{
	return block_read_full_page(page, ext2_get_block);
}

/* Read-ahead: runs of contiguous blocks in one request (fs/mpage.c). */
static void ext2_readpages(struct file *file, struct address_space *mapping,
			   struct page **pages, unsigned int nr)
{
	mpage_readpages(pages, nr, ext2_get_block);
}

static int ext2_writepage(struct page *page, struct writeback_control *wbc)
{
	return block_write_full_page(page, ext2_get_block, wbc);
}

static int ext2_write_begin(struct file *file, struct address_space *mapping,
			    loff_t pos, unsigned int len, unsigned int flags,
			    struct page **pagep, void **fsdata)
{
	int err = block_write_begin(file, mapping, pos, len, flags, pagep,
				    fsdata, ext2_get_block);

	/* The new sequence trims what the failed write allocated past
	 * i_size itself; the old one had truncate_blocks do it. */
	if (err && mapping->host->i_op->new_truncate)
		ext2_write_failed(mapping, pos + len);
	return err;
}

static bool ext2_releasepage(struct page *page, unsigned int gfp)
{
	return try_to_free_buffers(page);
}

static sector_t ext2_bmap(struct address_space *mapping, sector_t block)
{
	return generic_block_bmap(mapping, block, ext2_get_block);
}

const struct address_space_operations ext2_aops = {
	.readpage = ext2_readpage,
	.readpages = ext2_readpages,
	.writepage = ext2_writepage,
	.write_begin = ext2_write_begin,
	.write_end = generic_write_end,
	.set_page_dirty = __set_page_dirty_buffers,
	.releasepage = ext2_releasepage,
	.invalidatepage = block_invalidatepage,
	.bmap = ext2_bmap,
};
