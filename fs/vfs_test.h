/*
 * fs/vfs_test.h: helpers shared by the file system self-tests. They call
 * the kernel-pointer entry points (ksys_open, kernel_read, do_mkdirat...)
 * that the system calls wrap, as the boot task.
 */
#ifndef _FS_VFS_TEST_H
#define _FS_VFS_TEST_H

#include <fs/file.h>
#include <fs/namei.h>
#include <kernel/errno.h>
#include <kernel/selftest.h>

/* Fail the test unless expr (a long) equals want. */
#define EXPECT_EQ(expr, want)                                              \
	do {                                                               \
		long __got = (long)(expr), __want = (long)(want);          \
		if (__got != __want)                                       \
			return selftest_fail("%s:%d: %s: got %ld, want %ld", \
					     __func__, __LINE__, #expr,     \
					     __got, __want);               \
	} while (0)

/* 0 for a valid pointer, the error of an ERR_PTR. */
static inline long PTR_ERR_OR_ZERO(const void *p)
{
	return IS_ERR(p) ? PTR_ERR(p) : 0;
}

/* Fail unless expr is >= 0; evaluates to it. */
#define EXPECT_OK(expr)                                                    \
	({                                                                 \
		long __r = (long)(expr);                                   \
		if (__r < 0)                                               \
			return selftest_fail("%s:%d: %s: error %ld",        \
					     __func__, __LINE__, #expr,     \
					     __r);                          \
		__r;                                                       \
	})

/* read(2)/write(2)/lseek(2) on an fd of the boot task, kernel buffers. */
static inline long kfd_write(int fd, const void *buf, size_t n)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = kernel_write(f, buf, n, &f->f_pos);
	fput(f);
	return r;
}

static inline long kfd_read(int fd, void *buf, size_t n)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = kernel_read(f, buf, n, &f->f_pos);
	fput(f);
	return r;
}

static inline long kfd_pread(int fd, void *buf, size_t n, loff_t pos)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = kernel_read(f, buf, n, &pos);
	fput(f);
	return r;
}

static inline long kfd_lseek(int fd, loff_t off, int whence)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = vfs_llseek(f, off, whence);
	fput(f);
	return r;
}

/* Create or replace path with the n bytes at data; 0 or -errno. */
static inline long write_whole_file(const char *path, const void *data, size_t n)
{
	int fd = ksys_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	long r;

	if (fd < 0)
		return fd;
	r = kfd_write(fd, data, n);
	close_fd(fd);
	return r < 0 ? r : (r == (long)n ? 0 : -EIO);
}

/* Read up to n bytes of path into buf; bytes read or -errno. */
static inline long read_whole_file(const char *path, void *buf, size_t n)
{
	int fd = ksys_open(path, O_RDONLY, 0);
	long r;

	if (fd < 0)
		return fd;
	r = kfd_read(fd, buf, n);
	close_fd(fd);
	return r;
}

#endif
