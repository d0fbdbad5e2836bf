/*
 * fault_truncate_sweep - a failure at each step of a truncate and of a
 * store through a shared mapping, one step at a time: the call reports
 * an error or succeeds, consistently, and never crashes the kernel.
 *
 *   fault_truncate_sweep [K]     (K, default 30: the last N tried)
 *
 * Roadmap:
 *   main        for each /proc/fail point (block_read, block_write,
 *               block_alloc, block_free) and each operation, N = 1..K:
 *               a fresh file, "N" into /proc/fail/POINT, the operation,
 *               disarm, judge; one TAP line per point and operation
 *   op_truncate 300 KiB on disk (indirect and double indirect blocks
 *               with 1 KiB blocks), caches dropped, ftruncate to 1500
 *               (the EOF in a block that must be read and zeroed) and
 *               fsync: see op_truncate for what is consistent
 *   op_mapped   3000 bytes then a hole to 8 KiB, mapped shared, a store
 *               at 3500 (page 0 read from disk, block 3 allocated by
 *               page_mkwrite) and msync: the store either
 *               lands or raises SIGBUS; when both the store and msync
 *               worked, the byte is in the file after the caches drop
 * A sweep stops early once the operation ends before the Nth event (no
 * failure injected). The harness checks the disk afterwards with e2fsck;
 * a failed block free may leak blocks, nothing worse is allowed
 * (scripts/pagelab-run --fsck-leaks-ok).
 *
 * On a kernel without /proc/fail (Linux) every line is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fault.h"
#include "tap.h"
#include "procfs.h"

#define FILE_NAME "fault_sweep.data"
#define BIG (300 * 1024L)	/* double indirect with 1 KiB blocks */

static int truncate_new;

/* Failures injected so far at point ("disarmed, M injected"). */
static long injected(const char *point)
{
	char path[64], buf[128] = "";
	int fd;
	char *p;

	snprintf(path, sizeof(path), "/proc/fail/%s", point);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	p = strstr(buf, ", ");
	return p ? strtol(p + 2, NULL, 10) : -1;
}

static void sync_and_drop(void)
{
	sync();
	drop_caches_mode("3\n");
}

/* A fresh file of len bytes of 'a', on disk, caches dropped; fd or -1. */
static int fresh_file(long len)
{
	char buf[4096];
	long n;
	int fd;

	unlink(FILE_NAME);
	fd = open(FILE_NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	memset(buf, 'a', sizeof(buf));
	for (long done = 0; done < len; done += n) {
		n = len - done < 4096 ? len - done : 4096;
		if (write(fd, buf, n) != n) {
			close(fd);
			return -1;
		}
	}
	if (fsync(fd) < 0) {
		close(fd);
		return -1;
	}
	sync_and_drop();
	return fd;
}

/* One truncate with point armed at n: NULL if consistent, else why.
 * ftruncate fails with EIO or ENOSPC or succeeds; when it succeeded the
 * size is 1500 (a later fsync may still fail: the blocks written back).
 * Under truncate=new a failure leaves the old size, or the new one when
 * it came after the size change (freeing blocks): never anything else. */
static const char *op_truncate(const char *point, long n)
{
	static char why[128];
	struct stat st;
	int fd = fresh_file(BIG), rt, rs = 0, et, es = 0;

	if (fd < 0)
		return "setup failed";
	fail_arm(point, n);
	rt = ftruncate(fd, 1500);
	et = errno;
	if (rt == 0)
		rs = fsync(fd), es = errno;
	fail_arm(point, 0);
	if (fstat(fd, &st) < 0) {
		close(fd);
		return "fstat failed";
	}
	close(fd);
	if (rt < 0 || rs < 0)
		diag("%s at event %ld: ftruncate %d %s, fsync %d %s, size %lld",
		     point, n, rt, rt < 0 ? strerror(et) : "", rs,
		     rs < 0 ? strerror(es) : "", (long long)st.st_size);
	if ((rt < 0 && et != EIO && et != ENOSPC) || (rs < 0 && es != EIO))
		snprintf(why, sizeof(why), "errno %d/%d", et, es);
	else if (rt == 0 && st.st_size != 1500)
		snprintf(why, sizeof(why), "success, size %lld",
			 (long long)st.st_size);
	else if (rt < 0 && truncate_new && st.st_size != BIG &&
		 st.st_size != 1500)
		snprintf(why, sizeof(why), "failure, size %lld",
			 (long long)st.st_size);
	else
		return NULL;
	return why;
}

/* One store + msync with point armed at n: NULL if consistent. */
static const char *op_mapped(const char *point, long n)
{
	static char why[128];
	struct fault f;
	char *p, c = 0;
	int fd = fresh_file(3000), faulted, r, e;

	if (fd < 0 || ftruncate(fd, 8192) < 0 || fsync(fd) < 0)
		return "setup failed";
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return "mmap failed";
	}
	fail_arm(point, n);
	faulted = probe_store(p + 3500, &f);
	r = msync(p, 8192, MS_SYNC);
	e = errno;
	fail_arm(point, 0);
	munmap(p, 8192);
	why[0] = 0;
	if (faulted && f.signo != SIGBUS)
		snprintf(why, sizeof(why), "store: signal %d", f.signo);
	else if (r < 0 && e != EIO && e != ENOSPC)
		snprintf(why, sizeof(why), "msync: errno %d", e);
	if (!why[0] && !faulted && r == 0) {
		sync_and_drop();
		if (pread(fd, &c, 1, 3500) != 1 || c == 0)
			snprintf(why, sizeof(why), "stored, synced, then read %d",
				 c);
	}
	close(fd);
	return why[0] ? why : NULL;
}

static void sweep(const char *point, const char *opname,
		  const char *(*op)(const char *, long), long k)
{
	const char *why = NULL;
	long n, before, hits = 0;

	for (n = 1; n <= k && !why; n++) {
		before = injected(point);
		why = op(point, n);
		if (injected(point) == before)
			break;	/* the operation ended before the Nth event */
		hits++;
	}
	ok(!why, "%s during %s: %ld runs each failing a later event%s%s",
	   point, opname, hits, why ? ": " : "", why ? why : "");
}

int main(int argc, char **argv)
{
	static const char *const points[] = { "block_read", "block_write",
					      "block_alloc", "block_free" };
	long k = argc > 1 ? strtol(argv[1], NULL, 0) : 30;
	char mounts[4096] = "";
	int fd;

	plan(8);
	if (access("/proc/fail/block_read", W_OK) < 0) {
		for (int i = 0; i < 8; i++)
			skip("no /proc/fail", "fault sweep %d", i);
		return done_testing();
	}
	fd = open("/proc/mounts", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, mounts, sizeof(mounts) - 1) < 0)
			mounts[0] = 0;
		close(fd);
	}
	truncate_new = strstr(mounts, "truncate=new") != NULL;
	diag("truncate=%s, up to %ld events", truncate_new ? "new" : "old", k);
	fault_install();
	for (int i = 0; i < 4; i++) {
		sweep(points[i], "truncate", op_truncate, k);
		sweep(points[i], "a mapped store", op_mapped, k);
	}
	unlink(FILE_NAME);
	return done_testing();
}
