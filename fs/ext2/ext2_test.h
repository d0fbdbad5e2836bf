/*
 * fs/ext2/ext2_test.h: what the ext2 self-tests share (ext2_test.c runs
 * them, ext2_test_*.c hold the cases). A case runs inside T, a scratch
 * directory on the ext2 file system under test, mounted at MNT, and must
 * leave T empty: the driver checks that the free block and inode counts
 * come back to what they were.
 */
#ifndef _FS_EXT2_EXT2_TEST_H
#define _FS_EXT2_EXT2_TEST_H

#include "../vfs_test.h"
#include <fs/stat.h>

#define MNT "/mnt/ext2_test"
#define T MNT "/t"

/* The disk under test. */
struct ext2_test_disk {
	const char *name;	/* "ram0" */
	unsigned long blocksize;
	loff_t maxbytes;
	bool old_truncate;	/* mounted -o truncate=old */
	bool filetype;	/* directory entries carry file types */
};
extern struct ext2_test_disk ext2_td;

struct ext2_test_case {
	const char *name;
	int (*run)(void);
};

/* statfs of the mount: free blocks (f_bfree) and free inodes. */
int ext2_test_counts(u64 *blocks, u64 *inodes);
/* The byte a test pattern has at off (seed picks the pattern). */
static inline unsigned char ext2_test_byte(loff_t off, unsigned int seed)
{
	return (unsigned char)(off * 131 + (off >> 12) * 7 + seed);
}
/* Write [start, end) of the pattern into path (created if needed). */
int ext2_test_fill(const char *path, loff_t start, loff_t end,
		   unsigned int seed);
/* Check [start, end) of path holds the pattern (zeroes if seed < 0). */
int ext2_test_check(const char *path, loff_t start, loff_t end, int seed);
/* st_blocks and st_size of path. */
int ext2_test_stat(const char *path, struct kstat *st);

extern const struct ext2_test_case ext2_namespace_cases[];
extern const struct ext2_test_case ext2_data_cases[];
extern const struct ext2_test_case ext2_truncate_cases[];

#endif
