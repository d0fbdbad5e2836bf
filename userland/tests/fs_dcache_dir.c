/*
 * fs_dcache_dir: cached lookups stay right, and a large directory works.
 *   1. negative dentries: a missing name, looked up twice (the second time
 *      from the dcache on pagelab's ext2), comes into being by creat,
 *      mkdir, mknod, symlink, link and rename, and each is seen at once;
 *      unlink and rmdir make it missing again;
 *   2. drop_caches 2 frees dentries: nr_dentry in /proc/sys/fs/dentry-state
 *      falls after stats of many missing names (Linux has the same file);
 *   3. one directory of NFILES names, long and short, enough for pagelab's
 *      in-memory name index (fs/ext2/dir.c): every name found, missing
 *      ones not, duplicates refused, every other one removed and others
 *      added into the freed room, and still right after drop_caches 3;
 *      readdir sees exactly the names there are. pagelab-run's e2fsck -fn
 *      checks the directory on the disk afterwards.
 * As fs_dcache_dir.phase2 (after a remount), it checks that the large
 * directory came back from the disk with exactly the expected names.
 *
 * Runs in the current directory (pagelab-run: /mnt, a scratch ext2).
 */
#include "tap.h"
#include "procfs.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define NFILES 1500
#define BIGDIR "bigdir"

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Missing twice, then made by make(), then present. */
static void comes_into_being(const char *name, int (*make)(const char *),
			     const char *how)
{
	ok(!exists(name) && errno == ENOENT, "%s: missing before", how);
	ok(!exists(name) && errno == ENOENT, "%s: still missing (cached)",
	   how);
	ok(make(name) == 0, "%s: made", how);
	ok(exists(name), "%s: seen at once after it was made", how);
}

static int make_file(const char *n)
{
	int fd = open(n, O_WRONLY | O_CREAT | O_EXCL, 0644);

	return fd < 0 ? -1 : close(fd);
}
static int make_dir(const char *n) { return mkdir(n, 0755); }
static int make_fifo(const char *n) { return mknod(n, S_IFIFO | 0644, 0); }
static int make_symlink(const char *n) { return symlink("nd-file", n); }
static int make_link(const char *n) { return link("nd-file", n); }
static int make_rename(const char *n)
{
	return make_file("nd-src") ? -1 : rename("nd-src", n);
}

static void negative_dentries(void)
{
	comes_into_being("nd-file", make_file, "creat");
	comes_into_being("nd-dir", make_dir, "mkdir");
	comes_into_being("nd-fifo", make_fifo, "mknod");
	comes_into_being("nd-symlink", make_symlink, "symlink");
	comes_into_being("nd-link", make_link, "link");
	comes_into_being("nd-renamed", make_rename, "rename");
	ok(!exists("nd-src"), "rename: the old name is gone");
	ok(unlink("nd-file") == 0 && !exists("nd-file"),
	   "unlink: missing again");
	ok(rmdir("nd-dir") == 0 && !exists("nd-dir"), "rmdir: missing again");
	ok(make_dir("nd-dir") == 0 && exists("nd-dir"),
	   "mkdir: the name comes back");
	unlink("nd-fifo");
	unlink("nd-symlink");
	unlink("nd-link");
	unlink("nd-renamed");
	rmdir("nd-dir");
}

static long nr_dentry(void)
{
	FILE *f = fopen("/proc/sys/fs/dentry-state", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void drop_dentries(void)
{
	char name[64];
	long before, after;

	for (int i = 0; i < 500; i++) {
		snprintf(name, sizeof(name), "never-there-%d", i);
		exists(name);
	}
	before = nr_dentry();
	sync();
	ok(drop_caches_mode("2") == 0, "drop_caches 2 accepted");
	after = nr_dentry();
	ok(before > 0 && after >= 0, "dentry-state read: %ld then %ld",
	   before, after);
	ok(after < before, "drop_caches 2 freed dentries (%ld -> %ld)",
	   before, after);
}

/* Name i: lengths from 1 to 40-odd characters, so records differ. */
static void big_name(char *buf, size_t len, int i, int gen)
{
	snprintf(buf, len, BIGDIR "/%c%d%.*s", 'a' + gen, i, i % 37,
		 "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDF");
}

static int count_entries(void)
{
	DIR *d = opendir(BIGDIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* What an earlier run left (phase 2 needs the directory, so phase 1
 * does not remove it; on the host the same work directory is reused). */
static void remove_big(void)
{
	char name[300];

	/* readdir may skip names unlinked under it: go over it again */
	for (int pass = 0; pass < 4 && rmdir(BIGDIR) < 0; pass++) {
		DIR *d = opendir(BIGDIR);
		struct dirent *e;

		if (!d)
			return;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(name, sizeof(name), BIGDIR "/%s", e->d_name);
			unlink(name);
		}
		closedir(d);
	}
}

/* Names of generation 0 with odd i, and of generation 1 with even i, are
 * there; the others are not. */
static void check_big(const char *when)
{
	char name[96];
	int wrong = 0;

	for (int i = 0; i < NFILES; i++) {
		big_name(name, sizeof(name), i, 0);
		wrong += exists(name) != (i % 2 == 1);
		big_name(name, sizeof(name), i, 1);
		wrong += exists(name) != (i % 2 == 0);
		big_name(name, sizeof(name), i, 2);
		wrong += exists(name);
	}
	is_int(wrong, 0, "%s: every name found or missing as it should",
	       when);
	is_int(count_entries(), NFILES, "%s: readdir sees %d names", when,
	       NFILES);
}

static void big_directory(void)
{
	char name[96];
	int bad = 0, fd;

	ok(mkdir(BIGDIR, 0755) == 0, "mkdir " BIGDIR);
	for (int i = 0; i < NFILES; i++) {
		big_name(name, sizeof(name), i, 0);
		bad += make_file(name) != 0;
	}
	is_int(bad, 0, "%d names created", NFILES);
	big_name(name, sizeof(name), 7, 0);
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
	is_errno(fd, EEXIST, "creating an existing name fails");
	bad = 0;
	for (int i = 0; i < NFILES; i += 2) {
		big_name(name, sizeof(name), i, 0);
		bad += unlink(name) != 0;
	}
	is_int(bad, 0, "every other name removed");
	bad = 0;
	for (int i = 0; i < NFILES; i += 2) {
		big_name(name, sizeof(name), i, 1);
		bad += make_file(name) != 0;
	}
	is_int(bad, 0, "new names added into the freed room");
	check_big("cached");
	sync();
	ok(drop_caches_mode("3") == 0, "drop_caches 3");
	check_big("after drop_caches 3");
}

int main(int argc, char **argv)
{
	size_t len = argc > 0 ? strlen(argv[0]) : 0;

	if (len > 7 && !strcmp(argv[0] + len - 7, ".phase2")) {
		check_big("after a remount");
		return done_testing();
	}
	remove_big();
	negative_dentries();
	drop_dentries();
	big_directory();
	return done_testing();
}
