/*
 * seqio: sequential file I/O through the page cache, in MB/s.
 *   write   SIZE bytes in 64 KiB write()s, then fsync (timed together);
 *           disk-bound: plain TCG
 *   cached  read the file in 64 KiB read()s while it is in the page cache:
 *           one untimed pass first (so every page is cached whatever ran
 *           before), then READ_PASSES timed passes; CPU-bound: icount
 *   cold    sync, drop the page cache (/proc/sys/vm/drop_caches), read it
 *           once; disk-bound: plain TCG
 * Usage: seqio [MIB [PHASE...]]  (default 64 MiB, all three phases), in
 * the current directory (./seqio.dat). The same binary runs on Linux
 * (drop_caches needs root there).
 */
#include "bench.h"

#define READ_PASSES 2

static const char *path = "seqio.dat";

/* Read the whole file once; the seconds taken. */
static double read_all(long long size, unsigned char *buf)
{
	int fd = open(path, O_RDONLY);
	double t0 = bench_now();
	long long done = 0;
	ssize_t n;

	must(fd >= 0, path);
	while ((n = read(fd, buf, BENCH_CHUNK)) > 0)
		done += n;
	close(fd);
	if (done != size) {
		fprintf(stderr, "seqio: read %lld of %lld bytes\n", done, size);
		exit(1);
	}
	return bench_now() - t0;
}

static int wanted(int argc, char **argv, const char *phase)
{
	if (argc <= 2)
		return 1;
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], phase))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	long long mib = argc > 1 ? atoll(argv[1]) : 64, size = mib << 20;
	unsigned char *buf = malloc(BENCH_CHUNK);
	double t;
	int fd;

	must(buf != NULL && mib > 0, "seqio: usage: seqio [MIB [PHASE...]]");
	memset(buf, 0xa5, BENCH_CHUNK);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, path);
	t = bench_now();
	for (long long done = 0; done < size; done += BENCH_CHUNK)
		must(write(fd, buf, BENCH_CHUNK) == BENCH_CHUNK, "seqio: write");
	must(fsync(fd) == 0, "seqio: fsync");
	t = bench_now() - t;
	close(fd);
	if (wanted(argc, argv, "write"))
		figure("write+fsync, 64 KiB write()s", size / t / 1e6, "MB/s");
	if (wanted(argc, argv, "cached")) {
		read_all(size, buf);
		t = 0;
		for (int i = 0; i < READ_PASSES; i++)
			t += read_all(size, buf);
		figure("cached sequential read, 64 KiB read()s",
		       READ_PASSES * size / t / 1e6, "MB/s");
	}
	if (wanted(argc, argv, "cold")) {
		if (drop_caches())
			printf("seqio: cannot drop caches; the cold read is not cold\n");
		t = read_all(size, buf);
		figure("cold sequential read after drop_caches", size / t / 1e6,
		       "MB/s");
	}
	unlink(path);
	return 0;
}
