/*
 * fs_bigfile: a file larger than RAM, written, synced and read back.
 * Every 8-byte word holds its own offset mixed with a seed, so a block
 * written in the wrong place, lost by reclaim or read from a stale page
 * shows up at its exact offset. Between writing and reading the page
 * cache is dropped (when /proc/sys/vm/drop_caches exists and we may), so
 * the data comes back from the disk. The file is removed at the end.
 * Usage: fs_bigfile [MIB] (default 96; pagelab boots with 64 MiB of RAM).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define CHUNK (256 * 1024)
#define SEED 0x9e3779b97f4a7c15ULL

static uint64_t word_at(uint64_t off)
{
	return (off * SEED) ^ (off >> 7);
}

static void fill(uint64_t *buf, uint64_t off)
{
	for (size_t i = 0; i < CHUNK / 8; i++)
		buf[i] = word_at(off + i * 8);
}

/* Offset of the first wrong word in this chunk, or -1. */
static long long check(const uint64_t *buf, uint64_t off)
{
	for (size_t i = 0; i < CHUNK / 8; i++)
		if (buf[i] != word_at(off + i * 8))
			return off + i * 8;
	return -1;
}

int main(int argc, char **argv)
{
	long long mib = argc > 1 ? atoll(argv[1]) : 96, size = mib << 20;
	uint64_t *buf = malloc(CHUNK);
	long long bad = -1, off;
	int fd;

	alarm(600);
	plan(5);
	diag("file %lld MiB, MemTotal %ld kB", mib, mem_total_kb());
	fd = open("bigfile.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0, "create bigfile.dat");
	for (off = 0; off < size; off += CHUNK) {
		fill(buf, off);
		if (write(fd, buf, CHUNK) != CHUNK)
			break;
	}
	is_long(off, size, "wrote all %lld MiB", mib);
	ok(fsync(fd) == 0 && close(fd) == 0, "fsync and close");
	sync();
	if (drop_caches() < 0)
		diag("page cache not dropped: the read may come from memory");
	fd = open("bigfile.dat", O_RDONLY);
	for (off = 0; off < size && bad < 0; off += CHUNK) {
		if (read(fd, buf, CHUNK) != CHUNK) {
			bad = off;
			break;
		}
		bad = check(buf, off);
	}
	close(fd);
	ok(bad < 0, "every word read back is right (first bad offset %lld)",
	   bad);
	is_int(unlink("bigfile.dat"), 0, "unlink");
	return done_testing();
}
