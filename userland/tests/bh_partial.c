/*
 * bh_partial - writes that cover blocks of a page only in part, on the
 * file system cwd is on (pagelab's ext2 with 1 KiB blocks: four blocks a
 * page; on the host ext2, ext4, tmpfs).
 *
 * Each write goes into a page that is not cached (fsync, drop_caches) or
 * only partly uptodate, and then
 *   - the file reads back right, from the cache and after drop_caches
 *     from the disk: the written bytes, and around them what was there
 *     (a partly overwritten block must have been read first);
 *   - the write read from the disk exactly the blocks it covers only in
 *     part: none for whole blocks, one for a write inside a block, two
 *     for a write across a block boundary (pgpgin in /proc/vmstat, KiB).
 * Roadmap: inside_a_block, whole_block, across_blocks, rest_of_a_page.
 * The read counts are pagelab's (on the host, other I/O moves pgpgin):
 * without /proc/fail they are skipped; everything else gives the same
 * verdict on Linux.
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
#define FILE_SIZE (2 * PAGE)

static long bs;		/* the file system's block size */
static int pagelab;	/* /proc/fail exists: pgpgin counts only our I/O */
static int can_drop = 1;
static unsigned char want[FILE_SIZE];	/* what the file must hold */

static void fsync_and_drop(int fd)
{
	fsync(fd);
	if (can_drop && drop_caches() < 0)
		can_drop = 0;
}

/* The first offset where the file differs from want[], -1 if none. */
static long differs(int fd)
{
	static unsigned char buf[FILE_SIZE];

	if (pread(fd, buf, FILE_SIZE, 0) != FILE_SIZE)
		return 0;
	for (long i = 0; i < FILE_SIZE; i++)
		if (buf[i] != want[i])
			return i;
	return -1;
}

/* pwrite len bytes of c at off into the file and want[]; returns the KiB
 * read from the disk meanwhile. */
static long write_counting(int fd, long off, long len, int c)
{
	static char buf[PAGE];
	long before = vmstat("pgpgin");

	memset(buf, c, (size_t)len);
	memset(want + off, c, (size_t)len);
	if (pwrite(fd, buf, (size_t)len, off) != len)
		return -1;
	return vmstat("pgpgin") - before;
}

static void check(int fd, long got_kib, long want_blocks, const char *what)
{
	if (pagelab)
		is_long(got_kib, want_blocks * bs / 1024,
			"%s: reads %ld block(s) from the disk (KiB)", what,
			want_blocks);
	else
		skip("not pagelab: pgpgin counts other I/O",
		     "%s: reads %ld block(s)", what, want_blocks);
	is_long(differs(fd), -1, "%s: the page reads back right", what);
	fsync_and_drop(fd);
	is_long(differs(fd), -1, "%s: and from the disk", what);
}

/* 100 bytes in the middle of a block: that block must be read (its other
 * bytes stay), no other. */
static void inside_a_block(int fd)
{
	fsync_and_drop(fd);
	check(fd, write_counting(fd, bs + 300, 100, 'X'), 1,
	      "100 bytes inside block 1 of a page not cached");
}

/* A whole block: nothing to read. */
static void whole_block(int fd)
{
	long off = bs < PAGE ? 2 * bs : PAGE;

	fsync_and_drop(fd);
	check(fd, write_counting(fd, off, bs, 'Y'), 0,
	      "one whole block of a page not cached");
}

/* Across a block boundary, in part on each side: both are read. */
static void across_blocks(int fd)
{
	long off = PAGE + (bs < PAGE ? bs : PAGE / 2) - 100;

	fsync_and_drop(fd);
	check(fd, write_counting(fd, off, 200, 'Z'), bs < PAGE ? 2 : 1,
	      "200 bytes across a block boundary");
}

/* A page with some buffers uptodate (one block just read for a partial
 * write): a second partial write reads only its own block. */
static void rest_of_a_page(int fd)
{
	long got;

	if (bs >= PAGE) {
		skip("one block a page", "a second write into a partly read "
		     "page");
		skip("one block a page", "a second write: reads back right");
		skip("one block a page", "a second write: from the disk");
		return;
	}
	fsync_and_drop(fd);
	if (write_counting(fd, PAGE + 10, 10, 'V') < 0)
		diag("the first write failed: %s", strerror(errno));
	got = write_counting(fd, PAGE + 3 * bs + 5, 10, 'W');
	check(fd, got, 1, "a second write into a page partly read");
}

int main(void)
{
	struct statvfs sv;
	int fd;

	pagelab = access("/proc/fail", F_OK) == 0;
	if (statvfs(".", &sv) < 0)
		return 1;
	bs = (long)sv.f_bsize;
	diag("block size %ld", bs);
	fd = open("bh_partial.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	memset(want, 'a', sizeof(want));
	if (pwrite(fd, want, FILE_SIZE, 0) != FILE_SIZE)
		return 1;
	inside_a_block(fd);
	whole_block(fd);
	across_blocks(fd);
	rest_of_a_page(fd);
	if (!can_drop)
		diag("caches were not dropped: the disk checks read the cache");
	close(fd);
	unlink("bh_partial.dat");
	return done_testing();
}
