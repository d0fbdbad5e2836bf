/*
 * syscall_bad_pointers - system calls given bad user pointers fail with
 * EFAULT, never crash the caller or the kernel; bad numbers and bad file
 * descriptors fail with ENOSYS and EBADF.
 *
 * Roadmap:
 *   1. eight calls x four bad pointers (NULL, 1, a kernel address, a page
 *      just munmapped): read, write, open, stat (path and buffer),
 *      getcwd, uname, clock_gettime -> -1/EFAULT
 *   2. a pipe write whose buffer runs off the end of a mapping into an
 *      unmapped page, and a pipe read into such a buffer: EFAULT, and
 *      the pipe neither gains nor loses data
 *   3. syscall numbers 1000 and -1 -> ENOSYS
 *   4. close(-1), read(1234, ...) -> EBADF
 * Every call goes through syscall(): libc wrappers may touch the buffer
 * themselves (musl's stat copies a kernel struct into it, clock_gettime
 * uses the vDSO on Linux), and the kernel is what is under test. Reads
 * come from a pipe that already holds data, so no call can block.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"
#include "tap.h"

#define PAGE 4096

/* read(2) from a fresh pipe holding 8 bytes into buf. */
static long read_pipe(void *buf, size_t len)
{
	int p[2], e;
	long r;

	if (pipe(p) < 0)
		return -2;
	write(p[1], "abcdefghABCDEFGH", 16);
	r = syscall(SYS_read, p[0], buf, len);
	e = errno;
	close(p[0]);
	close(p[1]);
	errno = e;
	return r;
}

/* write(2) of buf to a fresh, empty pipe (room for it: cannot block). */
static long write_pipe(const void *buf, size_t len)
{
	int p[2], e;
	long r;

	if (pipe(p) < 0)
		return -2;
	r = syscall(SYS_write, p[1], buf, len);
	e = errno;
	close(p[0]);
	close(p[1]);
	errno = e;
	return r;
}

static void test_bad_pointer(void *bad, const char *name)
{
	char sb[256];

	is_errno(read_pipe(bad, 8), EFAULT, "read into %s fails with EFAULT",
		 name);
	is_errno(write_pipe(bad, 8), EFAULT, "write from %s fails with EFAULT",
		 name);
	is_errno(syscall(SYS_open, bad, O_RDONLY), EFAULT,
		 "open of a path at %s fails with EFAULT", name);
	is_errno(syscall(SYS_stat, bad, sb), EFAULT,
		 "stat of a path at %s fails with EFAULT", name);
	is_errno(syscall(SYS_stat, "/", bad), EFAULT,
		 "stat into a buffer at %s fails with EFAULT", name);
	is_errno(syscall(SYS_getcwd, bad, 4096), EFAULT,
		 "getcwd into %s fails with EFAULT", name);
	is_errno(syscall(SYS_uname, bad), EFAULT,
		 "uname into %s fails with EFAULT", name);
	is_errno(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, bad), EFAULT,
		 "clock_gettime into %s fails with EFAULT", name);
}

/*
 * A buffer whose first 100 bytes are the end of a mapped page and whose
 * other 100 are in the unmapped page after it. Linux's pipe copies a
 * page at a time and commits nothing on a fault: write fails with EFAULT
 * and leaves the pipe empty; read fails with EFAULT and leaves the data
 * in the pipe. (A regular file would give a short count instead.)
 */
static void test_straddle(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *buf, got[256];
	int fds[2];
	long r;

	if (!ok(p != MAP_FAILED, "mmap of 2 pages works"))
		return;
	munmap(p + PAGE, PAGE);
	buf = p + PAGE - 100;
	memset(buf, 'w', 100);
	if (!ok(pipe(fds) == 0, "pipe works"))
		return;

	is_errno(syscall(SYS_write, fds[1], buf, 200), EFAULT,
		 "a write to a pipe running into an unmapped page fails "
		 "with EFAULT");
	write(fds[1], "m", 1);
	r = read(fds[0], got, sizeof(got));
	ok(r == 1 && got[0] == 'm',
	   "and puts nothing in the pipe (read back %ld bytes)", r);

	memset(got, 'r', 200);
	write(fds[1], got, 200);
	is_errno(syscall(SYS_read, fds[0], buf, 200), EFAULT,
		 "a read from a pipe into a buffer running into an unmapped "
		 "page fails with EFAULT");
	memset(got, 0, sizeof(got));
	r = read(fds[0], got, sizeof(got));
	ok(r == 200 && got[0] == 'r' && got[199] == 'r',
	   "and loses no data: all 200 bytes are still in the pipe (got %ld)",
	   r);
	close(fds[0]);
	close(fds[1]);
	munmap(p, PAGE);
}

int main(void)
{
	char buf[16];

	alarm(30);
	plan(4 * 8 + 6 + 4);
	test_bad_pointer(NULL, "NULL");
	test_bad_pointer((void *)1, "address 1");
	test_bad_pointer((void *)0xffffffff80000000UL, "a kernel address");
	test_bad_pointer(unmapped_page(), "a munmapped page");
	test_straddle();
	is_errno(syscall(1000), ENOSYS, "syscall 1000 fails with ENOSYS");
	is_errno(syscall(-1), ENOSYS, "syscall -1 fails with ENOSYS");
	is_errno(close(-1), EBADF, "close(-1) fails with EBADF");
	is_errno(read(1234, buf, sizeof(buf)), EBADF,
		 "read on fd 1234 fails with EBADF");
	return done_testing();
}
