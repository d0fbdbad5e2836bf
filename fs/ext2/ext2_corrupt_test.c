/*
 * fs/ext2/ext2_corrupt_test.c: self-test "ext2_corrupt": damaged and
 * foreign images (scripts/mkcorrupt-images, the bad-* images of
 * scripts/mkimages) must be refused or give EIO, never a panic or a hang.
 *
 * For each RAM disk it mounts the disk read-write
 * and, if that works, walks the whole tree: every directory is listed,
 * every file read to the end, every symlink read, and a new file is
 * created in every directory. It reports, one line per event:
 *
 *   ext2_corrupt: ram0: mount refused (-22)
 *   ext2_corrupt: ram1: /big: read: -5
 *   ext2_corrupt: ram1: 5 entries, 2 errors
 *
 * The test list knows which disk holds which damage and matches these
 * lines together with the ext2 log lines that explain them. The test
 * fails only if something does not even get an error back (a read that
 * returns garbage is not detectable here; e2fsck made sure each image is
 * damaged).
 */
#include "ext2_test.h"
#include <fs/blkdev.h>
#include <fs/mount.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>

#define CMNT "/mnt/ext2_corrupt"

static const char *disk;
static int entries, errors;

static void report(const char *path, const char *what, long err)
{
	pr_info("ext2_corrupt: %s: %s: %s: %ld\n", disk,
		path[strlen(CMNT)] ? path + strlen(CMNT) : "/", what, err);
	errors++;
}

static void read_file(const char *path)
{
	char *buf = kmalloc(4096, GFP_KERNEL);
	int fd = ksys_open(path, O_RDONLY, 0);
	long r = 0;

	if (fd < 0) {
		report(path, "open", fd);
		kfree(buf);
		return;
	}
	for (int i = 0; buf && i < 100000 && (r = kfd_read(fd, buf, 4096)) > 0;
	     i++)
		;
	if (r < 0)
		report(path, "read", r);
	close_fd(fd);
	kfree(buf);
}

static void walk(const char *dir, int depth);

static void visit(const char *path, int depth)
{
	struct kstat st;
	char target[64];
	long err = vfs_fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW);

	entries++;
	if (err) {
		report(path, "stat", err);
		return;
	}
	if (S_ISDIR(st.mode)) {
		walk(path, depth + 1);
	} else if (S_ISLNK(st.mode)) {
		err = do_readlinkat(AT_FDCWD, path, target, sizeof(target));
		if (err < 0)
			report(path, "readlink", err);
	} else if (S_ISREG(st.mode)) {
		read_file(path);
	}
}

static void walk(const char *dir, int depth)
{
	char *buf, *path;
	long n, err;
	struct file *f;
	int fd;

	if (depth > 8)
		return;
	fd = ksys_open(dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		report(dir, "open", fd);
		return;
	}
	buf = kmalloc(4096, GFP_KERNEL);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	f = fget(fd);
	while (buf && path && (n = vfs_getdents64(f, buf, 4096)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			snprintf(path, PATH_MAX, "%s/%s", dir, d->d_name);
			visit(path, depth);
		}
	}
	if (buf && path && n < 0)
		report(dir, "getdents", n);
	fput(f);
	close_fd(fd);
	if (path) {	/* and a change: a new name in the directory */
		snprintf(path, PATH_MAX, "%s/new-by-pagelab", dir);
		err = write_whole_file(path, "x", 1);
		if (err)
			report(dir, "create", err);
		else
			do_unlinkat(AT_FDCWD, path);
	}
	kfree(buf);
	kfree(path);
}

static int test_one(const char *name)
{
	char dev[32];
	long err;

	disk = name;
	entries = errors = 0;
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	err = do_mount(dev, CMNT, "ext2", 0, NULL);
	if (err) {
		pr_info("ext2_corrupt: %s: mount refused (%ld)\n", name, err);
		return 0;
	}
	walk(CMNT, 0);
	pr_info("ext2_corrupt: %s: %d entries, %d errors\n", name, entries,
		errors);
	err = do_umount_path(CMNT, 0);
	if (err)
		return selftest_fail("%s: umount: %ld", name, err);
	return 0;
}

static int test_ext2_corrupt(void)
{
	vfs_init();
	do_mkdirat(AT_FDCWD, "/mnt", 0755);
	do_mkdirat(AT_FDCWD, CMNT, 0755);
	for (int i = 0; i < 8; i++) {
		char name[8];
		int err;

		snprintf(name, sizeof(name), "ram%d", i);
		if (!blkdev_get_by_name(name))
			continue;
		err = test_one(name);
		if (err)
			return err;
	}
	return 0;
}
DEFINE_SELFTEST(ext2_corrupt, test_ext2_corrupt);
