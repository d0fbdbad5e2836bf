/*
 * User-space layouts of the file system calls on x86-64 (Linux's
 * arch/x86/include/uapi/asm/stat.h, linux/dirent.h, asm-generic/statfs.h).
 * These are ABI: the sizes are checked at compile time in fs/stat.c.
 */
#ifndef _FS_STAT_H
#define _FS_STAT_H

#include <kernel/types.h>

struct stat {
	unsigned long st_dev;
	unsigned long st_ino;
	unsigned long st_nlink;
	unsigned int st_mode;
	unsigned int st_uid;
	unsigned int st_gid;
	unsigned int __pad0;
	unsigned long st_rdev;
	long st_size;
	long st_blksize;
	long st_blocks;	/* 512-byte units */
	unsigned long st_atime;
	unsigned long st_atime_nsec;
	unsigned long st_mtime;
	unsigned long st_mtime_nsec;
	unsigned long st_ctime;
	unsigned long st_ctime_nsec;
	long __reserved[3];
};

struct linux_dirent64 {
	u64 d_ino;
	s64 d_off;	/* position of the next entry (for lseek) */
	unsigned short d_reclen;	/* 8-byte aligned */
	unsigned char d_type;
	char d_name[];
};

struct statfs {
	long f_type;
	long f_bsize;
	u64 f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	struct {
		int val[2];
	} f_fsid;
	long f_namelen;
	long f_frsize;
	long f_flags;
	long f_spare[4];
};

/* statx(2) (uapi linux/stat.h): 256 bytes, what was asked in stx_mask. */
struct statx_timestamp {
	s64 tv_sec;
	u32 tv_nsec;
	s32 __reserved;
};

struct statx {
	u32 stx_mask;	/* STATX_* filled in */
	u32 stx_blksize;
	u64 stx_attributes;
	u32 stx_nlink;
	u32 stx_uid;
	u32 stx_gid;
	u16 stx_mode;
	u16 __spare0;
	u64 stx_ino;
	u64 stx_size;
	u64 stx_blocks;
	u64 stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	u32 stx_rdev_major, stx_rdev_minor;
	u32 stx_dev_major, stx_dev_minor;
	u64 stx_mnt_id;
	u32 stx_dio_mem_align, stx_dio_offset_align;
	u64 __spare3[12];
};

#define STATX_BASIC_STATS 0x000007ffU	/* type, mode, nlink, uid, gid,
					 * times, ino, size, blocks */
#define STATX__RESERVED 0x80000000U
#define AT_STATX_SYNC_TYPE 0x6000	/* sync hints: accepted, not needed */

/* struct timespec as utimensat(2) reads it. */
struct user_timespec {
	long tv_sec;
	long tv_nsec;
};

#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994
#define PROC_SUPER_MAGIC 0x9fa0
#define PIPEFS_MAGIC 0x50495045

#endif
