/*
 * mmap_bigfile: a file larger than RAM read back through one read-only
 * MAP_SHARED mapping of all of it.
 *
 * The file is written with write(), one 8-byte word per offset holding
 * the offset XOR a constant, fsync'd, and the page cache dropped; then
 * every word is read through the mapping. With N larger than RAM the
 * kernel must reclaim mapped file pages while the process still maps
 * them (unmap them from its page tables, fault them back in later), and
 * any page read from the wrong block, or lost, shows at its exact
 * offset. A checksum taken while writing must equal the one taken while
 * reading. Nothing N-sized is kept in memory; the file is removed at the
 * end.
 * Usage: mmap_bigfile [MIB] (default 8; pagelab runs it with 96 MiB on a
 * machine with 64 MiB of RAM).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define PATH "mmap_bigfile.dat"
#define CHUNK (256 * 1024)
#define KEY 0x5deece66da5a5a5aULL

static uint64_t word_at(uint64_t off)
{
	return off ^ KEY;
}

static uint64_t sum_step(uint64_t sum, uint64_t w)
{
	sum = (sum ^ w) * 0x9e3779b97f4a7c15ULL;
	return sum ^ (sum >> 32);
}

/* Write size bytes; returns how many were written, *sum their checksum. */
static long long write_file(int fd, long long size, uint64_t *sum)
{
	uint64_t *buf = malloc(CHUNK);
	long long off;

	*sum = 0;
	for (off = 0; buf && off < size; off += CHUNK) {
		for (size_t i = 0; i < CHUNK / 8; i++) {
			buf[i] = word_at(off + i * 8);
			*sum = sum_step(*sum, buf[i]);
		}
		if (write(fd, buf, CHUNK) != CHUNK)
			break;
	}
	free(buf);
	return off;
}

/* Check every word of the mapping; returns the first bad offset or -1. */
static long long check_map(const volatile uint64_t *m, long long size,
			   uint64_t *sum, long long *checked)
{
	long long bad = -1;

	*sum = 0;
	*checked = 0;
	for (long long i = 0; i < size / 8; i++) {
		uint64_t w = m[i];

		*sum = sum_step(*sum, w);
		(*checked)++;
		if (w != word_at(i * 8) && bad < 0)
			bad = i * 8;
	}
	return bad;
}

int main(int argc, char **argv)
{
	long long mib = argc > 1 ? atoll(argv[1]) : 8, size = mib << 20;
	long long bad, checked;
	uint64_t wsum, rsum;
	void *m;
	int fd;

	alarm(600);
	plan(8);
	diag("file %lld MiB, MemTotal %ld kB", mib, mem_total_kb());
	fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0, "create " PATH);
	is_long(write_file(fd, size, &wsum), size, "write() all %lld MiB", mib);
	ok(fsync(fd) == 0, "fsync");
	drop_caches();
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (!ok(m != MAP_FAILED, "map all %lld MiB read-only MAP_SHARED", mib))
		return done_testing();
	bad = check_map(m, size, &rsum, &checked);
	diag("%lld words checked through the mapping", checked);
	is_long(bad, -1, "every word read through the mapping is right");
	ok(rsum == wsum,
	   "the checksum read through the mapping is the written one (%016llx)",
	   (unsigned long long)wsum);
	is_int(munmap(m, size), 0, "munmap");
	close(fd);
	is_int(unlink(PATH), 0, "remove " PATH);
	return done_testing();
}
