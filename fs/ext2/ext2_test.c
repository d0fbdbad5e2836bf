/*
 * fs/ext2/ext2_test.c: self-test "ext2", on real disks made by mke2fs.
 *
 * For each disk named by ext2_test_disks=ram0,vda (default: every RAM
 * disk, drivers/block/brd.c), the test
 *   1. mounts it at /mnt/ext2_test (-o truncate=new), runs every case of
 *      ext2_test_names.c and ext2_test_data.c in a scratch directory, and
 *      checks that the free block and inode counts are back;
 *   2. leaves a file and a symlink, unmounts, mounts with -o
 *      truncate=old, finds them intact (also after drop_caches: from the
 *      disk), and runs the data cases again in the old truncate sequence;
 *   3. leaves a small tree (dense, sparse and truncated files, links, a
 *      FIFO) for the host's tools and unmounts: every kmalloc object and
 *      page the mount used must be back.
 * One line per disk says how it went:
 *
 *   ext2_test: ram0: 26 cases ok, data back after a remount, truncate=new and truncate=old
 *
 * Self-test "ext2_rw" does the same without any truncation (no
 * ext2_truncate_cases, no truncated file in the tree, the remount again
 * with -o truncate=new), for the page cache lab, whose tree has the
 * truncate labs still stubbed:
 *
 *   ext2_test: ram0: 20 cases ok, data back after a remount, no truncation
 *
 * Then e2fsck -fn judges the disk (the harness, for virtio disks;
 * scripts/mkimages, for RAM disks), and for RAM disks scripts/mkimages
 * also reads the tree's files back with debugfs and compares their
 * cksum(1) with the "kept" lines printed here.
 */
#include "ext2_test.h"
#include "ext2.h"
#include <fs/mount.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include <mm/writeback.h>

struct ext2_test_disk ext2_td;
static char disks_param[64];

static int set_disks(const char *val)
{
	strlcpy(disks_param, val, sizeof(disks_param));
	return 0;
}
__setup("ext2_test_disks", set_disks);

/* ---- helpers for the cases ------------------------------------------------ */

int ext2_test_counts(u64 *blocks, u64 *inodes)
{
	struct kstatfs st;
	struct path path;
	int err = kern_path(MNT, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = vfs_statfs(&path, &st);
	path_put(&path);
	*blocks = st.f_bfree;
	*inodes = st.f_ffree;
	return err;
}

int ext2_test_stat(const char *path, struct kstat *st)
{
	return vfs_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

#define CHUNK 8192

int ext2_test_fill(const char *path, loff_t start, loff_t end,
		   unsigned int seed)
{
	char *buf = kmalloc(CHUNK, GFP_KERNEL);
	int fd = ksys_open(path, O_CREAT | O_WRONLY, 0644);
	long r = 0;

	if (fd < 0 || !buf) {
		kfree(buf);
		return fd < 0 ? fd : -ENOMEM;
	}
	for (loff_t off = start; off < end && r >= 0; off += CHUNK) {
		long n = min((loff_t)CHUNK, end - off);
		struct file *f = fget(fd);
		loff_t pos = off;

		for (long i = 0; i < n; i++)
			buf[i] = ext2_test_byte(off + i, seed);
		r = kernel_write(f, buf, n, &pos);
		fput(f);
		if (r >= 0 && r != n)
			r = -EIO;
	}
	close_fd(fd);
	kfree(buf);
	return r < 0 ? r : 0;
}

int ext2_test_check(const char *path, loff_t start, loff_t end, int seed)
{
	char *buf = kmalloc(CHUNK, GFP_KERNEL);
	int fd = ksys_open(path, O_RDONLY, 0);
	int err = 0;

	if (fd < 0 || !buf) {
		kfree(buf);
		return fd < 0 ? fd : -ENOMEM;
	}
	for (loff_t off = start; off < end && !err; off += CHUNK) {
		long n = min((loff_t)CHUNK, end - off);
		long r = kfd_pread(fd, buf, n, off);

		if (r != n) {
			err = selftest_fail("%s: read %ld at %ld: %ld", path, n,
					    off, r);
			break;
		}
		for (long i = 0; i < n; i++) {
			unsigned char want = seed < 0 ? 0 :
					     ext2_test_byte(off + i, seed);

			if ((unsigned char)buf[i] != want) {
				err = selftest_fail("%s: byte %ld is 0x%x, "
						    "want 0x%x", path, off + i,
						    (unsigned char)buf[i], want);
				break;
			}
		}
	}
	close_fd(fd);
	kfree(buf);
	return err;
}

/* ---- the driver ------------------------------------------------------------ */

static int mount_disk(const char *name, bool old)
{
	char dev[32];
	struct path path;
	struct ext2_sb_info *sbi;
	long err;

	snprintf(dev, sizeof(dev), "/dev/%s", name);
	err = do_mount(dev, MNT, "ext2", 0,
		       old ? "truncate=old" : "truncate=new");
	if (err)
		return selftest_fail("%s: mount: error %ld", name, err);
	err = kern_path(MNT, LOOKUP_FOLLOW, &path);
	if (err)
		return selftest_fail("%s: " MNT ": error %ld", name, err);
	sbi = EXT2_SB(path.dentry->d_sb);
	ext2_td = (struct ext2_test_disk){
		.name = name,
		.blocksize = path.dentry->d_sb->s_blocksize,
		.maxbytes = path.dentry->d_sb->s_maxbytes,
		.old_truncate = old,
		.filetype = sbi->s_es->s_feature_incompat &
			    EXT2_FEATURE_INCOMPAT_FILETYPE,
	};
	path_put(&path);
	return 0;
}

static int umount_disk(void)
{
	long err = do_umount_path(MNT, 0);

	return err ? selftest_fail("%s: umount: error %ld", ext2_td.name, err)
		   : 0;
}

/* Run cases in T; the free counts must come back. Returns cases run or
 * the failure. */
static int run_cases(const struct ext2_test_case *cases)
{
	u64 b0, i0, b1 = 0, i1 = 0;
	int n = 0;

	if (ext2_test_counts(&b0, &i0))
		return selftest_fail("statfs failed");
	if (do_mkdirat(AT_FDCWD, T, 0755))
		return selftest_fail("%s: cannot make " T, ext2_td.name);
	for (; cases->name; cases++, n++) {
		int err = cases->run();

		if (err) {
			pr_err("ext2_test: %s: %s: FAILED\n", ext2_td.name,
			       cases->name);
			return err;
		}
	}
	if (do_rmdir(AT_FDCWD, T))
		return selftest_fail("%s: cannot remove " T " (left-overs?)",
				     ext2_td.name);
	if (ext2_test_counts(&b1, &i1) || b1 != b0 || i1 != i0)
		return selftest_fail("%s: free blocks %lu -> %lu, free inodes "
				     "%lu -> %lu", ext2_td.name, b0, b1, i0,
				     i1);
	return n;
}

#define KEEP MNT "/kept"
#define KEEP_SIZE 100000
#define KEEP_LINK MNT "/kept-link"
#define LONG_TARGET "kept/../kept/../kept/../kept/../kept/../kept/../kept" \
		    "/../kept/../kept/../kept/../kept/../kept"

/* What survives the remount: a file of every kind of block, a symlink. */
static int check_kept(void)
{
	char buf[sizeof(LONG_TARGET)];
	int err = ext2_test_check(KEEP, 0, KEEP_SIZE, 42);

	if (err)
		return err;
	if (do_readlinkat(AT_FDCWD, KEEP_LINK, buf, sizeof(buf)) !=
		    sizeof(LONG_TARGET) - 1 ||
	    memcmp(buf, LONG_TARGET, sizeof(LONG_TARGET) - 1))
		return selftest_fail("%s: symlink lost over the remount",
				     ext2_td.name);
	return 0;
}

/*
 * POSIX cksum (CRC-32, polynomial 0x04c11db7, most significant bit
 * first, then the length): what cksum(1) prints on the host.  The sparse
 * file of a 1 KiB-block image is 64 MiB of mostly holes, so the sum is
 * table-driven, and a chunk of zeros is applied in one step: appending
 * zero bytes is a linear map of the CRC register, so its effect is the
 * XOR of what it does to each of the register's 32 bits (zero_chunk[]).
 * Bit by bit, the sum took 30 s of each 1 KiB boot under TCG.
 */
static u32 crc_table[256];
static u32 zero_chunk[32];

static u32 cksum_bytes(u32 crc, const unsigned char *p, size_t n)
{
	while (n--)
		crc = (crc << 8) ^ crc_table[(crc >> 24) ^ *p++];
	return crc;
}

static void cksum_init(const unsigned char *zeros)
{
	if (crc_table[1])
		return;
	for (u32 i = 0; i < 256; i++) {
		u32 c = i << 24;

		for (int b = 0; b < 8; b++)
			c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
		crc_table[i] = c;
	}
	for (int b = 0; b < 32; b++)
		zero_chunk[b] = cksum_bytes(1u << b, zeros, CHUNK);
}

static bool all_zero(const void *buf, size_t n)
{
	const u64 *w = buf;

	for (size_t i = 0; i < n / 8; i++)
		if (w[i])
			return false;
	return true;
}

static u32 cksum_zero_chunk(u32 crc)
{
	u32 out = 0;

	for (int b = 0; b < 32; b++)
		if (crc & (1u << b))
			out ^= zero_chunk[b];
	return out;
}

static int cksum_file(const char *path, u32 *sum, loff_t *size)
{
	char *buf = kzalloc(CHUNK, GFP_KERNEL);
	int fd = ksys_open(path, O_RDONLY, 0);
	u32 crc = 0;
	long r = 0;

	*size = 0;
	if (fd < 0 || !buf) {
		kfree(buf);
		return fd < 0 ? fd : -ENOMEM;
	}
	cksum_init((unsigned char *)buf);
	while ((r = kfd_read(fd, buf, CHUNK)) > 0) {
		if (r == CHUNK && all_zero(buf, CHUNK))
			crc = cksum_zero_chunk(crc);
		else
			crc = cksum_bytes(crc, (unsigned char *)buf, r);
		*size += r;
	}
	for (u64 len = *size; len; len >>= 8)
		crc = cksum_bytes(crc, &(unsigned char){ len & 0xff }, 1);
	*sum = ~crc;
	close_fd(fd);
	kfree(buf);
	return r;
}

#define TREE MNT "/kept-tree"

/*
 * Leave a tree for the tools on the host to judge: e2fsck checks its
 * structure, and scripts/mkimages reads each file listed here with
 * debugfs and compares cksum(1) with what the kernel saw:
 *   ext2_test: ram0: kept /kept-tree/sparse 71303171 bytes, cksum 123
 */
static int leave_a_tree(bool truncation)
{
	static const char *const files[] = {
		"empty", "small", "indirect", "sparse", "truncated", "dir/f7",
	};
	u64 bs = ext2_td.blocksize, p = bs / 4;
	u64 far = (12 + p + p * p + 1) * bs;
	char path[64];
	long err = 0;

	err |= do_mkdirat(AT_FDCWD, TREE, 0755);
	err |= do_mkdirat(AT_FDCWD, TREE "/dir", 0700);
	err |= write_whole_file(TREE "/empty", "", 0);
	err |= ext2_test_fill(TREE "/small", 0, 1000, 1);
	err |= ext2_test_fill(TREE "/indirect", 0, (12 + p + 5) * bs + 33, 2);
	err |= ext2_test_fill(TREE "/sparse", 5, 6, 3);
	err |= ext2_test_fill(TREE "/sparse", 20 * bs, 20 * bs + 100, 3);
	err |= ext2_test_fill(TREE "/sparse", (12 + p + 7) * bs - 50,
			      (12 + p + 7) * bs + 50, 3);
	/* Into the triple indirect blocks where that is not too far to
	 * read back whole (1 KiB blocks: 64 MiB). */
	if (far + 10 <= min((u64)ext2_td.maxbytes, 128ULL << 20))
		err |= ext2_test_fill(TREE "/sparse", far, far + 10, 3);
	if (truncation) {
		err |= ext2_test_fill(TREE "/truncated", 0, 3 * bs + 7, 4);
		err |= do_sys_truncate(TREE "/truncated", bs + bs / 2);
		err |= do_sys_truncate(TREE "/truncated", 4 * bs);
	}
	for (int i = 0; i < 60; i++) {
		snprintf(path, sizeof(path), TREE "/dir/f%d", i);
		err |= ext2_test_fill(path, 0, i * 37, i);
	}
	err |= do_linkat(AT_FDCWD, TREE "/small", AT_FDCWD, TREE "/hard", 0);
	err |= do_symlinkat("small", AT_FDCWD, TREE "/fast-link");
	err |= do_symlinkat(LONG_TARGET, AT_FDCWD, TREE "/slow-link");
	err |= do_mknodat(AT_FDCWD, TREE "/fifo", S_IFIFO | 0644, 0);
	if (err)
		return selftest_fail("%s: cannot leave a tree", ext2_td.name);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		loff_t size;
		u32 sum;

		if (!truncation && !strcmp(files[i], "truncated"))
			continue;
		snprintf(path, sizeof(path), TREE "/%s", files[i]);
		if (cksum_file(path, &sum, &size))
			return selftest_fail("%s: cannot read back", path);
		pr_info("ext2_test: %s: kept %s %ld bytes, cksum %u\n",
			ext2_td.name, path + strlen(MNT), size, sum);
	}
	return 0;
}

static int run_data_cases(bool truncation)
{
	int m = run_cases(ext2_data_cases), t = 0;

	if (m >= 0 && truncation)
		t = run_cases(ext2_truncate_cases);
	return m < 0 ? m : t < 0 ? t : m + t;
}

static int test_one_disk(const char *name, bool truncation)
{
	struct selftest_mem mem;
	struct ext2_sb_info *sbi;
	struct path path;
	int n, m, err;

	selftest_mem_snapshot(&mem);
	err = mount_disk(name, false);
	if (err)
		return err;
	kern_path(MNT, LOOKUP_FOLLOW, &path);
	sbi = EXT2_SB(path.dentry->d_sb);
	pr_info("ext2_test: %s: %lu-byte blocks, revision %u, %u-byte inodes, "
		"%lu groups\n", name, ext2_td.blocksize,
		sbi->s_es->s_rev_level, sbi->s_inode_size,
		sbi->s_groups_count);
	path_put(&path);
	n = run_cases(ext2_namespace_cases);
	if (n < 0)
		return n;
	m = run_data_cases(truncation);
	if (m < 0)
		return m;
	err = ext2_test_fill(KEEP, 0, KEEP_SIZE, 42);
	if (!err)
		err = do_symlinkat(LONG_TARGET, AT_FDCWD, KEEP_LINK);
	if (err)
		return selftest_fail("%s: cannot leave a file: %d", name, err);
	err = umount_disk();
	/* Without truncation, truncate=new again: a failed write under the
	 * old sequence gives its blocks back through ->truncate. */
	if (!err)
		err = mount_disk(name, truncation);
	if (!err)
		err = check_kept();
	if (err)
		return err;
	drop_pagecache();	/* now it must come from the disk */
	err = check_kept();
	if (err)
		return err;
	m = run_data_cases(truncation);
	if (m < 0)
		return m;
	if (do_unlinkat(AT_FDCWD, KEEP) || do_unlinkat(AT_FDCWD, KEEP_LINK))
		return selftest_fail("%s: cannot remove the kept file", name);
	err = leave_a_tree(truncation);
	if (!err)
		err = umount_disk();
	if (err)
		return err;
	pr_info("ext2_test: %s: %d cases ok, data back after a remount, %s\n",
		name, n + 2 * m,
		truncation ? "truncate=new and truncate=old" : "no truncation");
	/* umount gave everything back: inodes, dentries, page cache,
	 * buffers, the buffer cache. */
	return selftest_mem_check(&mem);
}

static int test_disks(bool truncation)
{
	char list[64], *s = list, *name;
	int failed = 0, tested = 0;

	vfs_init();
	do_mkdirat(AT_FDCWD, "/mnt", 0755);
	do_mkdirat(AT_FDCWD, MNT, 0755);
	if (disks_param[0]) {
		strlcpy(list, disks_param, sizeof(list));
	} else {	/* every RAM disk */
		list[0] = '\0';
		for (int i = 0; i < 8; i++) {
			char one[8];

			snprintf(one, sizeof(one), "ram%d", i);
			if (blkdev_get_by_name(one))
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list), "%s%s",
					 list[0] ? "," : "", one);
		}
	}
	while ((name = s) && *name) {
		s = strchr(name, ',');
		if (s)
			*s++ = '\0';
		else
			s = name + strlen(name);
		tested++;
		if (test_one_disk(name, truncation)) {
			pr_err("ext2_test: %s: FAILED\n", name);
			do_umount_path(MNT, 0);
			failed++;
		}
	}
	if (!tested)
		return selftest_fail("no disk to test (ext2_test_disks=, or "
				     "boot with an image as a module)");
	if (failed)	/* the first failure's reason stays the verdict */
		pr_err("ext2_test: %d of %d disks failed\n", failed, tested);
	return failed ? -1 : 0;
}
static int test_ext2(void)
{
	return test_disks(true);
}
DEFINE_SELFTEST(ext2, test_ext2);

static int test_ext2_rw(void)
{
	return test_disks(false);
}
DEFINE_SELFTEST(ext2_rw, test_ext2_rw);
