/*
 * truncate_errno - every errno of truncate(2), ftruncate(2) and open's
 * O_TRUNC, as Linux returns them (run on the host Linux: that verdict is
 * the reference; where Linux and the man page differ, Linux wins).
 *
 *   truncate_errno                 all the checks below, in a scratch
 *                                  directory made (and removed) in cwd
 *   truncate_errno --rofs FILE     FILE is on a read-only mount: EROFS
 *                                  checks (run by tests/truncate.list)
 *   truncate_errno --hold R W      internal: the program being executed
 *                                  for the ETXTBSY checks
 *
 * Roadmap:
 *   1. negative lengths: EINVAL, checked before the path and the fd
 *   2. ftruncate on fds that cannot be cut: not open for writing, a
 *      directory, a pipe, a FIFO, a socket, /dev/null (EINVAL); closed,
 *      -1 and O_PATH fds (EBADF); O_APPEND and O_RDWR fds do work
 *   3. truncate by name: EISDIR, ENOENT, ENOTDIR, ENAMETOOLONG (a 256-byte
 *      name, a 4096-byte path; 255 and 4095 are fine), ELOOP, EINVAL for a
 *      FIFO and a device, EFAULT for bad pointers; symlinks are followed
 *   4. permissions, in a child running as uid/gid 65534: EACCES for a file
 *      without write permission and for a directory without search
 *      permission (also for O_TRUNC, even with O_RDONLY); an fd opened for
 *      writing before the setuid still truncates; root overrides modes;
 *      a truncate by anyone but root clears set-user-ID, and set-group-ID
 *      when group-executable or not of the caller's group (Linux's
 *      setattr_should_drop_sgid)
 *   5. ETXTBSY: truncate, open for writing and O_TRUNC (even O_RDONLY) of
 *      a file another process is executing; fine once it has exited
 *   6. EFBIG past the file system's maximum size (ext2: exactly Linux's
 *      ext2_max_size); RLIMIT_FSIZE: EFBIG plus one SIGXFSZ per refused
 *      growth, shrinking still allowed, setrlimit and prlimit64 alike,
 *      SIGXFSZ's default action kills
 *   7. O_TRUNC: O_RDONLY|O_TRUNC truncates (Linux), EISDIR for a
 *      directory, ignored for a FIFO and /dev/null, not done by a failed
 *      O_EXCL, sets mtime; ftruncate sets mtime even to the same size
 *      and truncate by name to a new size does (ramfs: Linux does not,
 *      only reported; to the same size: ext2 and ext4 set it, tmpfs
 *      does not, only reported)
 * EPERM (append-only/immutable files) needs chattr: skipped with a note.
 * Every result a child computes comes back through a pipe; only the
 * parent prints verdicts.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define EXT2_MAGIC 0xEF53
#define RAMFS_MAGIC 0x858458f6
#define NOBODY 65534

/* ---- helpers ------------------------------------------------------------ */

static void make_file(const char *name, mode_t mode, size_t size)
{
	char buf[512];
	int fd;

	unlink(name);
	fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	memset(buf, 'x', sizeof(buf));
	while (fd >= 0 && size > 0) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);

		if (write(fd, buf, n) != (ssize_t)n)
			break;
		size -= n;
	}
	if (fd >= 0)
		close(fd);
	chmod(name, mode);
}

static long size_of(const char *name)
{
	struct stat st;

	return stat(name, &st) < 0 ? -1 : (long)st.st_size;
}

static long mode_of(const char *name)
{
	struct stat st;

	return stat(name, &st) < 0 ? -1 : (long)(st.st_mode & 07777);
}

static long fsize_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long)st.st_size;
}

/* truncate(2) through syscall(): no libc in between. */
static long sys_truncate(const void *path, long len)
{
	return syscall(SYS_truncate, path, len);
}

static long sys_ftruncate(int fd, long len)
{
	return syscall(SYS_ftruncate, fd, len);
}

/* open(2), closing what it opened: 0 or -1/errno. */
static long open_close(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* One result computed in a child: the return value and errno. */
struct res {
	long ret;
	int err;
};
#define REC(r, call)                                                       \
	do {                                                               \
		errno = 0;                                                 \
		(r).ret = (long)(call);                                    \
		(r).err = errno;                                           \
	} while (0)

/* want 0: the call succeeded (returned 0); else it failed with want. */
static int is_res(struct res r, int want, const char *desc)
{
	if (!want) {
		errno = r.err;
		return is_long(r.ret, 0, "%s", desc);
	}
	errno = r.err;
	return is_errno(r.ret, want, "%s", desc);
}

/* Run fn(r) in a child; its results come back into r. Returns the
 * child's wait status, or -1 if it could not run. */
static int in_child(void (*fn)(struct res *), struct res *r, size_t n)
{
	int p[2], status;
	size_t got = 0;
	pid_t pid;

	memset(r, 0, n * sizeof(*r));
	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[0]);
		fn(r);
		write(p[1], r, n * sizeof(*r));
		_exit(0);
	}
	close(p[1]);
	while (got < n * sizeof(*r)) {
		ssize_t k = read(p[0], (char *)r + got, n * sizeof(*r) - got);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (got != n * sizeof(*r))
		diag("child sent %zu of %zu result bytes (status 0x%x)", got,
		     n * sizeof(*r), status);
	return status;
}

static int become_nobody(void)
{
	syscall(SYS_setgroups, 0, NULL);	/* ENOSYS on pagelab: no groups */
	if (setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
		return -1;
	return 0;
}

/* Remove dir and everything under it (two levels are all we make). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	chmod(dir, 0700);
	while (d && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* ---- 1. negative lengths ---------------------------------------------- */

static void test_negative_length(void)
{
	int fd;

	make_file("neg", 0644, 100);
	fd = open("neg", O_RDWR);
	is_errno(sys_truncate("neg", -1), EINVAL,
		 "truncate to length -1 fails with EINVAL");
	is_errno(sys_truncate("neg", LONG_MIN), EINVAL,
		 "truncate to length LONG_MIN fails with EINVAL");
	is_errno(sys_ftruncate(fd, -1), EINVAL,
		 "ftruncate to length -1 fails with EINVAL");
	is_errno(sys_ftruncate(fd, LONG_MIN), EINVAL,
		 "ftruncate to length LONG_MIN fails with EINVAL");
	is_long(fsize_of(fd), 100, "and the file keeps its 100 bytes");
	is_errno(sys_truncate((void *)1, -1), EINVAL,
		 "truncate with a bad path AND length -1 fails with EINVAL "
		 "(the length is checked first)");
	is_errno(sys_truncate("no-such-file", -1), EINVAL,
		 "truncate of a missing file to length -1 fails with EINVAL");
	is_errno(sys_ftruncate(-1, -1), EINVAL,
		 "ftruncate of fd -1 to length -1 fails with EINVAL (the "
		 "length is checked before the fd)");
	close(fd);
}

/* ---- 2. ftruncate on fds that cannot be cut --------------------------- */

static void test_ftruncate_fds(void)
{
	int fd, p[2];

	make_file("fd", 0644, 100);
	fd = open("fd", O_RDONLY);
	is_errno(sys_ftruncate(fd, 10), EINVAL,
		 "ftruncate on an O_RDONLY fd fails with EINVAL (not EBADF)");
	is_long(fsize_of(fd), 100, "and the file keeps its size");
	close(fd);
	is_errno(sys_ftruncate(fd, 10), EBADF,
		 "ftruncate on a closed fd fails with EBADF");
	is_errno(sys_ftruncate(-1, 10), EBADF,
		 "ftruncate on fd -1 fails with EBADF");
	is_errno(sys_ftruncate(1 << 20, 10), EBADF,
		 "ftruncate on fd 1048576 fails with EBADF");

	fd = open("fd", O_PATH);
	if (fd >= 0) {
		is_errno(sys_ftruncate(fd, 10), EBADF,
			 "ftruncate on an O_PATH fd fails with EBADF");
		close(fd);
	} else {
		skip("no O_PATH", "ftruncate on an O_PATH fd");
	}

	fd = open("fd", O_WRONLY);
	is_long(sys_ftruncate(fd, 10), 0, "ftruncate on an O_WRONLY fd works");
	close(fd);
	fd = open("fd", O_RDWR);
	is_long(sys_ftruncate(fd, 20), 0, "ftruncate on an O_RDWR fd works");
	is_long(fsize_of(fd), 20, "and the size is 20");
	close(fd);
	fd = open("fd", O_WRONLY | O_APPEND);
	is_long(sys_ftruncate(fd, 5), 0, "ftruncate on an O_APPEND fd works");
	write(fd, "abc", 3);
	is_long(fsize_of(fd), 8,
		"and a write after it appends at the new end (size 8)");
	close(fd);

	mkdir("fd_dir", 0755);
	fd = open("fd_dir", O_RDONLY | O_DIRECTORY);
	is_errno(sys_ftruncate(fd, 0), EINVAL,
		 "ftruncate on a directory fd fails with EINVAL");
	close(fd);

	if (pipe(p) == 0) {
		is_errno(sys_ftruncate(p[1], 0), EINVAL,
			 "ftruncate on a pipe's write end fails with EINVAL");
		is_errno(sys_ftruncate(p[0], 0), EINVAL,
			 "ftruncate on a pipe's read end fails with EINVAL");
		close(p[0]);
		close(p[1]);
	}

	if (mknod("fd_fifo", S_IFIFO | 0644, 0) == 0) {
		int r = open("fd_fifo", O_RDONLY | O_NONBLOCK);
		int w = open("fd_fifo", O_WRONLY | O_NONBLOCK);

		is_errno(sys_ftruncate(w, 0), EINVAL,
			 "ftruncate on a FIFO opened for writing fails with "
			 "EINVAL");
		close(r);
		close(w);
	} else {
		skip(strerror(errno), "ftruncate on a FIFO");
	}

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd >= 0) {
		is_errno(sys_ftruncate(fd, 0), EINVAL,
			 "ftruncate on a socket fails with EINVAL");
		close(fd);
	} else {
		skip(strerror(errno), "ftruncate on a socket (no sockets)");
	}

	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		is_errno(sys_ftruncate(fd, 0), EINVAL,
			 "ftruncate on /dev/null opened for writing fails "
			 "with EINVAL");
		close(fd);
	} else {
		skip("no /dev/null", "ftruncate on a character device");
	}
}

/* ---- 3. truncate by name ----------------------------------------------- */

/* A path of exactly len bytes naming file: "./" pairs, slashes, file. */
static void long_path(char *path, size_t len, const char *file)
{
	size_t i, head = len - strlen(file);

	for (i = 0; i + 2 <= head; i += 2)
		memcpy(path + i, "./", 2);
	while (i < head)
		path[i++] = '/';
	strcpy(path + i, file);
}

static void test_truncate_paths(void)
{
	static char name[300], path[4200];

	make_file("tp", 0644, 100);
	mkdir("tp_dir", 0755);
	is_errno(sys_truncate("tp_dir", 0), EISDIR,
		 "truncate of a directory fails with EISDIR");
	is_errno(sys_truncate(".", 0), EISDIR,
		 "truncate of \".\" fails with EISDIR");
	is_errno(sys_truncate("tp_dir/", 0), EISDIR,
		 "truncate of \"dir/\" fails with EISDIR");
	is_errno(sys_truncate("missing", 0), ENOENT,
		 "truncate of a missing file fails with ENOENT");
	is_errno(sys_truncate("missing/x", 0), ENOENT,
		 "truncate through a missing directory fails with ENOENT");
	is_errno(sys_truncate("", 0), ENOENT,
		 "truncate of \"\" fails with ENOENT");
	is_errno(sys_truncate("tp/x", 0), ENOTDIR,
		 "truncate of \"file/x\" fails with ENOTDIR");
	is_errno(sys_truncate("tp/", 0), ENOTDIR,
		 "truncate of \"file/\" fails with ENOTDIR");
	is_long(size_of("tp"), 100, "and the file keeps its size");

	memset(name, 'n', 256);
	name[256] = '\0';
	is_errno(sys_truncate(name, 0), ENAMETOOLONG,
		 "truncate of a 256-byte name fails with ENAMETOOLONG");
	name[255] = '\0';
	is_errno(sys_truncate(name, 0), ENOENT,
		 "truncate of a missing 255-byte name fails with ENOENT");

	/* "././...//tp": 4095 bytes fit in PATH_MAX with the NUL, 4096 not. */
	long_path(path, 4095, "tp");
	is_int(strlen(path), 4095, "(the long path is 4095 bytes)");
	is_long(sys_truncate(path, 50), 0,
		"truncate through a 4095-byte path works");
	is_long(size_of("tp"), 50, "and cuts the file to 50");
	long_path(path, 4096, "tp");
	is_int(strlen(path), 4096, "(the longer path is 4096 bytes)");
	is_errno(sys_truncate(path, 0), ENAMETOOLONG,
		 "truncate through a 4096-byte path fails with ENAMETOOLONG");
	memset(path, '/', 4200);
	path[4199] = '\0';
	is_errno(sys_truncate(path, 0), ENAMETOOLONG,
		 "truncate through a 4199-byte path fails with ENAMETOOLONG");
	is_long(size_of("tp"), 50, "and the file keeps its size");

	symlink("tp", "tp_link");
	symlink("missing", "tp_dangling");
	symlink("tp_loop2", "tp_loop1");
	symlink("tp_loop1", "tp_loop2");
	is_long(sys_truncate("tp_link", 30), 0,
		"truncate of a symlink to a file works");
	is_long(size_of("tp"), 30, "and cuts the target (30 bytes)");
	is_errno(sys_truncate("tp_dangling", 0), ENOENT,
		 "truncate of a dangling symlink fails with ENOENT");
	is_errno(sys_truncate("tp_loop1", 0), ELOOP,
		 "truncate of a symlink loop fails with ELOOP");

	if (mknod("tp_fifo", S_IFIFO | 0666, 0) == 0)
		is_errno(sys_truncate("tp_fifo", 0), EINVAL,
			 "truncate of a FIFO fails with EINVAL");
	else
		skip(strerror(errno), "truncate of a FIFO");
	if (access("/dev/null", F_OK) == 0)
		is_errno(sys_truncate("/dev/null", 0), EINVAL,
			 "truncate of /dev/null fails with EINVAL");
	else
		skip("no /dev/null", "truncate of a character device");

	is_errno(sys_truncate(NULL, 0), EFAULT,
		 "truncate of a NULL path fails with EFAULT");
	is_errno(sys_truncate((void *)1, 0), EFAULT,
		 "truncate of a path at address 1 fails with EFAULT");
	is_errno(sys_truncate((void *)0xffff800000000000UL, 0), EFAULT,
		 "truncate of a path at 0xffff800000000000 fails with EFAULT");
	is_errno(sys_truncate((void *)0xffffffff80000000UL, 0), EFAULT,
		 "truncate of a path at 0xffffffff80000000 fails with EFAULT");
	is_long(size_of("tp"), 30, "and the file keeps its size");
}

/* ---- 4. permissions -------------------------------------------------------- */

enum {
	P_RW, P_RO, P_RO_WR, P_RO_TRUNC_RD, P_RO_TRUNC_WR, P_OWN_RO,
	P_NOSEARCH, P_NOSEARCH_TRUNC, P_NOSEARCH_MISSING, P_OLD_FD,
	P_OLD_FD_NAME, P_RDTRUNC, P_RDTRUNC_SIZE, P_RDTRUNC_FTRUNC, P_SUID,
	P_SUID_MODE, P_SGID, P_SGID_MODE, P_SGID_NOX, P_SGID_NOX_MODE, P_SGID_GRP, P_SGID_GRP_MODE,
	P_IDS,
	P_N
};

static void perm_child(struct res *r)
{
	int old = open("p_fd", O_WRONLY), fd;

	if (become_nobody() < 0) {
		r[P_IDS].ret = -1;
		r[P_IDS].err = errno;
		return;
	}
	REC(r[P_RW], truncate("p_rw", 50));
	REC(r[P_RO], truncate("p_ro", 50));
	REC(r[P_RO_WR], open_close("p_ro", O_WRONLY));
	REC(r[P_RO_TRUNC_RD], open_close("p_ro", O_RDONLY | O_TRUNC));
	REC(r[P_RO_TRUNC_WR], open_close("p_ro", O_WRONLY | O_TRUNC));
	REC(r[P_OWN_RO], truncate("p_own_ro", 50));
	REC(r[P_NOSEARCH], truncate("p_dir/g", 50));
	REC(r[P_NOSEARCH_TRUNC], open_close("p_dir/g", O_WRONLY | O_TRUNC));
	REC(r[P_NOSEARCH_MISSING], truncate("p_dir/missing", 50));
	REC(r[P_OLD_FD], ftruncate(old, 10));
	REC(r[P_OLD_FD_NAME], truncate("p_fd", 5));
	fd = open("p_rw", O_RDONLY | O_TRUNC);
	r[P_RDTRUNC].ret = fd < 0 ? -1 : 0;
	r[P_RDTRUNC].err = errno;
	r[P_RDTRUNC_SIZE].ret = fsize_of(fd);
	REC(r[P_RDTRUNC_FTRUNC], ftruncate(fd, 0));
	close(fd);
	REC(r[P_SUID], truncate("p_suid", 10));
	r[P_SUID_MODE].ret = mode_of("p_suid");
	fd = open("p_sgid", O_WRONLY);
	REC(r[P_SGID], ftruncate(fd, 10));
	close(fd);
	r[P_SGID_MODE].ret = mode_of("p_sgid");
	REC(r[P_SGID_NOX], open_close("p_sgid_nox", O_WRONLY | O_TRUNC));
	r[P_SGID_NOX_MODE].ret = mode_of("p_sgid_nox");
	REC(r[P_SGID_GRP], truncate("p_sgid_grp", 10));
	r[P_SGID_GRP_MODE].ret = mode_of("p_sgid_grp");
	r[P_IDS].ret = getuid() == NOBODY && geteuid() == NOBODY &&
			       getgid() == NOBODY
			   ? 0
			   : -1;
}

static void test_permissions(void)
{
	struct res r[P_N];
	int status;

	chmod(".", 0755);
	make_file("p_rw", 0666, 100);
	make_file("p_ro", 0644, 100);
	make_file("p_own_ro", 0444, 100);
	chown("p_own_ro", NOBODY, NOBODY);
	make_file("p_fd", 0600, 100);
	make_file("p_suid", 04777, 100);
	make_file("p_sgid", 02777, 100);
	make_file("p_sgid_nox", 02766, 100);
	make_file("p_sgid_grp", 02766, 100);
	chown("p_sgid_grp", 0, NOBODY);
	make_file("p_suid_root", 06755, 100);
	mkdir("p_dir", 0777);
	make_file("p_dir/g", 0666, 100);
	chmod("p_dir", 0666);	/* read and write, no search */

	status = in_child(perm_child, r, P_N);
	is_int(status, 0, "the uid 65534 child ran and exited 0");
	if (!is_res(r[P_IDS], 0, "the child runs as uid and gid 65534")) {
		chmod("p_dir", 0755);
		return;
	}
	is_res(r[P_RW], 0,
	       "uid 65534: truncate of a mode 0666 file works (the path "
	       "is searchable)");
	is_res(r[P_RO], EACCES,
	       "uid 65534: truncate of root's mode 0644 file fails with "
	       "EACCES");
	is_res(r[P_RO_WR], EACCES,
	       "uid 65534: open O_WRONLY of it fails with EACCES");
	is_res(r[P_RO_TRUNC_RD], EACCES,
	       "uid 65534: open O_RDONLY|O_TRUNC of it fails with EACCES");
	is_res(r[P_RO_TRUNC_WR], EACCES,
	       "uid 65534: open O_WRONLY|O_TRUNC of it fails with EACCES");
	is_res(r[P_OWN_RO], EACCES,
	       "uid 65534: truncate of its own mode 0444 file fails with "
	       "EACCES");
	is_res(r[P_NOSEARCH], EACCES,
	       "uid 65534: truncate through a directory without search "
	       "permission fails with EACCES");
	is_res(r[P_NOSEARCH_TRUNC], EACCES,
	       "uid 65534: open O_TRUNC through it fails with EACCES");
	is_res(r[P_NOSEARCH_MISSING], EACCES,
	       "uid 65534: truncate of a missing file in it fails with "
	       "EACCES, not ENOENT");
	is_res(r[P_OLD_FD], 0,
	       "uid 65534: ftruncate on an fd root opened for writing "
	       "works (no new permission check)");
	is_res(r[P_OLD_FD_NAME], EACCES,
	       "uid 65534: truncate of the same file by name fails with "
	       "EACCES");
	is_res(r[P_RDTRUNC], 0,
	       "uid 65534: open O_RDONLY|O_TRUNC of a mode 0666 file works");
	is_long(r[P_RDTRUNC_SIZE].ret, 0, "and truncates it to 0 (Linux)");
	is_res(r[P_RDTRUNC_FTRUNC], EINVAL,
	       "and ftruncate on that O_RDONLY fd fails with EINVAL");

	is_res(r[P_SUID], 0, "uid 65534: truncate of a mode 04777 file works");
	is_long(r[P_SUID_MODE].ret, 0777, "and clears its set-user-ID bit "
					  "(mode 0777)");
	is_res(r[P_SGID], 0, "uid 65534: ftruncate of a mode 02777 file works");
	is_long(r[P_SGID_MODE].ret, 0777, "and clears its set-group-ID bit "
					  "(mode 0777)");
	is_res(r[P_SGID_NOX], 0,
	       "uid 65534: open O_TRUNC of a mode 02766 file works");
	is_long(r[P_SGID_NOX_MODE].ret, 0766,
		"and clears set-group-ID even without group execute, the "
		"file's group not being its own (mode 0766)");
	is_res(r[P_SGID_GRP], 0,
	       "uid 65534: truncate of a mode 02766 file of group 65534 "
	       "works");
	is_long(r[P_SGID_GRP_MODE].ret, 02766,
		"and keeps set-group-ID: no group execute, and its group "
		"(mode 02766)");
	is_long(sys_truncate("p_suid_root", 10), 0,
		"root: truncate of a mode 06755 file works");
	is_long(mode_of("p_suid_root"), 06755,
		"and keeps both set-id bits (CAP_FSETID)");

	is_long(size_of("p_ro"), 100, "root's mode 0644 file still has 100 "
				      "bytes");
	is_long(size_of("p_own_ro"), 100, "the mode 0444 file still has 100 "
					  "bytes");
	is_long(size_of("p_fd"), 10, "the file cut through the old fd has 10");
	chmod("p_dir", 0755);
	is_long(size_of("p_dir/g"), 100, "the file behind the unsearchable "
					 "directory still has 100 bytes");

	chmod("p_ro", 0);
	is_long(sys_truncate("p_ro", 7), 0,
		"root: truncate of a mode 0000 file works");
	chmod("p_dir", 0);
	is_long(sys_truncate("p_dir/g", 7), 0,
		"root: truncate through a mode 0000 directory works");
	chmod("p_dir", 0755);
}

/* ---- 5. ETXTBSY ------------------------------------------------------------ */

/* --hold R W: tell the parent we run (R), then wait for W to close. */
static int hold(int argc, char **argv)
{
	char c;

	if (argc < 4)
		return 2;
	alarm(30);
	write(atoi(argv[2]), "r", 1);
	close(atoi(argv[2]));
	while (read(atoi(argv[3]), &c, 1) > 0)
		;
	return 0;
}

static int copy_fd_to(int src, const char *dst)
{
	char buf[8192];
	ssize_t n;
	int fd = open(dst, O_CREAT | O_WRONLY | O_TRUNC, 0755);

	if (fd < 0 || lseek(src, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(src, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			n = -1;
	close(fd);
	chmod(dst, 0755);
	return n < 0 ? -1 : 0;
}

static void test_etxtbsy(int self)
{
	int ready[2], release[2], status;
	char arg1[16], arg2[16], c = 0;
	long size;
	pid_t pid;

	if (self < 0 || copy_fd_to(self, "exe") < 0) {
		skip("cannot copy this program", "ETXTBSY checks");
		return;
	}
	size = size_of("exe");
	link("exe", "exe_link");
	if (pipe(ready) < 0 || pipe(release) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(release[1]);
		snprintf(arg1, sizeof(arg1), "%d", ready[1]);
		snprintf(arg2, sizeof(arg2), "%d", release[0]);
		execl("./exe", "exe", "--hold", arg1, arg2, (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	close(release[0]);
	if (!ok(read(ready[0], &c, 1) == 1 && c == 'r',
		"a copy of this program runs (exec'd by a child)")) {
		close(release[1]);
		waitpid(pid, &status, 0);
		return;
	}
	is_errno(sys_truncate("exe", 0), ETXTBSY,
		 "truncate of a file being executed fails with ETXTBSY");
	is_errno(sys_truncate("exe_link", 0), ETXTBSY,
		 "truncate of a hard link to it fails with ETXTBSY");
	is_errno(open_close("exe", O_WRONLY), ETXTBSY,
		 "open O_WRONLY of it fails with ETXTBSY");
	is_errno(open_close("exe", O_RDWR | O_TRUNC), ETXTBSY,
		 "open O_RDWR|O_TRUNC of it fails with ETXTBSY");
	is_errno(open_close("exe", O_RDONLY | O_TRUNC), ETXTBSY,
		 "open O_RDONLY|O_TRUNC of it fails with ETXTBSY");
	is_long(open_close("exe", O_RDONLY), 0, "open O_RDONLY of it works");
	is_long(size_of("exe"), size, "and it keeps its %ld bytes", size);
	close(release[1]);
	close(ready[0]);
	waitpid(pid, &status, 0);
	is_int(status, 0, "the running copy exits 0");
	is_long(sys_truncate("exe", 0), 0,
		"truncate of it works once it has exited");
}

/* ---- 6. EFBIG --------------------------------------------------------------- */

/* Linux's ext2_max_size (fs/ext2/super.c, since 5.11): the largest file
 * whose data and indirect blocks fit i_blocks' 2^32-1 sectors, capped by
 * what the block tree can address. */
static long long linux_ext2_max_size(int bits)
{
	unsigned long long ppb = 1ULL << (bits - 2), res = 12, upper, meta;

	upper = ((1ULL << 32) - 1) >> (bits - 9);
	res += ppb + ppb * ppb + ppb * ppb * ppb;
	meta = 1 + (1 + ppb) + (1 + ppb + ppb * ppb);
	if (res + meta <= upper)
		return (long long)(res << bits);
	res = upper;
	upper -= 12;
	meta = 1;
	upper -= ppb;
	if (upper < ppb * ppb) {
		meta += 1 + (upper + ppb - 1) / ppb;
		return (long long)((res - meta) << bits);
	}
	meta += 1 + ppb;
	upper -= ppb * ppb;
	meta += 1 + (upper + ppb - 1) / ppb + (upper + ppb * ppb - 1) /
						    (ppb * ppb);
	return (long long)((res - meta) << bits);
}

static void test_efbig_maxbytes(void)
{
	struct statfs sf;
	char type[64];
	long r;
	int fd, bits;

	make_file("big", 0644, 0);
	fd = open("big", O_RDWR);
	statfs(".", &sf);
	fs_type_of_cwd(type, sizeof(type));
	diag("cwd is on %s, f_type 0x%lx, f_bsize %ld", type,
	     (unsigned long)sf.f_type, (long)sf.f_bsize);
	if (sf.f_type == EXT2_MAGIC) {
		is_errno(sys_truncate("big", 1L << 62), EFBIG,
			 "truncate to 2^62 on ext2/3/4 fails with EFBIG");
		is_errno(sys_ftruncate(fd, 1L << 62), EFBIG,
			 "ftruncate to 2^62 on ext2/3/4 fails with EFBIG");
		is_errno(sys_ftruncate(fd, LONG_MAX), EFBIG,
			 "ftruncate to LONG_MAX on ext2/3/4 fails with EFBIG");
	} else {
		r = sys_truncate("big", 1L << 62);
		diag("truncate to 2^62 on %s: %s", type,
		     r == 0 ? "works" : tap_errname(errno));
		r = sys_ftruncate(fd, LONG_MAX);
		diag("ftruncate to LONG_MAX on %s: %s", type,
		     r == 0 ? "works" : tap_errname(errno));
		sys_ftruncate(fd, 0);
	}
	is_long(fsize_of(fd), 0, "and the file is still empty");

	for (bits = 10; (1L << bits) < (long)sf.f_bsize; bits++)
		;
	if (strcmp(type, "ext2") != 0 || bits > 12) {
		skip("not ext2", "truncate to exactly ext2's maximum size");
	} else {
		long long max = linux_ext2_max_size(bits);

		r = sys_ftruncate(fd, max);
		if (r < 0) {
			int e = errno;
			long long lo = 0, hi = max;	/* lo works, hi not */

			while (hi - lo > 1) {
				long long mid = lo + (hi - lo) / 2;

				if (sys_ftruncate(fd, mid) == 0)
					lo = mid;
				else
					hi = mid;
			}
			diag("ftruncate to %lld: %s; the largest size that "
			     "works is %lld", max, tap_errname(e), lo);
			errno = e;
		}
		is_long(r, 0, "ftruncate to ext2's maximum for %d-byte blocks, "
			"%lld, works", 1 << bits, max);
		is_errno(sys_ftruncate(fd, max + 1), EFBIG,
			 "ftruncate to one byte more fails with EFBIG");
		is_long(sys_ftruncate(fd, 0), 0, "and back to 0 works");
	}
	close(fd);
}

static volatile sig_atomic_t xfsz_count;

static void on_xfsz(int sig)
{
	(void)sig;
	xfsz_count++;
}

enum {
	L_SETRLIMIT, L_GROW, L_GROW_SIZE, L_GROW_NAME, L_AT_LIMIT, L_PAST_LIMIT,
	L_SIG_GROW, L_SIG_COUNT, L_SHRINK_ABOVE, L_SAME_ABOVE, L_SHRINK_COUNT,
	L_GROW_ABOVE, L_GROW_ABOVE_COUNT, L_PRLIMIT, L_PRLIMIT_OLD,
	L_PRLIMIT_GROW, L_PRLIMIT_COUNT, L_GETRLIMIT, L_OTRUNC_ABOVE,
	L_OTRUNC_SIZE, L_N
};

static void rlimit_child(struct res *r)
{
	struct rlimit lim = { 4096, RLIM_INFINITY }, old;
	struct sigaction sa;
	int fd, big;

	make_file("lim", 0644, 0);
	make_file("lim_big", 0644, 8192);
	fd = open("lim", O_RDWR);
	big = open("lim_big", O_RDWR);
	signal(SIGXFSZ, SIG_IGN);
	REC(r[L_SETRLIMIT], setrlimit(RLIMIT_FSIZE, &lim));
	REC(r[L_GROW], ftruncate(fd, 8192));
	r[L_GROW_SIZE].ret = fsize_of(fd);
	REC(r[L_GROW_NAME], truncate("lim", 8192));
	REC(r[L_AT_LIMIT], ftruncate(fd, 4096));
	REC(r[L_PAST_LIMIT], ftruncate(fd, 4097));

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_xfsz;
	sigaction(SIGXFSZ, &sa, NULL);
	REC(r[L_SIG_GROW], ftruncate(fd, 8192));
	r[L_SIG_COUNT].ret = xfsz_count;
	REC(r[L_SHRINK_ABOVE], ftruncate(big, 6000));
	REC(r[L_SAME_ABOVE], ftruncate(big, 6000));
	r[L_SHRINK_COUNT].ret = xfsz_count;
	REC(r[L_GROW_ABOVE], ftruncate(big, 7000));
	r[L_GROW_ABOVE_COUNT].ret = xfsz_count;

	lim.rlim_cur = 2048;
	REC(r[L_PRLIMIT], syscall(SYS_prlimit64, 0, RLIMIT_FSIZE, &lim, &old));
	r[L_PRLIMIT_OLD].ret = (long)old.rlim_cur;
	ftruncate(fd, 0);
	REC(r[L_PRLIMIT_GROW], ftruncate(fd, 3000));
	r[L_PRLIMIT_COUNT].ret = xfsz_count;
	getrlimit(RLIMIT_FSIZE, &old);
	r[L_GETRLIMIT].ret = (long)old.rlim_cur;
	REC(r[L_OTRUNC_ABOVE], open_close("lim_big", O_WRONLY | O_TRUNC));
	r[L_OTRUNC_SIZE].ret = size_of("lim_big");
	close(fd);
	close(big);
}

static void xfsz_default_child(struct res *r)
{
	struct rlimit lim = { 4096, RLIM_INFINITY }, nocore = { 0, 0 };
	int fd = open("lim", O_RDWR);

	(void)r;
	setrlimit(RLIMIT_CORE, &nocore);
	signal(SIGXFSZ, SIG_DFL);
	setrlimit(RLIMIT_FSIZE, &lim);
	ftruncate(fd, 8192);
	_exit(0);	/* not reached: SIGXFSZ kills */
}

static void test_rlimit_fsize(void)
{
	struct res r[L_N];
	int status;

	status = in_child(rlimit_child, r, L_N);
	is_int(status, 0, "the RLIMIT_FSIZE child exited 0");
	is_res(r[L_SETRLIMIT], 0, "setrlimit(RLIMIT_FSIZE, 4096) works");
	is_res(r[L_GROW], EFBIG,
	       "with SIGXFSZ ignored, ftruncate from 0 to 8192 fails with "
	       "EFBIG");
	is_long(r[L_GROW_SIZE].ret, 0, "and the file stays empty");
	is_res(r[L_GROW_NAME], EFBIG, "truncate by name to 8192: EFBIG too");
	is_res(r[L_AT_LIMIT], 0, "ftruncate to exactly the limit works");
	is_res(r[L_PAST_LIMIT], EFBIG,
	       "ftruncate to the limit + 1 fails with EFBIG");
	is_res(r[L_SIG_GROW], EFBIG, "with a handler: EFBIG again");
	is_long(r[L_SIG_COUNT].ret, 1, "and exactly one SIGXFSZ arrived");
	is_res(r[L_SHRINK_ABOVE], 0,
	       "shrinking a file from 8192 to 6000, still above the limit, "
	       "works");
	is_res(r[L_SAME_ABOVE], 0, "ftruncate to its own size above the "
				   "limit works");
	is_long(r[L_SHRINK_COUNT].ret, 1, "and sends no SIGXFSZ");
	is_res(r[L_GROW_ABOVE], EFBIG,
	       "growing it from 6000 to 7000 fails with EFBIG");
	is_long(r[L_GROW_ABOVE_COUNT].ret, 2, "with a second SIGXFSZ");
	is_res(r[L_PRLIMIT], 0, "prlimit64(0, RLIMIT_FSIZE, 2048) works");
	is_long(r[L_PRLIMIT_OLD].ret, 4096, "and returns the old limit 4096");
	is_res(r[L_PRLIMIT_GROW], EFBIG,
	       "then ftruncate to 3000 fails with EFBIG");
	is_long(r[L_PRLIMIT_COUNT].ret, 3, "with a third SIGXFSZ");
	is_long(r[L_GETRLIMIT].ret, 2048, "getrlimit sees the new 2048");
	is_res(r[L_OTRUNC_ABOVE], 0,
	       "open O_TRUNC of a file above the limit works (a shrink)");
	is_long(r[L_OTRUNC_SIZE].ret, 0, "and empties it");

	status = in_child(xfsz_default_child, r, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ,
	   "with SIGXFSZ at its default, growing past the limit kills the "
	   "process with SIGXFSZ (status 0x%x)", status);
	is_long(size_of("lim"), 0, "and the file stays empty");
}

/* ---- 7. O_TRUNC ------------------------------------------------------------- */

/* A time stamp in the past; checks ask "changed", not "later": pagelab's
 * clock counts from boot. */
#define OLD 1000000000

static void test_o_trunc(void)
{
	struct timespec old[2] = { { OLD, 0 }, { OLD, 0 } };
	struct statfs sf;
	struct stat st;
	int fd;

	make_file("ot", 0644, 100);
	fd = open("ot", O_RDONLY | O_TRUNC);
	ok(fd >= 0, "open O_RDONLY|O_TRUNC of a writable file works");
	is_long(fsize_of(fd), 0, "and truncates it (Linux does)");
	is_errno(write(fd, "x", 1), EBADF, "and the fd is still read-only");
	close(fd);

	make_file("ot", 0644, 100);
	is_errno(open_close("ot", O_CREAT | O_EXCL | O_WRONLY | O_TRUNC),
		 EEXIST, "open O_CREAT|O_EXCL|O_TRUNC of it fails with EEXIST");
	is_long(size_of("ot"), 100, "and does not truncate it");
	is_long(open_close("ot", O_CREAT | O_WRONLY | O_TRUNC), 0,
		"open O_CREAT|O_TRUNC of it works");
	is_long(size_of("ot"), 0, "and truncates it");

	mkdir("ot_dir", 0755);
	is_errno(open_close("ot_dir", O_RDONLY | O_TRUNC), EISDIR,
		 "open O_RDONLY|O_TRUNC of a directory fails with EISDIR");
	is_errno(open_close("ot_dir", O_RDONLY | O_DIRECTORY | O_TRUNC),
		 EISDIR, "so does O_RDONLY|O_DIRECTORY|O_TRUNC");
	if (mknod("ot_fifo", S_IFIFO | 0666, 0) == 0)
		is_long(open_close("ot_fifo", O_RDONLY | O_NONBLOCK | O_TRUNC),
			0, "open O_RDONLY|O_NONBLOCK|O_TRUNC of a FIFO works "
			   "(O_TRUNC is ignored)");
	else
		skip(strerror(errno), "O_TRUNC on a FIFO");
	if (access("/dev/null", F_OK) == 0)
		is_long(open_close("/dev/null", O_WRONLY | O_TRUNC), 0,
			"open O_WRONLY|O_TRUNC of /dev/null works");
	else
		skip("no /dev/null", "O_TRUNC on a device");

	/* Times: O_TRUNC and ftruncate set mtime even when the size does
	 * not change; truncate(2) by name with the same size does not. */
	make_file("ot", 0644, 0);
	utimensat(AT_FDCWD, "ot", old, 0);
	close(open("ot", O_WRONLY | O_TRUNC));
	stat("ot", &st);
	ok(st.st_mtime != OLD && st.st_ctime != OLD,
	   "open O_TRUNC of an empty file sets mtime and ctime");
	utimensat(AT_FDCWD, "ot", old, 0);
	fd = open("ot", O_WRONLY);
	ftruncate(fd, 0);
	close(fd);
	stat("ot", &st);
	ok(st.st_mtime != OLD, "ftruncate to the same size sets mtime");
	utimensat(AT_FDCWD, "ot", old, 0);
	truncate("ot", 0);
	stat("ot", &st);
	/* Linux's ext2 and ext4 set it, tmpfs does not: only report it. */
	diag("truncate by name to the same size: mtime %s",
	     st.st_mtime == OLD ? "unchanged" : "set");
	truncate("ot", 10);
	stat("ot", &st);
	statfs(".", &sf);
	if (sf.f_type != RAMFS_MAGIC)
		ok(st.st_mtime != OLD && st.st_ctime != OLD,
		   "truncate by name to a new size sets mtime and ctime");
	else	/* Linux's simple_setattr does not: only report it */
		diag("ramfs: truncate by name to a new size: mtime %s",
		     st.st_mtime == OLD ? "unchanged" : "set");
}

/* ---- --rofs FILE: a file on a read-only mount --------------------------- */

enum {
	R_TRUNC, R_TRUNC_SAME, R_OPEN_WR, R_OPEN_RD_TRUNC, R_FTRUNC_RD,
	R_DIR, R_MISSING, R_N
};

static const char *rofs_path;

static void rofs_child(struct res *r)
{
	char dir[PATH_MAX], *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", rofs_path);
	slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	REC(r[R_TRUNC], truncate(rofs_path, 0));
	REC(r[R_TRUNC_SAME], truncate(rofs_path, size_of(rofs_path)));
	REC(r[R_OPEN_WR], open_close(rofs_path, O_WRONLY));
	REC(r[R_OPEN_RD_TRUNC], open_close(rofs_path, O_RDONLY | O_TRUNC));
	fd = open(rofs_path, O_RDONLY);
	REC(r[R_FTRUNC_RD], ftruncate(fd, 0));
	close(fd);
	REC(r[R_DIR], truncate(dir, 0));
	strncat(dir, "no-such-file", sizeof(dir) - strlen(dir) - 1);
	REC(r[R_MISSING], truncate(dir, 0));
}

static void rofs_nobody(struct res *r)
{
	if (become_nobody() < 0)
		return;
	REC(r[R_TRUNC], truncate(rofs_path, 0));
	REC(r[R_OPEN_RD_TRUNC], open_close(rofs_path, O_RDONLY | O_TRUNC));
}

static int rofs(const char *path)
{
	struct res r[R_N];
	long size = size_of(path);

	rofs_path = path;
	alarm(30);
	ok(size > 0, "%s exists and is not empty (%ld bytes)", path, size);
	in_child(rofs_child, r, R_N);
	is_res(r[R_TRUNC], EROFS,
	       "truncate of a file on a read-only mount fails with EROFS");
	is_res(r[R_TRUNC_SAME], EROFS, "even to its own size");
	is_res(r[R_OPEN_WR], EROFS, "open O_WRONLY fails with EROFS");
	is_res(r[R_OPEN_RD_TRUNC], EROFS,
	       "open O_RDONLY|O_TRUNC fails with EROFS");
	is_res(r[R_FTRUNC_RD], EINVAL,
	       "ftruncate on an O_RDONLY fd fails with EINVAL");
	is_res(r[R_DIR], EISDIR,
	       "truncate of a directory there fails with EISDIR (before "
	       "EROFS)");
	is_res(r[R_MISSING], ENOENT,
	       "truncate of a missing file there fails with ENOENT");
	in_child(rofs_nobody, r, R_N);
	is_res(r[R_TRUNC], EROFS,
	       "uid 65534: truncate there fails with EROFS (before EACCES)");
	is_res(r[R_OPEN_RD_TRUNC], EROFS,
	       "uid 65534: open O_RDONLY|O_TRUNC fails with EROFS");
	is_long(size_of(path), size, "and the file keeps its %ld bytes", size);
	return done_testing();
}

/* chattr's flags (Linux's <linux/fs.h>, which musl does not ship). */
#define FS_IOC_GETFLAGS 0x80086601
#define FS_IOC_SETFLAGS 0x40086602
#define FS_IMMUTABLE_FL 0x00000010
#define FS_APPEND_FL 0x00000020

/* chattr +flag / -flag on path: 0, or -1 with errno. */
static int set_inode_flag(const char *path, int flag, int on)
{
	int fd = open(path, O_RDONLY), flags = 0, r = -1;

	if (fd < 0)
		return -1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags = on ? flags | flag : flags & ~flag;
		r = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
	return r;
}

/* Append-only ('a') and immutable ('i') files refuse to be cut: EPERM.
 * The flags are always cleared again, whatever a check said, so that the
 * test directory can be removed. */
static void test_append_immutable(void)
{
	int fd;

	make_file("a_only", 0644, 100);
	if (set_inode_flag("a_only", FS_APPEND_FL, 1) < 0) {
		skip(strerror(errno), "EPERM for append-only and immutable "
		     "files (FS_IOC_SETFLAGS)");
		unlink("a_only");
		return;
	}
	is_errno(sys_truncate("a_only", 10), EPERM,
		 "truncate of an append-only file: EPERM");
	fd = open("a_only", O_WRONLY | O_APPEND);
	ok(fd >= 0, "open O_WRONLY|O_APPEND of an append-only file works");
	is_errno(sys_ftruncate(fd, 10), EPERM,
		 "ftruncate of it through that O_APPEND fd: EPERM");
	if (fd >= 0)
		close(fd);
	is_errno(open("a_only", O_WRONLY), EPERM,
		 "open O_WRONLY without O_APPEND: EPERM");
	is_errno(open("a_only", O_WRONLY | O_APPEND | O_TRUNC), EPERM,
		 "open O_APPEND|O_TRUNC: EPERM");
	is_errno(unlink("a_only"), EPERM, "unlink of an append-only file: EPERM");
	set_inode_flag("a_only", FS_APPEND_FL, 0);
	unlink("a_only");

	make_file("i_only", 0644, 100);
	ok(set_inode_flag("i_only", FS_IMMUTABLE_FL, 1) == 0,
	   "chattr +i on a file");
	is_errno(sys_truncate("i_only", 10), EPERM,
		 "truncate of an immutable file: EPERM");
	is_errno(open("i_only", O_WRONLY), EPERM,
		 "open O_WRONLY of an immutable file: EPERM");
	is_errno(open("i_only", O_RDONLY | O_TRUNC), EPERM,
		 "open O_RDONLY|O_TRUNC of an immutable file: EPERM");
	is_errno(chmod("i_only", 0600), EPERM, "chmod of it: EPERM");
	is_errno(unlink("i_only"), EPERM, "unlink of it: EPERM");
	set_inode_flag("i_only", FS_IMMUTABLE_FL, 0);
	is_int(unlink("i_only"), 0, "chattr -i: now it can go");
}

int main(int argc, char **argv)
{
	char dir[] = "truncate_errno.XXXXXX";
	int self;

	if (argc > 1 && !strcmp(argv[1], "--hold"))
		return hold(argc, argv);
	if (argc > 2 && !strcmp(argv[1], "--rofs"))
		return rofs(argv[2]);
	alarm(60);
	self = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (self < 0)
		self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	umask(022);
	if (!mkdtemp(dir) || chdir(dir) < 0) {
		diag("cannot make a scratch directory in cwd: %s",
		     strerror(errno));
		return 1;
	}
	if (geteuid() != 0)
		diag("not root: the permission checks need root to setuid");

	test_negative_length();
	test_ftruncate_fds();
	test_truncate_paths();
	if (geteuid() == 0)
		test_permissions();
	else
		skip("not root", "permission checks as uid 65534");
	test_etxtbsy(self);
	test_efbig_maxbytes();
	test_rlimit_fsize();
	test_o_trunc();
	if (geteuid() == 0)
		test_append_immutable();
	else
		skip("not root", "EPERM for append-only and immutable files");

	chdir("..");
	remove_tree(dir);
	return done_testing();
}
