/*
 * mmap_extend_zero_race: a store through a writable mapping while the
 * file grows past it.
 *
 * With 1 KiB blocks the page holding EOF has disk blocks only up to EOF.
 * When the file grows, pagecache_isize_extended must write-protect that
 * page (so the next store calls page_mkwrite, which allocates the blocks
 * the new size needs) and then zero it from the old EOF on (what was
 * stored there through a mapping was never file data). In that order: a
 * store that comes after the zeroing but before the write-protection
 * lands, without a fault, in a part of the file that has no disk block;
 * writeback can only drop it (and say so: msync EIO).
 *
 * The window is held open with /proc/fail/delay's page_mkclean point: the
 * child growing the file waits in page_mkclean before any PTE is
 * write-protected, and the parent stores past the old EOF through its
 * still-writable mapping (it checks that it did: before the child was
 * done, and with no page_mkwrite on the way). The store and the growth are concurrent, so the
 * store may be zeroed; it must not be left in a hole: msync and fsync
 * succeed, the byte reads 0 through the mapping and from the disk.
 * Twice: grown by ftruncate, and by a pwrite past the end.
 *
 * page_mkclean is also where writeback write-protects a page it is about
 * to write; dirty_expire_centisecs is raised for the duration so that the
 * flusher cannot take the window instead. Without /proc/fail/delay (the
 * host Linux) there is no window to hold: those checks are skipped.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include "tap.h"
#include "procfs.h"

#define OLD_SIZE 1124		/* EOF inside the second 1 KiB block */
#define NEW_SIZE 8192
#define PAST_EOF 3000		/* same page, third block: no disk block */
#define WINDOW_MS 3000
#define EXPIRE "/proc/sys/vm/dirty_expire_centisecs"

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

/* Read (into old, if given) and write a /proc value; -1 on failure. */
static int swap_proc(const char *path, const char *val, char *old, int len)
{
	int fd = open(path, O_RDWR), n = 0;

	if (fd < 0)
		return -1;
	if (old) {
		n = read(fd, old, len - 1);
		old[n > 0 ? n : 0] = 0;
	}
	n = pwrite(fd, val, strlen(val), 0) == (ssize_t)strlen(val);
	close(fd);
	return n ? 0 : -1;
}

static void run(const char *name, int by_write)
{
	char buf[OLD_SIZE], *back = calloc(1, NEW_SIZE);
	volatile char *m;
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644), status = -1;
	long bad = -1, stored, done = -1, mkwrites;
	int times[2], i, reaped = 0;
	pid_t pid;

	memset(buf, 'a', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, OLD_SIZE) == OLD_SIZE && fsync(fd) == 0,
	   "%s: %d bytes of 'a'", name, OLD_SIZE);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!ok(m != MAP_FAILED, "%s: map its first page shared", name))
		return;
	m[0] = 'b';	/* page_mkwrite: blocks up to EOF, the PTE writable */
	if (pipe(times))
		times[0] = times[1] = -1;
	fail_delay("page_mkclean", WINDOW_MS, 1);
	pid = fork();
	if (pid == 0) {
		int r = by_write ? pwrite(fd, "e", 1, NEW_SIZE - 1) != 1
				 : ftruncate(fd, NEW_SIZE) != 0;

		done = now_ms();
		_exit(r || write(times[1], &done, sizeof(done)) != sizeof(done));
	}
	/* Until the child is held in the window; not past its exit (a
	 * growth that never calls page_mkclean never enters it). */
	for (i = 0; i < 2000 && fail_delay_taken("page_mkclean") != 1; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			break;
		}
		sleep_ms(5);
	}
	mkwrites = vmstat("mkwrite");
	stored = now_ms();
	m[PAST_EOF] = 'X';
	mkwrites = vmstat("mkwrite") - mkwrites;
	if (!reaped)
		waitpid(pid, &status, 0);
	if (read(times[0], &done, sizeof(done)) != sizeof(done))
		done = -1;
	close(times[0]);
	close(times[1]);
	is_int(status, 0, "%s: the child grew the file to %d bytes by %s",
	       name, NEW_SIZE, by_write ? "pwrite" : "ftruncate");
	/* The window: the child was held in page_mkclean (the console
	 * names the holder), the store came before it went on, and the
	 * PTE was still writable then (no page_mkwrite). */
	ok(i < 2000 && done >= 0 && stored < done && mkwrites == 0,
	   "%s: 'X' stored at byte %d while the growth was held, through the "
	   "still-writable PTE (%ld ms before the growth was done, %ld "
	   "page_mkwrite)", name, PAST_EOF, done - stored, mkwrites);
	is_int(m[PAST_EOF], 0, "%s: byte %d reads 0 through the mapping",
	       name, PAST_EOF);
	is_int(msync((void *)m, 4096, MS_SYNC), 0, "%s: msync(MS_SYNC)", name);
	is_int(fsync(fd), 0, "%s: fsync", name);
	munmap((void *)m, 4096);
	drop_caches();
	is_int(pread(fd, back, NEW_SIZE, 0), NEW_SIZE, "%s: read it back",
	       name);
	for (int i = OLD_SIZE; i < NEW_SIZE - by_write && bad < 0; i++)
		if (back[i])
			bad = i;
	is_long(bad, -1, "%s: bytes %d..%d are zeroes", name, OLD_SIZE,
		NEW_SIZE - 1 - by_write);
	is_int(back[0], 'b', "%s: the store inside the old EOF is in the file",
	       name);
	free(back);
	close(fd);
}

int main(void)
{
	char expire[32];

	if (fail_delay("page_mkclean", 0, 1)) {
		plan(1);
		skip("no /proc/fail/delay", "a store while the file grows");
		return done_testing();
	}
	plan(20);
	if (swap_proc(EXPIRE, "360000\n", expire, sizeof(expire)))
		diag("could not raise %s", EXPIRE);
	run("zero_race.dat", 0);
	run("zero_race_by_write.dat", 1);
	swap_proc(EXPIRE, expire, NULL, 0);
	return done_testing();
}
