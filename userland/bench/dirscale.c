/*
 * dirscale: does the cost of a directory operation grow with the
 * directory? One directory of N empty files:
 *   create        N creat()+close(), in us/op
 *   stat-missing  stat() of N names that do not exist, timed on a second
 *                 pass (the first may fill a cache of negative lookups)
 *   unlink        N unlink(), in us/op
 * Run it with N = 2000 and N = 20000: a directory that scales costs the
 * same per operation at both sizes. The disk is synced and left to settle
 * before each timed loop, so under QEMU's -icount the figures repeat.
 *
 * The periodic flusher is held off while it runs (dirty_writeback_centisecs,
 * put back at exit): each loop starts after a sync, and a flusher pass
 * landing in one loop and not in another made figures wobble.
 *
 * Output (make bench's convention): lines "figure: NAME = VALUE UNIT",
 * NAME carrying N (dirscale-create-2000).
 *
 * Usage: dirscale [N [DIR]]  (default 2000, ./dirscale.d)
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

static void report(const char *op, int n, double secs)
{
	printf("figure: dirscale-%s-%d = %.2f us/op\n", op, n,
	       secs * 1e6 / n);
}

static void stat_missing(int n)
{
	char name[64];
	struct stat st;

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "missing-file-%07d", i);
		must_on(stat(name, &st) < 0 && errno == ENOENT, "stat", name);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	const char *dir = argc > 2 ? argv[2] : "dirscale.d";
	char name[64];
	double t;

	must_on(n > 0, "count", argc > 1 ? argv[1] : "");
	must_on(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir", dir);
	must_on(chdir(dir) == 0, "chdir", dir);
	bench_flusher_off();
	bench_settle();
	t = bench_now();
	for (int i = 0; i < n; i++) {
		int fd;

		snprintf(name, sizeof(name), "present-file-%07d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		must_on(fd >= 0, "create", name);
		must_on(close(fd) == 0, "close", name);
	}
	report("create", n, bench_now() - t);
	stat_missing(n);
	bench_settle();
	t = bench_now();
	stat_missing(n);
	report("stat-missing", n, bench_now() - t);
	bench_settle();
	t = bench_now();
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "present-file-%07d", i);
		must_on(unlink(name) == 0, "unlink", name);
	}
	report("unlink", n, bench_now() - t);
	must_on(chdir("..") == 0 && rmdir(dir) == 0, "rmdir", dir);
	return 0;
}
