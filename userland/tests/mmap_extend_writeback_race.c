/*
 * mmap_extend_writeback_race: writeback that runs while a file grows.
 *
 * With 1 KiB blocks the page holding EOF has blocks only up to EOF. A
 * store through a shared mapping past EOF (allowed: the page is mapped)
 * lands in a part of the page that has no disk block and is not file
 * data. When the file then grows, pagecache_isize_extended zeroes that
 * part, but only after i_size has moved. Writeback that runs in between
 * sees a hole inside i_size holding data. It must not call that lost data:
 * the store was made past EOF, the zeroing is on its way, and fsync must
 * succeed.
 *
 * The window (i_size set, zeroing not yet done) is held open with
 * /proc/fail/delay's isize_set point while a child calls fsync, so the
 * race happens on every run. On Linux, with no such file, the child's
 * fsync simply runs before or after: the checks hold all the same.
 * Run under a name containing "by_write" (or with the argument "write"),
 * the file grows by a pwrite past the end
 * instead of ftruncate (generic_write_end has the same window).
 *
 * This is the data loss the 1 KiB mmap stress test hit about one boot in
 * twenty ("block 199 holds data but has no disk block"; fsync: EIO).
 *
 * A second store past EOF lands in the block that holds EOF, which has a
 * disk block. Writeback in the window must not write that block either:
 * it would put the store on the disk, the zeroing that follows changes
 * only the page cache, and the store comes back once the page is dropped
 * (mmap_truncate_stress found it on four CPUs, about one run in five).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "tap.h"
#include "procfs.h"

#define NAME "extend_race.dat"
#define OLD_SIZE 1124		/* EOF inside the second 1 KiB block */
#define NEW_SIZE 8192
#define PAST_EOF 3000		/* same page, third block: no disk block */
#define PAST_EOF_IN_BLOCK 1500	/* past EOF in EOF's own block: on disk */

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* The child: once the parent is inside the window, fsync. */
static int child_fsync(int fd, int have_delay)
{
	for (int i = 0; have_delay && i < 2000; i++) {
		if (fail_delay_taken("isize_set") == 1)
			break;
		sleep_ms(5);
	}
	return fsync(fd) == 0 ? 0 : errno;
}

int main(int argc, char **argv)
{
	int by_write = (argc > 1 && !strcmp(argv[1], "write")) ||
		       strstr(argv[0], "by_write");
	char buf[OLD_SIZE], back[NEW_SIZE];
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644), status = -1;
	int have_delay, nonzero = 0;
	char *p;
	pid_t pid;

	memset(buf, 'a', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, OLD_SIZE) == OLD_SIZE && fsync(fd) == 0,
	   "create %s with %d bytes", NAME, OLD_SIZE);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok(p != MAP_FAILED, "map its first page shared");
	if (p == MAP_FAILED)
		return done_testing();
	p[0] = 'b';		/* page_mkwrite: blocks up to EOF */
	p[PAST_EOF] = 'X';	/* past EOF: in the page, not in the file */
	p[PAST_EOF_IN_BLOCK] = 'Y';	/* the same, in a block it has */
	have_delay = fail_delay("isize_set", 1500, 1) == 0;
	if (!have_delay)
		diag("no /proc/fail/delay: the race is left to chance");
	pid = fork();
	if (pid == 0)
		_exit(child_fsync(fd, have_delay));
	if (by_write)
		is_int(pwrite(fd, "", 1, NEW_SIZE - 1), 1,
		       "pwrite 1 byte at %d", NEW_SIZE - 1);
	else
		is_int(ftruncate(fd, NEW_SIZE), 0, "ftruncate %d -> %d",
		       OLD_SIZE, NEW_SIZE);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fsync while the size grew succeeded (child status %#x: %s)",
	   status, WIFEXITED(status) ? strerror(WEXITSTATUS(status)) : "-");
	is_int(p[PAST_EOF], 0, "the byte stored past the old EOF reads 0 "
	       "through the mapping");
	is_int(fsync(fd), 0, "a last fsync is clean");
	munmap(p, 4096);
	drop_caches();
	is_int(pread(fd, back, NEW_SIZE, 0), NEW_SIZE, "read the file back");
	for (int i = OLD_SIZE; i < NEW_SIZE; i++)
		nonzero += back[i] != 0;
	is_int(nonzero, 0, "bytes %d..%d are zeroes", OLD_SIZE, NEW_SIZE - 1);
	is_int(back[0], 'b', "the store inside the old EOF is in the file");
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
