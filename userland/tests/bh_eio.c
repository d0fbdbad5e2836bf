/*
 * bh_eio - a write whose block read fails (the buffer-heads lab's
 * handout: "A failed read is -EIO; on any error,
 * page_zero_new_buffers"), on the file system cwd is on.
 *
 * The read is made to fail with pagelab's fault injection
 * (/proc/fail/block_read: the next block read gets EIO). Then
 *   1. a write of 100 bytes inside a block of a page not cached, whose
 *      read fails, fails with EIO, and the file, from the cache and from
 *      the disk, is as it was: the 924 bytes around the write were
 *      never read, so nothing may be written over them;
 *   2. (blocks smaller than a page) a write across a hole and a mapped
 *      block, whose read fails: the hole's block is allocated before the
 *      read fails, and must then hold zeroes, not what a removed file
 *      left on the disk (the write fails with EIO, and the file, from
 *      the disk, is as it was: zeroes, then the old data).
 *   3. (blocks smaller than a page) a write across two holes whose
 *      second block cannot be allocated (/proc/fail/block_alloc): ENOSPC,
 *      and the first block, allocated already, holds zeroes on the disk.
 * The failing write of case 1 must have tried to read that block only
 * (pgpgin counts failed reads too). After each failure the same write is
 * tried again, the disk reading again: it must succeed and read only the
 * block it covers in part (the failed read left that block's buffer not
 * uptodate, and nothing else changed: a new block is zeroed and
 * uptodate).
 * Roadmap: junk_on_free_blocks, failed_read_inside_a_block,
 * failed_read_after_a_new_block, failed_alloc_after_a_new_block,
 * try_again.
 * Without /proc/fail (the host Linux) every check is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096L

static long bs;			/* the file system's block size */
static long failed_kib;		/* read by the last write_failing_read */
static unsigned char want[2 * PAGE];	/* what the file must hold */

/* The first offset of [0, len) where the file differs from want[], or
 * -1 if none. */
static long differs(int fd, long len)
{
	static unsigned char buf[2 * PAGE];

	if (pread(fd, buf, (size_t)len, 0) != len)
		return 0;
	for (long i = 0; i < len; i++)
		if (buf[i] != want[i])
			return i;
	return -1;
}

/* A file of len bytes of want[], on the disk, not cached; fd or -1. */
static int fresh_file(const char *name, long len)
{
	int fd = open(name, O_CREAT | O_RDWR | O_TRUNC, 0644);

	if (fd < 0 || pwrite(fd, want, (size_t)len, 0) != len ||
	    fsync(fd) < 0 || drop_caches() < 0)
		return -1;
	return fd;
}

/* pwrite len bytes of c at off while the next block read fails; the
 * result of pwrite, errno kept. */
static long write_failing_read(int fd, long off, long len, int c)
{
	char buf[256];
	long r;
	int e;

	memset(buf, c, sizeof(buf));
	failed_kib = vmstat("pgpgin");
	fail_arm("block_read", 1);
	r = pwrite(fd, buf, (size_t)len, off);
	e = errno;
	failed_kib = vmstat("pgpgin") - failed_kib;
	if (fail_armed("block_read"))
		diag("the write read no block: the injected failure is "
		     "still armed");
	fail_arm("block_read", 0);
	errno = e;
	return r;
}

/* pwrite len bytes of c at off, the disk reading again: it must succeed
 * and read one block (pgpgin, KiB). */
static void try_again(int fd, long off, long len, int c, const char *what)
{
	char buf[256];
	long before = vmstat("pgpgin"), r;

	memset(buf, c, sizeof(buf));
	memset(want + off, c, (size_t)len);
	r = pwrite(fd, buf, (size_t)len, off);
	is_long(r, len, "%s: tried again, the write succeeds", what);
	is_long(vmstat("pgpgin") - before, bs / 1024, "%s: and reads only "
		"the block it covers in part (KiB)", what);
}

/* Setting up failed: not a verdict on the kernel under test. */
static void die(const char *what)
{
	diag("%s: %s", what, strerror(errno));
	exit(1);
}

/* The file's bytes [0, len) as want[]: from the cache, then (fsync,
 * drop_caches) from the disk. */
static void reads_back(int fd, long len, const char *what)
{
	is_long(differs(fd, len), -1, "%s: the file reads back as it was",
		what);
	fsync(fd);
	drop_caches();
	is_long(differs(fd, len), -1, "%s: and so it is on the disk", what);
}

/* Free blocks that hold 'J': a file's, written and removed, so a block
 * allocated next is one of them (the allocator takes the first free
 * block of the group). */
static int junk_on_free_blocks(void)
{
	static char junk[64 * 1024];
	int fd = open("bh_eio.junk", O_CREAT | O_WRONLY | O_TRUNC, 0644);

	memset(junk, 'J', sizeof(junk));
	if (fd < 0 || write(fd, junk, sizeof(junk)) != (long)sizeof(junk) ||
	    fsync(fd) < 0)
		return -1;
	close(fd);
	unlink("bh_eio.junk");
	sync();
	return 0;
}

/* Cases 2 and 3 need blocks smaller than a page, and junk on the free
 * blocks: false (their n checks skipped as what) with one block a page. */
static bool small_blocks_on_junk(int n, const char *what)
{
	if (bs >= PAGE) {
		for (int i = 0; i < n; i++)
			skip("one block a page", "%s", what);
		return false;
	}
	if (junk_on_free_blocks() < 0)
		die("bh_eio.junk");
	return true;
}

static void failed_read_inside_a_block(void)
{
	const char *what = "100 bytes inside a block whose read fails";
	int fd;

	memset(want, 'a', PAGE);
	fd = fresh_file("bh_eio.1", PAGE);
	if (fd < 0)
		die("bh_eio.1");
	is_errno(write_failing_read(fd, bs < PAGE ? bs + 300 : 300, 100, 'X'),
		 EIO, "%s: the write fails with EIO", what);
	is_long(failed_kib, bs / 1024, "%s: it read (tried to) only the "
		"block it covers in part (KiB)", what);
	reads_back(fd, PAGE, what);
	drop_caches();
	write_failing_read(fd, bs < PAGE ? bs + 300 : 300, 100, 'X');
	try_again(fd, bs < PAGE ? bs + 300 : 300, 100, 'X', what);
	reads_back(fd, PAGE, what);
	close(fd);
	unlink("bh_eio.1");
}

/* Block 0 a hole, block 1 'b', the last block 'c': the write covers the
 * end of block 0 and the start of block 1. */
static void failed_read_after_a_new_block(void)
{
	const char *what = "a write across a hole and a block whose read fails";
	int fd;

	if (!small_blocks_on_junk(5, "a new block beside a failed read"))
		return;
	memset(want, 0, PAGE);
	memset(want + bs, 'b', (size_t)bs);
	memset(want + PAGE - bs, 'c', (size_t)bs);
	/* No ftruncate: the buffer-heads tree has truncation still stubbed. */
	fd = open("bh_eio.2", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, want + bs, (size_t)bs, bs) != bs ||
	    pwrite(fd, want + PAGE - bs, (size_t)bs, PAGE - bs) != bs ||
	    fsync(fd) < 0 || drop_caches() < 0)
		die("bh_eio.2");
	is_errno(write_failing_read(fd, bs - 100, 200, 'Y'), EIO,
		 "%s: the write fails with EIO", what);
	try_again(fd, bs - 100, 200, 'Y', what);
	reads_back(fd, PAGE, what);
	close(fd);
	unlink("bh_eio.2");
}

/*
 * Blocks 0-2 holes, block 3 'c': a write across the end of block 1 and
 * the start of block 2, where block 2's allocation fails (ENOSPC, the
 * second allocation from now). Block 1 was allocated first; what the
 * write did not get to copy must be zeroes on the disk too, not what a
 * removed file left there (page_zero_new_buffers on any error, not only
 * a failed read).
 */
static void failed_alloc_after_a_new_block(void)
{
	const char *what = "a write whose second block cannot be allocated";
	char buf[200];
	int fd;

	if (!small_blocks_on_junk(3, "a new block beside a failed allocation"))
		return;
	memset(want, 0, PAGE);
	memset(want + 3 * bs, 'c', (size_t)bs);
	fd = open("bh_eio.3", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, want + 3 * bs, (size_t)bs, 3 * bs) != bs ||
	    fsync(fd) < 0 || drop_caches() < 0)
		die("bh_eio.3");
	memset(buf, 'Z', sizeof(buf));
	fail_arm("block_alloc", 2);
	is_errno(pwrite(fd, buf, sizeof(buf), 2 * bs - 100), ENOSPC,
		 "%s: the write fails with ENOSPC", what);
	fail_arm("block_alloc", 0);
	reads_back(fd, PAGE, what);
	close(fd);
	unlink("bh_eio.3");
}

int main(void)
{
	struct statvfs sv;

	if (statvfs(".", &sv) < 0)
		return 1;
	bs = (long)sv.f_bsize;
	diag("block size %ld", bs);
	if (access("/proc/fail/block_read", W_OK) < 0) {
		for (int i = 0; i < 16; i++)
			skip("no /proc/fail/block_read", "a block read made "
			     "to fail");
		return done_testing();
	}
	failed_read_inside_a_block();
	failed_read_after_a_new_block();
	failed_alloc_after_a_new_block();
	return done_testing();
}
