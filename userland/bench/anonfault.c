/*
 * anonfault: anonymous page faults, in pages/s.
 *
 * ROUNDS times: mmap MIB of private anonymous memory, store one byte per
 * page (each store is a demand-zero fault: allocate a page, zero it, map
 * it), munmap. Only the stores are timed. Why: the page allocator's and
 * do_anonymous_page's fast path is the cost of every fresh heap and stack
 * page; a read touch would only map the zero page, so stores it is.
 * Linux's transparent huge pages would turn 512 faults into one: the
 * mapping is madvise(MADV_NOHUGEPAGE)'d (Debian's default is madvise-only
 * anyway), so both kernels fault 4 KiB pages.
 *
 * Usage: anonfault [MIB [ROUNDS]]  (default 64 MiB, 2 rounds)
 */
#include <sys/mman.h>

#include "bench.h"

/* /proc/vmstat's pgfault, -1 without one: faults per round, to show. */
static long long pgfaults(void)
{
	static char buf[16384];
	int fd = open("/proc/vmstat", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	char *p;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\npgfault ");
	return p ? atoll(p + 9) : -1;
}

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 64;
	int rounds = argc > 2 ? atoi(argv[2]) : 2;
	long pg = sysconf(_SC_PAGESIZE), pages;
	size_t size = (size_t)mib << 20;
	double t = 0, t0;

	must(mib > 0 && rounds > 0, "anonfault: usage: anonfault [MIB [ROUNDS]]");
	pages = size / pg;
	for (int r = 0; r < rounds; r++) {
		volatile unsigned char *p = mmap(NULL, size,
						 PROT_READ | PROT_WRITE,
						 MAP_PRIVATE | MAP_ANONYMOUS,
						 -1, 0);

		must(p != MAP_FAILED, "anonfault: mmap");
		madvise((void *)p, size, MADV_NOHUGEPAGE);
		long long f0 = pgfaults();

		t0 = bench_now();
		for (long i = 0; i < pages; i++)
			p[i * pg] = 1;
		t0 = bench_now() - t0;
		t += t0;
		printf("anonfault: round %d: %ld pages, %.0f ns/page, "
		       "pgfault +%lld\n", r + 1, pages, t0 * 1e9 / pages,
		       pgfaults() - f0);
		for (long i = 0; i < pages; i += 97)
			must(p[i * pg] == 1 && p[i * pg + 1] == 0,
			     "anonfault: page contents");
		must(munmap((void *)p, size) == 0, "anonfault: munmap");
	}
	figure("anonymous page faults (store, 64 MiB touched)",
	       rounds * pages / t, "pages/s");
	return 0;
}
