/*
 * mmap_major_fault - a fault that reads its page from the disk is major.
 *
 * ->fault says so (VM_FAULT_MAJOR, the race lab's filemap_fault), and
 * the faulting task's count shows it (getrusage's ru_majflt, field 12 of
 * /proc/PID/stat). A file of 3 pages, its cache dropped: the first load
 * through a mapping faults the page in from the disk (ru_majflt +1 at
 * least); the same load through a second mapping finds the page cached
 * (ru_majflt +0, ru_minflt +1 at least). Needs drop_caches: as root on
 * Linux (skipped otherwise), always on pagelab.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096

static char buf[3 * PAGE];

/* Map the file, load a byte of page 1, unmap: the rusage deltas. */
static int load_through_a_mapping(int fd, long *maj, long *min)
{
	struct rusage before, after;
	volatile char *p;
	char c;

	getrusage(RUSAGE_SELF, &before);
	p = mmap(NULL, 3 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	c = p[PAGE + 7];
	getrusage(RUSAGE_SELF, &after);
	munmap((void *)p, 3 * PAGE);
	*maj = after.ru_majflt - before.ru_majflt;
	*min = after.ru_minflt - before.ru_minflt;
	return c;
}

int main(void)
{
	int fd = open("major.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
	long maj, min;

	memset(buf, 'm', sizeof(buf));
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (long)sizeof(buf) ||
	    fsync(fd) < 0)
		return 1;
	if (drop_caches() < 0) {
		skip("no drop_caches (not root)", "a load from disk is major");
		skip("no drop_caches (not root)", "a cached load is minor");
		return done_testing();
	}
	is_int(load_through_a_mapping(fd, &maj, &min), 'm',
	       "the mapped file reads back");
	ok(maj >= 1, "a load whose page came from the disk is a major fault "
		     "(ru_majflt +%ld)", maj);
	is_int(load_through_a_mapping(fd, &maj, &min), 'm',
	       "mapped again, it reads back");
	ok(maj == 0 && min >= 1, "the same load with the page cached is a "
	   "minor fault (ru_majflt +%ld, ru_minflt +%ld)", maj, min);
	close(fd);
	unlink("major.dat");
	return done_testing();
}
