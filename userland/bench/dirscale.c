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

#define WB_KNOB "/proc/sys/vm/dirty_writeback_centisecs"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void must(int ok, const char *what, const char *name)
{
	if (!ok) {
		fprintf(stderr, "dirscale: %s %s: %s\n", what, name,
			strerror(errno));
		exit(1);
	}
}

/*
 * The periodic flusher would land inside a timed loop or not depending on
 * where its timer happens to be: hold it off while we measure (every loop
 * starts after a sync anyway) and put the old interval back at exit.
 * Without the right to (not root), measure with it.
 */
static char flusher_saved[32];

static void flusher_restore(void)
{
	int fd = open(WB_KNOB, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, flusher_saved, strlen(flusher_saved)) < 0)
			perror("dirscale: restoring " WB_KNOB);
		close(fd);
	}
}

static void flusher_hold_off(void)
{
	int fd = open(WB_KNOB, O_RDWR);
	ssize_t n = fd >= 0 ? read(fd, flusher_saved,
				   sizeof(flusher_saved) - 1) : -1;

	if (n > 0 && lseek(fd, 0, SEEK_SET) == 0 &&
	    write(fd, "360000", 6) == 6) {
		flusher_saved[n] = '\0';
		atexit(flusher_restore);
	}
	if (fd >= 0)
		close(fd);
}

static void settle(void)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };

	sync();
	nanosleep(&pause, NULL);
	sync();
}

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
		must(stat(name, &st) < 0 && errno == ENOENT, "stat", name);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	const char *dir = argc > 2 ? argv[2] : "dirscale.d";
	char name[64];
	double t;

	must(n > 0, "count", argc > 1 ? argv[1] : "");
	must(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir", dir);
	must(chdir(dir) == 0, "chdir", dir);
	flusher_hold_off();
	settle();
	t = now();
	for (int i = 0; i < n; i++) {
		int fd;

		snprintf(name, sizeof(name), "present-file-%07d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		must(fd >= 0, "create", name);
		must(close(fd) == 0, "close", name);
	}
	report("create", n, now() - t);
	stat_missing(n);
	settle();
	t = now();
	stat_missing(n);
	report("stat-missing", n, now() - t);
	settle();
	t = now();
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "present-file-%07d", i);
		must(unlink(name) == 0, "unlink", name);
	}
	report("unlink", n, now() - t);
	must(chdir("..") == 0 && rmdir(dir) == 0, "rmdir", dir);
	return 0;
}
