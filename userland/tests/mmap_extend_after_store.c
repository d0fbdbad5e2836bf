/*
 * mmap_extend_after_store: the 2009 page_mkwrite bug (Jan Kara, "Fix
 * page_mkwrite() for blocksize < pagesize"; doc/design.md, "page_mkwrite and
 * blocksize < pagesize").
 *
 * A file of 1124 bytes is mapped MAP_SHARED and stored to inside EOF, so
 * its page is writable in the page tables with blocks allocated only up
 * to EOF (with 1 KiB blocks: two of the page's four). Then the file grows
 * to 4096 bytes, by ftruncate (mkwrite2009.dat) or by a pwrite of one
 * byte at 4095 (mkwrite2009b.dat), and the new part of the page is stored
 * to through the mapping. Unless the growth write-protected the page, no
 * page_mkwrite runs for those stores, no block is allocated for them, and
 * writeback drops them: bytes 2048..4095 read back as zero or garbage.
 * With the fix (pagecache_isize_extended=1) everything survives.
 *
 * Two phases, chosen by argv[0]: run as NAME it does phase 1 (make the
 * files), drops the caches and verifies; run as NAME.phase2 (after
 * scripts/pagelab-run's umount + mount) it only verifies. The files stay
 * for phase 2. Each verified range is its own TAP line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define SIZE 1124
#define MID 2048

struct scenario {
	const char *path;
	int by_write; /* grow by pwrite(1 byte at 4095), not ftruncate */
};

static const struct scenario scenarios[] = {
    {"mkwrite2009.dat", 0},
    {"mkwrite2009b.dat", 1},
};

static long ps;

static char pattern_a(long i)
{
	return i == 10 ? 'x' : 'A' + i % 23;
}

static char pattern_b(long i)
{
	return 'a' + i % 19;
}

static void diag_setup(void)
{
	struct statvfs sv;
	char val[32] = "";
	int fd = open("/proc/sys/vm/pagecache_isize_extended", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, val, sizeof(val) - 1) : -1;

	if (n > 0 && val[n - 1] == '\n')
		val[n - 1] = 0;
	if (fd >= 0)
		close(fd);
	diag("blocksize %lu, pagesize %ld, pagecache_isize_extended %s",
	     statvfs(".", &sv) ? 0UL : sv.f_bsize, ps,
	     n > 0 ? val : "(no /proc/sys/vm/pagecache_isize_extended)");
}

static int grow(const struct scenario *sc, int fd)
{
	char c = pattern_b(ps - 1);

	if (sc->by_write)
		return pwrite(fd, &c, 1, ps - 1) == 1;
	return ftruncate(fd, ps) == 0;
}

static void phase1(const struct scenario *sc)
{
	int fd = open(sc->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char a[SIZE];
	char *m;

	for (long i = 0; i < SIZE; i++)
		a[i] = 'A' + i % 23; /* byte 10 becomes 'x' by the mapping */
	ok(fd >= 0 && write(fd, a, SIZE) == SIZE,
	   "create %s with 1124 bytes of pattern A", sc->path);
	m = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!ok(m != MAP_FAILED, "map one page of it MAP_SHARED"))
		return;
	m[10] = 'x';
	ok(grow(sc, fd), "store byte 10 through the mapping, then %s",
	   sc->by_write ? "pwrite one byte at 4095" : "ftruncate to 4096");
	for (long i = MID; i < ps - sc->by_write; i++)
		m[i] = pattern_b(i);
	is_int(
	    msync(m, ps, MS_SYNC), 0,
	    "store pattern B at 2048..%ld through the mapping; msync(MS_SYNC)",
	    ps - 1 - sc->by_write);
	ok(munmap(m, ps) == 0 && close(fd) == 0, "munmap and close");
}

/* Check buf[from..to) against want(); one TAP line. */
static void check_range(const char *buf, long from, long to, char (*want)(long),
			const char *desc)
{
	long nbad = 0, first = -1;

	for (long i = from; i < to; i++) {
		char w = want ? want(i) : 0;

		if (buf[i] != w && nbad++ == 0)
			first = i;
	}
	if (!is_long(nbad, 0, "%s", desc))
		diag("%ld wrong bytes, first at %ld: 0x%02x, want 0x%02x", nbad,
		     first, (unsigned char)buf[first],
		     (unsigned char)(want ? want(first) : 0));
}

static void verify(const struct scenario *sc)
{
	char *buf = calloc(1, ps);
	int fd = open(sc->path, O_RDONLY);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || pread(fd, buf, ps, 0) < 0)
		diag("cannot read %s: %s", sc->path, strerror(errno));
	is_long(fd < 0 ? -1 : st.st_size, ps, "%s is 4096 bytes long",
		sc->path);
	check_range(buf, 0, SIZE, pattern_a,
		    "bytes 0..1123 hold pattern A with byte 10 'x' stored "
		    "through the mapping");
	check_range(buf, SIZE, MID, NULL, "bytes 1124..2047 read as zero");
	if (sc->by_write) {
		check_range(buf, MID, ps - 1, pattern_b,
			    "bytes 2048..4094 stored through the mapping after "
			    "the extending pwrite survive");
		check_range(buf, ps - 1, ps, pattern_b,
			    "byte 4095 written by pwrite survives");
	} else {
		check_range(buf, MID, ps, pattern_b,
			    "bytes 2048..4095 stored through the mapping after "
			    "ftruncate survive");
	}
	if (fd >= 0)
		close(fd);
	free(buf);
}

static int is_phase2(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	size_t n;

	base = base ? base + 1 : argv0;
	n = strlen(base);
	return n >= 7 && strcmp(base + n - 7, ".phase2") == 0;
}

int main(int argc, char **argv)
{
	int p2 = argc > 0 && is_phase2(argv[0]);

	ps = sysconf(_SC_PAGESIZE);
	plan(p2 ? 9 : 19);
	diag_setup();
	for (int i = 0; i < 2; i++) {
		const struct scenario *sc = &scenarios[i];

		if (!p2) {
			phase1(sc);
			drop_caches();
		}
		diag("%s %s: verifying %s", p2 ? "phase 2" : "phase 1",
		     sc->by_write ? "(grown by pwrite)"
				  : "(grown by ftruncate)",
		     sc->path);
		verify(sc);
	}
	return done_testing();
}
