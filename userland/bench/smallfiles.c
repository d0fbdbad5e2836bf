/*
 * smallfiles: metadata speed with many small files, in one directory.
 *   create  COUNT files of 1 KiB: open(O_CREAT|O_EXCL), write, close
 *   stat    stat() of each of them
 *   unlink  unlink() of each of them
 * Each phase is timed apart; the disk is synced and left to settle
 * before each one (writeback of the previous phase must not land in the
 * timed loop), so under QEMU's -icount the figures repeat.
 *
 * The periodic flusher is held off while it runs (dirty_writeback_centisecs,
 * put back at exit): each loop starts after a sync, and a flusher pass
 * landing in one loop and not in another made figures wobble.
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

#include "bench.h"

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
	must_on(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir", dir);
	must_on(chdir(dir) == 0, "chdir", dir);
	bench_flusher_off();
	bench_settle();
	t = bench_now();
	for (int i = 0; i < count; i++) {
		int fd;

		snprintf(name, sizeof(name), "small-%06d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		must_on(fd >= 0, "open", name);
		must_on(write(fd, block, sizeof(block)) == sizeof(block), "write",
		     name);
		must_on(close(fd) == 0, "close", name);
	}
	report("create", count, bench_now() - t);
	bench_settle();
	t = bench_now();
	for (int i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "small-%06d", i);
		must_on(stat(name, &st) == 0 && st.st_size == sizeof(block),
		     "stat", name);
	}
	report("stat", count, bench_now() - t);
	bench_settle();
	t = bench_now();
	for (int i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "small-%06d", i);
		must_on(unlink(name) == 0, "unlink", name);
	}
	report("unlink", count, bench_now() - t);
	must_on(chdir("..") == 0 && rmdir(dir) == 0, "rmdir", dir);
	return 0;
}
