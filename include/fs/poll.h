/*
 * Polling a file (Linux's include/linux/poll.h and uapi/linux/eventpoll.h).
 *
 * A file that can say whether it is ready implements ->poll(file, pt):
 * it calls poll_wait() on each wait queue its readiness changes on, then
 * returns the EPOLL* bits that hold now. poll(2), select(2) (fs/select.c)
 * and epoll (fs/eventpoll.c) pass a poll_table whose queue function hangs
 * an entry on those queues, so that the driver's ordinary wake_up() wakes
 * them; a NULL table (or one with no function) only asks for the mask.
 *
 *	static __poll_t pipe_poll(struct file *file, poll_table *pt)
 *	{
 *		poll_wait(file, &pipe->wait, pt);
 *		return pipe_used(pipe) ? EPOLLIN | EPOLLRDNORM : 0;
 *	}
 *
 * A file without ->poll is always ready for both directions
 * (DEFAULT_POLLMASK), and epoll refuses it (EPERM): regular files.
 */
#ifndef _FS_POLL_H
#define _FS_POLL_H

#include <fs/fs.h>
#include <kernel/wait.h>

/* The event bits: poll(2)'s POLL* and epoll's EPOLL* share values. */
#define EPOLLIN 0x00000001
#define EPOLLPRI 0x00000002
#define EPOLLOUT 0x00000004
#define EPOLLERR 0x00000008
#define EPOLLHUP 0x00000010
#define EPOLLNVAL 0x00000020
#define EPOLLRDNORM 0x00000040
#define EPOLLRDBAND 0x00000080
#define EPOLLWRNORM 0x00000100
#define EPOLLWRBAND 0x00000200
#define EPOLLMSG 0x00000400
#define EPOLLRDHUP 0x00002000

#define DEFAULT_POLLMASK (EPOLLIN | EPOLLOUT | EPOLLRDNORM | EPOLLWRNORM)

struct poll_table_struct;
typedef void (*poll_queue_proc)(struct file *file, wait_queue_head_t *wq,
				struct poll_table_struct *pt);

typedef struct poll_table_struct {
	poll_queue_proc qproc;	/* NULL: just report the mask */
} poll_table;

static inline void poll_wait(struct file *file, wait_queue_head_t *wq,
			     poll_table *pt)
{
	if (pt && pt->qproc && wq)
		pt->qproc(file, wq, pt);
}

static inline bool file_can_poll(struct file *file)
{
	return file->f_op && file->f_op->poll;
}

static inline __poll_t vfs_poll(struct file *file, poll_table *pt)
{
	if (!file_can_poll(file))
		return DEFAULT_POLLMASK;
	return file->f_op->poll(file, pt);
}

/* fs/eventpoll.c: the file's last reference is going: drop its epoll
 * registrations (from __fput, before ->release). */
void eventpoll_release_file(struct file *file);

static inline void eventpoll_release(struct file *file)
{
	if (file->f_ep)
		eventpoll_release_file(file);
}

#endif
