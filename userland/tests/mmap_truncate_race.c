/*
 * mmap_truncate_race: stores through a MAP_SHARED mapping racing with
 * ftruncate shrinking and growing the file underneath.
 *
 * A forked child stores a counter into every page of a 16-page mapping,
 * over and over, while the parent shrinks the file to a few bytes or
 * pages and grows it back to 16 pages, 200 times. A store to a page past
 * the current EOF is SIGBUS, which the child counts and goes on; any
 * other signal kills it. Then the parent stops the child (a flag in a
 * MAP_SHARED|MAP_ANONYMOUS page), writes a known pattern over the whole
 * file with pwrite, and checks it through the mapping and, after msync,
 * munmap and drop_caches, through read(): the file must end exactly
 * 16 pages of the pattern, the kernel must survive, and the file system
 * must be clean afterwards (e2fsck, by pagelab-run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fault.h"
#include "tap.h"
#include "procfs.h"

#define PATH "race.dat"
#define NPAGES 16
#define ROUNDS 200
#define PAUSE_US 2500

struct shared {
	volatile int stop;
	volatile long loops, stores, sigbus, other;
};

static long ps;
static size_t size;

static char pattern(size_t i)
{
	return 'A' + (i / ps + i * 7) % 53;
}

/* Store v at the start, middle and end of the page; the signal, or 0.
 * (fault.h's probes store one fixed byte; this arms its handler by hand.) */
static int store_page(char *page, uint64_t v)
{
	volatile uint64_t *w = (volatile uint64_t *)page;

	memset(&fault_last, 0, sizeof(fault_last));
	if (sigsetjmp(fault_env, 1) == 0) {
		fault_armed = 1;
		w[0] = v;
		w[ps / 16] = v;
		w[ps / 8 - 1] = v;
		fault_armed = 0;
	}
	return fault_last.signo;
}

static void child(char *m, struct shared *sh)
{
	time_t deadline = time(NULL) + 60;
	uint64_t v = 0;

	fault_install();
	while (!sh->stop && time(NULL) < deadline) {
		for (int i = 0; i < NPAGES; i++) {
			int sig = store_page(m + i * ps, ++v);

			if (sig == SIGBUS)
				sh->sigbus++;
			else if (sig)
				sh->other++;
			else
				sh->stores++;
		}
		sh->loops++;
	}
	_exit(sh->other ? 3 : 0);
}

static int truncate_rounds(int fd)
{
	const long small[4] = {0, 100, ps + 1000, 3 * ps};
	int fails = 0;

	for (int i = 0; i < ROUNDS; i++) {
		fails += ftruncate(fd, small[i % 4]) != 0;
		usleep(PAUSE_US);
		fails += ftruncate(fd, size) != 0;
		usleep(PAUSE_US);
	}
	return fails;
}

static void wait_started(struct shared *sh)
{
	for (int i = 0; i < 5000 && sh->loops == 0; i++)
		usleep(1000);
}

static void race(int fd, char *m, struct shared *sh)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0)
		child(m, sh);
	if (!ok(pid > 0, "fork a child that stores into every page"))
		return;
	wait_started(sh);
	is_int(truncate_rounds(fd), 0,
	       "%d rounds of ftruncate down and back up to 16 pages work",
	       ROUNDS);
	sh->stop = 1;
	if (waitpid(pid, &status, 0) != pid)
		status = -1;
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "the child exits 0, killed by no signal (status 0x%x)", status);
	diag("child: %ld loops, %ld stores, %ld SIGBUS, %ld other signals",
	     sh->loops, sh->stores, sh->sigbus, sh->other);
	ok(sh->stores > 0, "the child's stores ran during the race");
}

/* Offset of the first byte of the file that is not the pattern, or -1. */
static long file_differs(const char *buf, long n)
{
	for (long i = 0; i < (long)size; i++)
		if (i >= n || buf[i] != pattern(i))
			return i;
	return -1;
}

static void final_state(int fd, char *m)
{
	char *buf = malloc(size);
	struct stat st;
	long n;

	for (size_t i = 0; i < size; i++)
		buf[i] = pattern(i);
	ok(ftruncate(fd, size) == 0 &&
	       pwrite(fd, buf, size, 0) == (ssize_t)size,
	   "ftruncate to 16 pages and pwrite a known pattern over them");
	is_long(file_differs(m, size), -1, "the mapping shows the pattern");
	is_int(msync(m, size, MS_SYNC), 0, "msync(MS_SYNC)");
	munmap(m, size);
	close(fd);
	drop_caches();
	fd = open(PATH, O_RDONLY);
	ok(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == (off_t)size,
	   "after munmap and drop_caches the file is 16 pages long");
	memset(buf, 0, size);
	n = fd >= 0 ? read(fd, buf, size) : -1;
	is_long(file_differs(buf, n), -1,
		"and read() returns exactly the pattern");
	close(fd);
	free(buf);
}

int main(void)
{
	struct shared *sh;
	char *m, *buf;
	int fd;

	ps = sysconf(_SC_PAGESIZE);
	size = NPAGES * ps;
	alarm(120);
	plan(12);
	buf = calloc(1, size);
	fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, buf, size) == (ssize_t)size,
	   "create " PATH " with 16 pages");
	free(buf);
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sh = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	if (!ok(m != MAP_FAILED && sh != MAP_FAILED,
		"map it MAP_SHARED, and a shared anonymous page for the flag"))
		return done_testing();
	race(fd, m, sh);
	final_state(fd, m);
	is_int(unlink(PATH), 0, "remove " PATH);
	return done_testing();
}
