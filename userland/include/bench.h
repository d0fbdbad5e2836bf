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

#endif
