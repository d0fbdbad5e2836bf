/*
 * mmap_mkwrite_truncated: a store fault whose page is truncated while
 * page_mkwrite waits for it.
 *
 * A store to a clean page mapped read-only goes through page_mkwrite,
 * which runs with the page unlocked until it locks it. If truncation
 * took the page out of the file meanwhile, page_mkwrite must notice (the
 * page's mapping is gone, or it starts past i_size) and let the fault be
 * retried, rather than allocate blocks for a page that is no longer the
 * file's. The window is held open with /proc/fail/delay's
 * mkwrite_before_lock point: the parent's store waits there while a child
 * truncates the file (the child tells when it was done: inside the
 * window, or the run proves nothing and says so).
 *
 *   shrink   12288 -> 100 bytes while the store into page 1 is held:
 *            the store gets SIGBUS (its page is past EOF now), no block
 *            past EOF (st_blocks), fsync clean, e2fsck clean
 *   regrow   12288 -> 100 -> 12288 while the store is held: the store
 *            lands in the page the retried fault finds, every other byte
 *            from 100 on reads zero, st_blocks counts block 0 and page 1
 *            only. (Blocks given to the truncated page would be mapped
 *            into the file without ever being written: the file's old
 *            bytes would come back from the disk.)
 *
 * Without /proc/fail/delay (the host Linux) the child truncates first and
 * the store comes after: the same checks hold. The files stay for e2fsck.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include "fault.h"
#include "tap.h"
#include "procfs.h"

#define SIZE (3 * 4096)
#define SMALL 100
#define WINDOW_MS 2000

static long ps, bsize;
static int have_delay;

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

/*
 * The child: once the parent's store is held (or at once without the
 * delay), shrink the file, and grow it again if regrow; then send the
 * time it finished down out. Exit status 2: the store was never held.
 */
static int child_truncate(int fd, int regrow, int out)
{
	long done;
	int i;

	for (i = 0; have_delay && i < 2000; i++) {
		if (fail_delay_taken("mkwrite_before_lock") == 1)
			break;
		sleep_ms(5);
	}
	if (have_delay && i == 2000)
		return 2;
	if (ftruncate(fd, SMALL) || (regrow && ftruncate(fd, SIZE)))
		return 1;
	done = now_ms();
	diag("child: truncated to %d bytes%s", SMALL,
	     regrow ? " and grown back" : "");
	return write(out, &done, sizeof(done)) == sizeof(done) ? 0 : 1;
}

static long blocks_of(long bytes)
{
	return (bytes + bsize - 1) / bsize;
}

/* Offset of the first byte of buf[from..to) that is neither 0 nor, at
 * stored, 'Z'; -1 if none. */
static long wrong_at(const char *buf, long from, long to, long stored)
{
	for (long i = from; i < to; i++)
		if (buf[i] != (i == stored ? 0x5a : 0))
			return i;
	return -1;
}

static void run(const char *name, int regrow)
{
	char *buf = malloc(SIZE), *m;
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644), status = -1;
	long want_blocks, store_at = ps + 10, began, done = -1;
	int times[2];
	struct stat st;
	struct fault f;
	pid_t pid;

	memset(buf, 'o', SIZE);
	if (!ok(fd >= 0 && write(fd, buf, SIZE) == SIZE && fsync(fd) == 0,
		"%s: %d bytes of 'o', written and synced (clean pages)", name,
		SIZE))
		return;
	m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!ok(m != MAP_FAILED && m[store_at] == 'o',
		"%s: map it MAP_SHARED and read page 1 (mapped read-only)",
		name))
		return;
	if (pipe(times))
		times[0] = times[1] = -1;
	if (have_delay)
		fail_delay("mkwrite_before_lock", WINDOW_MS, 1);
	pid = fork();
	if (pid == 0)
		_exit(child_truncate(fd, regrow, times[1]));
	if (!have_delay)
		waitpid(pid, &status, 0);
	began = now_ms();
	probe_store(m + store_at, &f);
	if (have_delay)
		waitpid(pid, &status, 0);
	if (read(times[0], &done, sizeof(done)) != sizeof(done))
		done = -1;
	close(times[0]);
	close(times[1]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		diag("%s: the store never reached mkwrite_before_lock", name);
	is_int(status, 0, "%s: the child truncated the file", name);
	if (have_delay)
		ok(done >= 0 && done - began < WINDOW_MS,
		   "%s: it was done %ld ms after the store began, inside the "
		   "%d ms the store was held", name, done - began, WINDOW_MS);
	else
		skip("no /proc/fail/delay", "%s: the child truncated while the "
		     "store was held", name);
	if (regrow)
		is_int(f.signo, 0, "%s: the store into page 1 goes through: "
				   "page 1 is in the file again", name);
	else
		is_int(f.signo, SIGBUS, "%s: the store into page 1, now past "
					"EOF, gets SIGBUS", name);
	is_int(msync(m, SIZE, MS_SYNC), 0, "%s: msync(MS_SYNC)", name);
	munmap(m, SIZE);
	is_int(fsync(fd), 0, "%s: fsync", name);
	want_blocks = blocks_of(SMALL) + (regrow ? ps / bsize : 0);
	if (fstat(fd, &st))
		st.st_blocks = -1;
	ok(st.st_blocks >= 0 && st.st_blocks * 512 <= want_blocks * bsize,
	   "%s: st_blocks %ld, at most %ld: blocks for bytes 0..%d%s only",
	   name, (long)st.st_blocks, want_blocks * bsize / 512, SMALL - 1,
	   regrow ? " and for page 1" : "");
	drop_caches();
	memset(buf, 'x', SIZE);
	is_long(pread(fd, buf, SIZE, 0), regrow ? SIZE : SMALL,
		"%s: read() gives %d bytes", name, regrow ? SIZE : SMALL);
	is_long(wrong_at(buf, SMALL, regrow ? SIZE : SMALL,
			 regrow ? store_at : -1), -1,
		"%s: bytes %d.. read zero%s", name, SMALL,
		regrow ? ", but for the byte stored" : "");
	free(buf);
	close(fd);
}

int main(void)
{
	struct statvfs sv;

	ps = sysconf(_SC_PAGESIZE);
	bsize = statvfs(".", &sv) ? ps : (long)sv.f_bsize;
	have_delay = fail_delay("mkwrite_before_lock", 0, 1) == 0;
	if (!have_delay)
		diag("no /proc/fail/delay: the child truncates before the "
		     "store");
	fault_install();
	plan(20);
	run("mkwrite_shrunk.dat", 0);
	run("mkwrite_regrown.dat", 1);
	return done_testing();
}
