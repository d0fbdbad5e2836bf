/*
 * fs_new_block_zero - a block newly allocated to a file reads zero
 * wherever nothing was written into it, never what the disk held there
 * before (another file's freed data), on the file system cwd is on.
 *
 * Roadmap:
 *   1. "old": 512 KiB of 0xee, synced to disk, then removed and synced:
 *      its blocks are free again, the 0xee still on the disk
 *   2. "new": a sparse file of about 512 KiB, then one byte written in
 *      the middle of each 4 KiB step (each write allocates its block:
 *      mostly the blocks just freed): every other byte of the file reads
 *      zero, through the cache, and again after fsync + drop_caches
 * On ext2 the 1-byte write is a partial write into a new block: the
 * file system must tell the write path the block is new (ext2_get_block:
 * set_buffer_new) so that it zeroes the rest of the block instead of
 * reading it from the disk. drop_caches is skipped when not allowed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define OLD_SIZE (512 * 1024L)
#define STEP 4096L
#define NSTEPS (OLD_SIZE / STEP)
#define AT (STEP / 2)	/* where in each step the byte goes */
#define NEW_SIZE ((NSTEPS - 1) * STEP + AT + 1)

static char buf[OLD_SIZE];

/* The first offset of the file that is neither zero nor one of the
 * written bytes, -1 if none, -2 if it cannot be read whole. */
static long first_stale(int fd)
{
	if (pread(fd, buf, NEW_SIZE, 0) != NEW_SIZE)
		return -2;
	for (long i = 0; i < NEW_SIZE; i++) {
		char want = i % STEP == AT ? 'n' : 0;

		if (buf[i] != want)
			return i;
	}
	return -1;
}

int main(void)
{
	int fd = open("old", O_CREAT | O_RDWR | O_TRUNC, 0644);
	long stale;

	alarm(120);
	memset(buf, 0xee, sizeof(buf));
	ok(pwrite(fd, buf, OLD_SIZE, 0) == OLD_SIZE && fsync(fd) == 0,
	   "512 KiB of 0xee written to \"old\" and synced");
	close(fd);
	ok(unlink("old") == 0, "\"old\" removed: its blocks are free, their "
			       "bytes still on the disk");
	sync();

	/* Sized first: a write past EOF would zero the old EOF's page
	 * tail itself (pagecache_isize_extended) and hide what this is
	 * about. */
	fd = open("new", O_CREAT | O_RDWR | O_TRUNC, 0644);
	ftruncate(fd, NEW_SIZE);
	for (long k = 0; k < NSTEPS; k++)
		if (pwrite(fd, "n", 1, k * STEP + AT) != 1)
			break;
	is_long(lseek(fd, 0, SEEK_END), NEW_SIZE,
		"\"new\": one byte written every 4 KiB into a sparse file");
	stale = first_stale(fd);
	is_long(stale, -1, "every other byte reads zero: the rest of a new "
			   "block is zeroed, not read from the disk (the "
			   "offset of the first stale byte, or -2: short "
			   "read)");
	fsync(fd);
	if (drop_caches() == 0) {
		stale = first_stale(fd);
		is_long(stale, -1, "after fsync and drop_caches too");
	} else {
		skip("no drop_caches", "after fsync and drop_caches too");
	}
	close(fd);
	unlink("new");
	return done_testing();
}
