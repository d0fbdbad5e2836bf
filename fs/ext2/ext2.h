/*
 * fs/ext2/ext2.h: ext2's in-memory structures and the functions its files
 * share (Linux's fs/ext2/ext2.h). The on-disk format is in
 * include/fs/ext2_fs.h.
 *
 * Files, bottom to top:
 *   super.c     mount: read and check the superblock and group
 *               descriptors; mount options, /proc/mounts
 *   super_ops.c statfs, sync_fs, remount, umount
 *   balloc.c    block bitmaps: allocate and free blocks, exact counts
 *   ialloc.c    inode bitmaps: allocate and free inodes
 *   inode.c     inodes on disk <-> struct inode; ext2_get_block, the map
 *               from file blocks to disk blocks; the address_space ops
 *   truncate.c  freeing blocks past a size; the old (ext2_truncate) and
 *               the new (ext2_setsize) truncate sequences; setattr
 *   dir.c       directory blocks in the page cache: find, add, delete
 *   namei.c     the directory inode operations (lookup, create, ...)
 *   file.c      file operations; symlink.c: the two kinds of symlink
 *
 * Locks: s_lock (per file system) serialises the bitmaps and the free
 * counts in the group descriptors and superblock; i_truncate_mutex (per
 * inode) the block map of a file against truncation. A directory's
 * i_mutex (held by the VFS) serialises changes to its entries; the page
 * lock covers one directory page while it is read or changed.
 */
#ifndef _FS_EXT2_EXT2_H
#define _FS_EXT2_EXT2_H

#include <fs/buffer_head.h>
#include <fs/dcache.h>
#include <fs/ext2_fs.h>
#include <kernel/mutex.h>

#define EXT2_TRUNCATE_NEW 1	/* -o truncate=new (default): ext2_setsize */
#define EXT2_TRUNCATE_OLD 0	/* -o truncate=old: vmtruncate + ->truncate */

struct ext2_sb_info {
	struct buffer_head *s_sbh;	/* the superblock's buffer */
	struct ext2_super_block *s_es;	/* inside s_sbh */
	struct buffer_head **s_group_desc;	/* the GDT's buffers */
	unsigned long s_groups_count;
	unsigned long s_gdb_count;	/* blocks of group descriptors */
	unsigned long s_desc_per_block;
	unsigned long s_blocks_per_group;
	unsigned long s_inodes_per_group;
	unsigned long s_inodes_per_block;
	unsigned long s_itb_per_group;	/* inode table blocks per group */
	unsigned long s_first_data_block;
	unsigned long s_blocks_count;
	unsigned long s_inodes_count;
	unsigned int s_inode_size;
	unsigned int s_first_ino;
	unsigned int s_addr_per_block_bits;	/* log2(block numbers/block) */
	int s_truncate;	/* EXT2_TRUNCATE_NEW or _OLD */
	struct mutex s_lock;	/* bitmaps and free counts */
	u32 s_next_generation;
	u32 s_time_floor;	/* the latest time the disk had seen at mount */
	const char *s_id;	/* the device's name, for messages */
};

struct ext2_dir_index;

struct ext2_inode_info {
	u32 i_data[EXT2_N_BLOCKS];	/* the block map's roots */
	u32 i_flags;
	u32 i_file_acl;
	u32 i_dtime;
	u32 i_block_group;	/* where the inode lives: allocation goal */
	u32 i_generation;
	bool i_bad;	/* failed validation: never written or freed */
	bool i_new;	/* allocated, never written: clear its slot */
	struct mutex i_truncate_mutex;	/* the block map vs truncation */
	struct ext2_dir_index *i_dir_index;	/* large directories: dir_index.c */
	struct inode vfs_inode;
};

static inline struct ext2_sb_info *EXT2_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct ext2_inode_info *EXT2_I(struct inode *inode)
{
	return container_of(inode, struct ext2_inode_info, vfs_inode);
}

static inline bool ext2_has_incompat(struct super_block *sb, u32 mask)
{
	return EXT2_SB(sb)->s_es->s_feature_incompat & mask;
}

static inline bool ext2_has_ro_compat(struct super_block *sb, u32 mask)
{
	return EXT2_SB(sb)->s_es->s_feature_ro_compat & mask;
}

static inline unsigned long ext2_group_first_block(struct ext2_sb_info *sbi,
						   unsigned long group)
{
	return sbi->s_first_data_block + group * sbi->s_blocks_per_group;
}

/* A fast symlink keeps its target in i_data: no data block. */
static inline bool ext2_inode_is_fast_symlink(struct inode *inode)
{
	unsigned long ea = EXT2_I(inode)->i_file_acl ?
				   inode->i_sb->s_blocksize >> 9 : 0;

	return S_ISLNK(inode->i_mode) && inode->i_blocks - ea == 0;
}

/* Seconds, for the superblock's times. */
static inline u32 ext2_now(struct super_block *sb)
{
	return current_time(sb->s_root ? sb->s_root->d_inode : NULL).tv_sec;
}

/* A deletion time e2fsck will not mistake for an orphan list link. */
u32 ext2_dtime(struct super_block *sb);

/* Log an inconsistency found on the disk; marks the fs as having errors. */
__printf(3, 4) void ext2_error(struct super_block *sb, const char *function,
			       const char *fmt, ...);

/* super.c, super_ops.c */
extern const struct super_operations ext2_sops;
int ext2_parse_options(struct super_block *sb, const char *data,
		       int *truncate);
int ext2_setup_rw(struct super_block *sb);
void ext2_release_sbi(struct super_block *sb);
int ext2_show_options(struct seq_file *m, struct super_block *sb);
void ext2_kill_sb(struct super_block *sb);
/* Blocks at the start of group taken by its superblock copy and GDT. */
unsigned long ext2_group_sb_blocks(struct super_block *sb,
				   unsigned long group);
struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb,
					    unsigned long group,
					    struct buffer_head **bh);
bool ext2_group_has_super(struct super_block *sb, unsigned long group);
/* Is [block, block+count) inside the data area, clear of any group's
 * superblock copy, descriptors, bitmaps and inode table? */
bool ext2_data_block_valid(struct super_block *sb, unsigned long block,
			   unsigned long count);
void ext2_sb_dirty(struct super_block *sb);

/* balloc.c */
/* Allocate up to *count free blocks near goal (run of contiguous ones);
 * returns the first, *count set to how many. 0 with *err on failure. */
unsigned long ext2_new_blocks(struct inode *inode, unsigned long goal,
			      unsigned long *count, int *err);
void ext2_free_blocks(struct inode *inode, unsigned long block,
		      unsigned long count);

/* ext2 bitmaps are little-endian bit strings: bit i is bit i%8 of byte
 * i/8, whatever the word size. */
static inline bool ext2_test_bit(unsigned long nr, const void *map)
{
	return ((const u8 *)map)[nr >> 3] & (1 << (nr & 7));
}

static inline void ext2_set_bit(unsigned long nr, void *map)
{
	((u8 *)map)[nr >> 3] |= 1 << (nr & 7);
}

static inline void ext2_clear_bit(unsigned long nr, void *map)
{
	((u8 *)map)[nr >> 3] &= ~(1 << (nr & 7));
}

/* The first clear bit in [start, size), or size. */
static inline unsigned long ext2_find_next_zero_bit(const void *map,
						    unsigned long size,
						    unsigned long start)
{
	const u8 *b = map;

	while (start < size) {
		if (!(start & 7) && b[start >> 3] == 0xff)
			start += 8;	/* a full byte: skip it whole */
		else if (!ext2_test_bit(start, map))
			return start;
		else
			start++;
	}
	return size;
}

/* ialloc.c */
struct inode *ext2_new_inode(struct inode *dir, umode_t mode);
void ext2_free_inode(struct inode *inode);
void ext2_evict_inode(struct inode *inode);

/* inode.c */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino);
int ext2_write_inode(struct inode *inode, int sync);
int ext2_get_block(struct inode *inode, sector_t iblock,
		   struct buffer_head *bh_result, int create);
void ext2_set_inode_ops(struct inode *inode);
int ext2_getattr(const struct path *path, struct kstat *stat);
extern const struct address_space_operations ext2_aops;

/* truncate.c */
__traced void ext2_truncate(struct inode *inode);
__traced int ext2_setsize(struct inode *inode, loff_t newsize);
__traced int ext2_truncate_blocks(struct inode *inode, loff_t offset);
__traced int ext2_setattr(struct dentry *dentry, struct iattr *attr);
__traced void ext2_write_failed(struct address_space *mapping, loff_t to);

/* dir.c */
struct ext2_dir_entry_2 *ext2_find_entry(struct inode *dir,
					 const struct qstr *name,
					 struct page **res_page);
int ext2_add_link(struct dentry *dentry, struct inode *inode);
int ext2_delete_entry(struct ext2_dir_entry_2 *de, struct page *page);
int ext2_make_empty(struct inode *inode, struct inode *parent);
int ext2_empty_dir(struct inode *inode);
struct ext2_dir_entry_2 *ext2_dotdot(struct inode *dir, struct page **p);
int ext2_set_link(struct inode *dir, struct ext2_dir_entry_2 *de,
		  struct page *page, struct inode *inode);
unsigned long ext2_inode_by_name(struct inode *dir, const struct qstr *name,
				 int *err);
void ext2_put_page(struct page *page);
/* For dir_index.c: the page helpers of the linear walk. */
struct page *ext2_get_page(struct inode *dir, unsigned long n);
struct ext2_dir_entry_2 *ext2_find_in_page_n(struct inode *dir,
					     unsigned long n,
					     const struct qstr *name,
					     struct page **res_page);

static inline unsigned long dir_pages(struct inode *inode)
{
	return (inode->i_size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/* Bytes of page n that belong to the directory. */
static inline unsigned int ext2_last_byte(struct inode *inode,
					  unsigned long n)
{
	loff_t last = inode->i_size - ((loff_t)n << PAGE_SHIFT);

	return last < 0 ? 0 : last > (loff_t)PAGE_SIZE ? PAGE_SIZE : last;
}

static inline struct ext2_dir_entry_2 *
ext2_next_entry(struct ext2_dir_entry_2 *p)
{
	return (struct ext2_dir_entry_2 *)((char *)p + p->rec_len);
}

/* dir_index.c: pagelab's in-memory name index of large directories (not
 * Linux's). ext2_dir_index_find: false when dir has no index; else true,
 * with *de the answer (a record, NULL or an ERR_PTR). add_start: where
 * ext2_add_link may start looking for room (0 without an index), or
 * -EEXIST / -EIO; *checked says the index already knows the name is new.
 * changed: a name was added to or removed from page. */
bool ext2_dir_index_find(struct inode *dir, const struct qstr *name,
			 struct page **res_page, struct ext2_dir_entry_2 **de);
long ext2_dir_index_add_start(struct inode *dir, const struct qstr *name,
			      unsigned int reclen, bool *checked);
void ext2_dir_index_changed(struct inode *dir, struct page *page,
			    const char *name, int len, bool added);
/* Forget a directory's index (a failed change, the inode going away). */
void ext2_dir_index_free(struct inode *dir);

/* file.c, namei.c, symlink.c */
int ext2_fsync(struct file *file, int datasync);
int ext2_page_symlink(struct inode *inode, const char *target,
		      unsigned int len);
extern const struct file_operations ext2_file_operations;
extern const struct file_operations ext2_dir_operations;
extern const struct inode_operations ext2_file_inode_operations;
extern const struct inode_operations ext2_file_inode_operations_old;
extern const struct inode_operations ext2_dir_inode_operations;
extern const struct inode_operations ext2_special_inode_operations;
extern const struct inode_operations ext2_fast_symlink_inode_operations;
extern const struct inode_operations ext2_symlink_inode_operations;

/* fs/ext2/ioctl.c: chattr/lsattr flags. */
void ext2_set_inode_flags(struct inode *inode);
long ext2_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif
