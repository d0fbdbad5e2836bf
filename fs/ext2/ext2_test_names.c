/*
 * fs/ext2/ext2_test_names.c: the ext2 self-test's cases about names:
 * create, unlink, mkdir, rmdir, rename, link, symlinks (fast and slow),
 * special files, a directory of 2000 entries read back with getdents64,
 * and the errors Linux gives. Run by fs/ext2/ext2_test.c inside T.
 */
#include "ext2_test.h"
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>

static long nlink_of(const char *path)
{
	struct kstat st;
	long err = vfs_fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW);

	return err ? err : (long)st.nlink;
}

static u64 ino_of(const char *path)
{
	struct kstat st;

	return vfs_fstatat(AT_FDCWD, path, &st, 0) ? 0 : st.ino;
}

static int files_are_created_written_read_and_unlinked(void)
{
	static const long sizes[] = { 0, 1, 1023, 1024, 1025, 4095, 4096,
				      4097, 12 * 1024 + 5, 70000 };
	char path[64];

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(path, sizeof(path), T "/f%ld", sizes[i]);
		EXPECT_EQ(ext2_test_fill(path, 0, sizes[i], i), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct kstat st;

		snprintf(path, sizeof(path), T "/f%ld", sizes[i]);
		EXPECT_EQ(ext2_test_check(path, 0, sizes[i], i), 0);
		EXPECT_EQ(ext2_test_stat(path, &st), 0);
		EXPECT_EQ(st.size, sizes[i]);
		EXPECT_EQ(st.nlink, 1);
		EXPECT_EQ(st.mode, S_IFREG | 0644);
	}
	/* Overwrite the middle: the rest stays. */
	EXPECT_EQ(ext2_test_fill(T "/f70000", 3000, 9000, 77), 0);
	EXPECT_EQ(ext2_test_check(T "/f70000", 0, 3000, 9), 0);
	EXPECT_EQ(ext2_test_check(T "/f70000", 3000, 9000, 77), 0);
	EXPECT_EQ(ext2_test_check(T "/f70000", 9000, 70000, 9), 0);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(path, sizeof(path), T "/f%ld", sizes[i]);
		EXPECT_EQ(do_unlinkat(AT_FDCWD, path), 0);
		EXPECT_EQ(do_unlinkat(AT_FDCWD, path), -ENOENT);
	}
	return 0;
}

static int directories_keep_their_link_counts(void)
{
	EXPECT_EQ(nlink_of(T), 2);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/d", 0755), 0);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/d", 0755), -EEXIST);
	EXPECT_EQ(nlink_of(T), 3);
	EXPECT_EQ(nlink_of(T "/d"), 2);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/d/e", 0700), 0);
	EXPECT_EQ(nlink_of(T "/d"), 3);
	EXPECT_EQ(ino_of(T "/d/e/.."), ino_of(T "/d"));
	EXPECT_EQ(write_whole_file(T "/d/e/x", "x", 1), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d/e"), -ENOTEMPTY);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d/e/x"), -ENOTDIR);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/d/e"), -EISDIR);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/d/e/x"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d/e"), 0);
	EXPECT_EQ(nlink_of(T "/d"), 2);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d"), 0);
	EXPECT_EQ(nlink_of(T), 2);
	return 0;
}

static int rename_moves_files_and_directories(void)
{
	u64 ino;

	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/a", 0755), 0);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/b", 0755), 0);
	EXPECT_EQ(ext2_test_fill(T "/a/f", 0, 5000, 1), 0);
	ino = ino_of(T "/a/f");
	/* Within a directory, then across. */
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/a/f", AT_FDCWD, T "/a/g", 0), 0);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/a/g", AT_FDCWD, T "/b/h", 0), 0);
	EXPECT_EQ(ino_of(T "/b/h"), ino);
	EXPECT_EQ(nlink_of(T "/a/g"), -ENOENT);
	EXPECT_EQ(ext2_test_check(T "/b/h", 0, 5000, 1), 0);
	/* Over an existing file: the old one is gone, blocks and all. */
	EXPECT_EQ(ext2_test_fill(T "/b/old", 0, 3000, 2), 0);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/b/h", AT_FDCWD, T "/b/old", 0),
		  0);
	EXPECT_EQ(ext2_test_check(T "/b/old", 0, 5000, 1), 0);
	EXPECT_EQ(nlink_of(T "/b/h"), -ENOENT);
	/* A directory to another parent: ".." follows, links move. */
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/a/sub", 0755), 0);
	EXPECT_EQ(write_whole_file(T "/a/sub/in", "in", 2), 0);
	EXPECT_EQ(nlink_of(T "/a"), 3);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/a/sub", AT_FDCWD, T "/b/sub", 0),
		  0);
	EXPECT_EQ(nlink_of(T "/a"), 2);
	EXPECT_EQ(nlink_of(T "/b"), 3);
	EXPECT_EQ(ino_of(T "/b/sub/.."), ino_of(T "/b"));
	/* Over an empty directory; not over a full one. */
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/a/empty", 0755), 0);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/a/empty", AT_FDCWD, T "/b/sub",
			       0), -ENOTEMPTY);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/b/sub/in"), 0);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/a/empty", AT_FDCWD, T "/b/sub",
			       0), 0);
	EXPECT_EQ(nlink_of(T "/a"), 2);
	EXPECT_EQ(nlink_of(T "/b"), 3);
	EXPECT_EQ(ino_of(T "/b/sub/.."), ino_of(T "/b"));
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/b/sub"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/b/old"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/a"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/b"), 0);
	return 0;
}

static int hard_links_share_one_inode(void)
{
	EXPECT_EQ(ext2_test_fill(T "/one", 0, 2000, 3), 0);
	EXPECT_EQ(do_linkat(AT_FDCWD, T "/one", AT_FDCWD, T "/two", 0), 0);
	EXPECT_EQ(do_linkat(AT_FDCWD, T "/one", AT_FDCWD, T "/two", 0),
		  -EEXIST);
	EXPECT_EQ(nlink_of(T "/one"), 2);
	EXPECT_EQ(ino_of(T "/one"), ino_of(T "/two"));
	EXPECT_EQ(ext2_test_fill(T "/two", 1000, 1500, 4), 0);
	EXPECT_EQ(ext2_test_check(T "/one", 1000, 1500, 4), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/one"), 0);
	EXPECT_EQ(nlink_of(T "/two"), 1);
	EXPECT_EQ(ext2_test_check(T "/two", 0, 1000, 3), 0);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/dir", 0755), 0);
	EXPECT_EQ(do_linkat(AT_FDCWD, T "/dir", AT_FDCWD, T "/dir2", 0),
		  -EPERM);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/dir"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/two"), 0);
	return 0;
}

/* A symlink of len bytes: readlink, follow, st_size, st_blocks. */
static int one_symlink(size_t len, bool fast)
{
	char *target = kmalloc(len + 1, GFP_KERNEL), *buf;
	struct kstat st;
	int err = -ENOMEM;

	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!target || !buf)
		goto out;
	/* ".//////hello": T/hello, whatever its length (>= 7) */
	memset(target, '/', len);
	target[0] = '.';
	memcpy(target + len - 5, "hello", 5);
	target[len] = '\0';
	err = do_symlinkat(target, AT_FDCWD, T "/link");
	if (err)
		goto out;
	err = selftest_fail("symlink of %lu bytes reads back wrong", len);
	if (do_readlinkat(AT_FDCWD, T "/link", buf, len + 1) != (long)len ||
	    memcmp(buf, target, len))
		goto out;
	if (vfs_fstatat(AT_FDCWD, T "/link", &st, AT_SYMLINK_NOFOLLOW) ||
	    st.size != (loff_t)len || !S_ISLNK(st.mode) ||
	    (st.blocks == 0) != fast)
		goto out;
	if (read_whole_file(T "/link", buf, len) != 5 ||
	    memcmp(buf, "hi!!\n", 5))
		goto out;
	err = 0;
out:
	do_unlinkat(AT_FDCWD, T "/link");
	kfree(target);
	kfree(buf);
	return err;
}

static int fast_and_slow_symlinks_read_back(void)
{
	size_t bs = ext2_td.blocksize;

	EXPECT_EQ(write_whole_file(T "/hello", "hi!!\n", 5), 0);
	EXPECT_EQ(one_symlink(7, true), 0);
	EXPECT_EQ(one_symlink(59, true), 0);	/* the longest fast one */
	EXPECT_EQ(one_symlink(60, false), 0);
	EXPECT_EQ(one_symlink(500, false), 0);
	EXPECT_EQ(one_symlink(bs - 1, false), 0);
	EXPECT_EQ(one_symlink(bs, false), -ENAMETOOLONG);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/hello"), 0);
	return 0;
}

static int fifos_and_device_nodes_keep_their_type(void)
{
	struct kstat st;

	EXPECT_EQ(do_mknodat(AT_FDCWD, T "/fifo", S_IFIFO | 0600, 0), 0);
	EXPECT_EQ(do_mknodat(AT_FDCWD, T "/null", S_IFCHR | 0666,
			     new_encode_dev(MKDEV(1, 3))), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/fifo", &st, 0), 0);
	EXPECT_EQ(st.mode, S_IFIFO | 0600);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/null", &st, 0), 0);
	EXPECT_EQ(st.mode, S_IFCHR | 0644);	/* the umask */
	EXPECT_EQ(st.rdev, MKDEV(1, 3));
	EXPECT_EQ(write_whole_file(T "/null", "gone", 4), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/fifo"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/null"), 0);
	return 0;
}

static int names_give_linux_errnos(void)
{
	char name[300];

	memset(name, 'n', sizeof(name));
	memcpy(name, T "/", strlen(T "/"));
	name[strlen(T "/") + 256] = '\0';	/* a 256-byte component */
	EXPECT_EQ(ksys_open(name, O_CREAT | O_RDWR, 0644), -ENAMETOOLONG);
	name[strlen(T "/") + 255] = '\0';	/* 255: the longest */
	EXPECT_EQ(write_whole_file(name, "x", 1), 0);
	EXPECT_EQ(read_whole_file(name, name + 290, 1), 1);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, name), 0);
	EXPECT_EQ(ksys_open(T "/nope/x", O_CREAT | O_RDWR, 0644), -ENOENT);
	EXPECT_EQ(write_whole_file(T "/file", "x", 1), 0);
	EXPECT_EQ(ksys_open(T "/file/x", O_CREAT | O_RDWR, 0644), -ENOTDIR);
	EXPECT_EQ(ksys_open(T "/file", O_CREAT | O_EXCL | O_RDWR, 0644),
		  -EEXIST);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/file"), 0);
	return 0;
}

#define NENTRIES 2000

/* getdents64 the whole directory; each fN seen once goes into seen. */
static long list_dir(const char *path, u8 *seen, long *dots)
{
	int fd = ksys_open(path, O_RDONLY | O_DIRECTORY, 0);
	unsigned char want = ext2_td.filetype ? DT_REG : DT_UNKNOWN;
	char *buf = kmalloc(4096, GFP_KERNEL);
	long total = 0, n = -ENOMEM;
	struct file *f;

	if (fd < 0) {
		kfree(buf);
		return fd;
	}
	f = fget(fd);
	while (buf && (n = vfs_getdents64(f, buf, 4096)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			unsigned long i = simple_strtoul(d->d_name + 1, NULL,
							 10);

			off += d->d_reclen;
			total++;
			if (d->d_name[0] == '.')
				(*dots)++;
			else if (d->d_name[0] != 'f' || i >= NENTRIES ||
				 seen[i]++ || d->d_type != want)
				total = -1000000;	/* stray or repeated */
		}
	}
	fput(f);
	close_fd(fd);
	kfree(buf);
	return n < 0 ? n : total;
}

static int readdir_lists_2000_entries(void)
{
	u8 *seen = kzalloc(NENTRIES, GFP_KERNEL);
	char path[64];
	long dots = 0, n;

	if (!seen)
		return -ENOMEM;
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/big", 0755), 0);
	EXPECT_EQ(write_whole_file(T "/big/f0", "", 0), 0);
	for (int i = 1; i < NENTRIES; i++) {
		snprintf(path, sizeof(path), T "/big/f%d", i);
		EXPECT_EQ(do_linkat(AT_FDCWD, T "/big/f0", AT_FDCWD, path, 0),
			  0);
	}
	EXPECT_EQ(nlink_of(T "/big/f0"), NENTRIES);
	n = list_dir(T "/big", seen, &dots);
	for (int i = 0; i < NENTRIES; i++)
		if (seen[i] != 1)
			return selftest_fail("f%d listed %d times", i, seen[i]);
	kfree(seen);
	EXPECT_EQ(n, NENTRIES + 2);
	EXPECT_EQ(dots, 2);
	for (int i = NENTRIES - 1; i >= 0; i--) {
		snprintf(path, sizeof(path), T "/big/f%d", i);
		EXPECT_EQ(do_unlinkat(AT_FDCWD, path), 0);
	}
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/big"), 0);
	return 0;
}

const struct ext2_test_case ext2_namespace_cases[] = {
	{ "files_are_created_written_read_and_unlinked",
	  files_are_created_written_read_and_unlinked },
	{ "directories_keep_their_link_counts",
	  directories_keep_their_link_counts },
	{ "rename_moves_files_and_directories",
	  rename_moves_files_and_directories },
	{ "hard_links_share_one_inode", hard_links_share_one_inode },
	{ "fast_and_slow_symlinks_read_back",
	  fast_and_slow_symlinks_read_back },
	{ "fifos_and_device_nodes_keep_their_type",
	  fifos_and_device_nodes_keep_their_type },
	{ "names_give_linux_errnos", names_give_linux_errnos },
	{ "readdir_lists_2000_entries", readdir_lists_2000_entries },
	{ NULL, NULL },
};
