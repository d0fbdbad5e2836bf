/*
 * smallfiles: metadata speed with many small files, in one directory.
 *   create  COUNT files of 1 KiB: open(O_CREAT|O_EXCL), write, close
 *   stat    stat() of each of them
 *   unlink  unlink() of each of them
 * Each phase is timed apart; the disk is synced and left to settle
 * before each one (writeback of the previous phase must not land in the
 * timed loop), so under QEMU's -icount the figures repeat.
 *
 * Output (make bench's convention): lines "figure: NAME = VALUE UNIT".
 *
 * Usage: smallfiles [DIR [COUNT]]  (default ./smallfiles.d, 2000)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void must(int ok, const char *what, const char *name)
{
	if (!ok) {
		fprintf(stderr, "smallfiles: %s %s: %s\n", what, name,
			strerror(errno));
		exit(1);
	}
}

/* Write back everything and give the flusher a moment to go idle. */
static void settle(void)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };

	sync();
	nanosleep(&pause, NULL);
	sync();
}

static void report(const char *name, int count, double secs)
{
	printf("figure: smallfiles-%s = %.0f ops/s\n", name, count / secs);
	printf("figure: smallfiles-%s-cost = %.2f us/op\n", name,
	       secs * 1e6 / count);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "smallfiles.d";
	int count = argc > 2 ? atoi(argv[2]) : 2000;
	static char block[1024];
	char name[64];
	struct stat st;
	double t;

	memset(block, 'x', sizeof(block));
	must(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir", dir);
	must(chdir(dir) == 0, "chdir", dir);
	settle();
	t = now();
	for (int i = 0; i < count; i++) {
		int fd;

		snprintf(name, sizeof(name), "small-%06d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		must(fd >= 0, "open", name);
		must(write(fd, block, sizeof(block)) == sizeof(block), "write",
		     name);
		must(close(fd) == 0, "close", name);
	}
	report("create", count, now() - t);
	settle();
	t = now();
	for (int i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "small-%06d", i);
		must(stat(name, &st) == 0 && st.st_size == sizeof(block),
		     "stat", name);
	}
	report("stat", count, now() - t);
	settle();
	t = now();
	for (int i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "small-%06d", i);
		must(unlink(name) == 0, "unlink", name);
	}
	report("unlink", count, now() - t);
	must(chdir("..") == 0 && rmdir(dir) == 0, "rmdir", dir);
	return 0;
}
