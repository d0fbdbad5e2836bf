/*
 * mmap_stress [SEED [CHILDREN [SECONDS]]]: processes (default 4) for some
 * seconds (default 4, or PAGELAB_STRESS_SECONDS) on one 64-page file,
 * each picking at random: store
 * through a fresh MAP_SHARED mapping, store through a MAP_PRIVATE one,
 * ftruncate to a random size, pwrite, pread, fsync, msync, drop the page
 * cache. Stores past EOF get SIGBUS (caught and counted). Nothing may
 * crash, and fsync must never report an error: a mapping's stores always
 * have their blocks (page_mkwrite), however the size moved in between.
 *
 * Replay: the seed (printed first; default from the clock) fixes every
 * child's sequence of operations; only their interleaving is left to the
 * scheduler. A child that sees an error prints its last operations, so a
 * failure says what led to it: rerun it with
 *	scripts/pagelab-run --blocksize 1024 --args SEED .../mmap_stress
 *
 * What it caught: a page that straddled EOF, mapped and dirty, shrunk past
 * and grown again, had its holes marked dirty when it was write-protected;
 * writeback then called them lost data and fsync said EIO.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include "tap.h"
#include "procfs.h"

#define NAME "mmap_stress.dat"
#define SIZE (64 * 4096)
#define HISTORY 32	/* operations a child remembers for a report */

static sigjmp_buf env;
static volatile long faults;

static void on_fault(int sig)
{
	(void)sig;
	faults++;
	siglongjmp(env, 1);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static const char *const op_names[] = {
	"store shared", "store private", "ftruncate", "pwrite", "pread",
	"fsync", "msync", "drop_caches",
};
#define NR_OPS (sizeof(op_names) / sizeof(op_names[0]))

/* A child's last operations: what it did, with which numbers, and what
 * came of it (return value or errno). */
static struct {
	int op;
	long a, b, ret;
} history[HISTORY];
static long nr_done;

static void remember(int op, long a, long b, long ret)
{
	history[nr_done % HISTORY].op = op;
	history[nr_done % HISTORY].a = a;
	history[nr_done % HISTORY].b = b;
	history[nr_done % HISTORY].ret = ret;
	nr_done++;
}

static void print_history(int id)
{
	long first = nr_done > HISTORY ? nr_done - HISTORY : 0;

	for (long i = first; i < nr_done; i++)
		diag("child %d op %ld: %s(%ld, %ld) = %ld", id, i,
		     op_names[history[i % HISTORY].op], history[i % HISTORY].a,
		     history[i % HISTORY].b, history[i % HISTORY].ret);
}

/* Stores into a fresh mapping of the file; SIGBUS past EOF ends them.
 * With sync, msync the mapping first. Returns the stores done. */
static long store_through(int fd, int flags, char v, int sync)
{
	char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);
	volatile long n = 0;

	if (p == MAP_FAILED)
		return -errno;
	if (!sigsetjmp(env, 1))
		for (; n < 20; n++)
			p[rand() % SIZE] = v;
	if (sync && msync(p, SIZE, MS_SYNC) < 0)
		n = -errno;
	munmap(p, SIZE);
	return n;
}

/* One child's run; exit status: how many fsync/msync calls failed
 * (capped at 99), 100 when the file could not be opened. */
static int run(int id, unsigned int seed, int seconds)
{
	struct sigaction sa = { .sa_handler = on_fault };
	int fd = open(NAME, O_RDWR), errors = 0;
	double end = now() + seconds;
	char buf[5000];

	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	srand(seed * 7919 + id);
	while (fd >= 0 && now() < end) {
		int op = rand() % NR_OPS;
		long a = rand() % SIZE, b = rand() % 3000, ret = 0;

		switch (op) {
		case 0: ret = store_through(fd, MAP_SHARED, (char)id, 0); break;
		case 1: ret = store_through(fd, MAP_PRIVATE, (char)-id, 0); break;
		case 2: ret = ftruncate(fd, a) < 0 ? -errno : 0; break;
		case 3:
			memset(buf, id, sizeof(buf));
			ret = pwrite(fd, buf, b, a);
			break;
		case 4: ret = pread(fd, buf, sizeof(buf), a); break;
		case 5: ret = fsync(fd) < 0 ? -errno : 0; break;
		case 6: ret = store_through(fd, MAP_SHARED, (char)id, 1); break;
		default:
			if (a % 4 == 0)
				ret = drop_caches();
		}
		remember(op, a, b, ret);
		if ((op == 5 || op == 6) && ret < 0) {
			diag("child %d: %s: %s", id, op_names[op],
			     strerror((int)-ret));
			if (!errors)
				print_history(id);
			errors++;
		}
	}
	diag("child %d: %ld operations, %ld faults caught", id, nr_done,
	     faults);
	return fd < 0 ? 100 : errors > 99 ? 99 : errors;
}

int main(int argc, char **argv)
{
	unsigned int seed = argc > 1 ? strtoul(argv[1], NULL, 0)
				     : (unsigned int)time(NULL);
	int children = argc > 2 ? atoi(argv[2]) : 4;
	int seconds = argc > 3 ? atoi(argv[3]) : stress_seconds(4);
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644), status;
	int ok_children = 0, fsync_errors = 0;
	pid_t pid;

	diag("seed %u, %d children, %d s (rerun: mmap_stress %u %d %d)", seed,
	     children, seconds, seed, children, seconds);
	ok(fd >= 0 && ftruncate(fd, SIZE) == 0, "create %s, %d pages", NAME,
	   SIZE / 4096);
	close(fd);
	for (int i = 1; i <= children; i++)
		if (fork() == 0)
			_exit(run(i, seed, seconds));
	while ((pid = wait(&status)) > 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) < 100)
			ok_children++;
		else
			diag("child %d: status %#x", (int)pid, status);
		if (WIFEXITED(status))
			fsync_errors += WEXITSTATUS(status) % 100;
	}
	is_int(ok_children, children, "every child ran to its end");
	is_int(fsync_errors, 0, "no fsync or msync reported an error");
	fd = open(NAME, O_RDWR);
	is_int(fd >= 0 ? fsync(fd) : -1, 0, "a last fsync is clean too");
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
