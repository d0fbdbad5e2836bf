/*
 * truncate_content - what truncate does to a file's bytes and blocks on
 * the file system cwd is on (ext2 with any block size, ramfs; on the host
 * ext2, ext4 or tmpfs): the same checks hold everywhere, and on ext2 the
 * block counts are checked exactly.
 *
 * Roadmap:
 *   1. 40 KiB of pattern, cut to 10000 bytes: size, the 10000 bytes kept,
 *      EOF after them, fewer blocks; grown back to 40 KiB: zeros from
 *      10000 on (the rest of the partial block and page too), no new
 *      blocks (a hole); the same after fsync + drop_caches; a write into
 *      the hole allocates only its own block
 *   2. the file offset survives a truncate: a write at the old end after
 *      a shrink leaves a hole of zeros behind it
 *   3. one page: 4096 bytes of 0xff cut to 1000 (and to 2048), grown back
 *      to 4096: bytes from the cut on read zero, before and after
 *      drop_caches, with the 0xff bytes synced to disk before the cut or
 *      not; one block left
 *   4. ext2's indirect blocks: a file reaching into the double-indirect
 *      tree (300 KiB with 1 KiB blocks, the same shape for 2 and 4 KiB),
 *      cut inside the double-indirect tree, inside the indirect block, to
 *      12 KiB and to 0: st_blocks is data plus indirect blocks exactly and
 *      statfs f_bfree rises by exactly what was freed, back to where it
 *      started; the kept bytes stay right; also cut straight to 0
 *   5. a sparse file whose only block is past the cut: st_blocks 0 after
 * drop_caches is /proc/sys/vm/drop_caches ("1"): skipped when it cannot
 * be written. Everything happens in a scratch directory made in cwd.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define EXT2_MAGIC 0xEF53
#define RAMFS_MAGIC 0x858458f6
#define KiB 1024L

static char fs_type[64];
static long bsize;	/* the file system's block size */
static int exact;	/* ext2: check block counts exactly */
static int counts_blocks = 1;	/* st_blocks means something (not ramfs) */
static int can_drop = 1;
static int ramfs;	/* st_blocks counts cached pages, holes read too */

static unsigned char pattern(long off)
{
	return (unsigned char)(1 + off % 251);
}

/* ---- helpers ------------------------------------------------------------ */

static long blocks_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long)st.st_blocks;
}

static long size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long)st.st_size;
}

static long bfree(void)
{
	struct statfs sf;

	return statfs(".", &sf) < 0 ? -1 : (long)sf.f_bfree;
}

/* Write len bytes of pattern (or of byte c if c >= 0) at off. */
static int fill(int fd, long off, long len, int c)
{
	static unsigned char buf[16384];

	while (len > 0) {
		long n = len < (long)sizeof(buf) ? len : (long)sizeof(buf), i;

		for (i = 0; i < n; i++)
			buf[i] = c >= 0 ? (unsigned char)c : pattern(off + i);
		if (pwrite(fd, buf, (size_t)n, off) != n)
			return -1;
		off += n;
		len -= n;
	}
	return 0;
}

/* Check [off, off+len): the pattern (c < 0) or byte c. Returns the first
 * offset that differs (or cannot be read), -1 if all match. */
static long differs(int fd, long off, long len, int c)
{
	static unsigned char buf[16384];

	while (len > 0) {
		long n = len < (long)sizeof(buf) ? len : (long)sizeof(buf), i;

		if (pread(fd, buf, (size_t)n, off) != n)
			return off;
		for (i = 0; i < n; i++)
			if (buf[i] != (c >= 0 ? (unsigned char)c
					      : pattern(off + i)))
				return off + i;
		off += n;
		len -= n;
	}
	return -1;
}

/* fsync fd, then drop clean caches: 0, or -1 when there is no way to
 * (said once). */
static int sync_and_drop(int fd)
{
	fsync(fd);
	if (!can_drop)
		return -1;
	if (drop_caches() < 0)
		can_drop = 0;
	return can_drop ? 0 : -1;
}

/*
 * ext2's st_blocks for a file whose data blocks are the first n plus the
 * one at index extra (-1: none): data blocks plus the indirect blocks that
 * map them (12 direct; one indirect block of p numbers; a double-indirect
 * block and one indirect block per p under it), in 512-byte sectors.
 */
struct ext2_count {
	long blocks, last_ind;
	int dind;
};

/* Count data block i, and the indirect blocks it needs that the blocks
 * counted before it (in increasing order) did not. */
static void ext2_count(struct ext2_count *c, long i)
{
	long p = bsize / 4;

	c->blocks++;
	if (i < 12)
		return;
	if (i >= 12 + p && !c->dind) {
		c->blocks++;	/* the double-indirect block */
		c->dind = 1;
	}
	if (i >= 12 + p + p * p)
		abort();	/* no triple-indirect files here */
	if ((i - 12) / p != c->last_ind) {
		c->blocks++;	/* an indirect block */
		c->last_ind = (i - 12) / p;
	}
}

static long ext2_sectors(long n, long extra)
{
	struct ext2_count c = { 0, -1, 0 };
	long i;

	for (i = 0; i < n; i++)
		ext2_count(&c, i);
	if (extra >= n)
		ext2_count(&c, extra);
	return c.blocks * (bsize / 512);
}

/* Remove dir and what is in it (one level). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* ---- 1. shrink and extend ------------------------------------------------ */

static void test_shrink_extend(void)
{
	int fd = open("a", O_CREAT | O_RDWR | O_TRUNC, 0644);
	long b0, b1, b2, len = 40 * KiB;

	ok(fill(fd, 0, len, -1) == 0, "40 KiB of pattern written");
	fsync(fd);
	b0 = blocks_of(fd);
	diag("40 KiB file: st_blocks %ld", b0);
	if (b0 == 0) {
		counts_blocks = 0;
		diag("st_blocks is 0: this file system does not count blocks");
	}
	if (exact)
		is_long(b0, ext2_sectors(len / bsize, -1),
			"ext2: st_blocks is 40 KiB of data plus indirect "
			"blocks");

	is_long(ftruncate(fd, 10000), 0, "ftruncate to 10000 works");
	is_long(size_of(fd), 10000, "the size is 10000");
	is_long(differs(fd, 0, 10000, -1), -1,
		"bytes 0..9999 are the pattern still");
	{
		char c;

		is_long(pread(fd, &c, 1, 10000), 0, "a read at 10000 is EOF");
	}
	b1 = blocks_of(fd);
	if (counts_blocks)
		ok(b1 < b0, "st_blocks dropped (%ld -> %ld)", b0, b1);
	else
		skip("st_blocks always 0", "st_blocks dropped");
	if (exact)
		is_long(b1, ext2_sectors((10000 + bsize - 1) / bsize, -1),
			"ext2: st_blocks is exactly the blocks under 10000 "
			"bytes");

	is_long(ftruncate(fd, len), 0, "ftruncate back to 40 KiB works");
	is_long(size_of(fd), len, "the size is 40960");
	is_long(blocks_of(fd), b1,
		"st_blocks is unchanged: the extension is a hole");
	is_long(differs(fd, 0, 10000, -1), -1, "bytes 0..9999 are intact");
	is_long(differs(fd, 10000, len - 10000, 0), -1,
		"bytes 10000..40959 read zero (the partial block and page "
		"included)");
	if (sync_and_drop(fd) == 0) {
		is_long(differs(fd, 0, 10000, -1), -1,
			"after drop_caches: bytes 0..9999 are intact");
		is_long(differs(fd, 10000, len - 10000, 0), -1,
			"after drop_caches: bytes 10000..40959 read zero");
	} else {
		skip("no drop_caches", "after drop_caches: bytes 0..9999 are "
				       "intact");
		skip("no drop_caches", "after drop_caches: bytes "
				       "10000..40959 read zero");
	}

	/* A write into the hole allocates its block (and what maps it). */
	pwrite(fd, "Y", 1, 20000);
	fsync(fd);
	b2 = blocks_of(fd);
	if (!counts_blocks)
		skip("st_blocks always 0", "a write into the hole adds blocks");
	else if (ramfs)	/* the reads of the hole above cached zero pages */
		ok(b2 > b1, "a 1-byte write into the hole adds blocks (%ld -> "
			    "%ld; ramfs counts cached pages)", b1, b2);
	else
		ok(b2 > b1 && b2 < b0,
		   "a 1-byte write into the hole adds blocks, fewer than "
		   "the full file had (%ld -> %ld, full %ld)", b1, b2, b0);
	if (exact)
		is_long(b2,
			ext2_sectors((10000 + bsize - 1) / bsize,
				     20000 / bsize),
			"ext2: exactly its block (and an indirect block if "
			"it needs one)");
	is_long(differs(fd, 10000, 10000, 0), -1,
		"the hole before it still reads zero");
	close(fd);
}

/* ---- 2. the file offset survives ----------------------------------------- */

static void test_offset_kept(void)
{
	int fd = open("b", O_CREAT | O_RDWR | O_TRUNC, 0644);
	char c = 0;

	fill(fd, 0, 40 * KiB, -1);
	lseek(fd, 40 * KiB, SEEK_SET);
	ftruncate(fd, 10000);
	is_long(lseek(fd, 0, SEEK_CUR), 40 * KiB,
		"a truncate leaves the file offset at 40960");
	is_long(write(fd, "X", 1), 1, "a write there works");
	is_long(size_of(fd), 40 * KiB + 1, "the size is 40961");
	pread(fd, &c, 1, 40 * KiB);
	is_int(c, 'X', "byte 40960 is the X");
	is_long(differs(fd, 10000, 40 * KiB - 10000, 0), -1,
		"bytes 10000..40959 read zero");
	close(fd);
}

/* ---- 3. one page ---------------------------------------------------------- */

static void one_page(long cut, int sync_first)
{
	int fd = open("c", O_CREAT | O_RDWR | O_TRUNC, 0644);
	const char *how = sync_first ? "synced" : "cached";

	fill(fd, 0, 4096, 0xff);
	if (sync_first)
		fsync(fd);
	ftruncate(fd, cut);
	ftruncate(fd, 4096);
	is_long(differs(fd, 0, cut, 0xff), -1,
		"4096 x 0xff (%s), cut to %ld, grown to 4096: bytes 0..%ld "
		"are 0xff", how, cut, cut - 1);
	is_long(differs(fd, cut, 4096 - cut, 0), -1,
		"and bytes %ld..4095 read zero", cut);
	if (sync_and_drop(fd) == 0) {
		is_long(differs(fd, 0, cut, 0xff), -1,
			"after drop_caches: bytes 0..%ld are 0xff", cut - 1);
		is_long(differs(fd, cut, 4096 - cut, 0), -1,
			"after drop_caches: bytes %ld..4095 read zero (the "
			"zeroing reached the disk)", cut);
	} else {
		skip("no drop_caches", "after drop_caches: bytes 0..%ld are "
				       "0xff", cut - 1);
		skip("no drop_caches", "after drop_caches: bytes %ld..4095 "
				       "read zero", cut);
	}
	if (exact)
		is_long(blocks_of(fd),
			ext2_sectors((cut + bsize - 1) / bsize, -1),
			"ext2: only the blocks under the first %ld bytes "
			"remain", cut);
	close(fd);
}

/* ---- 4. indirect blocks ---------------------------------------------------- */

/* Cut fd to size; check st_blocks and f_bfree exactly (ext2) or that
 * they did not grow, and that the kept bytes are the pattern. */
static void cut_to(int fd, long size, long start_free, const char *what)
{
	long before = blocks_of(fd), after, nb = (size + bsize - 1) / bsize;

	is_long(ftruncate(fd, size), 0, "ftruncate to %ld (%s) works", size,
		what);
	after = blocks_of(fd);
	if (exact) {
		is_long(after, ext2_sectors(nb, -1),
			"ext2: st_blocks is exactly data + indirect blocks "
			"(%ld sectors)", ext2_sectors(nb, -1));
		is_long(bfree(), start_free - ext2_sectors(nb, -1) /
						      (bsize / 512),
			"ext2: f_bfree rose by exactly the blocks freed");
	} else if (counts_blocks) {
		ok(after <= before, "st_blocks did not grow (%ld -> %ld)",
		   before, after);
	}
	is_long(differs(fd, 0, size, -1), -1, "the %ld bytes kept are right",
		size);
}

static void test_indirect(void)
{
	long p = bsize / 4, start, len, b;
	int fd;

	len = (12 + p + 20) * bsize;
	if (len < 300 * KiB)
		len = 300 * KiB;
	fd = open("d", O_CREAT | O_RDWR | O_TRUNC, 0644);
	start = bfree();
	ok(fill(fd, 0, len, -1) == 0,
	   "a %ld KiB file written (into the double-indirect tree for "
	   "%ld-byte ext2 blocks)", len / KiB, bsize);
	fsync(fd);
	b = blocks_of(fd);
	if (exact) {
		is_long(b, ext2_sectors(len / bsize, -1),
			"ext2: st_blocks is data + indirect + double-indirect "
			"blocks (%ld sectors)", ext2_sectors(len / bsize, -1));
		is_long(bfree(), start - b / (bsize / 512),
			"ext2: f_bfree fell by as many blocks");
	}
	cut_to(fd, (12 + p + 5) * bsize + 100, start,
	       "inside the double-indirect tree");
	cut_to(fd, (12 + 5) * bsize + 100, start,
	       "inside the indirect block");
	cut_to(fd, 12 * KiB, start, "12 KiB");
	if (counts_blocks)
		is_long(blocks_of(fd), 24, "12 KiB is 24 sectors, no indirect "
					   "block");
	if (sync_and_drop(fd) == 0)
		is_long(differs(fd, 0, 12 * KiB, -1), -1,
			"after drop_caches the 12 KiB are still right");
	else
		skip("no drop_caches", "after drop_caches the 12 KiB are "
				       "still right");
	cut_to(fd, 0, start, "0");
	if (counts_blocks)
		is_long(blocks_of(fd), 0, "st_blocks is 0");
	if (exact)
		is_long(bfree(), start, "ext2: f_bfree is back where it "
					"started");

	/* Again, straight from the full size to 0. */
	fill(fd, 0, len, -1);
	fsync(fd);
	cut_to(fd, 0, start, "0, from the full size at once");
	if (exact)
		is_long(bfree(), start, "ext2: f_bfree is back where it "
					"started");
	close(fd);
}

/* ---- 5. a sparse file ------------------------------------------------------ */

static void test_sparse(void)
{
	int fd = open("e", O_CREAT | O_RDWR | O_TRUNC, 0644);
	long off = 200 * KiB;

	pwrite(fd, "Z", 1, off);
	fsync(fd);
	if (exact)
		is_long(blocks_of(fd), ext2_sectors(0, off / bsize),
			"ext2: a 1-byte write at 200 KiB holds one block "
			"and what maps it");
	is_long(ftruncate(fd, 100 * KiB), 0,
		"cutting the sparse file to 100 KiB works");
	if (counts_blocks)
		is_long(blocks_of(fd), 0,
			"its only block is gone, and the indirect block that "
			"mapped it: st_blocks 0");
	is_long(differs(fd, 0, 100 * KiB, 0), -1, "and it reads zero");
	close(fd);
}

int main(void)
{
	char dir[] = "truncate_content.XXXXXX";
	struct statfs sf;

	alarm(120);
	if (!mkdtemp(dir) || chdir(dir) < 0) {
		diag("cannot make a scratch directory in cwd: %s",
		     strerror(errno));
		return 1;
	}
	fs_type_of_cwd(fs_type, sizeof(fs_type));
	statfs(".", &sf);
	bsize = (long)sf.f_bsize;
	ramfs = sf.f_type == RAMFS_MAGIC;
	exact = !strcmp(fs_type, "ext2") && sf.f_type == EXT2_MAGIC &&
		bsize >= 1024 && bsize <= 4096;
	diag("cwd is on %s, f_type 0x%lx, f_bsize %ld%s", fs_type,
	     (unsigned long)sf.f_type, bsize,
	     exact ? ": ext2 block counts are checked exactly" : "");

	test_shrink_extend();
	test_offset_kept();
	one_page(1000, 1);
	one_page(1000, 0);
	one_page(2048, 1);
	test_indirect();
	test_sparse();

	chdir("..");
	remove_tree(dir);
	return done_testing();
}
