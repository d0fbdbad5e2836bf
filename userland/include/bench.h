/*
 * bench.h - helpers for the benchmark programs in userland/bench/.
 *
 * Roadmap:
 *   bench_now()          CLOCK_MONOTONIC in seconds (under QEMU's -icount
 *                        this is guest time: instructions executed)
 *   figure(name, v, u)   print "figure: NAME = VALUE UNIT", the one line
 *                        scripts/bench reads (userland/bench/bench.list
 *                        says which units are lower-is-better)
 *   must(ok, what)       exit 1 with perror(what) unless ok
 *   must_on(ok, what, name)  the same, the message "WHAT NAME: error"
 *   bench_settle()       write everything back and let the disk go idle
 *   bench_flusher_off()  hold the periodic flusher off until exit
 *   drop_caches()        sync, then write 3 to /proc/sys/vm/drop_caches
 *   write_file(path, size, byte)
 *                        create path with size bytes of byte in 64 KiB
 *                        writes, fsync it: its pages are then cached and
 *                        clean, so no timed loop waits for the disk
 *
 * Why one line format: the same binaries run on pagelab and on Linux, and
 * scripts/bench (scripts/bench-table) builds the side-by-side table from
 * nothing but these lines. A figure's NAME is free text up to " = ".
 *
 * Header-only: each benchmark is a single .c file.
 */
#ifndef PAGELAB_BENCH_H
#define PAGELAB_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_CHUNK (64 * 1024)

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Four significant digits are more than any figure repeats to. */
static inline void figure(const char *name, double value, const char *unit)
{
	printf("figure: %s = %.4g %s\n", name, value, unit);
	fflush(stdout);
}

static inline void must(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(1);
	}
}

/* 0, or -1 when the caches could not be dropped (not root on a host). */
static inline int drop_caches(void)
{
	int fd, ok;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, "3", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* Returns an fd open O_RDWR on the new, fsync'd file. */
static inline int write_file(const char *path, long long size, int byte)
{
	static unsigned char buf[BENCH_CHUNK];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	must(fd >= 0, path);
	memset(buf, byte, sizeof(buf));
	for (long long done = 0; done < size; done += BENCH_CHUNK) {
		long long n = size - done < BENCH_CHUNK ? size - done : BENCH_CHUNK;

		must(write(fd, buf, n) == n, "write");
	}
	must(fsync(fd) == 0, "fsync");
	return fd;
}

static inline void must_on(int ok, const char *what, const char *name)
{
	if (!ok) {
		fprintf(stderr, "%s %s: %s\n", what, name, strerror(errno));
		exit(1);
	}
}

/* Before each timed loop: write everything back, let the disk go idle. */
static inline void bench_settle(void)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };

	sync();
	nanosleep(&pause, NULL);
	sync();
}

/*
 * The periodic flusher would land inside one timed loop and not another,
 * as its timer falls: hold it off while a benchmark runs and put the old
 * interval back at exit. Without the right to (not root, or no such
 * knob), the figures are measured with it running.
 */
#define BENCH_WB_KNOB "/proc/sys/vm/dirty_writeback_centisecs"

static char bench_flusher_saved[32];

static inline void bench_flusher_restore(void)
{
	int fd = open(BENCH_WB_KNOB, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, bench_flusher_saved,
			  strlen(bench_flusher_saved)) < 0)
			perror("restoring " BENCH_WB_KNOB);
		close(fd);
	}
}

static inline void bench_flusher_off(void)
{
	int fd = open(BENCH_WB_KNOB, O_RDWR);
	ssize_t n = fd >= 0 ? read(fd, bench_flusher_saved,
				   sizeof(bench_flusher_saved) - 1) : -1;

	if (n > 0 && lseek(fd, 0, SEEK_SET) == 0 &&
	    write(fd, "360000", 6) == 6) {
		bench_flusher_saved[n] = '\0';
		atexit(bench_flusher_restore);
	}
	if (fd >= 0)
		close(fd);
}

#endif
