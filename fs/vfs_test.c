/*
 * fs/vfs_test.c: self-test "vfs": the system call semantics of the VFS
 * and ramfs, one case per function, run in order from a table inside a
 * scratch directory /tmp/vfs_test. Each case names the behaviour it
 * checks; a failure says which line expected what. At the end everything
 * is removed, and kmalloc's object count and the free page count must be
 * what they were (after a warm-up that fills the caches the test uses
 * but does not own).
 */
#include "vfs_test.h"
#include <fs/fs_struct.h>
#include <fs/mount.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <mm/slab.h>

#define T "/tmp/vfs_test"

static int write_then_read_back_with_lseek(void)
{
	char buf[32] = { 0 };
	int fd = EXPECT_OK(ksys_open(T "/a", O_CREAT | O_RDWR, 0644));

	EXPECT_EQ(kfd_write(fd, "hello, world", 12), 12);
	EXPECT_EQ(kfd_lseek(fd, 0, SEEK_SET), 0);
	EXPECT_EQ(kfd_read(fd, buf, sizeof(buf)), 12);
	EXPECT_EQ(memcmp(buf, "hello, world", 12), 0);
	EXPECT_EQ(kfd_read(fd, buf, sizeof(buf)), 0);	/* at EOF */
	EXPECT_EQ(kfd_lseek(fd, -5, SEEK_END), 7);
	EXPECT_EQ(kfd_read(fd, buf, 5), 5);
	EXPECT_EQ(memcmp(buf, "world", 5), 0);
	EXPECT_EQ(kfd_lseek(fd, -1, SEEK_SET), -EINVAL);
	EXPECT_EQ(kfd_lseek(fd, 0, 7), -EINVAL);
	EXPECT_EQ(close_fd(fd), 0);
	EXPECT_EQ(close_fd(fd), -EBADF);
	return 0;
}

static int rmdir_of_a_full_directory_is_enotempty(void)
{
	struct kstat st;

	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/d", 0755), 0);
	EXPECT_EQ(write_whole_file(T "/d/f", "x", 1), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d"), -ENOTEMPTY);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/d/f"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d/."), -EINVAL);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/d"), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/d", &st, 0), -ENOENT);
	return 0;
}

/* open() of a path of PATH_MAX bytes (components that are fine). */
static long too_long_path(void)
{
	char *p = kmalloc(PATH_MAX + 1, GFP_KERNEL);
	long r;

	if (!p)
		return -ENOMEM;
	for (int i = 0; i < PATH_MAX; i += 2) {
		p[i] = '/';
		p[i + 1] = 'x';
	}
	p[PATH_MAX] = '\0';
	r = ksys_open(p, O_RDONLY, 0);
	kfree(p);
	return r;
}

static int bad_paths_give_linux_errnos(void)
{
	char longname[300];

	memset(longname, 'n', sizeof(longname));
	strlcpy(longname, T "/", sizeof(longname));
	longname[strlen(T "/")] = 'n';
	longname[sizeof(longname) - 1] = '\0';
	EXPECT_EQ(ksys_open(T "/missing", O_RDONLY, 0), -ENOENT);
	EXPECT_EQ(ksys_open(T "/a/x", O_RDONLY, 0), -ENOTDIR);
	EXPECT_EQ(ksys_open(T "/a/", O_RDONLY, 0), -ENOTDIR);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T, 0755), -EEXIST);
	EXPECT_EQ(ksys_open(T "/a", O_CREAT | O_EXCL | O_RDWR, 0644),
		  -EEXIST);
	EXPECT_EQ(ksys_open(T, O_WRONLY, 0), -EISDIR);
	EXPECT_EQ(ksys_open(T, O_CREAT | O_RDWR, 0644), -EISDIR);
	EXPECT_EQ(ksys_open(T "/a", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T), -EISDIR);
	EXPECT_EQ(ksys_open(longname, O_RDONLY, 0), -ENAMETOOLONG);
	EXPECT_EQ(ksys_open("", O_RDONLY, 0), -ENOENT);
	/* Trailing slashes: fine on directories, ENOENT for a new file. */
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/slash/", 0755), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/slash//"), 0);
	EXPECT_EQ(ksys_open(T "/newfile/", O_CREAT | O_RDWR, 0644), -EISDIR);
	EXPECT_EQ(do_mknodat(AT_FDCWD, T "/newnode/", S_IFIFO | 0644, 0),
		  -ENOENT);
	EXPECT_EQ(too_long_path(), -ENAMETOOLONG);
	/* A directory may be opened read-only, and closed. */
	EXPECT_EQ(close_fd(EXPECT_OK(ksys_open(T, O_RDONLY, 0))), 0);
	return 0;
}

static int rename_over_an_existing_file_replaces_it(void)
{
	char buf[8] = { 0 };
	struct kstat st;

	EXPECT_EQ(write_whole_file(T "/x", "XX", 2), 0);
	EXPECT_EQ(write_whole_file(T "/y", "YYY", 3), 0);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/x", AT_FDCWD, T "/y", 0), 0);
	EXPECT_EQ(read_whole_file(T "/y", buf, sizeof(buf)), 2);
	EXPECT_EQ(memcmp(buf, "XX", 2), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/x", &st, 0), -ENOENT);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/y", &st, 0), 0);
	EXPECT_EQ(st.nlink, 1);
	/* A directory cannot move below itself. */
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/r", 0755), 0);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/r", AT_FDCWD, T "/r/s", 0),
		  -EINVAL);
	EXPECT_EQ(do_renameat2(AT_FDCWD, T "/r", AT_FDCWD, T "/r2", 0), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/r2"), 0);
	return do_unlinkat(AT_FDCWD, T "/y") ? selftest_fail("unlink y") : 0;
}

static int hard_links_count_in_nlink(void)
{
	struct kstat st;

	EXPECT_EQ(do_linkat(AT_FDCWD, T "/a", AT_FDCWD, T "/b", 0), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/a", &st, 0), 0);
	EXPECT_EQ(st.nlink, 2);
	EXPECT_EQ(do_linkat(AT_FDCWD, T "/a", AT_FDCWD, T "/b", 0), -EEXIST);
	EXPECT_EQ(do_linkat(AT_FDCWD, T, AT_FDCWD, T "/dl", 0), -EPERM);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/b"), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/a", &st, 0), 0);
	EXPECT_EQ(st.nlink, 1);
	return 0;
}

static int symlinks_read_back_and_are_followed(void)
{
	char buf[32] = { 0 };
	struct kstat st;

	EXPECT_EQ(do_symlinkat("a", AT_FDCWD, T "/s"), 0);
	EXPECT_EQ(do_readlinkat(AT_FDCWD, T "/s", buf, sizeof(buf)), 1);
	EXPECT_EQ(buf[0], 'a');
	EXPECT_EQ(read_whole_file(T "/s", buf, sizeof(buf)), 12);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/s", &st, AT_SYMLINK_NOFOLLOW), 0);
	EXPECT_EQ(S_ISLNK(st.mode), 1);
	EXPECT_EQ(st.size, 1);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/s", &st, 0), 0);
	EXPECT_EQ(S_ISREG(st.mode), 1);
	EXPECT_EQ(ksys_open(T "/s", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	EXPECT_EQ(do_readlinkat(AT_FDCWD, T "/a", buf, sizeof(buf)), -EINVAL);
	/* An absolute target, and one through "..". */
	EXPECT_EQ(do_symlinkat(T, AT_FDCWD, T "/abs"), 0);
	EXPECT_EQ(read_whole_file(T "/abs/s", buf, sizeof(buf)), 12);
	EXPECT_EQ(do_symlinkat("../vfs_test/a", AT_FDCWD, T "/rel"), 0);
	EXPECT_EQ(read_whole_file(T "/rel", buf, sizeof(buf)), 12);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/abs"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/rel"), 0);
	return 0;
}

static int a_symlink_loop_is_eloop(void)
{
	EXPECT_EQ(do_symlinkat("l2", AT_FDCWD, T "/l1"), 0);
	EXPECT_EQ(do_symlinkat("l1", AT_FDCWD, T "/l2"), 0);
	EXPECT_EQ(ksys_open(T "/l1", O_RDONLY, 0), -ELOOP);
	EXPECT_EQ(ksys_open(T "/l1/x", O_RDONLY, 0), -ELOOP);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/l1"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/l2"), 0);
	return 0;
}

/* Find name in a getdents64 buffer; its d_type, or -1. */
static int dirent_type(const char *buf, long len, const char *name)
{
	for (long off = 0; off < len;) {
		const struct linux_dirent64 *d = (const void *)(buf + off);

		if (!strcmp(d->d_name, name))
			return d->d_type;
		off += d->d_reclen;
	}
	return -1;
}

static int getdents_lists_every_entry_with_its_type(void)
{
	char *buf = kmalloc(1024, GFP_KERNEL);
	struct file *dir;
	long n;
	int fd;

	if (!buf)
		return selftest_fail("no memory");
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/g", 0755), 0);
	EXPECT_EQ(write_whole_file(T "/g/file", "", 0), 0);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/g/sub", 0755), 0);
	EXPECT_EQ(do_symlinkat("file", AT_FDCWD, T "/g/link"), 0);
	fd = EXPECT_OK(ksys_open(T "/g", O_RDONLY | O_DIRECTORY, 0));
	dir = fget(fd);
	n = vfs_getdents64(dir, buf, 1024);
	EXPECT_EQ(vfs_getdents64(dir, buf + 512, 512), 0);	/* the end */
	EXPECT_EQ(vfs_getdents64(dir, buf + 512, 8), 0);
	vfs_llseek(dir, 0, SEEK_SET);
	EXPECT_EQ(vfs_getdents64(dir, buf + 512, 8), -EINVAL);	/* too small */
	fput(dir);
	close_fd(fd);
	EXPECT_EQ(n > 0, 1);
	EXPECT_EQ(dirent_type(buf, n, "."), DT_DIR);
	EXPECT_EQ(dirent_type(buf, n, ".."), DT_DIR);
	EXPECT_EQ(dirent_type(buf, n, "file"), DT_REG);
	EXPECT_EQ(dirent_type(buf, n, "sub"), DT_DIR);
	EXPECT_EQ(dirent_type(buf, n, "link"), DT_LNK);
	EXPECT_EQ(dirent_type(buf, n, "nothere"), -1);
	kfree(buf);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/g/file"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/g/link"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/g/sub"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/g"), 0);
	return 0;
}

static int o_append_writes_at_the_end_and_o_trunc_empties(void)
{
	char buf[32] = { 0 };
	struct kstat st;
	int fd = EXPECT_OK(ksys_open(T "/a", O_WRONLY | O_APPEND, 0));

	EXPECT_EQ(kfd_lseek(fd, 0, SEEK_SET), 0);
	EXPECT_EQ(kfd_write(fd, "!!", 2), 2);
	close_fd(fd);
	EXPECT_EQ(read_whole_file(T "/a", buf, sizeof(buf)), 14);
	EXPECT_EQ(memcmp(buf, "hello, world!!", 14), 0);
	fd = EXPECT_OK(ksys_open(T "/a", O_WRONLY | O_TRUNC, 0));
	close_fd(fd);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/a", &st, 0), 0);
	EXPECT_EQ(st.size, 0);
	EXPECT_EQ(st.blocks, 0);
	return 0;
}

static int truncate_up_reads_zeroes_and_down_cuts(void)
{
	char *buf = kmalloc(8192, GFP_KERNEL);
	struct kstat st;
	int fd;

	if (!buf)
		return selftest_fail("no memory");
	EXPECT_EQ(write_whole_file(T "/t", "abcdef", 6), 0);
	EXPECT_EQ(do_sys_truncate(T "/t", 3), 0);
	EXPECT_EQ(do_sys_truncate(T "/t", 8192), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/t", &st, 0), 0);
	EXPECT_EQ(st.size, 8192);
	EXPECT_EQ(read_whole_file(T "/t", buf, 8192), 8192);
	EXPECT_EQ(memcmp(buf, "abc", 3), 0);
	for (int i = 3; i < 8192; i++)
		if (buf[i])
			return selftest_fail("byte %d is 0x%x after truncate "
					     "up, want 0", i, buf[i]);
	EXPECT_EQ(do_sys_truncate(T "/t", -1), -EINVAL);
	EXPECT_EQ(do_sys_truncate(T, 0), -EISDIR);
	fd = EXPECT_OK(ksys_open(T "/t", O_RDONLY, 0));
	EXPECT_EQ(do_sys_ftruncate(fd, 0), -EINVAL);	/* not open for write */
	close_fd(fd);
	fd = EXPECT_OK(ksys_open(T "/t", O_RDWR, 0));
	EXPECT_EQ(do_sys_ftruncate(fd, 1), 0);
	EXPECT_EQ(kfd_read(fd, buf, 8192), 1);
	close_fd(fd);
	kfree(buf);
	return do_unlinkat(AT_FDCWD, T "/t") ? selftest_fail("unlink t") : 0;
}

/* Run as uid/gid 1000 for a moment: the permission bits apply. */
static int others_are_refused_by_the_mode_bits(void)
{
	struct cred saved = current->cred;
	long r1, r2, r3, r4, r5;
	int fd;

	EXPECT_EQ(write_whole_file(T "/secret", "s", 1), 0);
	EXPECT_EQ(do_fchmodat(AT_FDCWD, T "/secret", 0600), 0);
	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/closed", 0700), 0);
	EXPECT_EQ(write_whole_file(T "/closed/f", "f", 1), 0);
	current->cred.fsuid = current->cred.euid = 1000;
	current->cred.fsgid = current->cred.egid = 1000;
	r1 = ksys_open(T "/secret", O_RDONLY, 0);
	r2 = ksys_open(T "/closed/f", O_RDONLY, 0);
	r3 = do_mkdirat(AT_FDCWD, T "/closed/new", 0755);
	r4 = do_fchmodat(AT_FDCWD, T "/secret", 0644);
	r5 = ksys_open(T "/secret", O_WRONLY | O_TRUNC, 0);
	current->cred = saved;
	EXPECT_EQ(r1, -EACCES);
	EXPECT_EQ(r2, -EACCES);
	EXPECT_EQ(r3, -EACCES);
	EXPECT_EQ(r4, -EPERM);
	EXPECT_EQ(r5, -EACCES);
	/* Root reads anything, but executes only what has an x bit. */
	fd = EXPECT_OK(ksys_open(T "/secret", O_RDONLY, 0));
	close_fd(fd);
	EXPECT_EQ(do_faccessat(AT_FDCWD, T "/secret", MAY_EXEC, 0), -EACCES);
	EXPECT_EQ(PTR_ERR(open_exec(T "/secret")), -EACCES);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/closed/f"), 0);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/closed"), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/secret"), 0);
	return 0;
}

static int dotdot_climbs_out_of_a_mount(void)
{
	struct kstat top, up, in;

	EXPECT_EQ(do_mkdirat(AT_FDCWD, T "/mnt", 0755), 0);
	EXPECT_EQ(do_mount("none", T "/mnt", "tmpfs", 0, NULL), 0);
	EXPECT_EQ(write_whole_file(T "/mnt/inside", "i", 1), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T, &top, 0), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/mnt/..", &up, 0), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/mnt/inside", &in, 0), 0);
	EXPECT_EQ(up.ino, top.ino);
	EXPECT_EQ(up.dev, top.dev);
	EXPECT_EQ(in.dev != top.dev, 1);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/mnt"), -EBUSY);
	EXPECT_EQ(do_linkat(AT_FDCWD, T "/a", AT_FDCWD, T "/mnt/a", 0),
		  -EXDEV);
	EXPECT_EQ(do_umount_path(T "/mnt", 0), 0);
	EXPECT_EQ(vfs_fstatat(AT_FDCWD, T "/mnt/inside", &in, 0), -ENOENT);
	EXPECT_EQ(do_rmdir(AT_FDCWD, T "/mnt"), 0);
	return 0;
}

static int relative_paths_start_at_the_cwd(void)
{
	struct kstat st;
	long err;

	EXPECT_EQ(ksys_chdir(T), 0);
	err = vfs_fstatat(AT_FDCWD, "a", &st, 0);
	if (!err)
		err = vfs_fstatat(AT_FDCWD, "../vfs_test/./a", &st, 0);
	EXPECT_EQ(ksys_chdir("/"), 0);
	EXPECT_EQ(err, 0);
	EXPECT_EQ(ksys_chdir(T "/a"), -ENOTDIR);
	return 0;
}

static int dup_and_fcntl_share_one_file(void)
{
	int fd = EXPECT_OK(ksys_open(T "/a", O_RDWR | O_CLOEXEC, 0));
	int fd2 = EXPECT_OK(ksys_dup(fd));

	EXPECT_EQ(do_fcntl(fd, 1 /* F_GETFD */, 0), FD_CLOEXEC);
	EXPECT_EQ(do_fcntl(fd2, 1, 0), 0);
	EXPECT_EQ(kfd_write(fd, "abc", 3), 3);
	EXPECT_EQ(kfd_lseek(fd2, 0, SEEK_CUR), 3);	/* one f_pos */
	EXPECT_EQ(do_fcntl(fd, 3 /* F_GETFL */, 0) & O_ACCMODE, O_RDWR);
	EXPECT_EQ(ksys_dup3(fd, 50, O_CLOEXEC), 50);
	EXPECT_EQ(do_fcntl(50, 1, 0), FD_CLOEXEC);
	EXPECT_EQ(do_fcntl(fd, 1030 /* F_DUPFD_CLOEXEC */, 40), 40);
	/* RLIMIT_NOFILE is the end (growing the table past its first slots
	 * is fd_limits' test: a grown table stays, and would look leaked). */
	EXPECT_EQ(ksys_dup3(fd, task_nofile_limit(), 0), -EBADF);
	EXPECT_EQ(close_fd(50), 0);
	EXPECT_EQ(close_fd(40), 0);
	EXPECT_EQ(close_fd(fd2), 0);
	EXPECT_EQ(close_fd(fd), 0);
	return 0;
}

static int an_unlinked_open_file_lives_until_closed(void)
{
	char buf[4];
	int fd = EXPECT_OK(ksys_open(T "/u", O_CREAT | O_RDWR, 0644));

	EXPECT_EQ(kfd_write(fd, "live", 4), 4);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/u"), 0);
	EXPECT_EQ(ksys_open(T "/u", O_RDONLY, 0), -ENOENT);
	EXPECT_EQ(kfd_pread(fd, buf, 4, 0), 4);
	EXPECT_EQ(memcmp(buf, "live", 4), 0);
	EXPECT_EQ(close_fd(fd), 0);
	return 0;
}

static int a_running_program_refuses_writers_with_etxtbsy(void)
{
	struct file *exe;
	long w, t;
	int fd;

	EXPECT_EQ(write_whole_file(T "/prog", "\177ELF", 4), 0);
	EXPECT_EQ(do_fchmodat(AT_FDCWD, T "/prog", 0755), 0);
	exe = open_exec(T "/prog");
	EXPECT_OK(PTR_ERR_OR_ZERO(exe));
	EXPECT_EQ(deny_write_access(exe), 0);
	w = ksys_open(T "/prog", O_WRONLY, 0);
	t = do_sys_truncate(T "/prog", 0);
	allow_write_access(exe);
	fput(exe);
	EXPECT_EQ(w, -ETXTBSY);
	EXPECT_EQ(t, -ETXTBSY);
	/* And a file open for writing cannot start running. */
	fd = EXPECT_OK(ksys_open(T "/prog", O_WRONLY, 0));
	exe = open_exec(T "/prog");
	EXPECT_OK(PTR_ERR_OR_ZERO(exe));
	EXPECT_EQ(deny_write_access(exe), -ETXTBSY);
	fput(exe);
	close_fd(fd);
	EXPECT_EQ(do_sys_truncate(T "/prog", 0), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, T "/prog"), 0);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(void);
} vfs_cases[] = {
	{ "write_then_read_back_with_lseek", write_then_read_back_with_lseek },
	{ "rmdir_of_a_full_directory_is_enotempty",
	  rmdir_of_a_full_directory_is_enotempty },
	{ "bad_paths_give_linux_errnos", bad_paths_give_linux_errnos },
	{ "rename_over_an_existing_file_replaces_it",
	  rename_over_an_existing_file_replaces_it },
	{ "hard_links_count_in_nlink", hard_links_count_in_nlink },
	{ "symlinks_read_back_and_are_followed",
	  symlinks_read_back_and_are_followed },
	{ "a_symlink_loop_is_eloop", a_symlink_loop_is_eloop },
	{ "getdents_lists_every_entry_with_its_type",
	  getdents_lists_every_entry_with_its_type },
	{ "o_append_writes_at_the_end_and_o_trunc_empties",
	  o_append_writes_at_the_end_and_o_trunc_empties },
	{ "truncate_up_reads_zeroes_and_down_cuts",
	  truncate_up_reads_zeroes_and_down_cuts },
	{ "others_are_refused_by_the_mode_bits",
	  others_are_refused_by_the_mode_bits },
	{ "dotdot_climbs_out_of_a_mount", dotdot_climbs_out_of_a_mount },
	{ "relative_paths_start_at_the_cwd", relative_paths_start_at_the_cwd },
	{ "dup_and_fcntl_share_one_file", dup_and_fcntl_share_one_file },
	{ "an_unlinked_open_file_lives_until_closed",
	  an_unlinked_open_file_lives_until_closed },
	{ "a_running_program_refuses_writers_with_etxtbsy",
	  a_running_program_refuses_writers_with_etxtbsy },
};

/* Touch the shared caches once so that the leak check sees only ours. */
static void warm_up(void)
{
	char buf[64];

	read_whole_file("/dev/null", buf, sizeof(buf));
	read_whole_file("/dev/zero", buf, sizeof(buf));
}

static int test_vfs(void)
{
	struct selftest_mem mem;
	int err = 0;

	vfs_init();
	warm_up();
	selftest_mem_snapshot(&mem);
	if (do_mkdirat(AT_FDCWD, T, 0755))
		return selftest_fail("cannot make " T);
	for (size_t i = 0; i < ARRAY_SIZE(vfs_cases) && !err; i++) {
		err = vfs_cases[i].fn();
		if (!err)
			pr_info("selftest: vfs: %s: ok\n", vfs_cases[i].name);
	}
	do_unlinkat(AT_FDCWD, T "/a");
	do_unlinkat(AT_FDCWD, T "/s");
	if (do_rmdir(AT_FDCWD, T) && !err)
		return selftest_fail("cannot remove " T " (left-overs?)");
	if (err)
		return err;
	return selftest_mem_check(&mem);
}
DEFINE_SELFTEST(vfs, test_vfs);
