/*
 * fs/initramfs_test.c: self-test "initramfs".
 *
 * Builds a small cpio "newc" archive in memory (directories, files with
 * owners, modes and mtimes, a symlink, a device node, a pair of hard
 * links), unpacks it with populate_rootfs and checks every entry. Then
 * feeds damaged archives (cut short, bad magic, bad hex, absurd sizes, no
 * trailer): each must be refused with -EINVAL and a log line, and nothing
 * may crash. The unpacked tree is removed at the end.
 */
#include "vfs_test.h"
#include <fs/initramfs.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>

#define ARCHIVE_MAX 4096

struct cpio_entry {
	const char *name;
	unsigned int mode, uid, gid, nlink, ino;
	unsigned long mtime;
	const char *data;
	unsigned int rmajor, rminor;
};

/* Append one newc entry at *off; returns false when it does not fit. */
static bool cpio_add(char *buf, size_t *off, const struct cpio_entry *e)
{
	size_t namesize = strlen(e->name) + 1;
	size_t size = e->data ? strlen(e->data) : 0;
	int n;

	if (*off + 110 + namesize + size + 8 > ARCHIVE_MAX)
		return false;
	n = snprintf(buf + *off, ARCHIVE_MAX - *off,
		     "070701%08X%08X%08X%08X%08X%08lX%08lX%08X%08X%08X%08X"
		     "%08lX%08X",
		     e->ino, e->mode, e->uid, e->gid, e->nlink ? e->nlink : 1,
		     e->mtime, (unsigned long)size, 0, 0, e->rmajor, e->rminor,
		     (unsigned long)namesize, 0);
	*off += n;
	memcpy(buf + *off, e->name, namesize);
	*off = ALIGN(*off + namesize, 4);
	if (size)
		memcpy(buf + *off, e->data, size);
	*off = ALIGN(*off + size, 4);
	return true;
}

static const struct cpio_entry good_entries[] = {
	{ "itest", S_IFDIR | 0750, 0, 0, 2, 1, 1000, NULL },
	{ "./itest/sub", S_IFDIR | 0700, 0, 0, 2, 2, 2000, NULL },
	{ "itest/hello.txt", S_IFREG | 0640, 12, 34, 1, 3, 123456789,
	  "hello initramfs\n" },
	{ "itest/sub/exe", S_IFREG | 0755, 0, 0, 1, 4, 5, "#!/bin/sh\n" },
	{ "itest/link", S_IFLNK | 0777, 0, 0, 1, 5, 6, "hello.txt" },
	{ "itest/null", S_IFCHR | 0666, 0, 0, 1, 6, 7, NULL, 1, 3 },
	{ "itest/fifo", S_IFIFO | 0600, 0, 0, 1, 7, 8, NULL },
	{ "itest/hard1", S_IFREG | 0644, 0, 0, 2, 77, 9, NULL },
	{ "itest/hard2", S_IFREG | 0644, 0, 0, 2, 77, 9, "shared" },
	{ "TRAILER!!!", 0, 0, 0, 1, 0, 0, NULL },
};

static size_t build_archive(char *buf, const struct cpio_entry *e, size_t n)
{
	size_t off = 0;

	for (size_t i = 0; i < n; i++)
		if (!cpio_add(buf, &off, &e[i]))
			return 0;
	return off;
}

static int check_stat(const char *path, umode_t mode, uid_t uid, gid_t gid,
		      long mtime, struct kstat *st)
{
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW), 0);
	EXPECT_EQ(st->mode, mode);
	EXPECT_EQ(st->uid, uid);
	EXPECT_EQ(st->gid, gid);
	if (mtime >= 0)
		EXPECT_EQ(st->mtime.tv_sec, mtime);
	return 0;
}

static int check_unpacked_tree(void)
{
	struct kstat st, st2;
	char buf[32] = { 0 };
	int err;

	err = check_stat("/itest", S_IFDIR | 0750, 0, 0, 1000, &st) ?:
	      check_stat("/itest/sub", S_IFDIR | 0700, 0, 0, 2000, &st) ?:
	      check_stat("/itest/hello.txt", S_IFREG | 0640, 12, 34,
			 123456789, &st) ?:
	      check_stat("/itest/sub/exe", S_IFREG | 0755, 0, 0, 5, &st) ?:
	      check_stat("/itest/link", S_IFLNK | 0777, 0, 0, -1, &st) ?:
	      check_stat("/itest/null", S_IFCHR | 0666, 0, 0, 7, &st) ?:
	      check_stat("/itest/fifo", S_IFIFO | 0600, 0, 0, 8, &st);
	if (err)
		return err;
	EXPECT_EQ(st.size, 0);
	EXPECT_EQ(read_whole_file("/itest/hello.txt", buf, sizeof(buf)), 16);
	EXPECT_EQ(memcmp(buf, "hello initramfs\n", 16), 0);
	EXPECT_EQ(do_readlinkat(AT_FDCWD, "/itest/link", buf, sizeof(buf)), 9);
	EXPECT_EQ(memcmp(buf, "hello.txt", 9), 0);
	EXPECT_EQ(read_whole_file("/itest/link", buf, sizeof(buf)), 16);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, "/itest/null", &st, 0), 0);
	EXPECT_EQ(st.rdev, MKDEV(1, 3));
	EXPECT_EQ(read_whole_file("/itest/null", buf, sizeof(buf)), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, "/itest/hard1", &st, 0), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, "/itest/hard2", &st2, 0), 0);
	EXPECT_EQ(st.ino, st2.ino);
	EXPECT_EQ(st.nlink, 2);
	EXPECT_EQ(read_whole_file("/itest/hard1", buf, sizeof(buf)), 6);
	EXPECT_EQ(memcmp(buf, "shared", 6), 0);
	return 0;
}

static void remove_tree(void)
{
	static const char *const files[] = {
		"/itest/hello.txt", "/itest/sub/exe", "/itest/link",
		"/itest/null", "/itest/fifo", "/itest/hard1", "/itest/hard2",
		"/itest/cut", "/itest/notrailer",
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		do_unlinkat(AT_FDCWD, files[i]);
	do_rmdir(AT_FDCWD, "/itest/sub");
	do_rmdir(AT_FDCWD, "/itest");
}

/* Overwrite the 8 hex digits of header field `field` of the first entry. */
static void poke_field(char *buf, int field, const char *digits)
{
	memcpy(buf + 6 + 8 * field, digits, 8);
}

static int damaged_archives_are_refused(char *buf, size_t len, char *copy)
{
	static const struct cpio_entry lone[] = {
		{ "itest/notrailer", S_IFREG | 0644, 0, 0, 1, 9, 0, "x" },
	};
	struct kstat st;

	/* Cut short in the middle of an entry's data. */
	EXPECT_EQ(populate_rootfs(buf, len / 2), -EINVAL);
	EXPECT_EQ(populate_rootfs(buf, 50), -EINVAL);
	memcpy(copy, buf, len);
	memcpy(copy, "070799", 6);
	EXPECT_EQ(populate_rootfs(copy, len), -EINVAL);
	memcpy(copy, buf, len);
	poke_field(copy, 1, "0000zz00");	/* mode: not hex */
	EXPECT_EQ(populate_rootfs(copy, len), -EINVAL);
	memcpy(copy, buf, len);
	poke_field(copy, 11, "FFFFFFFF");	/* namesize */
	EXPECT_EQ(populate_rootfs(copy, len), -EINVAL);
	memcpy(copy, buf, len);
	poke_field(copy, 11, "00000002");	/* name not terminated */
	EXPECT_EQ(populate_rootfs(copy, len), -EINVAL);
	memcpy(copy, buf, len);
	poke_field(copy, 6, "7FFFFFFF");	/* filesize past the end */
	EXPECT_EQ(populate_rootfs(copy, len), -EINVAL);
	/* No trailer: the entries before the end are kept, but it is an
	 * error (the archive was probably cut). */
	len = build_archive(copy, lone, ARRAY_SIZE(lone));
	EXPECT_EQ(populate_rootfs(copy, len), -EINVAL);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, "/itest/notrailer", &st, 0), 0);
	EXPECT_EQ(populate_rootfs("\x1f\x8b\x08\x00", 4), -EINVAL);
	return 0;
}

static int test_initramfs(void)
{
	char *buf, *copy;
	size_t len;
	int err;

	vfs_init();
	buf = kzalloc(ARCHIVE_MAX, GFP_KERNEL);
	copy = kzalloc(ARCHIVE_MAX, GFP_KERNEL);
	err = -1;
	if (!buf || !copy) {
		selftest_fail("no memory");
		goto out;
	}
	len = build_archive(buf, good_entries, ARRAY_SIZE(good_entries));
	if (!len) {
		selftest_fail("archive does not fit in %d bytes", ARCHIVE_MAX);
		goto out;
	}
	err = populate_rootfs(buf, len);
	if (err) {
		selftest_fail("populate_rootfs: %d", err);
		goto out;
	}
	err = check_unpacked_tree();
	if (!err)
		err = damaged_archives_are_refused(buf, len, copy);
out:
	remove_tree();
	kfree(buf);
	kfree(copy);
	return err;
}
DEFINE_SELFTEST(initramfs, test_initramfs);
