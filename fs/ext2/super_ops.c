/*
 * fs/ext2/super_ops.c: a mounted ext2 file system's super_operations
 * (Linux keeps them in fs/ext2/super.c, with mounting).
 *
 *   statfs      the free counts, kept exact in the superblock buffer
 *   sync_fs     sync(2): the files' pages and inodes, then every dirty
 *               metadata buffer (bitmaps, descriptors, inode tables,
 *               indirect blocks, the superblock), waited for
 *   remount_fs  ro <-> rw (truncate= cannot change)
 *   kill_sb     umount: write everything, let the VFS evict the inodes
 *               (ext2_evict_inode), then put_super marks the disk clean
 *   alloc_inode/destroy_inode: struct ext2_inode_info around the inode
 *
 * Above: fs/super.c, fs/sync.c, fs/statfs.c, mm/page-writeback.c.
 */
#include "ext2.h"
#include <fs/dcache.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <mm/slab.h>
#include <mm/writeback.h>

/* ---- statfs, sync, umount ---------------------------------------------------- */

static int ext2_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;
	unsigned long overhead = sbi->s_first_data_block;

	/* BSD df, as Linux counts it: the metadata (reserved GDT blocks
	 * included) is not part of the file system's size. */
	for (unsigned long g = 0; g < sbi->s_groups_count; g++)
		overhead += ext2_group_sb_blocks(sb, g) + 2 + sbi->s_itb_per_group;
	mutex_lock(&sbi->s_lock);
	buf->f_type = EXT2_SUPER_MAGIC;
	buf->f_bsize = sb->s_blocksize;
	buf->f_blocks = sbi->s_blocks_count - overhead;
	buf->f_bfree = es->s_free_blocks_count;
	buf->f_bavail = es->s_free_blocks_count > es->s_r_blocks_count ?
				es->s_free_blocks_count - es->s_r_blocks_count :
				0;
	buf->f_files = sbi->s_inodes_count;
	buf->f_ffree = es->s_free_inodes_count;
	buf->f_namelen = EXT2_NAME_LEN;
	mutex_unlock(&sbi->s_lock);
	return 0;
}

/*
 * Write what is dirty: the files' pages and inodes (the page-cache
 * writeback), then the metadata buffers (bitmaps, descriptors, inode
 * tables, indirect blocks, the superblock). wait: also wait for it.
 */
static int ext2_sync_fs(struct super_block *sb, int wait)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (sb_rdonly(sb))
		return 0;
	/* fs/sync.c calls only ->sync_fs so far; Linux's sync_filesystem
	 * writes the inodes first, so ext2 does it here meanwhile. */
	sync_inodes_sb(sb);
	mutex_lock(&sbi->s_lock);
	sbi->s_es->s_wtime = ext2_now(sb);
	ext2_sb_dirty(sb);
	mutex_unlock(&sbi->s_lock);
	return wait ? sync_blockdev(sb->s_bdev) : 0;
}

static void ext2_put_super(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!sbi)	/* a failed mount cleaned up already */
		return;
	if (!sb_rdonly(sb)) {
		struct ext2_super_block *es = sbi->s_es;

		/* Cleanly unmounted (EXT2_ERROR_FS, if set, stays). */
		es->s_state |= EXT2_VALID_FS;
		es->s_wtime = ext2_now(sb);
		ext2_sb_dirty(sb);
		if (sync_blockdev(sb->s_bdev))
			pr_err("ext2: %s: I/O errors while unmounting\n",
			       sbi->s_id);
	}
	sb->s_bdev->bd_holder = NULL;
	pr_info("ext2: %s: unmounted\n", sbi->s_id);
	ext2_release_sbi(sb);
}


/*
 * umount: write everything back while the inodes still exist, then let
 * the VFS drop the dentries and inodes (evict_inode writes the last
 * dirty inodes), then put_super writes the metadata and the clean state.
 */
void ext2_kill_sb(struct super_block *sb)
{
	if (EXT2_SB(sb))
		ext2_sync_fs(sb, 1);
	generic_shutdown_super(sb);
}

static int ext2_remount(struct super_block *sb, int *flags, char *data)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	int truncate = sbi->s_truncate;
	int err = ext2_parse_options(sb, data, &truncate);

	if (err)
		return err;
	if (truncate != sbi->s_truncate) {
		pr_err("ext2: %s: truncate= cannot change on remount\n",
		       sbi->s_id);
		return -EINVAL;
	}
	if ((*flags & MS_RDONLY) == (sb->s_flags & MS_RDONLY))
		return 0;
	if (*flags & MS_RDONLY) {	/* rw -> ro: write all, mark clean */
		ext2_sync_fs(sb, 1);
		sbi->s_es->s_state |= EXT2_VALID_FS;
		ext2_sb_dirty(sb);
		return sync_dirty_buffer(sbi->s_sbh);
	}
	return ext2_setup_rw(sb);
}

static struct inode *ext2_alloc_inode(struct super_block *sb)
{
	struct ext2_inode_info *ei = kzalloc(sizeof(*ei), GFP_KERNEL);

	if (!ei)
		return NULL;
	mutex_init(&ei->i_truncate_mutex);
	return &ei->vfs_inode;
}

static void ext2_destroy_inode(struct inode *inode)
{
	ext2_dir_index_free(inode);
	kfree(EXT2_I(inode));
}

const struct super_operations ext2_sops = {
	.alloc_inode = ext2_alloc_inode,
	.destroy_inode = ext2_destroy_inode,
	.write_inode = ext2_write_inode,
	.evict_inode = ext2_evict_inode,
	.put_super = ext2_put_super,
	.sync_fs = ext2_sync_fs,
	.statfs = ext2_statfs,
	.remount_fs = ext2_remount,
	.show_options = ext2_show_options,
};
