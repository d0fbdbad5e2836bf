/*
 * fs/pipe.c: pipes and FIFOs.
 *
 * A pipe is a byte ring of PIPE_SIZE (64 KiB) in up to 16 pages, allocated
 * on first use. head counts bytes ever written, tail bytes ever read;
 * head - tail is what waits to be read. Both ends sleep on one wait queue:
 * readers until data arrives or the last writer leaves (then read returns
 * 0, end of file), writers until there is room or the last reader leaves
 * (then write fails with EPIPE and the writer gets SIGPIPE). A write of
 * at most PIPE_BUF bytes goes in whole or waits: it is never interleaved
 * with another writer's.
 *
 * Anonymous pipes (pipe2) live on an internal "pipefs" mount; a FIFO is a
 * ramfs inode whose pipe is made at the first open and freed at the last
 * close. Opening a FIFO blocks until the other side opens too (counted
 * by r_counter/w_counter, so a partner who came and went still counts).
 * pipe->mutex protects the ring and the counts.
 *
 * pipe_poll reports readiness for poll/select/epoll (<fs/poll.h>): every
 * change it reports already calls wake_up(&pipe->wait).
 */
#include <fs/pipe_fs_i.h>
#include <fs/dcache.h>
#include <fs/file.h>
#include <fs/mount.h>
#include <fs/poll.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>
#include <mm/gfp.h>
#include <mm/slab.h>

static struct pipe_inode_info *alloc_pipe_info(void)
{
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);

	if (!pipe)
		return NULL;
	mutex_init(&pipe->mutex);
	init_waitqueue_head(&pipe->wait);
	return pipe;
}

void free_pipe_info(struct pipe_inode_info *pipe)
{
	for (int i = 0; i < PIPE_DEF_BUFFERS; i++)
		free_page((unsigned long)pipe->bufs[i]);
	kfree(pipe);
}

static size_t pipe_used(const struct pipe_inode_info *pipe)
{
	return pipe->head - pipe->tail;
}

/* Where byte number pos of the stream lives, and how much of that page
 * follows it contiguously. */
static char *ring_at(struct pipe_inode_info *pipe, unsigned long pos,
		     size_t *room)
{
	unsigned long off = pos % PIPE_SIZE;

	*room = PAGE_SIZE - off % PAGE_SIZE;
	return (char *)pipe->bufs[off / PAGE_SIZE] + off % PAGE_SIZE;
}

/* Copy queued bytes out, a ring page at a time; pipe->mutex held.
 * Returns bytes or -EFAULT. */
static ssize_t pipe_copy_out(struct pipe_inode_info *pipe, struct iov_iter *to)
{
	ssize_t done = 0;

	while (pipe_used(pipe) && iov_iter_count(to)) {
		size_t room, n, got;
		char *src = ring_at(pipe, pipe->tail, &room);

		n = min(min(room, pipe_used(pipe)), iov_iter_count(to));
		got = copy_to_iter(src, n, to);
		/* As Linux: a piece that faulted is not consumed at all, so
		 * no byte is lost to a bad buffer. */
		if (got < n)
			return done ? done : -EFAULT;
		pipe->tail += got;
		done += got;
	}
	return done;
}

static ssize_t pipe_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct pipe_inode_info *pipe = file->private_data;
	ssize_t ret = 0;

	if (!iov_iter_count(to))
		return 0;
	mutex_lock(&pipe->mutex);
	for (;;) {
		if (pipe_used(pipe)) {
			ret = pipe_copy_out(pipe, to);
			wake_up(&pipe->wait);	/* room for writers */
			break;
		}
		if (!pipe->writers)
			break;	/* end of file */
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		mutex_unlock(&pipe->mutex);
		ret = wait_event_interruptible(pipe->wait, pipe_used(pipe) ||
							   !pipe->writers);
		mutex_lock(&pipe->mutex);
		if (ret)
			break;
	}
	mutex_unlock(&pipe->mutex);
	return ret;
}

/* Copy up to n bytes in; pipe->mutex held. Returns bytes or -errno. */
static ssize_t pipe_copy_in(struct pipe_inode_info *pipe,
			    struct iov_iter *from, size_t n)
{
	ssize_t done = 0;

	while (n) {
		unsigned long off = pipe->head % PIPE_SIZE;
		size_t room, chunk, got;
		char *dst;

		if (!pipe->bufs[off / PAGE_SIZE]) {
			pipe->bufs[off / PAGE_SIZE] =
				(void *)__get_free_pages(GFP_KERNEL, 0);
			if (!pipe->bufs[off / PAGE_SIZE])
				return done ? done : -ENOMEM;
		}
		dst = ring_at(pipe, pipe->head, &room);
		chunk = min(room, n);
		got = copy_from_iter(dst, chunk, from);
		/* A piece that faulted is not committed (Linux's rule). */
		if (got < chunk)
			return done ? done : -EFAULT;
		pipe->head += got;
		done += got;
		n -= got;
	}
	return done;
}

/* Enough room to go on? A small write needs room for all of itself. */
static bool pipe_writable(struct pipe_inode_info *pipe, size_t left,
			  size_t total)
{
	size_t free = PIPE_SIZE - pipe_used(pipe);

	return total <= PIPE_BUF ? free >= left : free > 0;
}

static ssize_t pipe_write(struct file *file, struct iov_iter *from,
			  loff_t *pos)
{
	struct pipe_inode_info *pipe = file->private_data;
	size_t total = iov_iter_count(from);
	ssize_t ret = 0;

	if (!total)
		return 0;
	mutex_lock(&pipe->mutex);
	for (;;) {
		size_t left = iov_iter_count(from);
		ssize_t n;
		int err;

		if (!pipe->readers) {
			send_sig_info(SIGPIPE, NULL, current);
			if (!ret)
				ret = -EPIPE;
			break;
		}
		if (pipe_writable(pipe, left, total)) {
			n = pipe_copy_in(pipe, from,
					 min(left, PIPE_SIZE - pipe_used(pipe)));
			wake_up(&pipe->wait);	/* data for readers */
			if (n < 0) {
				if (!ret)
					ret = n;
				break;
			}
			ret += n;
			if (!iov_iter_count(from))
				break;
			continue;
		}
		if (file->f_flags & O_NONBLOCK) {
			if (!ret)
				ret = -EAGAIN;
			break;
		}
		mutex_unlock(&pipe->mutex);
		err = wait_event_interruptible(pipe->wait,
					       pipe_writable(pipe, left, total) ||
						       !pipe->readers);
		mutex_lock(&pipe->mutex);
		if (err) {
			if (!ret)
				ret = err;
			break;
		}
	}
	mutex_unlock(&pipe->mutex);
	return ret;
}

static long pipe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pipe_inode_info *pipe = file->private_data;
	int count;

	if (cmd != FIONREAD)
		return -ENOTTY;
	mutex_lock(&pipe->mutex);
	count = pipe_used(pipe);
	mutex_unlock(&pipe->mutex);
	return put_user(count, (int __user *)arg);
}

/*
 * Readable: bytes queued, or no writer left (EPOLLHUP; a FIFO read end
 * opened with no writer waits to see one first). Writable: a page of room
 * (EPOLLOUT), or no reader left (EPOLLERR). No mutex: the queue entry
 * goes on first, so a change after the racy test still wakes the poller.
 */
static __poll_t pipe_poll(struct file *file, poll_table *pt)
{
	struct pipe_inode_info *pipe = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &pipe->wait, pt);
	if (file->f_mode & FMODE_READ) {
		if (pipe_used(pipe))
			mask |= EPOLLIN | EPOLLRDNORM;
		if (!pipe->writers && file->f_pipe != pipe->w_counter)
			mask |= EPOLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		if (PIPE_SIZE - pipe_used(pipe) >= PIPE_BUF)
			mask |= EPOLLOUT | EPOLLWRNORM;
		if (!pipe->readers)
			mask |= EPOLLERR;
	}
	return mask;
}

/* The last close of either end may free the pipe (FIFOs re-make it). */
static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe = file->private_data;
	bool last;

	mutex_lock(&pipe->mutex);
	if (file->f_mode & FMODE_READ)
		pipe->readers--;
	if (file->f_mode & FMODE_WRITE)
		pipe->writers--;
	last = !pipe->readers && !pipe->writers;
	wake_up(&pipe->wait);
	mutex_unlock(&pipe->mutex);
	if (last) {
		inode->i_pipe = NULL;
		free_pipe_info(pipe);
	}
	return 0;
}

/* Wait (FIFO open) until *counter moves past seen; pipe->mutex held. */
static int wait_for_partner(struct pipe_inode_info *pipe,
			    unsigned int *counter)
{
	unsigned int seen = *counter;
	int err;

	mutex_unlock(&pipe->mutex);
	err = wait_event_interruptible(pipe->wait, *counter != seen);
	mutex_lock(&pipe->mutex);
	return err;
}

static int fifo_open_locked(struct pipe_inode_info *pipe, struct file *file)
{
	bool nonblock = file->f_flags & O_NONBLOCK;
	int err = 0;

	switch (file->f_mode & (FMODE_READ | FMODE_WRITE)) {
	case FMODE_READ:
		pipe->r_counter++;
		pipe->readers++;
		wake_up(&pipe->wait);
		if (!pipe->writers && nonblock)
			file->f_pipe = pipe->w_counter;	/* no EPOLLHUP yet */
		if (!pipe->writers && !nonblock)
			err = wait_for_partner(pipe, &pipe->w_counter);
		if (err)
			pipe->readers--;
		return err;
	case FMODE_WRITE:
		if (nonblock && !pipe->readers)
			return -ENXIO;	/* POSIX: no reader, no waiting */
		pipe->w_counter++;
		pipe->writers++;
		wake_up(&pipe->wait);
		if (!pipe->readers)
			err = wait_for_partner(pipe, &pipe->r_counter);
		if (err)
			pipe->writers--;
		return err;
	case FMODE_READ | FMODE_WRITE:
		pipe->readers++;
		pipe->writers++;
		pipe->r_counter++;
		pipe->w_counter++;
		wake_up(&pipe->wait);
		return 0;
	}
	return -EINVAL;
}

static int fifo_open(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe;
	int err;

	mutex_lock(&inode->i_mutex);
	if (!inode->i_pipe)
		inode->i_pipe = alloc_pipe_info();
	pipe = inode->i_pipe;
	mutex_unlock(&inode->i_mutex);
	if (!pipe)
		return -ENOMEM;
	file->private_data = pipe;
	mutex_lock(&pipe->mutex);
	err = fifo_open_locked(pipe, file);
	mutex_unlock(&pipe->mutex);
	if (err && !pipe->readers && !pipe->writers) {
		inode->i_pipe = NULL;
		free_pipe_info(pipe);
	}
	return err;
}

const struct file_operations pipefifo_fops = {
	.open = fifo_open,
	.llseek = no_llseek,
	.read_iter = pipe_read,
	.write_iter = pipe_write,
	.unlocked_ioctl = pipe_ioctl,
	.release = pipe_release,
	.poll = pipe_poll,
};

/* ---- anonymous pipes ---------------------------------------------------- */

static const struct super_operations pipefs_ops = {
	.statfs = simple_statfs,
};

static int pipefs_fill_super(struct super_block *sb, void *data, int silent)
{
	struct inode *root = new_inode(sb);

	if (!root)
		return -ENOMEM;
	root->i_mode = S_IFDIR | 0700;
	sb->s_magic = PIPEFS_MAGIC;
	sb->s_op = &pipefs_ops;
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static struct dentry *pipefs_mount(struct file_system_type *type, int flags,
				   const char *dev_name, void *data)
{
	return mount_nodev(type, flags, data, pipefs_fill_super);
}

static struct file_system_type pipe_fs_type = {
	.name = "pipefs",
	.mount = pipefs_mount,
	.kill_sb = kill_litter_super,
};

static struct vfsmount *pipe_mnt;

static struct vfsmount *get_pipe_mnt(void)
{
	return kern_mount_once(&pipe_mnt, &pipe_fs_type);
}

static struct inode *get_pipe_inode(struct super_block *sb)
{
	struct inode *inode = new_inode(sb);
	struct pipe_inode_info *pipe = alloc_pipe_info();

	if (!inode || !pipe) {
		iput(inode);
		kfree(pipe);
		return NULL;
	}
	pipe->readers = pipe->writers = 1;
	pipe->r_counter = pipe->w_counter = 1;
	inode->i_pipe = pipe;
	inode->i_fop = &pipefifo_fops;
	inode->i_mode = S_IFIFO | 0600;
	inode->i_uid = current->cred.fsuid;
	inode->i_gid = current->cred.fsgid;
	inode->i_writecount = 1;	/* the write end's, put by __fput */
	return inode;
}

int create_pipe_files(struct file **res, int flags)
{
	static const struct qstr name = QSTR_INIT("pipe:", 5);
	struct vfsmount *mnt = get_pipe_mnt();
	struct inode *inode;
	struct path path;

	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	inode = get_pipe_inode(mnt->mnt_sb);
	if (!inode)
		return -ENOMEM;
	path.mnt = mnt;
	path.dentry = d_alloc_pseudo(mnt->mnt_sb, &name);
	if (!path.dentry) {
		iput(inode);
		return -ENOMEM;
	}
	d_instantiate(path.dentry, inode);
	for (int i = 0; i < 2; i++) {
		res[i] = alloc_file(&path, i ? FMODE_WRITE : FMODE_READ,
				    &pipefifo_fops);
		if (!res[i])
			continue;
		res[i]->f_flags = (i ? O_WRONLY : O_RDONLY) |
				  (flags & O_NONBLOCK);
		res[i]->private_data = inode->i_pipe;
	}
	dput(path.dentry);	/* the files hold it now */
	if (!res[0] || !res[1]) {
		/* Closing the end that exists leaves the pipe to evict(). */
		if (res[0])
			fput(res[0]);
		if (res[1])
			fput(res[1]);
		return -ENOMEM;
	}
	return 0;
}

/* Reserve two fds for a new pipe; the caller installs them. */
static int __do_pipe_flags(int *fd, struct file **files, int flags)
{
	int err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	err = create_pipe_files(files, flags);
	if (err)
		return err;
	fd[0] = get_unused_fd_flags(flags);
	fd[1] = fd[0] < 0 ? fd[0] : get_unused_fd_flags(flags);
	if (fd[1] < 0) {
		if (fd[0] >= 0)
			put_unused_fd(fd[0]);
		fput(files[0]);
		fput(files[1]);
		return fd[1];
	}
	return 0;
}

int do_pipe_flags(int *fd, int flags)
{
	struct file *files[2];
	int err = __do_pipe_flags(fd, files, flags);

	if (err)
		return err;
	fd_install(fd[0], files[0]);
	fd_install(fd[1], files[1]);
	return 0;
}

/* The fds are installed only once the user has them: a bad pointer
 * leaves no open pipe behind. */
SYSCALL_DEFINE2(pipe2, int __user *, fildes, int, flags)
{
	struct file *files[2];
	int fd[2];
	int err = __do_pipe_flags(fd, files, flags);

	if (err)
		return err;
	if (copy_to_user(fildes, fd, sizeof(fd))) {
		put_unused_fd(fd[0]);
		put_unused_fd(fd[1]);
		fput(files[0]);
		fput(files[1]);
		return -EFAULT;
	}
	fd_install(fd[0], files[0]);
	fd_install(fd[1], files[1]);
	return 0;
}

SYSCALL_DEFINE1(pipe, int __user *, fildes)
{
	return __do_sys_pipe2(fildes, 0);
}
