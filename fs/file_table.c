/*
 * fs/file_table.c: struct file life cycle.
 *
 * alloc_file builds a file on a path with the path's references; fget
 * takes a reference from the current fd table; fput drops one, and the
 * last one runs __fput: epoll forgets the file and its flock goes, then
 * the driver's ->release, the end of write access (i_writecount), then
 * the path. A file can outlive its fd (dup, fork, a
 * syscall in progress): only the count decides.
 */
#include <fs/file.h>
#include <fs/namei.h>
#include <fs/poll.h>
#include <kernel/panic.h>
#include <kernel/sched.h>
#include <mm/slab.h>

static DEFINE_SPINLOCK(file_count_lock);

struct file *alloc_file(const struct path *path, fmode_t mode,
			const struct file_operations *fop)
{
	struct file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return NULL;
	file->f_path = *path;
	path_get(path);
	file->f_inode = path->dentry->d_inode;
	file->f_mode = mode;
	file->f_op = fop;
	file->f_count = 1;
	mutex_init(&file->f_pos_lock);
	return file;
}

struct file *get_file(struct file *file)
{
	unsigned long flags;

	spin_lock_irqsave(&file_count_lock, flags);
	file->f_count++;
	spin_unlock_irqrestore(&file_count_lock, flags);
	return file;
}

struct file *fget(unsigned int fd)
{
	struct files_struct *files = current->files;
	struct file *file = NULL;

	if (!files)
		return NULL;
	spin_lock(&files->file_lock);
	if (fd < files->max_fds && files->fd[fd])
		file = get_file(files->fd[fd]);
	spin_unlock(&files->file_lock);
	return file;
}

static void __fput(struct file *file)
{
	struct inode *inode = file->f_inode;

	eventpoll_release(file);
	locks_remove_file(file);
	if (file->f_op && file->f_op->release)
		file->f_op->release(inode, file);
	if ((file->f_mode & FMODE_WRITE) && inode)
		put_write_access(inode);
	path_put(&file->f_path);
	kfree(file);
}

void fput(struct file *file)
{
	unsigned long flags;
	int count;

	spin_lock_irqsave(&file_count_lock, flags);
	BUG_ON(file->f_count <= 0);
	count = --file->f_count;
	spin_unlock_irqrestore(&file_count_lock, flags);
	if (!count)
		__fput(file);
}
