/*
 * munmap_truncate_dirty_race: a munmap that hands a PTE's dirty bit to
 * the page while, on another CPU, a truncate takes the page's buffers
 * past the new EOF away.
 *
 * munmap clears each PTE and, when the PTE was dirty, calls set_page_dirty
 * (zap_pte), which marks the page's buffers that have a disk block dirty.
 * It holds the page-table lock, not the page lock. A truncate that cuts
 * inside the page holds the page lock and discards the buffers past the
 * new EOF (block_invalidatepage): each loses its disk block and its dirty
 * bit, and ext2 frees the blocks. If the munmap checks "mapped" before
 * the discard and sets "dirty" after it, a buffer is left dirty with no
 * block. When the file grows over it again, writeback finds a dirty hole
 * inside i_size and fails the fsync with EIO ("holds data but has no
 * disk block"). The race stress found it on four CPUs (an msync that
 * failed with EIO, about one boot in fifteen), and once a munmap crashed
 * the kernel in __set_page_dirty_buffers, walking a ring of buffers that
 * had been freed meanwhile. Linux keeps set_page_dirty apart from those
 * who attach, discard and free buffers with the mapping's private_lock,
 * and so does pagelab now.
 *
 * The window is held open with /proc/fail/delay's dirty_mapped_buffer
 * point, which spins (the caller holds spinlocks): the munmap spins
 * after finding the page's second buffer mapped, and a child truncates
 * meanwhile. That needs two CPUs; on one, or on Linux, the two simply
 * run one after the other and every check holds.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "tap.h"
#include "procfs.h"

#define NAME "dirty_race.dat"
#define SIZE 12288		/* three pages: the third is cut inside */
#define CUT 9000		/* page 2, its first 1 KiB block */
#define SPIN_MS 400

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* The child: once the parent has armed the point (a byte on go) and
 * spins at the page's second buffer (the point disarmed), cut. */
static int child_truncate(int fd, int go, int have_delay)
{
	char c;

	if (read(go, &c, 1) != 1)
		return EPIPE;
	for (int i = 0; have_delay && i < 2000; i++) {
		if (fail_delay_taken("dirty_mapped_buffer") == 1)
			break;
		sleep_ms(2);
	}
	return ftruncate(fd, CUT) == 0 ? 0 : errno;
}

int main(void)
{
	static char buf[SIZE], back[SIZE];
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644), status = -1;
	int have_delay, wrong = 0, go[2];
	char *p;
	pid_t pid;

	memset(buf, 'a', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, SIZE) == SIZE && fsync(fd) == 0,
	   "create %s with %d bytes, every block on disk", NAME, SIZE);
	have_delay = fail_delay_taken("dirty_mapped_buffer") >= 0;
	if (!have_delay)
		diag("no /proc/fail/delay: the race is left to chance");
	/* Forked before the mapping: the child has no PTE of its own. */
	if (!ok(pipe(go) == 0, "a pipe to tell the child when"))
		return done_testing();
	pid = fork();
	if (pid == 0)
		_exit(child_truncate(fd, go[0], have_delay));
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok(p != MAP_FAILED, "map it shared");
	if (p == MAP_FAILED) {
		kill(pid, SIGKILL);
		return done_testing();
	}
	/* A store to each block of the last page: its PTE is dirty, and
	 * page_mkwrite gave it all four buffers, mapped. */
	for (int off = 8192; off < SIZE; off += 1024)
		p[off] = 'b';
	if (have_delay)
		ok(fail_delay("dirty_mapped_buffer", SPIN_MS, 2) == 0,
		   "arm dirty_mapped_buffer: the next two spin %d ms",
		   SPIN_MS);
	ok(write(go[1], "", 1) == 1, "tell the child");
	is_int(munmap(p, SIZE), 0, "munmap, whose zap dirties the page");
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "the child cut the file to %d meanwhile (status %#x)", CUT, status);
	if (have_delay)
		is_int(fail_delay_taken("dirty_mapped_buffer"), 1,
		       "the munmap spun twice in __set_page_dirty_buffers");
	is_int(ftruncate(fd, SIZE), 0, "grow it back to %d", SIZE);
	is_int(fsync(fd), 0, "fsync: no dirty buffer without a disk block");
	drop_caches();
	is_int(pread(fd, back, SIZE, 0), SIZE, "read the file back");
	for (int i = 0; i < SIZE; i++) {
		char want = i >= CUT ? 0 : i >= 8192 && i % 1024 == 0 ? 'b'
									 : 'a';

		wrong += back[i] != want;
	}
	is_int(wrong, 0, "the stores before %d are in the file, zeroes after",
	       CUT);
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
