/*
 * mmap_truncate_unmaps: truncation takes the pages past the new EOF out
 * of every mapping (unmap_mapping_range).
 *
 *   own      a 4-page file mapped whole, every page read (mapped
 *            read-only, in the TLB), ftruncate to 4196 bytes: pages 2
 *            and 3 (the mapping's last) give SIGBUS on a load and on a
 *            store; page 1 is still there, zeroes from byte 100 on
 *   offset   the same file mapped from offset 4096 (file pages 1..3 at
 *            mapping pages 0..2), truncated to 8192 bytes: mapping pages
 *            1 and 2 give SIGBUS, page 0 keeps file page 1's data
 *   other    a child maps the file and reads it; the parent, which does
 *            not map it, truncates it to 4096 bytes; the child's loads
 *            and stores past EOF give SIGBUS
 * A store through a stale PTE (a truncate that did not unmap) is a kernel
 * BUG in pagelab (mm/memory.c, check_stale_pte); the run then ends there.
 * A PTE cleared without dropping its page's reference and map count is
 * what scripts/pagelab-run's leak check (=== PAGES) reports.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "fault.h"
#include "tap.h"

#define NAME "unmaps.dat"

static long ps;

static char pattern(long i)
{
	return 'a' + i % 23;
}

/* A file of n bytes of pattern(); its fd or -1. */
static int create_file(long n)
{
	char *buf = malloc(n);
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (long i = 0; i < n; i++)
		buf[i] = pattern(i);
	if (fd >= 0 && write(fd, buf, n) != n) {
		close(fd);
		fd = -1;
	}
	free(buf);
	return fd;
}

/* Read one byte of each of n pages: map them (read-only). */
static long touch(const volatile char *m, long n)
{
	long sum = 0;

	for (long i = 0; i < n; i++)
		sum += m[i * ps];
	return sum;
}

static int load_sigbus(char *p)
{
	struct fault f;

	return probe_load(p, &f) && f.signo == SIGBUS;
}

static int store_sigbus(char *p)
{
	struct fault f;

	return probe_store(p, &f) && f.signo == SIGBUS;
}

static long nonzero_at(const volatile char *m, long from, long to)
{
	for (long i = from; i < to; i++)
		if (m[i])
			return i;
	return -1;
}

static void own(void)
{
	int fd = create_file(4 * ps);
	char *m = fd < 0 ? MAP_FAILED
			 : mmap(NULL, 4 * ps, PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, 0);

	if (!ok(m != MAP_FAILED, "own: a 4-page file mapped whole"))
		return;
	touch(m, 4);
	is_int(ftruncate(fd, ps + 100), 0,
	       "own: every page read, ftruncate to %ld", ps + 100);
	ok(load_sigbus(m + 2 * ps + 8), "own: a load in page 2 gives SIGBUS");
	ok(load_sigbus(m + 3 * ps + 8),
	   "own: a load in page 3, the mapping's last, gives SIGBUS");
	ok(store_sigbus(m + 3 * ps + 16), "own: a store in page 3 gives SIGBUS");
	ok(store_sigbus(m + 2 * ps + 16), "own: a store in page 2 gives SIGBUS");
	ok(m[ps + 99] == pattern(ps + 99) && nonzero_at(m, ps + 100, 2 * ps) < 0,
	   "own: page 1 keeps bytes up to EOF, zeroes after");
	munmap(m, 4 * ps);
	close(fd);
}

static void offset(void)
{
	int fd = create_file(4 * ps);
	char *m = fd < 0 ? MAP_FAILED
			 : mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, ps);

	if (!ok(m != MAP_FAILED, "offset: file pages 1..3 mapped"))
		return;
	touch(m, 3);
	is_int(ftruncate(fd, 2 * ps), 0, "offset: ftruncate to %ld", 2 * ps);
	ok(load_sigbus(m + ps + 8),
	   "offset: a load in mapping page 1 (file page 2) gives SIGBUS");
	ok(load_sigbus(m + 2 * ps + 8),
	   "offset: a load in mapping page 2 (file page 3) gives SIGBUS");
	ok(store_sigbus(m + ps + 16),
	   "offset: a store in mapping page 1 gives SIGBUS");
	ok(m[0] == pattern(ps) && m[ps - 1] == pattern(2 * ps - 1),
	   "offset: mapping page 0 still shows file page 1");
	munmap(m, 3 * ps);
	close(fd);
}

/* The child of other(): map, read, tell the parent, wait, probe. Exit
 * status: bit 0 a load past EOF did not give SIGBUS, bit 1 a store. */
static int other_child(int fd, int ready, int go)
{
	char *m = mmap(NULL, 4 * ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char c;
	int r = 0;

	if (m == MAP_FAILED)
		return 4;
	touch(m, 4);
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		return 8;
	r |= load_sigbus(m + 3 * ps) ? 0 : 1;
	r |= load_sigbus(m + ps + 8) ? 0 : 1;
	r |= store_sigbus(m + 2 * ps + 16) ? 0 : 2;
	return r;
}

static void other(void)
{
	int fd = create_file(4 * ps), ready[2], go[2], status = -1;
	char c;
	pid_t pid;

	if (!ok(fd >= 0 && pipe(ready) == 0 && pipe(go) == 0,
		"other: a 4-page file, two pipes"))
		return;
	pid = fork();
	if (pid == 0)
		_exit(other_child(fd, ready[1], go[0]));
	ok(read(ready[0], &c, 1) == 1, "other: a child maps it, reads it");
	is_int(ftruncate(fd, ps), 0, "other: the parent truncates it to %ld",
	       ps);
	ok(write(go[1], "g", 1) == 1, "other: and tells the child");
	waitpid(pid, &status, 0);
	is_int(status, 0, "other: the child's loads and stores in pages 1..3 "
	       "give SIGBUS (status bit 0: a load did not, bit 1: a store)");
	close(fd);
}

int main(void)
{
	ps = sysconf(_SC_PAGESIZE);
	fault_install();
	plan(18);
	own();
	offset();
	other();
	unlink(NAME);
	return done_testing();
}
