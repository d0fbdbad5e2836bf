/*
 * threads_vma_race: one thread changes the VMAs of its process while two
 * others fault, read /proc/self/maps, call mincore and fork, all at once.
 *
 * The VMA list is shared by every thread of a process; mm->mmap_lock
 * (mm/mmap.c) keeps a change (mmap, munmap, mprotect) from meeting a
 * fault, a walk of /proc/self/maps, mincore or fork's copy half-way.
 * Without it a fault could use a VMA another thread has just freed, and
 * a maps reader could follow a list being rewritten.
 *
 *   changer  (thread A) ITERS times: map a region R again at its own
 *            address (MAP_FIXED: the old one is unmapped first, in the
 *            same call), check it is zero and store in it, mprotect half
 *            of it read-only and back, and map and munmap a scratch page
 *            in a one-page hole beside it (no other mapping of the test
 *            is one page, so nothing else lands in the hole).
 *   readers  (threads B and C) until A is done: map a fresh region F,
 *            fault every page in with a store and check it; read
 *            /proc/self/maps (well-formed, in address order, no
 *            overlaps, the stable region S covered, rw); mincore on S
 *            (all resident: touched at the start) and on F (resident)
 *            and on R (mapped all along: 0 or 1 a page); store to and
 *            check their own bytes of S; C forks now and then, and the
 *            child checks C's bytes of S in its copy.
 *
 * Each check counts its failures; one ok line per kind at the end. The
 * verdicts are the same on Linux (tests/host.list).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define ITERS 1500
#define R_PAGES 8
#define S_PAGES 8
#define F_PAGES 4
#define READER_MAX 100000	/* a bound, should A stall */
#define MAPS_SIZE (256 * 1024)

static long ps;
static unsigned char *r_base, *s_base;
static pthread_barrier_t start;
static volatile int changer_done;

struct counts {
	long iters, bad_map, bad_data, bad_maps, bad_mincore, bad_fork;
	long forks, maps_reads;
};
static struct counts changer, readers[2];

static void *changer_thread(void *arg)
{
	struct counts *c = &changer;
	unsigned char *scratch = r_base + (R_PAGES + 1) * ps;

	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < ITERS; i++, c->iters++) {
		if (mmap(r_base, R_PAGES * ps, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    r_base) {
			c->bad_map++;
			continue;
		}
		for (int p = 0; p < R_PAGES; p++) {
			if (r_base[p * ps] || r_base[p * ps + ps - 1])
				c->bad_data++;	/* a new mapping reads 0 */
			r_base[p * ps] = (unsigned char)(i | 1);
		}
		if (mprotect(r_base + R_PAGES / 2 * ps, R_PAGES / 2 * ps,
			     PROT_READ) ||
		    mprotect(r_base + R_PAGES / 2 * ps, R_PAGES / 2 * ps,
			     PROT_READ | PROT_WRITE))
			c->bad_map++;
		if (mmap(scratch, ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_FIXED, -1, 0) != scratch || munmap(scratch, ps))
			c->bad_map++;
	}
	changer_done = 1;
	return NULL;
}

/*
 * Is the whole of /proc/self/maps one snapshot? pagelab prints it under
 * the mmap lock in one go. Linux (6.1) fills a page of it at a time and
 * takes the lock again for each, resuming at the address it stopped at:
 * a VMA that grew below that address in between is printed again, and
 * the order check would fail on the host for no fault of its kernel.
 */
static int maps_one_snapshot(void)
{
	static int known = -1;

	if (known < 0)
		known = access("/proc/pagecheck", F_OK) == 0;	/* pagelab */
	return known;
}

/* /proc/self/maps: every line "lo-hi perms ...", lo < hi, each line's lo
 * at or past the previous line's hi (where the file is one snapshot);
 * and S inside an rw line. */
static int maps_right(char *buf)
{
	unsigned long prev = 0, lo, hi, s = (unsigned long)s_base;
	int s_seen = 0;
	char perms[8];

	for (char *line = buf; *line;) {
		char *nl = strchr(line, '\n');

		if (!nl || sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3 ||
		    lo >= hi || (lo < prev && maps_one_snapshot()))
			return 0;
		if (lo <= s && hi >= s + S_PAGES * ps &&
		    !strncmp(perms, "rw", 2))
			s_seen = 1;
		prev = hi;
		line = nl + 1;
	}
	return s_seen;
}

/* With open and read, not stdio: no malloc, so no small mmap that could
 * land in the changer's hole. */
static int read_maps(char *buf)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	size_t n = 0;
	ssize_t got = 1;

	if (fd < 0)
		return 0;
	while (got > 0 && n < MAPS_SIZE - 1) {
		got = read(fd, buf + n, MAPS_SIZE - 1 - n);
		n += got > 0 ? got : 0;
	}
	close(fd);
	buf[n] = 0;
	return got == 0 && n > 0 && maps_right(buf);
}

/* mincore: every byte 0 or 1; all 1 if want_all. */
static int mincore_right(void *addr, int pages, int want_all)
{
	unsigned char vec[R_PAGES];

	memset(vec, 0xee, sizeof(vec));
	if (mincore(addr, pages * ps, vec))
		return 0;
	for (int p = 0; p < pages; p++)
		if ((vec[p] & ~1) || (want_all && !(vec[p] & 1)))
			return 0;
	return 1;
}

/* The child of a fork from a reader: its copy of S holds id's bytes. */
static int fork_right(long id, unsigned char val)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		for (int p = 0; p < S_PAGES; p++)
			if (s_base[p * ps + id] != val)
				_exit(1);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void reader_step(long id, struct counts *c, char *maps)
{
	unsigned char val = (unsigned char)(c->iters | 1);
	unsigned char *f = mmap(NULL, F_PAGES * ps, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (f == MAP_FAILED) {
		c->bad_map++;
		return;
	}
	for (int p = 0; p < F_PAGES; p++) {
		if (f[p * ps + 8 * id])
			c->bad_data++;
		f[p * ps + 8 * id] = val;
	}
	for (int p = 0; p < S_PAGES; p++)
		s_base[p * ps + id] = val;
	if (c->iters % 4 == 0) {
		c->maps_reads++;
		c->bad_maps += !read_maps(maps);
	}
	c->bad_mincore += !mincore_right(s_base, S_PAGES, 1) +
			  !mincore_right(f, F_PAGES, 1) +
			  !mincore_right(r_base, R_PAGES, 0);
	if (id == 1 && c->iters % 25 == 0) {
		c->forks++;
		c->bad_fork += !fork_right(id, val);
	}
	for (int p = 0; p < F_PAGES; p++)
		c->bad_data += f[p * ps + 8 * id] != val;
	for (int p = 0; p < S_PAGES; p++)
		c->bad_data += s_base[p * ps + id] != val;
	if (munmap(f, F_PAGES * ps))
		c->bad_map++;
}

static void *reader_thread(void *arg)
{
	long id = (long)arg;
	struct counts *c = &readers[id];
	char *maps = malloc(MAPS_SIZE);

	pthread_barrier_wait(&start);
	while (maps && !changer_done && c->iters < READER_MAX) {
		reader_step(id, c, maps);
		c->iters++;
	}
	free(maps);
	return NULL;
}

static long sum(long struct_offset)
{
	long n = 0;

	n += *(long *)((char *)&changer + struct_offset);
	for (int i = 0; i < 2; i++)
		n += *(long *)((char *)&readers[i] + struct_offset);
	return n;
}

#define SUM(field) sum(offsetof(struct counts, field))

int main(void)
{
	pthread_t a, b[2];

	ps = sysconf(_SC_PAGESIZE);
	plan(6);
	/* R, a guard page, the scratch hole, a guard page: the changer's. */
	r_base = mmap(NULL, (R_PAGES + 3) * ps, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s_base = mmap(NULL, S_PAGES * ps, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r_base == MAP_FAILED || s_base == MAP_FAILED ||
	    munmap(r_base + (R_PAGES + 1) * ps, ps))
		return tap_ok(0, "setup", "regions mapped"), done_testing();
	memset(s_base, 0, S_PAGES * ps);	/* resident from here on */
	pthread_barrier_init(&start, NULL, 3);
	pthread_create(&a, NULL, changer_thread, NULL);
	for (long i = 0; i < 2; i++)
		pthread_create(&b[i], NULL, reader_thread, (void *)i);
	pthread_join(a, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(b[i], NULL);
	diag("changer %ld iterations; readers %ld and %ld, %ld maps reads, "
	     "%ld forks", changer.iters, readers[0].iters, readers[1].iters,
	     SUM(maps_reads), SUM(forks));
	ok(changer.iters == ITERS && readers[0].iters > 0 &&
	   readers[1].iters > 0,
	   "the changer ran %d iterations while both readers ran", ITERS);
	ok(SUM(bad_map) == 0, "every mmap, munmap and mprotect worked "
	   "(%ld failed)", SUM(bad_map));
	ok(SUM(bad_data) == 0, "every fault gave a zeroed page that then held "
	   "its stores (%ld wrong)", SUM(bad_data));
	ok(SUM(bad_maps) == 0, "/proc/self/maps was in order, without "
	   "overlaps, with the stable region in it (%ld of %ld reads wrong)",
	   SUM(bad_maps), SUM(maps_reads));
	ok(SUM(bad_mincore) == 0, "mincore said resident for touched pages and "
	   "0 or 1 for each page of the changing region (%ld wrong)",
	   SUM(bad_mincore));
	ok(SUM(forks) > 0 && SUM(bad_fork) == 0, "a fork from a reader copied "
	   "its stores (%ld of %ld forks wrong)", SUM(bad_fork), SUM(forks));
	return done_testing();
}
