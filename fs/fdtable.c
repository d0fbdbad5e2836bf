/*
 * fs/fdtable.c: file descriptor tables and the calls that edit them
 * (close, close_range, dup, dup2, dup3, fcntl).
 *
 * A descriptor is taken in two steps, as in Linux: get_unused_fd_flags
 * reserves the lowest free number (open_fds bit set, slot still NULL),
 * the caller opens its file (which may fail or sleep), then fd_install
 * fills the slot. No other thread can then see a half-opened file, and a
 * dup2 onto a reserved number fails with EBUSY. file_lock guards the
 * table; files themselves are reference counted (fs/file_table.c).
 *
 * The table starts with NR_OPEN_DEFAULT slots inside files_struct and
 * grows (expand_files) to the next power of two that holds the fd asked
 * for, up to RLIMIT_NOFILE: Linux's default limit is 1024, so dup2(fd,
 * 1023) works, and setrlimit can raise it to the hard limit.
 */
#include <fs/file.h>
#include <kernel/bitops.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <mm/slab.h>

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#define F_SETOWN 8
#define F_GETOWN 9
#define F_DUPFD_CLOEXEC 1030
/* What F_SETFL may change (Linux's SETFL_MASK). */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_DIRECT | O_NOATIME | FASYNC)

unsigned int task_nofile_limit(void)
{
	return min(current->rlim[RLIMIT_NOFILE].rlim_cur,
		   (unsigned long)NR_OPEN);
}

struct files_struct *alloc_files(void)
{
	struct files_struct *files = kzalloc(sizeof(*files), GFP_KERNEL);

	if (!files)
		return NULL;
	files->count = 1;
	spin_lock_init(&files->file_lock);
	files->max_fds = NR_OPEN_DEFAULT;
	files->fd = files->fd_array;
	files->open_fds = files->open_fds_init;
	files->close_on_exec = files->close_on_exec_init;
	return files;
}

static bool table_is_embedded(struct files_struct *files)
{
	return files->fd == files->fd_array;
}

static void free_table(struct files_struct *files)
{
	if (table_is_embedded(files))
		return;
	kfree(files->fd);
	kfree(files->open_fds);
	kfree(files->close_on_exec);
}

/*
 * Make room for fd nr: file_lock held, and held again on return (it is
 * dropped to allocate, which may sleep). Returns 0, or -ENOMEM.
 */
static int expand_files(struct files_struct *files, unsigned int nr)
{
	unsigned int size = NR_OPEN_DEFAULT, words;
	struct file **fd;
	unsigned long *open, *cloexec;

	while (size <= nr)
		size *= 2;
	words = size / (8 * sizeof(long));
	spin_unlock(&files->file_lock);
	fd = kzalloc(size * sizeof(*fd), GFP_KERNEL);
	open = kzalloc(words * sizeof(long), GFP_KERNEL);
	cloexec = kzalloc(words * sizeof(long), GFP_KERNEL);
	spin_lock(&files->file_lock);
	if (!fd || !open || !cloexec || files->max_fds > nr) {
		kfree(fd);	/* no memory, or grown meanwhile */
		kfree(open);
		kfree(cloexec);
		return files->max_fds > nr ? 0 : -ENOMEM;
	}
	words = files->max_fds / (8 * sizeof(long));
	memcpy(fd, files->fd, files->max_fds * sizeof(*fd));
	memcpy(open, files->open_fds, words * sizeof(long));
	memcpy(cloexec, files->close_on_exec, words * sizeof(long));
	free_table(files);
	files->fd = fd;
	files->open_fds = open;
	files->close_on_exec = cloexec;
	files->max_fds = size;
	return 0;
}

int get_unused_fd_from(unsigned int start, unsigned int flags)
{
	struct files_struct *files = current->files;
	unsigned int limit = task_nofile_limit();
	unsigned int fd;

	if (!files)	/* a kernel thread made before vfs_init */
		return -EMFILE;
	spin_lock(&files->file_lock);
	fd = max(start, (unsigned int)files->next_fd);
	while (fd < limit && fd < files->max_fds &&
	       test_bit(fd % 64, &files->open_fds[fd / 64]))
		fd++;
	if (fd >= limit) {
		spin_unlock(&files->file_lock);
		return -EMFILE;
	}
	if (fd >= files->max_fds && expand_files(files, fd)) {
		spin_unlock(&files->file_lock);
		return -ENOMEM;
	}
	set_bit(fd % 64, &files->open_fds[fd / 64]);
	if (flags & O_CLOEXEC)
		set_bit(fd % 64, &files->close_on_exec[fd / 64]);
	else
		clear_bit(fd % 64, &files->close_on_exec[fd / 64]);
	if (start <= (unsigned int)files->next_fd)
		files->next_fd = fd + 1;
	spin_unlock(&files->file_lock);
	return fd;
}

int get_unused_fd_flags(unsigned int flags)
{
	return get_unused_fd_from(0, flags);
}

/* file_lock held: fd is free again. */
static void __put_unused_fd(struct files_struct *files, unsigned int fd)
{
	clear_bit(fd % 64, &files->open_fds[fd / 64]);
	clear_bit(fd % 64, &files->close_on_exec[fd / 64]);
	if ((int)fd < files->next_fd)
		files->next_fd = fd;
}

void put_unused_fd(unsigned int fd)
{
	struct files_struct *files = current->files;

	spin_lock(&files->file_lock);
	__put_unused_fd(files, fd);
	spin_unlock(&files->file_lock);
}

void fd_install(unsigned int fd, struct file *file)
{
	struct files_struct *files = current->files;

	spin_lock(&files->file_lock);
	BUG_ON(files->fd[fd]);
	files->fd[fd] = file;
	spin_unlock(&files->file_lock);
}

/* Take fd out of files; returns its file (the caller fputs) or NULL. */
static struct file *pick_file(struct files_struct *files, unsigned int fd)
{
	struct file *file;

	spin_lock(&files->file_lock);
	file = fd < files->max_fds ? files->fd[fd] : NULL;
	if (file) {
		files->fd[fd] = NULL;
		__put_unused_fd(files, fd);
	}
	spin_unlock(&files->file_lock);
	return file;
}

int close_fd(unsigned int fd)
{
	struct file *file = pick_file(current->files, fd);

	if (!file)
		return -EBADF;
	return filp_close(file);
}

SYSCALL_DEFINE1(close, unsigned int, fd)
{
	int err = close_fd(fd);

	/* Linux: an interrupted close has still closed the fd. */
	return err == -ERESTARTSYS ? -EINTR : err;
}

#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)

/* Mark the open fds of [fd, max_fd] close-on-exec. */
static void range_cloexec(struct files_struct *files, unsigned int fd,
			  unsigned int max_fd)
{
	spin_lock(&files->file_lock);
	max_fd = min(max_fd, files->max_fds - 1);
	for (; fd <= max_fd; fd++)
		if (test_bit(fd % 64, &files->open_fds[fd / 64]))
			set_bit(fd % 64, &files->close_on_exec[fd / 64]);
	spin_unlock(&files->file_lock);
}

/* Close the fds of [fd, max_fd]: one at a time, as close() would (the
 * lock is dropped for each filp_close, which may sleep). */
static void range_close(struct files_struct *files, unsigned int fd,
			unsigned int max_fd)
{
	for (; fd <= max_fd && fd < files->max_fds; fd++) {
		struct file *file = pick_file(files, fd);

		if (file)
			filp_close(file);
	}
}

/*
 * close_range(2): close the fds first..last (last may be ~0U: all from
 * first on), or with CLOSE_RANGE_CLOEXEC only mark them close-on-exec.
 * Fds that are not open are skipped, and so is one an open has reserved
 * but not installed yet. CLOSE_RANGE_UNSHARE asks for a private table
 * first: every process's table is already its own (fork copies it, and
 * there are no threads), so there is nothing to do.
 */
SYSCALL_DEFINE3(close_range, unsigned int, first, unsigned int, last,
		unsigned int, flags)
{
	struct files_struct *files = current->files;

	if (flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC))
		return -EINVAL;
	if (first > last)
		return -EINVAL;
	if (flags & CLOSE_RANGE_CLOEXEC)
		range_cloexec(files, first, last);
	else
		range_close(files, first, last);
	return 0;
}

struct files_struct *dup_fd(struct files_struct *old)
{
	struct files_struct *files = alloc_files();
	unsigned int need;

	if (!files)
		return NULL;
	spin_lock(&old->file_lock);
	/* Room for the old table's highest open fd: the lock is dropped to
	 * allocate, so look again until it holds. */
	for (;;) {
		need = old->max_fds;
		while (need > NR_OPEN_DEFAULT && !old->fd[need - 1])
			need--;
		if (need <= files->max_fds)
			break;
		spin_unlock(&old->file_lock);
		spin_lock(&files->file_lock);
		if (expand_files(files, need - 1)) {
			spin_unlock(&files->file_lock);
			put_files_struct(files);
			return NULL;
		}
		spin_unlock(&files->file_lock);
		spin_lock(&old->file_lock);
	}
	for (unsigned int fd = 0; fd < need; fd++) {
		struct file *f = old->fd[fd];

		/* A reserved but not yet installed fd stays free in the
		 * child: the open that reserved it is the parent's. */
		if (!f)
			continue;
		files->fd[fd] = get_file(f);
		set_bit(fd % 64, &files->open_fds[fd / 64]);
		if (test_bit(fd % 64, &old->close_on_exec[fd / 64]))
			set_bit(fd % 64, &files->close_on_exec[fd / 64]);
	}
	spin_unlock(&old->file_lock);
	return files;
}

struct files_struct *get_files_struct(struct files_struct *files)
{
	spin_lock(&files->file_lock);
	files->count++;
	spin_unlock(&files->file_lock);
	return files;
}

int unshare_files(void)
{
	struct files_struct *old = current->files, *copy;
	int count;

	if (!old)
		return 0;
	spin_lock(&old->file_lock);
	count = old->count;
	spin_unlock(&old->file_lock);
	if (count == 1)
		return 0;	/* only we use it: nobody can start sharing */
	copy = dup_fd(old);
	if (!copy)
		return -ENOMEM;
	current->files = copy;
	put_files_struct(old);
	return 0;
}

void put_files_struct(struct files_struct *files)
{
	int count;

	if (!files)
		return;
	spin_lock(&files->file_lock);
	count = --files->count;
	spin_unlock(&files->file_lock);
	if (count)
		return;
	for (unsigned int fd = 0; fd < files->max_fds; fd++) {
		struct file *file = pick_file(files, fd);

		if (file)
			filp_close(file);
	}
	free_table(files);
	kfree(files);
}

void do_close_on_exec(struct files_struct *files)
{
	for (unsigned int fd = 0; fd < files->max_fds; fd++) {
		struct file *file;

		if (!test_bit(fd % 64, &files->close_on_exec[fd / 64]))
			continue;
		file = pick_file(files, fd);
		if (file)
			filp_close(file);
	}
}

long ksys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
	struct files_struct *files = current->files;
	struct file *file, *tofree;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd >= task_nofile_limit())
		return -EBADF;
	file = fget(oldfd);
	if (!file)
		return -EBADF;
	spin_lock(&files->file_lock);
	if (newfd >= files->max_fds && expand_files(files, newfd)) {
		spin_unlock(&files->file_lock);
		fput(file);
		return -ENOMEM;
	}
	tofree = files->fd[newfd];
	if (!tofree && test_bit(newfd % 64, &files->open_fds[newfd / 64])) {
		spin_unlock(&files->file_lock);	/* an open is filling it */
		fput(file);
		return -EBUSY;
	}
	files->fd[newfd] = file;	/* fget's reference moves here */
	set_bit(newfd % 64, &files->open_fds[newfd / 64]);
	if (flags & O_CLOEXEC)
		set_bit(newfd % 64, &files->close_on_exec[newfd / 64]);
	else
		clear_bit(newfd % 64, &files->close_on_exec[newfd / 64]);
	spin_unlock(&files->file_lock);
	if (tofree)
		filp_close(tofree);
	return newfd;
}

SYSCALL_DEFINE3(dup3, unsigned int, oldfd, unsigned int, newfd, int, flags)
{
	return ksys_dup3(oldfd, newfd, flags);
}

SYSCALL_DEFINE2(dup2, unsigned int, oldfd, unsigned int, newfd)
{
	if (oldfd == newfd) {
		struct file *file = fget(oldfd);

		if (!file)
			return -EBADF;
		fput(file);
		return newfd;
	}
	return ksys_dup3(oldfd, newfd, 0);
}

/* A new fd >= start for file (which the caller has fget'ed). */
static long dupfd(struct file *file, unsigned int start, unsigned int flags)
{
	int fd = get_unused_fd_from(start, flags);

	if (fd < 0) {
		fput(file);
		return fd;
	}
	fd_install(fd, file);
	return fd;
}

long ksys_dup(unsigned int fildes)
{
	struct file *file = fget(fildes);

	if (!file)
		return -EBADF;
	return dupfd(file, 0, 0);
}

SYSCALL_DEFINE1(dup, unsigned int, fildes)
{
	return ksys_dup(fildes);
}

static long fcntl_fd_flags(struct files_struct *files, unsigned int fd,
			   bool set, unsigned long arg)
{
	long ret = 0;

	spin_lock(&files->file_lock);
	if (!set)
		ret = test_bit(fd % 64, &files->close_on_exec[fd / 64])
			      ? FD_CLOEXEC
			      : 0;
	else if (arg & FD_CLOEXEC)
		set_bit(fd % 64, &files->close_on_exec[fd / 64]);
	else
		clear_bit(fd % 64, &files->close_on_exec[fd / 64]);
	spin_unlock(&files->file_lock);
	return ret;
}

static long do_fcntl_file(struct file *file, unsigned int fd,
			  unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= task_nofile_limit())
			return -EINVAL;
		return dupfd(get_file(file), arg,
			     cmd == F_DUPFD_CLOEXEC ? O_CLOEXEC : 0);
	case F_GETFD:
		return fcntl_fd_flags(current->files, fd, false, 0);
	case F_SETFD:
		return fcntl_fd_flags(current->files, fd, true, arg);
	case F_GETFL:
		return file->f_flags;
	case F_SETFL:
		file->f_flags = (file->f_flags & ~SETFL_MASK) |
				(arg & SETFL_MASK);
		return 0;
	case F_GETOWN:
	case F_SETOWN:
		return 0;	/* no SIGIO: nobody to own */
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
		return -ENOLCK;	/* no POSIX locks yet */
	}
	return -EINVAL;
}

long do_fcntl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file = fget(fd);
	long ret;

	if (!file)
		return -EBADF;
	ret = do_fcntl_file(file, fd, cmd, arg);
	fput(file);
	return ret;
}

SYSCALL_DEFINE3(fcntl, unsigned int, fd, unsigned int, cmd, unsigned long,
		arg)
{
	return do_fcntl(fd, cmd, arg);
}
