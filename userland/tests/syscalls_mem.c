/*
 * syscalls_mem: mremap(2) and mincore(2).
 *
 *   mremap   growing in place, moving (MREMAP_MAYMOVE) with the contents,
 *            shrinking, MREMAP_FIXED, ENOMEM without MAYMOVE when blocked,
 *            the EINVAL/EFAULT cases; a moved MAP_SHARED page stays shared
 *            with a child; a file mapping grown to see more of the file;
 *            a second mapping of shared pages (old_len 0)
 *   mincore  touched and untouched anonymous pages, file pages in the
 *            page cache, and its errors
 *
 * mincore also serves as the probe for "is this range still mapped"
 * (ENOMEM when not). Same verdict on Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define PG 4096UL

static char *map_anon(size_t len, int shared)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
}

static int mapped(void *p, size_t len)
{
	unsigned char v[64];

	return mincore(p, len, v) == 0;
}

static void test_mremap_move(void)
{
	char *p = map_anon(3 * PG, 0), *q, *blocker;

	p[0] = 'A';
	p[PG] = 'B';
	/* Something else right after p, so it cannot grow in place (within
	 * our own range: what lies beyond may be the vdso). */
	blocker = mmap(p + 2 * PG, PG, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ok(blocker == p + 2 * PG, "a blocker mapped right after the region");
	is_long((long)mremap(p, 2 * PG, 8 * PG, 0), (long)MAP_FAILED,
		"growing into it without MREMAP_MAYMOVE fails");
	is_int(errno, ENOMEM, "with ENOMEM");
	q = mremap(p, 2 * PG, 8 * PG, MREMAP_MAYMOVE);
	ok(q != MAP_FAILED && q != p, "MREMAP_MAYMOVE moves it");
	ok(q[0] == 'A' && q[PG] == 'B', "the contents moved along");
	ok(q[7 * PG] == 0, "the new pages are zero");
	q[7 * PG] = 'Z';
	ok(q[7 * PG] == 'Z', "and writable");
	ok(!mapped(p, 2 * PG), "the old range is gone");
	ok(mapped(blocker, PG), "the blocker is untouched");

	p = mremap(q, 8 * PG, PG, 0);
	ok(p == q && q[0] == 'A', "shrinking keeps the start");
	ok(!mapped(q + PG, PG), "and unmaps the tail");
	munmap(q, PG);
	munmap(blocker, PG);
}

static void test_mremap_in_place_and_fixed(void)
{
	char *p = map_anon(4 * PG, 0), *target, *q;

	munmap(p + 2 * PG, 2 * PG);
	p[PG] = 'C';
	q = mremap(p, 2 * PG, 4 * PG, 0);
	ok(q == p, "growing into free space stays in place");
	ok(p[PG] == 'C' && p[3 * PG] == 0, "old contents kept, new page zero");

	target = map_anon(4 * PG, 0);
	target[0] = 'T';
	q = mremap(p, 4 * PG, 4 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, target);
	ok(q == target, "MREMAP_FIXED moves to the address given");
	ok(q[PG] == 'C', "replacing what was there, with the contents moved");
	ok(!mapped(p, PG), "the old range is gone");
	is_long((long)mremap(q, 4 * PG, 4 * PG, MREMAP_MAYMOVE | MREMAP_FIXED,
			     q + PG), (long)MAP_FAILED,
		"MREMAP_FIXED onto an overlapping range fails");
	is_int(errno, EINVAL, "with EINVAL");
	munmap(q, 4 * PG);
}

static void test_mremap_errors(void)
{
	char *p = map_anon(2 * PG, 0);

	is_errno((long)mremap(p + 1, PG, 2 * PG, MREMAP_MAYMOVE), EINVAL,
		 "an unaligned address: EINVAL");
	is_errno((long)mremap(p, PG, PG, MREMAP_FIXED, p + 8 * PG), EINVAL,
		 "MREMAP_FIXED without MREMAP_MAYMOVE: EINVAL");
	is_errno((long)mremap(p, PG, 0, MREMAP_MAYMOVE), EINVAL,
		 "a new length of 0: EINVAL");
	is_errno((long)mremap(p, PG, 2 * PG, 0x80), EINVAL,
		 "an unknown flag: EINVAL");
	is_errno((long)mremap(p, 0, PG, MREMAP_MAYMOVE), EINVAL,
		 "old_len 0 on private memory: EINVAL");
	is_errno((long)mremap(p, 4 * PG, 8 * PG, MREMAP_MAYMOVE), EFAULT,
		 "an old range past the mapping's end: EFAULT");
	munmap(p, 2 * PG);
	is_errno((long)mremap(p, PG, 2 * PG, MREMAP_MAYMOVE), EFAULT,
		 "an unmapped old range: EFAULT");
}

static void test_mremap_shared(void)
{
	char *p = map_anon(PG, 1), *q, *dup;
	int status = -1;
	pid_t pid;

	p[0] = 1;
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		p[0] = 42;
		_exit(0);
	}
	q = mremap(p, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, map_anon(PG, 0));
	waitpid(pid, &status, 0);
	ok(q != MAP_FAILED && q != p, "a MAP_SHARED page moved in the parent");
	is_int(q[0], 42, "still shares the child's store");

	dup = mremap(q, 0, PG, MREMAP_MAYMOVE);
	ok(dup != MAP_FAILED && dup != q, "old_len 0 maps shared pages again");
	q[0] = 7;
	is_int(dup[0], 7, "the second mapping sees the first's store");
	munmap(q, PG);
	munmap(dup, PG);
}

static void test_mremap_file(void)
{
	int fd = open("syscalls_mem.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char buf[3 * PG], c = 0, *p, *q;

	memset(buf, 'a', PG);
	memset(buf + PG, 'b', PG);
	memset(buf + 2 * PG, 'c', PG);
	write(fd, buf, sizeof(buf));
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, PG);
	q = mremap(p, PG, 2 * PG, MREMAP_MAYMOVE);
	ok(q != MAP_FAILED && q[0] == 'b' && q[PG] == 'c',
	   "a file mapping grows onto the next file page");
	q[PG] = 'X';
	pread(fd, &c, 1, 2 * PG);
	is_int(c, 'X', "a store through it reaches the file");
	munmap(q, 2 * PG);
	close(fd);
	unlink("syscalls_mem.tmp");
}

static void test_mincore(void)
{
	unsigned char v[4] = { 9, 9, 9, 9 };
	char *p = map_anon(4 * PG, 0), *f;
	int fd;

	p[0] = 1;
	p[2 * PG] = 1;
	is_int(mincore(p, 4 * PG, v), 0, "mincore on anonymous memory");
	ok((v[0] & 1) && !(v[1] & 1) && (v[2] & 1) && !(v[3] & 1),
	   "touched pages resident, untouched not (%d %d %d %d)", v[0], v[1],
	   v[2], v[3]);
	is_int(mincore(p, 0, v), 0, "a length of 0 is fine");
	is_errno(mincore(p + 1, PG, v), EINVAL, "an unaligned start: EINVAL");
	is_errno(mincore(p, PG, (void *)8), EFAULT, "a bad vector: EFAULT");
	munmap(p + PG, PG);
	is_errno(mincore(p, 4 * PG, v), ENOMEM, "a hole in the range: ENOMEM");
	munmap(p, 4 * PG);

	fd = open("syscalls_mincore.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	write(fd, p == MAP_FAILED ? "" : "page cache", 10);
	f = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
	v[0] = v[1] = 9;
	is_int(mincore(f, 2 * PG, v), 0, "mincore on a file mapping");
	ok((v[0] & 1) && !(v[1] & 1),
	   "a cached file page is resident before any access, a page past "
	   "the end is not (%d %d)", v[0], v[1]);
	munmap(f, 2 * PG);
	close(fd);
	unlink("syscalls_mincore.tmp");
}

int main(void)
{
	plan(39);
	test_mremap_move();
	test_mremap_in_place_and_fixed();
	test_mremap_errors();
	test_mremap_shared();
	test_mremap_file();
	test_mincore();
	return done_testing();
}
