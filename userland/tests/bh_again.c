/*
 * bh_again - writes into blocks that are already in memory, on the file
 * system cwd is on (pagelab's ext2 with 1 KiB blocks: four a page).
 *
 *   1. two writes into one block of a page not cached: the first reads
 *      the block, the second reads nothing, and the block keeps both
 *      (read again from the disk, it would lose the first, which is
 *      only in memory);
 *   2. a write of part of a block into a page that read(2) brought in
 *      whole: nothing is read.
 * Each: the file reads back right from the cache and, after fsync and
 * drop_caches, from the disk; the reads are counted as pgpgin (KiB).
 * The counts are pagelab's (on the host, other I/O moves pgpgin): without
 * /proc/fail they are skipped; the contents give the same verdict on
 * Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096L

static long bs;
static int pagelab;
static unsigned char want[PAGE];

static int same(int fd)
{
	static unsigned char buf[PAGE];

	return pread(fd, buf, PAGE, 0) == PAGE && !memcmp(buf, want, PAGE);
}

/* KiB read from the disk by a write of len bytes of c at off. */
static long write_counting(int fd, long off, long len, int c)
{
	char buf[64];
	long before = vmstat("pgpgin");

	memset(buf, c, sizeof(buf));
	memset(want + off, c, (size_t)len);
	if (pwrite(fd, buf, (size_t)len, off) != len)
		diag("pwrite at %ld: %s", off, strerror(errno));
	return vmstat("pgpgin") - before;
}

static void check(int fd, long kib, long blocks, const char *what)
{
	if (pagelab)
		is_long(kib, blocks * bs / 1024, "%s: reads %ld block(s) "
			"from the disk (KiB)", what, blocks);
	else
		skip("not pagelab: pgpgin counts other I/O", "%s: reads", what);
	ok(same(fd), "%s: the page reads back right", what);
	fsync(fd);
	drop_caches();
	ok(same(fd), "%s: and from the disk", what);
}

int main(void)
{
	struct statvfs sv;
	char buf[PAGE];
	long kib;
	int fd;

	pagelab = access("/proc/fail", F_OK) == 0;
	if (statvfs(".", &sv) < 0)
		return 1;
	bs = (long)sv.f_bsize;
	diag("block size %ld", bs);
	memset(want, 'a', PAGE);
	fd = open("bh_again.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, want, PAGE, 0) != PAGE || fsync(fd) < 0)
		return 1;
	drop_caches();

	kib = write_counting(fd, bs / 4, 10, 'X');
	kib += write_counting(fd, bs / 2, 10, 'Y');
	check(fd, kib, 1, "two writes into one block of a page not cached");

	if (pread(fd, buf, PAGE, 0) != PAGE)
		return 1;
	check(fd, write_counting(fd, bs / 2 + 100, 10, 'Z'), 0,
	      "part of a block of a page read whole");
	close(fd);
	unlink("bh_again.dat");
	return done_testing();
}
