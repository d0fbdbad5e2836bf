/*
 * mmap_enospc: a store through a MAP_SHARED mapping into a hole of a
 * sparse file on a full file system is SIGBUS, not silent data loss.
 *
 * The first store to a page of a shared file mapping runs page_mkwrite,
 * which must allocate the blocks under the page (doc/design.md, "page_mkwrite
 * and blocksize < pagesize"); when there are none left the store cannot be
 * kept, and the process must hear it at once (SIGBUS, si_addr the byte
 * stored to) rather than lose the data at writeback. The test maps a
 * sparse file of 64 pages, fills the file system with fill.dat (64 KiB
 * writes to ENOSPC, then 1 KiB writes to ENOSPC), and stores to each page
 * in turn until one faults. After fill.dat is removed (and its blocks
 * are free: the task that drops the file's last reference frees them,
 * and that may be writeback, still writing the file's pages when it was
 * unlinked, a moment later) the same store works, every store that did not fault is in the file after msync, and
 * once everything is removed the free block count is back where it was.
 *
 * Filling a disk is only sensible on a small scratch file system: with
 * more than 64 MiB free those checks are skipped (pagelab runs this on an
 * 8 MiB disk).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "fault.h"
#include "tap.h"

#define NPAGES 64
#define OFF 123 /* byte of each page stored to (not page aligned) */
#define MAX_FREE_MIB 64
#define FILL_CHECKS 10

static long ps;

static unsigned long free_blocks(unsigned long *bsize)
{
	struct statvfs sv;

	if (statvfs(".", &sv))
		return 0;
	if (bsize)
		*bsize = sv.f_frsize;
	return sv.f_bfree;
}

/*
 * Wait (up to 30 s) until at least n blocks are free. A removed file's
 * blocks are freed by whoever drops its inode last: the unlink, or the
 * flusher if it was writing the file back at that moment (Linux too).
 */
static void wait_for_free_blocks(unsigned long n)
{
	unsigned long now = free_blocks(NULL);
	int waits = 0;

	while (now < n && waits < 3000) {
		usleep(10000);
		waits++;
		now = free_blocks(NULL);
	}
	diag("%lu blocks free after the unlink (waited %d ms)", now,
	     waits * 10);
}

/* write() chunks of n bytes until one fails; 1 if it failed with ENOSPC. */
static int write_until_enospc(int fd, const char *buf, size_t n, long *total)
{
	for (;;) {
		ssize_t w = write(fd, buf, n);

		if (w < 0)
			return errno == ENOSPC;
		if (w == 0)
			return 0;
		*total += w;
	}
}

static int fill(void)
{
	static char buf[65536];
	int fd = open("fill.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long total = 0;
	int full;

	memset(buf, 0xf1, sizeof(buf));
	full = fd >= 0 && write_until_enospc(fd, buf, sizeof(buf), &total) &&
	       write_until_enospc(fd, buf, 1024, &total);
	ok(full,
	   "write() to fill.dat fills the file system to ENOSPC (%ld KiB)",
	   total >> 10);
	return fd;
}

/* Store to pages from..NPAGES-1; the first that faults, or -1. */
static int store_pages(char *m, int from, struct fault *f)
{
	for (int i = from; i < NPAGES; i++)
		if (probe_store(m + i * ps + OFF, f))
			return i;
	return -1;
}

/* Pages [from, to) must hold the probe's byte at OFF in the file. */
static int stores_in_file(int fd, int from, int to)
{
	for (int i = from; i < to; i++) {
		char c = 0;

		if (pread(fd, &c, 1, i * ps + OFF) != 1 || c != 0x5a) {
			diag("page %d: the store is not in the file", i);
			return 0;
		}
	}
	return 1;
}

static void test_full(int fd, char *m, unsigned long free0)
{
	int ffd = fill(), bad;
	struct fault f;

	bad = store_pages(m, 1, &f);
	if (bad < 0)
		diag("all %d stores worked: no fault", NPAGES);
	else
		diag("%d stores (pages 0..%d) worked before the fault", bad,
		     bad - 1);
	if (bad < 0)
		bad = NPAGES - 1;
	ok(f.signo,
	   "a store into a hole on the full file system faults (page %d)", bad);
	is_int(f.signo, SIGBUS, "the signal is SIGBUS");
	is_int(f.code, BUS_ADRERR, "its si_code is BUS_ADRERR");
	is_ptr(f.addr, m + bad * ps + OFF, "its si_addr is the byte stored to");
	close(ffd);
	is_int(unlink("fill.dat"), 0, "remove fill.dat");
	wait_for_free_blocks(64);
	ok(!probe_store(m + bad * ps + OFF, &f),
	   "now the store to page %d works", bad);
	is_int(msync(m, NPAGES * ps, MS_SYNC), 0, "msync(MS_SYNC) returns 0");
	ok(stores_in_file(fd, 0, bad + 1),
	   "every store that did not fault (pages 0..%d) is in the file", bad);
	munmap(m, NPAGES * ps);
	close(fd);
	unlink("hole.dat");
	sync();
	/* fill.dat's blocks too: the flusher may still hold its inode (a
	 * CI run saw 2843 of 7563 free right after the sync). */
	wait_for_free_blocks(free0 - 8);
	ok(free_blocks(NULL) + 8 >= free0 && free_blocks(NULL) <= free0 + 8,
	   "with all removed, free blocks are back near %lu (now %lu)", free0,
	   free_blocks(NULL));
}

static void skip_full(unsigned long mib)
{
	char why[64];

	snprintf(why, sizeof(why),
		 "file system too large to fill (%lu MiB free)", mib);
	skip(why, "write() to fill.dat fills the file system to ENOSPC");
	skip(why, "a store into a hole on the full file system faults");
	skip(why, "the signal is SIGBUS");
	skip(why, "its si_code is BUS_ADRERR");
	skip(why, "its si_addr is the byte stored to");
	skip(why, "remove fill.dat");
	skip(why, "now the store to the page that faulted works");
	skip(why, "msync(MS_SYNC) returns 0");
	skip(why, "every store that did not fault is in the file");
	skip(why, "with all removed, free blocks are back near the start");
}

int main(void)
{
	unsigned long bsize = 0, free0 = free_blocks(&bsize);
	unsigned long mib = free0 * bsize >> 20;
	int fd = open("hole.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct fault f;
	char *m;

	ps = sysconf(_SC_PAGESIZE);
	alarm(300);
	fault_install();
	plan(4 + FILL_CHECKS);
	diag("block size %lu, %lu blocks (%lu MiB) free", bsize, free0, mib);
	ok(fd >= 0 && ftruncate(fd, NPAGES * ps) == 0,
	   "create hole.dat, a sparse file of 64 pages");
	m = mmap(NULL, NPAGES * ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!ok(m != MAP_FAILED, "map it MAP_SHARED"))
		return done_testing();
	ok(!probe_store(m + OFF, &f),
	   "a store into the hole at page 0 works while there is room");
	ok(stores_in_file(fd, 0, 1), "pread() sees it");
	if (mib > MAX_FREE_MIB) {
		skip_full(mib);
		munmap(m, NPAGES * ps);
		close(fd);
		unlink("hole.dat");
	} else {
		test_full(fd, m, free0);
	}
	return done_testing();
}
