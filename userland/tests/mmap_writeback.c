/*
 * mmap_writeback: stores through a shared mapping reach the disk without
 * msync or fsync: after munmap, and after the process exits with the
 * mapping still in place, the pages are dirty in the page cache and the
 * flusher writes them (doc/design.md, "Reclaim and writeback": munmap and
 * exit pass the stores on to the pages; msync, fsync or the flusher write
 * them).
 *
 * Phase 1 (any name but *.phase2): two files of 8 pages, written and
 * fsync'd (clean). One is mapped, stored to and unmapped; a child maps the
 * other, stores and exits without munmap. In pagelab, with
 * dirty_expire_centisecs set to 1 s by this program, nr_dirty in
 * /proc/vmstat must be at least 16 right after and reach 0 within 10 s
 * without any sync call (the flusher did it). Then the contents are
 * checked through read().
 * Phase 2 (*.phase2, run after a remount by scripts/pagelab-run): the
 * contents are on the disk.
 * On another system (Linux) the flusher timing is not ours to set: those
 * checks are skipped, the rest holds.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include "tap.h"
#include "procfs.h"

#define PAGES 8
#define PAGE 4096

static const char *const names[2] = { "wb_munmap.dat", "wb_exit.dat" };

static unsigned char byte_at(int file, long off)
{
	return (unsigned char)(off * 13 + file * 7 + 1) | 1;	/* never 0 */
}

static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* A clean file of PAGES zero pages: written and fsync'd. */
static int make_clean_file(const char *name)
{
	static char zero[PAGES * PAGE];
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, zero, sizeof(zero)) != sizeof(zero) ||
	    fsync(fd))
		return -1;
	return fd;
}

/* Store the file's pattern into every byte of a fresh shared mapping. */
static unsigned char *map_and_store(int fd, int file)
{
	unsigned char *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (long i = 0; i < PAGES * PAGE; i++)
		p[i] = byte_at(file, i);
	return p;
}

/* 1 if the file holds its pattern, 0 if not (diag says where). */
static int contents_right(int file)
{
	static unsigned char buf[PAGES * PAGE];
	int fd = open(names[file], O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

	if (fd >= 0)
		close(fd);
	if (n != sizeof(buf)) {
		diag("%s: read %zd bytes", names[file], n);
		return 0;
	}
	for (long i = 0; i < n; i++)
		if (buf[i] != byte_at(file, i)) {
			diag("%s: byte %ld is 0x%02x, want 0x%02x", names[file],
			     i, buf[i], byte_at(file, i));
			return 0;
		}
	return 1;
}

static void phase1(int ours)
{
	int fd0 = make_clean_file(names[0]), fd1 = make_clean_file(names[1]);
	long dirty = -1, waited = 0;
	unsigned char *p;
	pid_t pid;
	int status;

	ok(fd0 >= 0 && fd1 >= 0, "create two clean files of %d pages", PAGES);
	if (ours)
		ok(!write_sysctl("/proc/sys/vm/dirty_expire_centisecs", "100\n") &&
			   !write_sysctl("/proc/sys/vm/dirty_writeback_centisecs",
					 "50\n"),
		   "dirty pages expire after 1 s, the flusher looks every 0.5 s");
	p = map_and_store(fd0, 0);
	ok(p != NULL, "store through a shared mapping of %s", names[0]);
	is_int(p ? munmap(p, PAGES * PAGE) : -1, 0, "munmap it, no msync");
	close(fd0);
	pid = fork();
	if (pid == 0)
		_exit(map_and_store(fd1, 1) ? 0 : 1);	/* exit still mapped */
	close(fd1);
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 0,
	   "a child stores through a mapping of %s and exits still mapped",
	   names[1]);
	if (ours) {
		dirty = vmstat("nr_dirty");
		ok(dirty >= 2 * PAGES, "right after: %ld dirty pages (want >= %d)",
		   dirty, 2 * PAGES);
		while (dirty > 0 && waited < 100) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			waited++;
			dirty = vmstat("nr_dirty");
		}
		is_long(dirty, 0, "the flusher cleans them without any sync "
			"(%ld.%ld s)", waited / 10, waited % 10);
	} else {
		skip("not pagelab: its flusher timing is not ours", "dirty pages");
		skip("not pagelab: its flusher timing is not ours", "flusher");
	}
	drop_caches();
	ok(contents_right(0), "%s holds the stores made before munmap",
	   names[0]);
	ok(contents_right(1), "%s holds the stores of the child that exited",
	   names[1]);
}

int main(int argc, char **argv)
{
	const char *me = argc > 0 ? argv[0] : "";
	size_t len = strlen(me);
	struct utsname u;
	int ours = !uname(&u) && !strcmp(u.sysname, "pagelab");

	(void)argc;
	if (len > 7 && !strcmp(me + len - 7, ".phase2")) {
		ok(contents_right(0), "after a remount, %s holds the stores "
		   "made before munmap", names[0]);
		ok(contents_right(1), "after a remount, %s holds the child's "
		   "stores", names[1]);
		return done_testing();
	}
	phase1(ours);
	if (!ours) {	/* no phase 2 on a host: clean up */
		unlink(names[0]);
		unlink(names[1]);
	}
	return done_testing();
}
