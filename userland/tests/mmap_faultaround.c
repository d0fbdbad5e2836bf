/*
 * mmap_faultaround: what a read fault maps besides its own page.
 *
 * On a read fault Linux (and pagelab) also map the file's cached pages
 * around the faulting one ("fault-around", up to 16): those PTEs were
 * never faulted on, so nothing a fault would have checked may be missed.
 * A 16-page file, each page filled with its own letter, is written and
 * fsync'd (cached, uptodate, clean), then:
 *   - one load from page 0 of a shared mapping, then every page reads its
 *     own letter (a PTE put at the wrong place would show another's);
 *   - the same through a mapping that starts at file page 4 (vm_pgoff);
 *   - a store to page 5 after only page 0 was loaded runs page_mkwrite
 *     once (pagelab's "mkwrite" in /proc/vmstat; skipped on Linux): a
 *     page mapped by fault-around is read-only;
 *   - a store to page 3 of a private mapping after a load from page 0
 *     changes the mapping, not the file (copy-on-write);
 *   - after a load from page 0, ftruncate to one page: a load from page 9
 *     is SIGBUS (truncation unmapped what fault-around had mapped) and
 *     page 0 still reads its letter.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"
#include "fault.h"

#define PATH "faultaround.dat"
#define NPAGES 16

static long ps;

static int create_file(void)
{
	char *buf = malloc(ps);
	int fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int good = fd >= 0 && buf;

	for (int i = 0; good && i < NPAGES; i++) {
		memset(buf, 'a' + i, ps);
		good = write(fd, buf, ps) == ps;
	}
	good = good && fsync(fd) == 0;
	free(buf);
	return good ? fd : -1;
}

/* Pages [first, first + n) of the file as mapped at m: each its letter. */
static int letters_right(volatile char *m, int first, int n)
{
	for (int i = 0; i < n; i++)
		if (m[i * ps] != 'a' + first + i ||
		    m[i * ps + ps - 1] != 'a' + first + i)
			return 0;
	return 1;
}

static void *map(int fd, int first, int n, int prot, int flags)
{
	return mmap(NULL, n * ps, prot, flags, fd, first * ps);
}

int main(void)
{
	volatile char *m;
	struct fault f;
	char c = 0;
	long mk;
	int fd;

	ps = sysconf(_SC_PAGESIZE);
	plan(9);
	fault_install();
	fd = create_file();
	if (!ok(fd >= 0, "create " PATH ": 16 pages, fsync'd"))
		return done_testing();

	m = map(fd, 0, NPAGES, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (!ok(m != MAP_FAILED, "map it MAP_SHARED"))
		return done_testing();
	c = m[0];
	ok(c == 'a' && letters_right(m, 0, NPAGES),
	   "after a load from page 0, every page reads its own letter");
	mk = vmstat("mkwrite");
	m[5 * ps + 1] = 'Z';
	if (mk < 0)
		skip("no mkwrite counter in /proc/vmstat",
		     "a store to page 5 runs page_mkwrite once");
	else
		is_long(vmstat("mkwrite") - mk, 1,
			"a store to page 5 runs page_mkwrite once");
	m[5 * ps + 1] = 'a' + 5;
	munmap((void *)m, NPAGES * ps);

	m = map(fd, 4, 8, PROT_READ, MAP_SHARED);
	ok(m != MAP_FAILED && m[ps] == 'a' + 5 && letters_right(m, 4, 8),
	   "a mapping of file pages 4..11: a load from its page 1, then each "
	   "page reads its own letter");
	munmap((void *)m, 8 * ps);

	m = map(fd, 0, NPAGES, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	c = m != MAP_FAILED ? m[0] : 0;
	if (c)
		m[3 * ps] = 'P';
	ok(c == 'a' && m[3 * ps] == 'P' && pread(fd, &c, 1, 3 * ps) == 1 &&
	   c == 'a' + 3,
	   "a store to page 3 of a private mapping changes the mapping, not "
	   "the file");
	if (m != MAP_FAILED)
		munmap((void *)m, NPAGES * ps);

	m = map(fd, 0, NPAGES, PROT_READ, MAP_SHARED);
	c = m != MAP_FAILED ? m[0] : 0;
	ok(c == 'a' && ftruncate(fd, ps) == 0,
	   "a load from page 0, then ftruncate to one page");
	memset(&f, 0, sizeof(f));
	c = probe_load((void *)(m + 9 * ps), &f);
	ok(c && f.signo == SIGBUS, "a load from page 9 is SIGBUS (signal %d)",
	   f.signo);
	ok(m[0] == 'a', "page 0 still reads its letter");
	munmap((void *)m, NPAGES * ps);
	close(fd);
	unlink(PATH);
	return done_testing();
}
