/*
 * mmap_mkwrite_count: page_mkwrite runs exactly once per clean page per
 * dirtying, counted by pagelab's "mkwrite" line in /proc/vmstat.
 *
 * A clean page of a MAP_SHARED file mapping is mapped read-only even when
 * the mapping is writable, so that the first store faults and runs
 * page_mkwrite (allocate blocks, mark dirty). Reads never run it; a
 * second store to a page already dirty does not either; writeback
 * (msync MS_SYNC) makes the pages clean and read-only again, so the next
 * store to each runs it once more; and msync or fsync with nothing dirty
 * runs none. pgfault must grow with the faults.
 *
 * Linux has no such counter: without the "mkwrite" line every check is
 * skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define PATH "mkwrite_count.dat"
#define NPAGES 4
#define NCHECKS 11

static long ps;
static int create_file(void)
{
	char *buf = malloc(NPAGES * ps);
	int fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int good;

	memset(buf, 'c', NPAGES * ps);
	good = fd >= 0 && write(fd, buf, NPAGES * ps) == NPAGES * ps &&
	       fsync(fd) == 0;
	free(buf);
	if (!good && fd >= 0)
		close(fd);
	return good ? fd : -1;
}

static void skip_all(void)
{
	const char *why = "no mkwrite counter in /proc/vmstat";

	for (int i = 0; i < NCHECKS; i++)
		skip(why, "mkwrite check %d of %d", i + 1, NCHECKS);
}

static void run(int fd, volatile char *m)
{
	long mk = vmstat("mkwrite"), pf = vmstat("pgfault"), sum = 0;

	for (int i = 0; i < NPAGES; i++)
		sum += m[i * ps + 7];
	is_long(vmstat("mkwrite") - mk, 0,
		"reading the 4 clean pages runs no page_mkwrite (sum %ld)",
		sum);
	ok(vmstat("pgfault") > pf, "pgfault grows when they are read");
	mk = vmstat("mkwrite");
	pf = vmstat("pgfault");
	for (int i = 0; i < NPAGES; i++) {
		m[i * ps + 1] = 'x';
		m[i * ps + 2] = 'y';
	}
	is_long(vmstat("mkwrite") - mk, NPAGES,
		"two stores to each of the 4 pages run page_mkwrite 4 times");
	ok(vmstat("pgfault") > pf, "pgfault grows with the write faults");
	is_int(msync((void *)m, NPAGES * ps, MS_SYNC), 0,
	       "msync(MS_SYNC) writes them back");
	mk = vmstat("mkwrite");
	m[0 * ps + 3] = 'z';
	m[2 * ps + 3] = 'z';
	is_long(
	    vmstat("mkwrite") - mk, 2,
	    "after msync, a store to pages 0 and 2 runs page_mkwrite twice");
	mk = vmstat("mkwrite");
	ok(msync((void *)m, NPAGES * ps, MS_SYNC) == 0 && fsync(fd) == 0,
	   "msync(MS_SYNC) and fsync again");
	is_long(vmstat("mkwrite") - mk, 0,
		"msync and fsync without stores run no page_mkwrite");
}

int main(void)
{
	char *m;
	int fd;

	ps = sysconf(_SC_PAGESIZE);
	plan(NCHECKS);
	if (vmstat("mkwrite") < 0) {
		skip_all();
		return done_testing();
	}
	fd = create_file();
	ok(fd >= 0, "create " PATH ": 4 pages written, fsync'd (clean)");
	m = mmap(NULL, NPAGES * ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!ok(m != MAP_FAILED, "map it MAP_SHARED"))
		return done_testing();
	run(fd, m);
	munmap(m, NPAGES * ps);
	close(fd);
	is_int(unlink(PATH), 0, "remove " PATH);
	return done_testing();
}
