/*
 * The ext2 on-disk format (Linux's include/linux/ext2_fs.h), as written by
 * mke2fs and checked by e2fsck. Everything on the disk is little-endian;
 * so is x86-64, so pagelab reads the fields directly where Linux wraps
 * each access in le32_to_cpu().
 *
 * Layout of a file system with 1 KiB blocks (block 0 is the boot block;
 * with larger blocks the superblock sits at byte 1024 of block 0):
 *
 *   block 0    boot block
 *   group 0    superblock, group descriptor table (+ reserved GDT blocks),
 *              block bitmap, inode bitmap, inode table, data blocks
 *   group 1    [backup superblock + GDT], bitmaps, inode table, data
 *   ...        (backups in every group, or with sparse_super only in
 *              groups 0, 1 and powers of 3, 5 and 7)
 *
 * An inode addresses its data through i_block[15]: 12 direct block
 * numbers, then one single, one double and one triple indirect block.
 * Block number 0 is a hole. Directories are files of linked records
 * (struct ext2_dir_entry_2) that exactly fill each block.
 */
#ifndef _FS_EXT2_FS_H
#define _FS_EXT2_FS_H

#include <kernel/types.h>

#define EXT2_SUPER_MAGIC 0xEF53
#define EXT2_SUPER_OFFSET 1024	/* bytes from the start of the disk */
#define EXT2_MIN_BLOCK_SIZE 1024
#define EXT2_MAX_BLOCK_SIZE 4096	/* pagelab: blocks never exceed a page */
#define EXT2_MIN_BLOCK_LOG_SIZE 10

/* Reserved inode numbers. */
#define EXT2_BAD_INO 1	/* bad blocks */
#define EXT2_ROOT_INO 2
#define EXT2_RESIZE_INO 7	/* reserved GDT blocks (resize_inode) */
#define EXT2_GOOD_OLD_FIRST_INO 11	/* first ordinary inode, revision 0 */

#define EXT2_GOOD_OLD_REV 0	/* original format: fixed inode size */
#define EXT2_DYNAMIC_REV 1	/* variable inode size, feature flags */
#define EXT2_GOOD_OLD_INODE_SIZE 128

/* s_state */
#define EXT2_VALID_FS 0x0001	/* cleanly unmounted */
#define EXT2_ERROR_FS 0x0002	/* errors detected */

/* Features. COMPAT: safe to ignore. RO_COMPAT: safe to read, not to
 * write. INCOMPAT: unsafe to touch at all. */
#define EXT2_FEATURE_COMPAT_DIR_PREALLOC 0x0001
#define EXT2_FEATURE_COMPAT_EXT_ATTR 0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INO 0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX 0x0020
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER 0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE 0x0002
#define EXT2_FEATURE_INCOMPAT_FILETYPE 0x0002
#define EXT2_FEATURE_INCOMPAT_META_BG 0x0010

/* What pagelab's ext2 understands; anything else refuses the mount
 * (INCOMPAT) or a read-write mount (RO_COMPAT). */
#define EXT2_FEATURE_INCOMPAT_SUPP EXT2_FEATURE_INCOMPAT_FILETYPE
#define EXT2_FEATURE_RO_COMPAT_SUPP \
	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

struct ext2_super_block {
	u32 s_inodes_count;
	u32 s_blocks_count;
	u32 s_r_blocks_count;	/* reserved for the super-user */
	u32 s_free_blocks_count;
	u32 s_free_inodes_count;
	u32 s_first_data_block;	/* 1 with 1 KiB blocks, else 0 */
	u32 s_log_block_size;	/* block size = 1024 << this */
	u32 s_log_frag_size;	/* fragments: never used; = block size */
	u32 s_blocks_per_group;
	u32 s_frags_per_group;
	u32 s_inodes_per_group;
	u32 s_mtime;	/* last mount */
	u32 s_wtime;	/* last write */
	u16 s_mnt_count;
	s16 s_max_mnt_count;
	u16 s_magic;
	u16 s_state;	/* EXT2_VALID_FS, EXT2_ERROR_FS */
	u16 s_errors;
	u16 s_minor_rev_level;
	u32 s_lastcheck;
	u32 s_checkinterval;
	u32 s_creator_os;
	u32 s_rev_level;
	u16 s_def_resuid;
	u16 s_def_resgid;
	/* EXT2_DYNAMIC_REV only: */
	u32 s_first_ino;
	u16 s_inode_size;
	u16 s_block_group_nr;	/* the group holding this copy */
	u32 s_feature_compat;
	u32 s_feature_incompat;
	u32 s_feature_ro_compat;
	u8 s_uuid[16];
	char s_volume_name[16];
	char s_last_mounted[64];
	u32 s_algorithm_usage_bitmap;
	u8 s_prealloc_blocks;
	u8 s_prealloc_dir_blocks;
	u16 s_reserved_gdt_blocks;	/* resize_inode: GDT growth room */
	u8 s_journal_uuid[16];
	u32 s_journal_inum;
	u32 s_journal_dev;
	u32 s_last_orphan;
	u32 s_hash_seed[4];
	u8 s_def_hash_version;
	u8 s_reserved_char_pad;
	u16 s_desc_size;
	u32 s_default_mount_opts;
	u32 s_first_meta_bg;
	u32 s_mkfs_time;
	u32 s_reserved[189];	/* padding to 1024 bytes */
};
_Static_assert(sizeof(struct ext2_super_block) == 1024, "superblock size");
_Static_assert(__builtin_offsetof(struct ext2_super_block, s_mkfs_time) ==
	       0x108, "s_mkfs_time at 0x108");

/* One per block group, in the group descriptor table after the sb. */
struct ext2_group_desc {
	u32 bg_block_bitmap;
	u32 bg_inode_bitmap;
	u32 bg_inode_table;	/* first block of it */
	u16 bg_free_blocks_count;
	u16 bg_free_inodes_count;
	u16 bg_used_dirs_count;
	u16 bg_pad;
	u32 bg_reserved[3];
};

#define EXT2_NDIR_BLOCKS 12
#define EXT2_IND_BLOCK 12
#define EXT2_DIND_BLOCK 13
#define EXT2_TIND_BLOCK 14
#define EXT2_N_BLOCKS 15

/* i_flags we look at. */
#define EXT2_IMMUTABLE_FL 0x00000010	/* chattr +i: no change at all */
#define EXT2_APPEND_FL 0x00000020	/* chattr +a: writes only append */
#define EXT2_INDEX_FL 0x00001000	/* hashed-indexed directory */
#define EXT2_FL_USER_VISIBLE 0x0004BDFF	/* what lsattr may see */
#define EXT2_FL_USER_MODIFIABLE 0x000380FF	/* what chattr may change */

/* The first 128 bytes of every on-disk inode (the rest, in larger
 * inodes, belongs to ext3/ext4 and is kept as it is). */
struct ext2_inode {
	u16 i_mode;
	u16 i_uid;	/* low 16 bits */
	u32 i_size;	/* low 32 bits */
	u32 i_atime;
	u32 i_ctime;
	u32 i_mtime;
	u32 i_dtime;	/* deletion time: set when the inode is freed */
	u16 i_gid;	/* low 16 bits */
	u16 i_links_count;
	u32 i_blocks;	/* 512-byte units, indirect blocks included */
	u32 i_flags;
	u32 i_osd1;
	u32 i_block[EXT2_N_BLOCKS];
	u32 i_generation;
	u32 i_file_acl;	/* extended attribute block */
	u32 i_size_high;	/* regular files (large_file); i_dir_acl
				 * for directories */
	u32 i_faddr;
	u8 i_frag, i_fsize;
	u16 i_pad1;
	u16 i_uid_high;
	u16 i_gid_high;
	u32 i_reserved2;
};

#define EXT2_LINK_MAX 32000

/* Directory entries: a record of rec_len bytes, 4-byte aligned. */
struct ext2_dir_entry_2 {
	u32 inode;	/* 0: an unused record */
	u16 rec_len;	/* to the next record */
	u8 name_len;
	u8 file_type;	/* EXT2_FT_*, with the filetype feature; else 0 */
	char name[];	/* not NUL-terminated */
};

enum {
	EXT2_FT_UNKNOWN,
	EXT2_FT_REG_FILE,
	EXT2_FT_DIR,
	EXT2_FT_CHRDEV,
	EXT2_FT_BLKDEV,
	EXT2_FT_FIFO,
	EXT2_FT_SOCK,
	EXT2_FT_SYMLINK,
	EXT2_FT_MAX
};

#define EXT2_NAME_LEN 255
#define EXT2_DIR_PAD 4
#define EXT2_DIR_ROUND (EXT2_DIR_PAD - 1)
/* The smallest record that holds a name of name_len bytes. */
#define EXT2_DIR_REC_LEN(name_len) (((name_len) + 8 + EXT2_DIR_ROUND) & \
				    ~EXT2_DIR_ROUND)

/* An extended attribute block's header (we only free such blocks). */
#define EXT2_XATTR_MAGIC 0xEA020000
struct ext2_xattr_header {
	u32 h_magic;
	u32 h_refcount;	/* inodes sharing the block */
	u32 h_blocks;
	u32 h_hash;
	u32 h_reserved[4];
};

#endif
