/*
 * bh_holes - writes into holes and past EOF that allocate blocks in a
 * page, on the file system cwd is on (pagelab's ext2 with 1 KiB blocks;
 * on the host ext2, ext4, tmpfs).
 *
 * A file of 0xEE is written and removed before each write below, so that
 * the free blocks the file gets hold 0xEE on the disk and the free pages
 * the page cache gets hold 0xEE in memory (pagelab does not zero a page
 * for the page cache): a new block not zeroed around the write shows
 * them. Then:
 *   past_eof     10 bytes into block 5 of an empty file: only that block
 *                is allocated, the rest of it reads zero (not 0xEE),
 *                nothing is read from the disk;
 *   into_a_hole  50 bytes into the hole block 2 of a file whose blocks
 *                0, 1 and 3 hold data, the page not cached: one block
 *                more, the data around it intact, the hole's other
 *                bytes zero, nothing read;
 *   eof_page     10 bytes into block 3 of the page that holds EOF (1.5
 *                KiB of data, not cached): the blocks before the write
 *                are not read, block 2 stays a hole;
 *   cached_page  5 bytes into block 3 of a page whose blocks 0 and 1 were
 *                just written (cached, dirty): they keep their bytes,
 *                block 2 stays a hole.
 * Each is checked from the cache and, after fsync and drop_caches, from
 * the disk. Allocation is st_blocks (512-byte units); the read counts are
 * pagelab's (pgpgin in /proc/vmstat), skipped without /proc/fail; the
 * rest gives the same verdict on Linux's ext2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096L
#define MAX_SIZE (2 * PAGE)

static long bs;
static int pagelab;
static int can_drop = 1;
static unsigned char want[MAX_SIZE];
static long want_size;

static void fsync_and_drop(int fd)
{
	fsync(fd);
	if (can_drop && drop_caches() < 0)
		can_drop = 0;
}

static long differs(int fd)
{
	static unsigned char buf[MAX_SIZE];

	if (pread(fd, buf, (size_t)want_size, 0) != want_size)
		return 0;
	for (long i = 0; i < want_size; i++)
		if (buf[i] != want[i])
			return i;
	return -1;
}

static long blocks_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long)st.st_blocks * 512 / bs;
}

static long write_counting(int fd, long off, long len, int c)
{
	static char buf[PAGE];
	long before = vmstat("pgpgin");

	memset(buf, c, (size_t)len);
	memset(want + off, c, (size_t)len);
	if (off + len > want_size)
		want_size = off + len;
	if (pwrite(fd, buf, (size_t)len, off) != len)
		return -1;
	return vmstat("pgpgin") - before;
}

static void check(int fd, long got_kib, long blocks, const char *what)
{
	if (pagelab)
		is_long(got_kib, 0, "%s: reads nothing from the disk (KiB)",
			what);
	else
		skip("not pagelab: pgpgin counts other I/O",
		     "%s: reads nothing", what);
	is_long(blocks_of(fd), blocks, "%s: %ld block(s) allocated", what,
		blocks);
	is_long(differs(fd), -1, "%s: reads back right", what);
	fsync_and_drop(fd);
	is_long(differs(fd), -1, "%s: and from the disk", what);
}

static int open_new(const char *name)
{
	memset(want, 0, sizeof(want));
	want_size = 0;
	return open(name, O_CREAT | O_RDWR | O_TRUNC, 0644);
}

/* Free blocks and free pages that hold 0xEE; 0 if it could be done. */
static int litter(void)
{
	static char buf[64 * 1024];
	int fd = open("stale", O_CREAT | O_RDWR | O_TRUNC, 0644), r;

	memset(buf, 0xee, sizeof(buf));
	r = fd >= 0 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) &&
	    fsync(fd) == 0 ? 0 : -1;
	close(fd);
	unlink("stale");
	sync();
	return r;
}

static void past_eof(void)
{
	int fd = open_new("past_eof");

	litter();
	check(fd, write_counting(fd, PAGE + 5 * bs % PAGE + 100, 10, 'Q'), 1,
	      "10 bytes past EOF in an empty file");
	close(fd);
	unlink("past_eof");
}

static void into_a_hole(void)
{
	int fd = open_new("hole");
	long before;

	if (bs >= PAGE) {
		skip("one block a page", "into a hole between blocks");
		close(fd);
		unlink("hole");
		return;
	}
	write_counting(fd, 0, 2 * bs, 'd');
	write_counting(fd, 3 * bs, bs, 'd');
	before = blocks_of(fd);
	fsync_and_drop(fd);
	litter();
	check(fd, write_counting(fd, 2 * bs + 500, 50, 'R'), before + 1,
	      "50 bytes into a hole between blocks of data, not cached");
	close(fd);
	unlink("hole");
}

static void eof_page(void)
{
	int fd = open_new("eof");

	if (bs >= PAGE) {
		skip("one block a page", "past EOF in the page of EOF");
		close(fd);
		unlink("eof");
		return;
	}
	write_counting(fd, 0, bs + bs / 2, 'f');
	fsync_and_drop(fd);
	litter();
	check(fd, write_counting(fd, 3 * bs + 10, 10, 'T'), 3,
	      "10 bytes past EOF in the page that holds EOF, not cached");
	close(fd);
	unlink("eof");
}

static void cached_page(void)
{
	int fd = open_new("cached");

	if (bs >= PAGE) {
		skip("one block a page", "into a cached page");
		close(fd);
		unlink("cached");
		return;
	}
	write_counting(fd, 0, 2 * bs, 'e');
	check(fd, write_counting(fd, 3 * bs + 10, 5, 'S'), 3,
	      "5 bytes into block 3 of a cached page");
	close(fd);
	unlink("cached");
}

int main(void)
{
	struct statvfs sv;

	pagelab = access("/proc/fail", F_OK) == 0;
	if (statvfs(".", &sv) < 0)
		return 1;
	bs = (long)sv.f_bsize;
	diag("block size %ld", bs);
	is_int(litter(), 0, "64 KiB of 0xEE written, then removed");
	past_eof();
	into_a_hole();
	eof_page();
	cached_page();
	if (!can_drop)
		diag("caches were not dropped: the disk checks read the cache");
	return done_testing();
}
