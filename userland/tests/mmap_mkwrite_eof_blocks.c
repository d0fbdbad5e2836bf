/*
 * mmap_mkwrite_eof_blocks: a store through a shared mapping into the page
 * that holds EOF gets disk blocks up to EOF, and not one block further.
 *
 * With 1 KiB blocks the page holding EOF has room for blocks past EOF.
 * page_mkwrite must allocate the blocks that the file's bytes in that
 * page need (all of them, the one holding the last byte included: else
 * a store there is data without a disk block, and writeback drops it),
 * and none past EOF (a block past i_size is what e2fsck calls
 * "i_size is 1124, should be 4096").
 *
 * For each size below, a sparse file (ftruncate of an empty file: no
 * block at all) is mapped MAP_SHARED, stored to at the first byte of its
 * EOF page and at its last byte, and msync'd. Then:
 *   - msync returns 0,
 *   - st_blocks is no more than the EOF page's blocks up to EOF,
 *   - after munmap and drop_caches, read() finds the two stored bytes and
 *     zeroes everywhere else.
 * The files stay for scripts/pagelab-run's e2fsck -fn. The sizes put EOF
 * one byte into a block, in the middle of one, on a block boundary, on
 * the page boundary, and in a second page. Every check holds on the host
 * Linux too (whatever its block size, from statvfs).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "tap.h"
#include "procfs.h"

static const long sizes[] = { 1025, 1124, 3072, 4096, 6145 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static long ps, bsize;

/* Offset of the first byte of buf[0..n) that is wrong, or -1: first and
 * last must be 'F' and 'L', everything else 0. */
static long wrong_at(const char *buf, long n, long first, long last)
{
	for (long i = 0; i < n; i++) {
		char want = i == last ? 'L' : i == first ? 'F' : 0;

		if (buf[i] != want)
			return i;
	}
	return -1;
}

static void one_size(long size)
{
	long eof_page = (size - 1) & ~(ps - 1);
	long max_blocks = (size - eof_page + bsize - 1) / bsize;
	char name[32], *m, *buf;
	struct stat st;
	int fd;

	snprintf(name, sizeof(name), "eof_blocks_%ld.dat", size);
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (!ok(fd >= 0 && ftruncate(fd, size) == 0,
		"%s: a sparse file of %ld bytes", name, size))
		return;
	m = mmap(NULL, eof_page + ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 0);
	if (!ok(m != MAP_FAILED, "%s: map it MAP_SHARED", name))
		return;
	m[eof_page] = 'F';
	m[size - 1] = 'L';
	is_int(msync(m, eof_page + ps, MS_SYNC), 0,
	       "%s: store at bytes %ld and %ld (the last one), msync(MS_SYNC)",
	       name, eof_page, size - 1);
	if (fstat(fd, &st))
		st.st_blocks = -1;
	ok(st.st_blocks >= 0 && st.st_blocks * 512 <= max_blocks * bsize,
	   "%s: st_blocks %ld, at most %ld: no block past EOF", name,
	   (long)st.st_blocks, max_blocks * bsize / 512);
	munmap(m, eof_page + ps);
	drop_caches();
	buf = calloc(1, size + 1);
	is_long(pread(fd, buf, size + 1, 0), size, "%s: read() gives %ld bytes",
		name, size);
	is_long(wrong_at(buf, size, eof_page, size - 1), -1,
		"%s: they are zeroes but for the two bytes stored", name);
	free(buf);
	close(fd);
}

int main(void)
{
	struct statvfs sv;

	ps = sysconf(_SC_PAGESIZE);
	bsize = statvfs(".", &sv) ? ps : (long)sv.f_bsize;
	diag("blocksize %ld, pagesize %ld", bsize, ps);
	plan(6 * NSIZES);
	for (unsigned int i = 0; i < NSIZES; i++)
		one_size(sizes[i]);
	return done_testing();
}
