/*
 * mmapfault: the cost of a page fault on a mapped file, per page.
 *
 * The file (./mmapfault.dat, 16 MiB by default) is written with write()
 * and fsync'd, so every page is in the page cache and clean. Then:
 *   read-fault   mmap PROT_READ, MAP_SHARED; load one byte per page: each
 *                first touch is a minor fault (page cache hit, no I/O)
 *   write-fault  mmap PROT_READ|PROT_WRITE, MAP_SHARED; store one byte per
 *                page: a fault plus ->page_mkwrite per page
 *   msync        msync(MS_SYNC) of that mapping: writes back what the
 *                stores dirtied (MB/s; disk-bound, meaningless under
 *                -icount)
 *   rewrite      the same stores again after the msync: writeback made the
 *                pages clean and read-only, so each store faults and calls
 *                ->page_mkwrite again
 *   cow-fault    mmap PROT_READ|PROT_WRITE, MAP_PRIVATE; store one byte
 *                per page: a copy-on-write of each file page
 * Why: these are the file-mmap paths (filemap_fault, do_page_mkwrite,
 * do_cow_fault); their cost per page is a CPU-path figure, best read under
 * QEMU's -icount, and compared with Linux running this same binary.
 *
 * Each line gives the time per page and per fault (the pgfault delta: on
 * Linux fault-around maps up to 16 pages per read fault) and the deltas
 * of /proc/vmstat's pgfault, pgmajfault, cow_fault and mkwrite over the
 * phase ("-" for a counter the kernel does not have: Linux has neither
 * cow_fault nor mkwrite). The counters are system-wide.
 *
 * The two figures scripts/bench compares (read-fault and write-fault, in
 * pages/s) are printed as "figure:" lines besides these.
 *
 * Usage: mmapfault [FILE [MIB]]
 */
#include <sys/mman.h>

#include "bench.h"

#define CHUNK (64 * 1024)

enum { PGFAULT, PGMAJFAULT, COW_FAULT, MKWRITE, PGPGOUT, NR_COUNTERS };

static const char *const counter_names[NR_COUNTERS] = {
	"pgfault", "pgmajfault", "cow_fault", "mkwrite", "pgpgout",
};

/* Static and touched before the first phase: reading the counters must
 * not fault. */
static char vmstat_buf[16384];

/* The counters from /proc/vmstat; -1 for one that is not there. */
static void read_vmstat(long long *v)
{
	int fd = open("/proc/vmstat", O_RDONLY);
	size_t len = 0;
	ssize_t n;
	char *line, *next;

	for (int i = 0; i < NR_COUNTERS; i++)
		v[i] = -1;
	if (fd < 0)
		return;
	while (len < sizeof(vmstat_buf) - 1 &&
	       (n = read(fd, vmstat_buf + len,
			 sizeof(vmstat_buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	vmstat_buf[len] = '\0';
	for (line = vmstat_buf; *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		for (int i = 0; i < NR_COUNTERS; i++) {
			size_t l = strlen(counter_names[i]);

			if (!strncmp(line, counter_names[i], l) &&
			    line[l] == ' ')
				v[i] = atoll(line + l + 1);
		}
	}
}

/* " name +delta" for each counter in [from, to), "-" for a missing one. */
static void print_deltas(const long long *before, const long long *after,
			 int from, int to)
{
	printf(" (");
	for (int i = from; i < to; i++) {
		printf("%s%s ", i > from ? " " : "", counter_names[i]);
		if (before[i] < 0 || after[i] < 0)
			printf("-");
		else
			printf("+%lld", after[i] - before[i]);
	}
	printf(")\n");
}

static void report_faults(const char *phase, long pages, double t,
			  const long long *before, const long long *after)
{
	long long faults = after[PGFAULT] - before[PGFAULT];

	printf("mmapfault: %s %ld pages %.0f ns/page", phase, pages,
	       t * 1e9 / pages);
	if (before[PGFAULT] >= 0 && after[PGFAULT] >= 0 && faults > 0)
		printf(", %lld faults %.0f ns/fault %.0f faults/s", faults,
		       t * 1e9 / faults, faults / t);
	print_deltas(before, after, PGFAULT, MKWRITE + 1);
}

static unsigned char *map(int fd, size_t size, int prot, int flags)
{
	void *p = mmap(NULL, size, prot, flags, fd, 0);

	if (p == MAP_FAILED) {
		perror("mmapfault: mmap");
		exit(1);
	}
	return p;
}

/* Load one byte per page; returns the time taken. */
static double touch_read(const unsigned char *p, long pages, long pg,
			 unsigned long *sum)
{
	const volatile unsigned char *v = p;
	double t0 = bench_now();

	for (long i = 0; i < pages; i++)
		*sum += v[i * pg];
	return bench_now() - t0;
}

/* Store one byte per page; returns the time taken. */
static double touch_write(unsigned char *p, long pages, long pg,
			  unsigned char val)
{
	volatile unsigned char *v = p;
	double t0 = bench_now();

	for (long i = 0; i < pages; i++)
		v[i * pg] = val;
	return bench_now() - t0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "mmapfault.dat";
	long long mib = argc > 2 ? atoll(argv[2]) : 16, size = mib << 20;
	long pg = sysconf(_SC_PAGESIZE), pages;
	long long before[NR_COUNTERS], after[NR_COUNTERS];
	unsigned char *buf = malloc(CHUNK), *p;
	unsigned long sum = 0;
	double t;
	int fd;

	if (pg <= 0)
		pg = 4096;
	pages = size / pg;
	memset(vmstat_buf, 0, sizeof(vmstat_buf));
	memset(buf, 0xa5, CHUNK);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (long long done = 0; done < size; done += CHUNK)
		if (write(fd, buf, CHUNK) != CHUNK) {
			perror("mmapfault: write");
			return 1;
		}
	if (fsync(fd)) {
		perror("mmapfault: fsync");
		return 1;
	}

	/* (a) read faults on a shared mapping: page cache hits. */
	p = map(fd, size, PROT_READ, MAP_SHARED);
	read_vmstat(before);
	t = touch_read(p, pages, pg, &sum);
	read_vmstat(after);
	report_faults("read-fault", pages, t, before, after);
	figure("read faults on cached file pages (shared, 1 byte/page)",
	       pages / t, "pages/s");
	munmap(p, size);
	if (sum != (unsigned long)pages * 0xa5) {
		fprintf(stderr, "mmapfault: read back %lu, want %lu\n", sum,
			(unsigned long)pages * 0xa5);
		return 1;
	}

	/* (b) write faults on a clean shared mapping, then msync. */
	p = map(fd, size, PROT_READ | PROT_WRITE, MAP_SHARED);
	read_vmstat(before);
	t = touch_write(p, pages, pg, 0x11);
	read_vmstat(after);
	report_faults("write-fault", pages, t, before, after);
	figure("store faults with page_mkwrite (clean shared pages)",
	       pages / t, "pages/s");

	read_vmstat(before);
	t = bench_now();
	if (msync(p, size, MS_SYNC)) {
		perror("mmapfault: msync");
		return 1;
	}
	t = bench_now() - t;
	read_vmstat(after);
	printf("mmapfault: msync %lld MiB %.1f ms %.1f MB/s", mib, t * 1e3,
	       size / t / 1e6);
	print_deltas(before, after, PGFAULT, NR_COUNTERS);

	/* (c) the same stores again: the pages are clean again. */
	read_vmstat(before);
	t = touch_write(p, pages, pg, 0x22);
	read_vmstat(after);
	report_faults("rewrite-fault", pages, t, before, after);
	if (msync(p, size, MS_SYNC)) {
		perror("mmapfault: msync");
		return 1;
	}
	munmap(p, size);

	/* (d) copy-on-write faults on a private mapping of the file. */
	p = map(fd, size, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	read_vmstat(before);
	t = touch_write(p, pages, pg, 0x33);
	read_vmstat(after);
	report_faults("cow-fault", pages, t, before, after);
	munmap(p, size);

	/* The private stores must not have reached the file. */
	if (pread(fd, buf, 1, size - pg) != 1 || buf[0] != 0x22) {
		fprintf(stderr, "mmapfault: the file's last page holds %#x, "
			"want 0x22\n", buf[0]);
		return 1;
	}
	close(fd);
	unlink(path);
	return 0;
}
