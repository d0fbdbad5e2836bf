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
		fprintf(stderr, "smallfiles: %s %s: %s\n", what, name,
			strerror(errno));
		exit(1);
	}
}

/* Write back everything and give the flusher a moment to go idle. */
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
			perror("smallfiles: restoring " WB_KNOB);
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
	flusher_hold_off();
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
