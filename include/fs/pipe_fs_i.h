/*
 * Pipes and FIFOs (fs/pipe.c). A pipe is a ring of up to PIPE_DEF_BUFFERS
 * pages, allocated as data arrives and freed with the pipe. mutex protects
 * the ring and the counters; readers and writers sleep on wait.
 */
#ifndef _FS_PIPE_FS_I_H
#define _FS_PIPE_FS_I_H

#include <fs/fs.h>
#include <kernel/wait.h>

#define PIPE_DEF_BUFFERS 16	/* 64 KiB, Linux's default capacity */
#define PIPE_SIZE (PIPE_DEF_BUFFERS * 4096UL)
#define PIPE_BUF 4096	/* writes up to this size are atomic */

struct pipe_inode_info {
	struct mutex mutex;
	wait_queue_head_t wait;
	unsigned long head, tail;	/* byte counters: head - tail queued */
	void *bufs[PIPE_DEF_BUFFERS];	/* pages of the ring, NULL until used */
	unsigned int readers, writers;	/* open read/write ends */
	unsigned int r_counter, w_counter;	/* opens ever, for FIFO open */
};

/* pipe(2)/pipe2(2) with a kernel array: fd[0] reads, fd[1] writes. */
int do_pipe_flags(int *fd, int flags);
/* Two files for a new pipe: res[0] read end, res[1] write end. */
int create_pipe_files(struct file **res, int flags);
void free_pipe_info(struct pipe_inode_info *pipe);
extern const struct file_operations pipefifo_fops;

#endif
