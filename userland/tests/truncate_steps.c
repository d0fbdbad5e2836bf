/*
 * truncate_steps - the steps of a truncate where a wrong order or a
 * forgotten step shows, on the file system cwd is on (pagelab's ext2
 * with -o truncate=old or new; on the host ext2, ext4, tmpfs).
 *
 *   truncate_steps               sections 1 and 2, in a scratch directory
 *   truncate_steps --free-fails  section 3 only: it leaks blocks on
 *                                purpose (run it on a disk nobody fscks)
 *
 * Roadmap:
 *   1. the tail on disk: three pages of 0xff, synced and dropped from the
 *      cache, cut inside a block (1000, 2500, 5000 bytes), then grown by a
 *      write() well past the cut (no setsize, which would zero the tail
 *      itself): the bytes from the cut on read zero, before and after
 *      drop_caches. Only the truncate's own zeroing of the block at the
 *      new EOF (block_truncate_page at the new size) can make them so:
 *      the page was not cached, so nothing in memory was zeroed.
 *   2. a refused size changes nothing: with RLIMIT_FSIZE at the file's
 *      size, growing it by 10 bytes is EFBIG, and with a disk read armed
 *      to fail (/proc/fail/block_read) it is still EFBIG and the armed
 *      read is still there: the limits are checked before any block
 *      work (inode_newsize_ok first). Size and contents unchanged.
 *   3. (--free-fails) a block free that fails (/proc/fail/block_free)
 *      while cutting 40 KiB to 1000 bytes: truncate=new reports it (-1,
 *      EIO) with the size already 1000 (the commit point is passed);
 *      truncate=old cannot (0), the kernel only logs it.
 * /proc/fail is pagelab's: without it (the host) the checks that need it
 * are skipped, and everything else gives the same verdict.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096L
#define NOFAIL "no /proc/fail (not pagelab)"

static int can_drop = 1;

/* Write len bytes of c at off. */
static int fill(int fd, long off, long len, int c)
{
	static char buf[3 * PAGE];

	memset(buf, c, sizeof(buf));
	while (len > 0) {
		long n = len < (long)sizeof(buf) ? len : (long)sizeof(buf);

		if (pwrite(fd, buf, (size_t)n, off) != n)
			return -1;
		off += n;
		len -= n;
	}
	return 0;
}

/* The first offset in [off, off+len) that is not c (or cannot be read),
 * -1 if none. */
static long differs(int fd, long off, long len, int c)
{
	static unsigned char buf[3 * PAGE];

	while (len > 0) {
		long n = len < (long)sizeof(buf) ? len : (long)sizeof(buf);

		if (pread(fd, buf, (size_t)n, off) != n)
			return off;
		for (long i = 0; i < n; i++)
			if (buf[i] != (unsigned char)c)
				return off + i;
		off += n;
		len -= n;
	}
	return -1;
}

static long size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long)st.st_size;
}

/* fsync, then empty the page cache: 0, or -1 when it cannot be done. */
static int sync_and_drop(int fd)
{
	fsync(fd);
	if (can_drop && drop_caches() < 0)
		can_drop = 0;
	return can_drop ? 0 : -1;
}

/* "new", "old" or "" from the truncate= option of cwd's mount (the
 * longest mount point that is a prefix of cwd). */
static const char *truncate_sequence(void)
{
	static char seq[8];
	char cwd[PATH_MAX], dev[256], mnt[1024], type[64], opts[1024];
	size_t best = 0;
	FILE *f = fopen("/proc/mounts", "r");

	seq[0] = 0;
	if (!f || !getcwd(cwd, sizeof(cwd))) {
		if (f)
			fclose(f);
		return seq;
	}
	while (fscanf(f, "%255s %1023s %63s %1023s %*[^\n]", dev, mnt, type,
		      opts) == 4) {
		size_t m = strlen(mnt);
		char *t;

		if (strncmp(cwd, mnt, m) ||
		    (m > 1 && cwd[m] != '/' && cwd[m] != 0) || m < best)
			continue;
		best = m;
		t = strstr(opts, "truncate=");
		snprintf(seq, sizeof(seq), "%.3s", t ? t + 9 : "");
	}
	fclose(f);
	return seq;
}

/* ---- 1. the tail on disk ------------------------------------------------- */

static void tail_on_disk(long cut)
{
	long grown = 3 * PAGE + 10;
	int fd = open("tail", O_CREAT | O_RDWR | O_TRUNC, 0644);

	fill(fd, 0, 3 * PAGE, 0xff);
	if (sync_and_drop(fd) < 0)
		diag("the file is still cached: this only checks the cache");
	is_long(ftruncate(fd, cut), 0,
		"3 pages of 0xff on disk, not cached, cut to %ld", cut);
	is_long(pwrite(fd, "Z", 1, grown - 1), 1,
		"a write() at %ld grows the file again", grown - 1);
	is_long(differs(fd, 0, cut, 0xff), -1, "bytes 0..%ld are 0xff",
		cut - 1);
	is_long(differs(fd, cut, grown - 1 - cut, 0), -1,
		"bytes %ld..%ld read zero: the truncate zeroed the tail of the "
		"block at the new EOF (block_truncate_page at the new size)",
		cut, grown - 2);
	if (sync_and_drop(fd) == 0)
		is_long(differs(fd, cut, grown - 1 - cut, 0), -1,
			"after drop_caches too: the zeroing reached the disk");
	else
		skip("no drop_caches", "after drop_caches too");
	close(fd);
	unlink("tail");
}

/* ---- 2. a refused size changes nothing ---------------------------------- */

static void refused_growth(void)
{
	struct rlimit old, rl;
	int fd = open("refused", O_CREAT | O_RDWR | O_TRUNC, 0644);
	int armed, still_armed, err;
	long r;

	fill(fd, 0, 1000, 'x');
	sync_and_drop(fd);
	armed = fail_arm("block_read", 1) == 0;
	/* Nothing is printed while the limit is low: stdout may be a file
	 * past 1000 bytes. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	rl = old;
	rl.rlim_cur = 1000;
	setrlimit(RLIMIT_FSIZE, &rl);
	errno = 0;
	r = ftruncate(fd, 1010);
	err = errno;
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	still_armed = armed && fail_armed("block_read");
	if (armed)
		fail_arm("block_read", 0);
	errno = err;
	is_errno(r, EFBIG, "growing past RLIMIT_FSIZE (1000 -> 1010) is EFBIG%s",
		 armed ? ", with a disk read armed to fail: the limit is "
			 "checked before any block work" : "");
	if (armed)
		ok(still_armed, "the refused truncate read nothing from the "
				"disk (the armed read failure is still there)");
	else
		skip(NOFAIL, "the refused truncate read nothing from the disk");
	is_long(size_of(fd), 1000, "the size is still 1000");
	is_long(differs(fd, 0, 1000, 'x'), -1, "the 1000 bytes are intact");
	close(fd);
	unlink("refused");
}

/* ---- 3. a block free that fails ------------------------------------------ */

static void failed_free(void)
{
	const char *seq = truncate_sequence();
	int fd = open("free", O_CREAT | O_RDWR | O_TRUNC, 0644);
	long r;

	fill(fd, 0, 40 * 1024, 'f');
	fsync(fd);
	if (fail_arm("block_free", 1) < 0) {
		skip(NOFAIL, "a failed block free while cutting 40 KiB to 1000");
		close(fd);
		return;
	}
	diag("cwd's mount speaks truncate=%s", *seq ? seq : "(unknown)");
	errno = 0;
	r = ftruncate(fd, 1000);
	if (!strcmp(seq, "old"))
		is_long(r, 0, "truncate=old: a failed block free cannot be "
			      "reported (->truncate returns nothing)");
	else
		is_errno(r, EIO, "truncate=new: a failed block free is reported: "
				 "ext2_setsize returns ext2_truncate_blocks' "
				 "error");
	is_long(size_of(fd), 1000, "the size is 1000 either way (the blocks "
				   "are freed after i_size is committed)");
	fail_arm("block_free", 0);
	close(fd);
}

/* Remove dir and what is in it (one level). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	char dir[] = "truncate_steps.XXXXXX";
	int free_fails = argc > 1 && !strcmp(argv[1], "--free-fails");

	alarm(120);
	if (!mkdtemp(dir) || chdir(dir) < 0) {
		diag("cannot make a scratch directory in cwd: %s",
		     strerror(errno));
		return 1;
	}
	if (free_fails) {
		failed_free();
	} else {
		tail_on_disk(1000);
		tail_on_disk(2500);
		tail_on_disk(5000);
		refused_growth();
	}
	chdir("..");
	remove_tree(dir);
	return done_testing();
}
