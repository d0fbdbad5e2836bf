/*
 * mmap_stress: four processes for four seconds on one 64-page file, each
 * picking at random: store through a fresh MAP_SHARED mapping, store
 * through a MAP_PRIVATE one, ftruncate to a random size, pwrite, pread,
 * fsync, drop the page cache. Stores past EOF get SIGBUS (caught and
 * counted). Nothing may crash, and fsync must never report an error: a
 * mapping's stores always have their blocks (page_mkwrite), however the
 * size moved in between.
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
#define CHILDREN 4
#define SECONDS 4

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

/* Stores into a fresh mapping of the file; SIGBUS past EOF ends them. */
static void store_through(int fd, int flags, char v)
{
	char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);

	if (p == MAP_FAILED)
		return;
	if (!sigsetjmp(env, 1))
		for (int i = 0; i < 20; i++)
			p[rand() % SIZE] = v;
	munmap(p, SIZE);
}

/* One child's run; exit status: how many fsync calls failed (capped). */
static int run(int id)
{
	struct sigaction sa = { .sa_handler = on_fault };
	int fd = open(NAME, O_RDWR), errors = 0;
	double end = now() + SECONDS;
	char buf[5000];
	long ops = 0;

	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	srand(id * 7919);
	while (fd >= 0 && now() < end) {
		ops++;
		switch (rand() % 7) {
		case 0: store_through(fd, MAP_SHARED, (char)id); break;
		case 1: store_through(fd, MAP_PRIVATE, (char)-id); break;
		case 2: ftruncate(fd, rand() % SIZE); break;
		case 3:
			memset(buf, id, sizeof(buf));
			pwrite(fd, buf, rand() % 3000, rand() % SIZE);
			break;
		case 4: pread(fd, buf, sizeof(buf), rand() % SIZE); break;
		case 5:
			if (fsync(fd) < 0) {
				diag("child %d: fsync: %s", id, strerror(errno));
				errors++;
			}
			break;
		default:
			if (rand() % 4 == 0)
				drop_caches();
		}
	}
	diag("child %d: %ld operations, %ld faults caught", id, ops, faults);
	return fd < 0 ? 100 : errors > 99 ? 99 : errors;
}

int main(void)
{
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644), status;
	int ok_children = 0, fsync_errors = 0;
	pid_t pid;

	ok(fd >= 0 && ftruncate(fd, SIZE) == 0, "create %s, %d pages", NAME,
	   SIZE / 4096);
	close(fd);
	for (int i = 1; i <= CHILDREN; i++)
		if (fork() == 0)
			_exit(run(i));
	while ((pid = wait(&status)) > 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) < 100)
			ok_children++;
		else
			diag("child %d: status %#x", (int)pid, status);
		if (WIFEXITED(status))
			fsync_errors += WEXITSTATUS(status) % 100;
	}
	is_int(ok_children, CHILDREN, "every child ran to its end");
	is_int(fsync_errors, 0, "no fsync reported an error");
	fd = open(NAME, O_RDWR);
	is_int(fd >= 0 ? fsync(fd) : -1, 0, "a last fsync is clean too");
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
