/*
 * fs/pipe_test.c: self-test "pipe", in one task (no other task exists at
 * boot): bytes written come back in order; a read of an empty pipe with
 * writers would block, so it is tried O_NONBLOCK (-EAGAIN); after the
 * write end is closed, read returns 0 (end of file); after the read end
 * is closed, write fails with -EPIPE (SIGPIPE goes to the boot task,
 * where nothing delivers it). A full pipe refuses a non-blocking write,
 * and a FIFO made with mknod behaves the same. No memory may be left
 * behind.
 */
#include "vfs_test.h"
#include <fs/pipe_fs_i.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/slab.h>

static int pipe_passes_bytes_then_eof_then_epipe(void)
{
	char buf[16] = { 0 };
	int fd[2];

	EXPECT_EQ(do_pipe_flags(fd, O_NONBLOCK), 0);
	EXPECT_EQ(kfd_read(fd[0], buf, sizeof(buf)), -EAGAIN);
	EXPECT_EQ(kfd_write(fd[1], "ping", 4), 4);
	EXPECT_EQ(kfd_write(fd[1], "pong", 4), 4);
	EXPECT_EQ(kfd_read(fd[0], buf, 6), 6);
	EXPECT_EQ(memcmp(buf, "pingpo", 6), 0);
	EXPECT_EQ(kfd_write(fd[0], "x", 1), -EBADF);	/* the read end */
	EXPECT_EQ(kfd_lseek(fd[0], 0, SEEK_SET), -ESPIPE);
	EXPECT_EQ(close_fd(fd[1]), 0);
	EXPECT_EQ(kfd_read(fd[0], buf, sizeof(buf)), 2);	/* the rest */
	EXPECT_EQ(kfd_read(fd[0], buf, sizeof(buf)), 0);	/* EOF */
	EXPECT_EQ(close_fd(fd[0]), 0);

	EXPECT_EQ(do_pipe_flags(fd, 0), 0);
	EXPECT_EQ(close_fd(fd[0]), 0);
	EXPECT_EQ(kfd_write(fd[1], "lost", 4), -EPIPE);
	EXPECT_EQ(close_fd(fd[1]), 0);
	return 0;
}

static int a_full_pipe_refuses_nonblocking_writes(char *page)
{
	long total = 0, n;
	int fd[2];

	memset(page, 'p', PAGE_SIZE);
	EXPECT_EQ(do_pipe_flags(fd, O_NONBLOCK), 0);
	while ((n = kfd_write(fd[1], page, 1000)) > 0)
		total += n;
	EXPECT_EQ(n, -EAGAIN);
	EXPECT_EQ(total, PIPE_SIZE - PIPE_SIZE % 1000);	/* atomic pieces */
	EXPECT_EQ(kfd_write(fd[1], page, 1), 1);	/* fits exactly */
	EXPECT_EQ(kfd_read(fd[0], page, PAGE_SIZE), PAGE_SIZE);
	EXPECT_EQ(close_fd(fd[0]), 0);
	EXPECT_EQ(close_fd(fd[1]), 0);
	return 0;
}

static int a_fifo_is_a_pipe_with_a_name(void)
{
	char buf[8];
	int r, w;

	EXPECT_EQ(do_mknodat(AT_FDCWD, "/tmp/pipe_test_fifo", S_IFIFO | 0600,
			     0), 0);
	/* No reader yet: a non-blocking writer is told ENXIO. */
	EXPECT_EQ(ksys_open("/tmp/pipe_test_fifo", O_WRONLY | O_NONBLOCK, 0),
		  -ENXIO);
	r = EXPECT_OK(ksys_open("/tmp/pipe_test_fifo", O_RDONLY | O_NONBLOCK,
				0));
	w = EXPECT_OK(ksys_open("/tmp/pipe_test_fifo", O_WRONLY, 0));
	EXPECT_EQ(kfd_write(w, "fifo", 4), 4);
	EXPECT_EQ(kfd_read(r, buf, sizeof(buf)), 4);
	EXPECT_EQ(memcmp(buf, "fifo", 4), 0);
	EXPECT_EQ(close_fd(w), 0);
	EXPECT_EQ(kfd_read(r, buf, sizeof(buf)), 0);
	EXPECT_EQ(close_fd(r), 0);
	EXPECT_EQ(do_unlinkat(AT_FDCWD, "/tmp/pipe_test_fifo"), 0);
	return 0;
}

static int test_pipe(void)
{
	struct selftest_mem mem;
	char *page;
	int err;

	vfs_init();
	page = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!page)
		return selftest_fail("no memory");
	/* The first pipe mounts pipefs for good: not a leak. */
	err = pipe_passes_bytes_then_eof_then_epipe();
	selftest_mem_snapshot(&mem);
	if (!err)
		err = pipe_passes_bytes_then_eof_then_epipe();
	if (!err)
		err = a_full_pipe_refuses_nonblocking_writes(page);
	if (!err)
		err = a_fifo_is_a_pipe_with_a_name();
	if (!err)
		err = selftest_mem_check(&mem);
	kfree(page);
	return err;
}
DEFINE_SELFTEST(pipe, test_pipe);
