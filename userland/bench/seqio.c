/*
 * seqio: sequential file I/O through the page cache, in MB/s.
 *   write: SIZE bytes in 64 KiB writes, then fsync (the time includes it)
 *   cached read: read it all back while it is still in the page cache
 *   cold read: sync, drop the page cache (/proc/sys/vm/drop_caches), read
 * Usage: seqio [FILE [MIB]]  (default ./seqio.dat, 64 MiB). The same
 * binary runs on Linux (drop_caches needs root there too).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok;

	sync();
	if (fd < 0)
		return -1;
	ok = write(fd, "3", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static double read_all(const char *path, long long size, unsigned char *buf)
{
	int fd = open(path, O_RDONLY);
	double t0 = now();
	long long done = 0;
	ssize_t n;

	while (fd >= 0 && (n = read(fd, buf, CHUNK)) > 0)
		done += n;
	if (fd >= 0)
		close(fd);
	if (done != size) {
		fprintf(stderr, "seqio: read %lld of %lld bytes\n", done, size);
		exit(1);
	}
	return now() - t0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "seqio.dat";
	long long mib = argc > 2 ? atoll(argv[2]) : 64, size = mib << 20;
	unsigned char *buf = malloc(CHUNK);
	double t0, tw, tc, tr;
	int fd;

	memset(buf, 0xa5, CHUNK);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	t0 = now();
	for (long long done = 0; done < size; done += CHUNK)
		if (write(fd, buf, CHUNK) != CHUNK) {
			perror("write");
			return 1;
		}
	fsync(fd);
	tw = now() - t0;
	close(fd);
	tc = read_all(path, size, buf);
	if (drop_caches())
		printf("seqio: cannot drop caches; the cold read is not cold\n");
	tr = read_all(path, size, buf);
	printf("seqio: %lld MiB: write+fsync %.1f MB/s, cached read %.1f MB/s, "
	       "cold read %.1f MB/s\n", mib, size / tw / 1e6, size / tc / 1e6,
	       size / tr / 1e6);
	unlink(path);
	return 0;
}
