/*
 * truncrate: how fast truncate runs, in cycles/s and us/cycle.
 *   holes   a 1 MiB file written (and fsync'd) once, then CYCLES cycles of
 *           ftruncate(fd, 0) + ftruncate(fd, 1 MiB): after the first cycle
 *           a pure size change over holes, no block to free (the figure
 *           is the fixed cost of the truncate path)
 *   blocks  CYCLES / 10 cycles of pwrite 64 KiB at offset 0 +
 *           ftruncate(fd, 0): each cut frees 64 KiB of real blocks (and
 *           drops dirty page cache pages), so the freeing path is timed;
 *           the pwrite and the ftruncate are also timed apart
 * Why: the truncate sequence is made per mount (-o truncate=old|new on
 * pagelab's ext2); run this once under each to compare them, and on Linux
 * for scale. After each test the file must occupy no blocks: st_blocks is
 * printed as a check.
 *
 * Both rates are also printed as "figure:" lines for scripts/bench.
 *
 * Usage: truncrate [FILE [CYCLES]]  (default ./truncrate.dat, 2000)
 */
#include <sys/stat.h>

#include "bench.h"

#define FILE_SIZE (1024 * 1024)
#define CHUNK (64 * 1024)

static long long blocks(int fd)
{
	struct stat st;

	must(fstat(fd, &st) == 0, "truncrate: fstat");
	return st.st_blocks;
}

static void report(const char *test, long cycles, double t)
{
	printf("truncrate: %s %ld cycles %.0f cycles/s %.1f us/cycle", test,
	       cycles, cycles / t, t * 1e6 / cycles);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "truncrate.dat";
	long cycles = argc > 2 ? atol(argv[2]) : 2000, wcycles = cycles / 10;
	unsigned char *buf = malloc(CHUNK);
	double t, t0, t1, tt = 0;
	int fd;

	if (cycles < 10) {
		fprintf(stderr, "truncrate: CYCLES must be at least 10\n");
		return 2;
	}
	memset(buf, 0x5a, CHUNK);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, path);
	for (long done = 0; done < FILE_SIZE; done += CHUNK)
		must(write(fd, buf, CHUNK) == CHUNK, "truncrate: write");
	must(fsync(fd) == 0, "truncrate: fsync");

	t = bench_now();
	for (long i = 0; i < cycles; i++) {
		must(ftruncate(fd, 0) == 0, "truncrate: ftruncate 0");
		must(ftruncate(fd, FILE_SIZE) == 0, "truncrate: ftruncate");
	}
	t = bench_now() - t;
	report("holes", cycles, t);
	printf(" (st_blocks %lld)\n", blocks(fd));
	figure("truncate cycle over holes (ftruncate 0, ftruncate 1 MiB)",
	       cycles / t, "cycles/s");

	must(ftruncate(fd, 0) == 0, "truncrate: ftruncate 0");
	t = 0;
	for (long i = 0; i < wcycles; i++) {
		t0 = bench_now();
		must(pwrite(fd, buf, CHUNK, 0) == CHUNK, "truncrate: pwrite");
		t1 = bench_now();
		must(ftruncate(fd, 0) == 0, "truncrate: ftruncate 0");
		t += t1 - t0;
		tt += bench_now() - t1;
	}
	report("blocks", wcycles, t + tt);
	printf(" (pwrite %.1f us, ftruncate %.1f us; st_blocks %lld)\n",
	       t * 1e6 / wcycles, tt * 1e6 / wcycles, blocks(fd));
	figure("truncate freeing blocks (pwrite 64 KiB, ftruncate 0)",
	       wcycles / (t + tt), "cycles/s");

	close(fd);
	unlink(path);
	return 0;
}
