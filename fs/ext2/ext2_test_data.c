/*
 * fs/ext2/ext2_test_data.c: the ext2 self-test's cases about file data.
 *   ext2_data_cases      no truncation (the page cache lab's ext2_rw
 *                        self-test runs only these): a sparse file
 *                        reaching into the double and triple indirect
 *                        blocks (holes read as zeroes, st_blocks exact),
 *                        a dense one into the double indirect blocks read
 *                        back from the disk, new blocks that read zero
 *                        where nothing was written, running out of blocks
 *                        and of inodes (ENOSPC, then every block and
 *                        inode comes back), and timestamps
 *   ext2_truncate_cases  truncation down and up in either truncate
 *                        sequence, level by level of the block map, and
 *                        ftruncate with fsync
 */
#include "ext2_test.h"
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <mm/slab.h>
#include <mm/writeback.h>

#define SPARSE T "/sparse"

/* Blocks (data and indirect) that a file of n dense blocks holds. */
static u64 dense_blocks(u64 n)
{
	u64 p = ext2_td.blocksize / 4, total = n;

	if (n > 12)
		total += 1;	/* single indirect */
	if (n > 12 + p)	/* double: its own block and one per p */
		total += 1 + (min(n - 12 - p, p * p) + p - 1) / p;
	if (n > 12 + p + p * p)
		total += 1 + (n - 12 - p - p * p + p * p - 1) / (p * p) +
			 (n - 12 - p - p * p + p - 1) / p;
	return total;
}

static long blocks_of(const char *path)
{
	struct kstat st;
	int err = ext2_test_stat(path, &st);

	return err ? err : (long)(st.blocks / (ext2_td.blocksize / 512));
}

/* Write one byte at file block b (pattern seed 5). */
static int poke_block(u64 b)
{
	loff_t off = b * ext2_td.blocksize + 7;

	return ext2_test_fill(SPARSE, off, off + 1, 5);
}

/* File blocks at the start of each level of the block map: direct,
 * single, double, triple indirect. Returns how many levels the disk
 * has (3: revision 0 with big blocks, no triple). */
static int levels(u64 at[4])
{
	u64 p = ext2_td.blocksize / 4;

	at[0] = 0;
	at[1] = 12;
	at[2] = 12 + p;
	at[3] = 12 + p + p * p;
	return (at[3] + 1) * ext2_td.blocksize > (u64)ext2_td.maxbytes ? 3 : 4;
}

/* SPARSE holds a byte in the first block of each level, holes around. */
static int check_sparse(void)
{
	u64 bs = ext2_td.blocksize, at[4];
	int n = levels(at);
	struct kstat st;

	/* One data block each, plus 1, 2 and 3 indirect blocks. */
	EXPECT_EQ(blocks_of(SPARSE), n == 4 ? 10 : 6);
	EXPECT_EQ(ext2_test_stat(SPARSE, &st), 0);
	EXPECT_EQ(st.size, (loff_t)(at[n - 1] * bs + 8));
	for (int i = 0; i < n; i++) {
		loff_t off = at[i] * bs + 7;

		EXPECT_EQ(ext2_test_check(SPARSE, off, off + 1, 5), 0);
		/* the holes around it */
		EXPECT_EQ(ext2_test_check(SPARSE, off - 7, off, -1), 0);
		EXPECT_EQ(ext2_test_check(SPARSE, off + 1,
					  min((loff_t)(at[i] * bs + bs),
					      st.size), -1), 0);
		if (i)
			EXPECT_EQ(ext2_test_check(SPARSE, off - 7 - bs, off - 7,
						  -1), 0);
	}
	return 0;
}

static int make_sparse(void)
{
	u64 at[4];
	int n = levels(at);

	for (int i = 0; i < n; i++)
		EXPECT_EQ(poke_block(at[i]), 0);
	return check_sparse();
}

static int sparse_file_reaches_triple_indirect_blocks(void)
{
	EXPECT_EQ(make_sparse(), 0);
	/* From the disk too: the block map was written out right. */
	ksys_sync();
	drop_pagecache();
	EXPECT_EQ(check_sparse(), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, SPARSE), 0);
	return 0;
}

static int truncation_frees_each_level_of_the_block_map(void)
{
	u64 bs = ext2_td.blocksize, at[4];
	int n = levels(at);

	EXPECT_EQ(make_sparse(), 0);
	/* Cut back level by level; each cut frees exactly its blocks. */
	for (int i = n - 1; i >= 1; i--) {
		EXPECT_EQ(do_sys_truncate(SPARSE, at[i] * bs + 8), 0);
		EXPECT_EQ(blocks_of(SPARSE), (i == 3 ? 10 : i == 2 ? 6 : 3));
		EXPECT_EQ(do_sys_truncate(SPARSE, at[i] * bs), 0);
		EXPECT_EQ(blocks_of(SPARSE), (i == 3 ? 6 : i == 2 ? 3 : 1));
	}
	EXPECT_EQ(ext2_test_check(SPARSE, 7, 8, 5), 0);
	EXPECT_EQ(do_sys_truncate(SPARSE, 0), 0);
	EXPECT_EQ(blocks_of(SPARSE), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, SPARSE), 0);
	return 0;
}

/* Dense into the double indirect blocks, read back from the disk. */
static int dense_file_reaches_double_indirect_blocks(void)
{
	u64 bs = ext2_td.blocksize, p = bs / 4;
	loff_t size = (12 + p + 3) * bs + 100;

	EXPECT_EQ(ext2_test_fill(T "/dense", 0, size, 9), 0);
	EXPECT_EQ(blocks_of(T "/dense"), dense_blocks((size + bs - 1) / bs));
	ksys_sync();
	drop_pagecache();
	EXPECT_EQ(ext2_test_check(T "/dense", 0, size, 9), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/dense"), 0);
	return 0;
}

#define OLD_SIZE (256 * 1024)
#define STEP 4096
#define AT 1500		/* into the second block of a step on 1 KiB blocks */

/* T/new holds one byte (seed 5) at AT of each STEP, zeroes elsewhere. */
static int check_new(void)
{
	for (loff_t k = 0; k < OLD_SIZE / STEP; k++) {
		loff_t off = k * STEP + AT;

		EXPECT_EQ(ext2_test_check(T "/new", off, off + 1, 5), 0);
		EXPECT_EQ(ext2_test_check(T "/new", k * STEP, off, -1), 0);
		if (k + 1 < OLD_SIZE / STEP)
			EXPECT_EQ(ext2_test_check(T "/new", off + 1,
						  (k + 1) * STEP, -1), 0);
	}
	return 0;
}

/*
 * A block just allocated holds what the disk had there (here a removed
 * file's bytes): a 1-byte write into it must zero the rest of the block,
 * which the write path does only when ext2_get_block says the buffer is
 * new. The writes go from the end down, so that each lands inside
 * i_size in a hole (a write past EOF would have the old EOF page's tail
 * zeroed anyway).
 */
static int new_blocks_read_zero_where_nothing_was_written(void)
{
	EXPECT_EQ(ext2_test_fill(T "/old", 0, OLD_SIZE, 13), 0);
	ksys_sync();
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/old"), 0);
	ksys_sync();
	for (loff_t k = OLD_SIZE / STEP - 1; k >= 0; k--)
		EXPECT_EQ(ext2_test_fill(T "/new", k * STEP + AT,
					 k * STEP + AT + 1, 5), 0);
	EXPECT_EQ(check_new(), 0);
	ksys_sync();
	drop_pagecache();
	EXPECT_EQ(check_new(), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/new"), 0);
	return 0;
}

static int truncate_frees_blocks_and_zeroes_the_tail(void)
{
	u64 bs = ext2_td.blocksize, p = bs / 4;
	loff_t size = (12 + p + 3) * bs + 100;	/* into the double range */
	loff_t cuts[] = { size - 1, (12 + p) * bs + 1, 12 * bs + 5,
			  3 * bs + 17, bs, 10, 0 };
	loff_t len = size;

	EXPECT_EQ(ext2_test_fill(T "/t", 0, size, 6), 0);
	EXPECT_EQ(blocks_of(T "/t"), dense_blocks((size + bs - 1) / bs));
	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		loff_t cut = cuts[i];

		EXPECT_EQ(do_sys_truncate(T "/t", cut), 0);
		EXPECT_EQ(blocks_of(T "/t"), dense_blocks((cut + bs - 1) / bs));
		EXPECT_EQ(ext2_test_check(T "/t", 0, cut, 6), 0);
		/* Growing again: what lay past the cut reads as zeroes,
		 * from the page cache and (below) from the disk. */
		EXPECT_EQ(do_sys_truncate(T "/t", len), 0);
		EXPECT_EQ(ext2_test_check(T "/t", cut, len, -1), 0);
		EXPECT_EQ(ext2_test_check(T "/t", 0, cut, 6), 0);
		EXPECT_EQ(do_sys_truncate(T "/t", cut), 0);
		len = cut + bs / 2 + 1;
	}
	EXPECT_EQ(blocks_of(T "/t"), 0);
	/* A tail zeroed by truncation reaches the disk zeroed. */
	EXPECT_EQ(ext2_test_fill(T "/t", 0, 2 * bs + 300, 8), 0);
	EXPECT_EQ(do_sys_truncate(T "/t", bs + 10), 0);
	EXPECT_EQ(do_sys_truncate(T "/t", 2 * bs + 300), 0);
	EXPECT_EQ(ext2_test_check(T "/t", bs + 10, 2 * bs + 300, -1), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/t"), 0);
	return 0;
}

static int ftruncate_and_fsync_work_on_an_open_file(void)
{
	int fd = EXPECT_OK(ksys_open(T "/o", O_CREAT | O_RDWR, 0600));
	struct file *f;
	char buf[16];

	EXPECT_EQ(kfd_write(fd, "0123456789", 10), 10);
	EXPECT_EQ(do_sys_ftruncate(fd, 4), 0);
	EXPECT_EQ(kfd_pread(fd, buf, sizeof(buf), 0), 4);
	EXPECT_EQ(memcmp(buf, "0123", 4), 0);
	f = fget(fd);
	EXPECT_EQ(vfs_fsync(f, 0), 0);
	EXPECT_EQ(vfs_fsync(f, 1), 0);
	fput(f);
	EXPECT_EQ(close_fd(fd), 0);
	EXPECT_EQ(do_sys_truncate(T "/o", -1), -EINVAL);
	EXPECT_EQ(do_sys_truncate(T, 0), -EISDIR);
	EXPECT_EQ(do_sys_truncate(T "/o", ext2_td.maxbytes + 1), -EFBIG);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/o"), 0);
	return 0;
}

static int running_out_of_blocks_is_enospc(void)
{
	char *buf = kmalloc(65536, GFP_KERNEL);
	static const char *const small[] = { T "/s0", T "/s1", T "/s2",
					     T "/s3" };
	u64 bs = ext2_td.blocksize, blocks, inodes;
	struct kstat st;
	long r = 0;
	int fd, n;

	if (!buf)
		return -ENOMEM;
	fd = EXPECT_OK(ksys_open(T "/fill", O_CREAT | O_WRONLY, 0600));
	for (loff_t off = 0;; off += r) {
		for (int i = 0; i < 65536; i++)
			buf[i] = ext2_test_byte(off + i, 11);
		r = kfd_write(fd, buf, 65536);
		if (r <= 0)
			break;
	}
	kfree(buf);
	EXPECT_EQ(r, -ENOSPC);
	EXPECT_EQ(close_fd(fd), 0);
	EXPECT_EQ(ext2_test_counts(&blocks, &inodes), 0);
	/* Root may use the reserved blocks too. A few may stay free: the
	 * next block also needed new indirect blocks, and they did not fit
	 * all together. Small files take those. */
	EXPECT_EQ(blocks <= 3, 1);
	for (n = 0; n < 4 && !(r = write_whole_file(small[n], "x", 1)); n++)
		;
	EXPECT_EQ(r, -ENOSPC);
	EXPECT_EQ(ext2_test_counts(&blocks, &inodes), 0);
	EXPECT_EQ(blocks, 0);
	EXPECT_EQ(ext2_test_stat(T "/fill", &st), 0);
	EXPECT_EQ(blocks_of(T "/fill"), dense_blocks((st.size + bs - 1) / bs));
	EXPECT_EQ(ext2_test_check(T "/fill", 0, st.size, 11), 0);
	/* Nothing left for a new directory either. */
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/d", 0755), -ENOSPC);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/fill"), 0);
	for (int i = 0; i <= n && i < 4; i++)
		EXPECT_EQ(do_unlinkat(AT_FDCWD, small[i]), 0);
	/* The flusher may hold /fill: writeback keeps each inode it wrote
	 * until it has the next (mm/page-writeback.c), so the last iput,
	 * which frees the blocks, may be its own, a moment later. Seen once
	 * in a loaded make test: the next case's mkdir got ENOSPC. Wait for
	 * the blocks (10 s at most), as a program would see them come. */
	for (int t = 0; t < 10 * HZ; t++) {
		EXPECT_EQ(ext2_test_counts(&blocks, &inodes), 0);
		if (blocks > 3)
			break;
		schedule_timeout_interruptible(1);
	}
	EXPECT_EQ(blocks > 3, 1);
	return 0;
}

static int running_out_of_inodes_is_enospc(void)
{
	u64 blocks, inodes;
	char path[64];
	long err = 0;
	int n;

	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/i", 0755), 0);
	for (n = 0; n < 100000; n++) {
		snprintf(path, sizeof(path), T "/i/%d", n);
		err = write_whole_file(path, "", 0);
		if (err)
			break;
	}
	EXPECT_EQ(err, -ENOSPC);
	EXPECT_EQ(ext2_test_counts(&blocks, &inodes), 0);
	EXPECT_EQ(inodes, 0);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/d", 0755), -ENOSPC);
	EXPECT_EQ(do_symlinkat("x", AT_FDCWD, T "/s"), -ENOSPC);
	while (n--) {
		snprintf(path, sizeof(path), T "/i/%d", n);
		EXPECT_EQ(do_unlinkat(AT_FDCWD, path), 0);
	}
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/i"), 0);
	return 0;
}

static bool later(struct timespec64 a, struct timespec64 b)
{
	return a.tv_sec > b.tv_sec ||
	       (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

static int writes_chmod_and_reads_move_the_times(void)
{
	struct timespec64 old[2] = { { 2000000000, 0 }, { 2000000000, 0 } };
	struct kstat st, st2;
	char c;

	EXPECT_EQ(write_whole_file(T "/tm", "abc", 3), 0);
	EXPECT_EQ(do_utimes(AT_FDCWD, T "/tm", old, 0), 0);
	EXPECT_EQ(ext2_test_stat(T "/tm", &st), 0);
	EXPECT_EQ(st.mtime.tv_sec, 2000000000);
	EXPECT_EQ(st.atime.tv_sec, 2000000000);
	EXPECT_EQ(read_whole_file(T "/tm", &c, 1), 1);
	EXPECT_EQ(ext2_test_stat(T "/tm", &st2), 0);
	EXPECT_EQ(st2.atime.tv_sec != 2000000000, 1);	/* read: atime */
	EXPECT_EQ(st2.mtime.tv_sec, 2000000000);
	EXPECT_EQ(ext2_test_fill(T "/tm", 1, 2, 0), 0);
	EXPECT_EQ(ext2_test_stat(T "/tm", &st2), 0);
	EXPECT_EQ(st2.mtime.tv_sec != 2000000000, 1);	/* write: mtime */
	EXPECT_EQ(later(st2.ctime, st.ctime), 1);
	EXPECT_EQ(do_fchmodat(AT_FDCWD, T "/tm", 0600), 0);
	EXPECT_EQ(ext2_test_stat(T "/tm", &st), 0);
	EXPECT_EQ(later(st.ctime, st2.ctime), 1);	/* chmod: ctime */
	EXPECT_EQ(st.mode, S_IFREG | 0600);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/tm"), 0);
	return 0;
}

const struct ext2_test_case ext2_data_cases[] = {
	{ "sparse_file_reaches_triple_indirect_blocks",
	  sparse_file_reaches_triple_indirect_blocks },
	{ "dense_file_reaches_double_indirect_blocks",
	  dense_file_reaches_double_indirect_blocks },
	{ "new_blocks_read_zero_where_nothing_was_written",
	  new_blocks_read_zero_where_nothing_was_written },
	{ "writes_chmod_and_reads_move_the_times",
	  writes_chmod_and_reads_move_the_times },
	{ "running_out_of_blocks_is_enospc", running_out_of_blocks_is_enospc },
	{ "running_out_of_inodes_is_enospc", running_out_of_inodes_is_enospc },
	{ NULL, NULL },
};

const struct ext2_test_case ext2_truncate_cases[] = {
	{ "truncation_frees_each_level_of_the_block_map",
	  truncation_frees_each_level_of_the_block_map },
	{ "truncate_frees_blocks_and_zeroes_the_tail",
	  truncate_frees_blocks_and_zeroes_the_tail },
	{ "ftruncate_and_fsync_work_on_an_open_file",
	  ftruncate_and_fsync_work_on_an_open_file },
	{ NULL, NULL },
};
