/*
 * mmap_bigwrite: write a file larger than RAM through one shared mapping
 * (argument: MiB, default 8), with no write(2) at all: every page is
 * dirtied by a store, and must be written back while the stores go on,
 * because memory cannot hold them all. Then msync, drop the cache and read
 * the file back with read(): every 8-byte word must hold its value.
 *
 * What it caught: the fault path did not throttle dirtying, so memory
 * filled with dirty pages; reclaim then wrote them one by one, kmalloc ran
 * dry for bios, and the writes failed with EIO (the data was lost, msync
 * said so). Now stores are throttled like write(2) and writeback has a
 * reserve of bios (block/bio.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define NAME "mmap_bigwrite.dat"
#define MUL 0x9e3779b97f4a7c15ULL

static uint64_t word(uint64_t i)
{
	return (i + 1) * MUL;
}

/* Words of the file that do not hold word(i), read with read(2). */
static long count_bad(int fd, long size)
{
	static uint64_t buf[8192];
	long bad = 0, off = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while (off < size && (n = read(fd, buf, sizeof(buf))) > 0) {
		for (long i = 0; i < n / 8; i++)
			if (buf[i] != word(off / 8 + i)) {
				if (!bad)
					diag("first bad word at byte %ld: %#llx",
					     off + 8 * i,
					     (unsigned long long)buf[i]);
				bad++;
			}
		off += n;
	}
	return off == size ? bad : -1;
}

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 8, size = mib << 20;
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);
	uint64_t *p;

	ok(fd >= 0, "create %s", NAME);
	is_int(ftruncate(fd, size), 0, "ftruncate it to %ld MiB (a hole)", mib);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok(p != MAP_FAILED, "map all %ld MiB MAP_SHARED", mib);
	if (p == MAP_FAILED)
		return done_testing();
	for (long i = 0; i < size / 8; i++)
		p[i] = word(i);
	ok(1, "store every word through the mapping");
	is_int(msync(p, size, MS_SYNC), 0, "msync(MS_SYNC): every page written");
	is_int(munmap(p, size), 0, "munmap");
	drop_caches();
	is_long(count_bad(fd, size), 0, "read() finds every word it stored");
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
