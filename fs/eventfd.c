/*
 * fs/eventfd.c: eventfd(2), a 64-bit counter behind a file descriptor.
 *
 * write(8 bytes) adds to the counter; read(8 bytes) takes it all and
 * resets it to 0, or with EFD_SEMAPHORE takes 1. A read of 0 waits (or
 * EAGAIN with EFD_NONBLOCK); a write that would take the counter past
 * 0xfffffffffffffffe waits for a read. Both ends sleep on ctx->wqh, which
 * is also what poll/epoll watch: readable when the counter is non-zero,
 * writable while 1 more still fits.
 *
 * Roadmap: eventfd_read, eventfd_write, eventfd_poll, eventfd_release;
 * do_eventfd makes the file (fs/anon_inodes.c) for eventfd and eventfd2.
 */
#include <fs/anon_inodes.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

#define EFD_SEMAPHORE 1
#define EFD_CLOEXEC O_CLOEXEC
#define EFD_NONBLOCK O_NONBLOCK
#define EFD_FLAGS_SET (EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK)
#define ULLONG_MAX (~0ULL)

struct eventfd_ctx {
	spinlock_t lock;	/* count */
	wait_queue_head_t wqh;
	u64 count;
	unsigned int flags;	/* EFD_SEMAPHORE */
};

/* Take what a read returns, or 0 if nothing is there yet. */
static u64 eventfd_take(struct eventfd_ctx *ctx)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&ctx->lock, flags);
	n = (ctx->flags & EFD_SEMAPHORE) ? min(ctx->count, 1ULL) : ctx->count;
	ctx->count -= n;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return n;
}

/* Like Linux, the value is consumed before the copy: a bad buffer loses
 * it (EFAULT). */
static ssize_t eventfd_read(struct file *file, struct iov_iter *to,
			    loff_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	u64 n;
	int err;

	if (iov_iter_count(to) < sizeof(n))
		return -EINVAL;
	while (!(n = eventfd_take(ctx))) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(ctx->wqh, READ_ONCE(ctx->count));
		if (err)
			return err;
	}
	wake_up(&ctx->wqh);	/* room for writers */
	if (copy_to_iter(&n, sizeof(n), to) != sizeof(n))
		return -EFAULT;
	return sizeof(n);
}

/* Add n unless the counter would pass ULLONG_MAX - 1. */
static bool eventfd_add(struct eventfd_ctx *ctx, u64 n)
{
	unsigned long flags;
	bool done = false;

	spin_lock_irqsave(&ctx->lock, flags);
	if (ULLONG_MAX - ctx->count > n) {
		ctx->count += n;
		done = true;
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	return done;
}

static ssize_t eventfd_write(struct file *file, struct iov_iter *from,
			     loff_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	u64 n;
	int err;

	if (iov_iter_count(from) < sizeof(n))
		return -EINVAL;
	if (copy_from_iter(&n, sizeof(n), from) != sizeof(n))
		return -EFAULT;
	if (n == ULLONG_MAX)
		return -EINVAL;
	while (!eventfd_add(ctx, n)) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(
			ctx->wqh, ULLONG_MAX - READ_ONCE(ctx->count) > n);
		if (err)
			return err;
	}
	wake_up(&ctx->wqh);	/* data for readers */
	return sizeof(n);
}

static __poll_t eventfd_poll(struct file *file, poll_table *pt)
{
	struct eventfd_ctx *ctx = file->private_data;
	__poll_t mask = 0;
	u64 count;

	poll_wait(file, &ctx->wqh, pt);
	count = READ_ONCE(ctx->count);
	if (count > 0)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (count == ULLONG_MAX)
		mask |= EPOLLERR;
	if (ULLONG_MAX - 1 > count)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static int eventfd_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct file_operations eventfd_fops = {
	.llseek = no_llseek,
	.read_iter = eventfd_read,
	.write_iter = eventfd_write,
	.poll = eventfd_poll,
	.release = eventfd_release,
};

static long do_eventfd(unsigned int count, int flags)
{
	struct eventfd_ctx *ctx;
	int fd;

	if (flags & ~EFD_FLAGS_SET)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	spin_lock_init(&ctx->lock);
	init_waitqueue_head(&ctx->wqh);
	ctx->count = count;
	ctx->flags = flags & EFD_SEMAPHORE;
	fd = anon_inode_getfd("[eventfd]", &eventfd_fops, ctx,
			      O_RDWR | (flags & (EFD_CLOEXEC | EFD_NONBLOCK)));
	if (fd < 0)
		kfree(ctx);
	return fd;
}

SYSCALL_DEFINE2(eventfd2, unsigned int, count, int, flags)
{
	return do_eventfd(count, flags);
}

SYSCALL_DEFINE1(eventfd, unsigned int, count)
{
	return do_eventfd(count, 0);
}
