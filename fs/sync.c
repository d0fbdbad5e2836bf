/*
 * fs/sync.c: sync(2), fsync(2), fdatasync(2). Nothing is written back yet
 * (ramfs has nowhere to write to); these call the file systems' hooks so
 * that ext2 only has to fill them in.
 */
#include <fs/file.h>
#include <kernel/errno.h>

static void sync_one(struct super_block *sb, void *arg)
{
	if (sb->s_op && sb->s_op->sync_fs && !sb_rdonly(sb))
		sb->s_op->sync_fs(sb, 1);
}

void ksys_sync(void)
{
	iterate_supers(sync_one, NULL);
}

SYSCALL_DEFINE0(sync)
{
	ksys_sync();
	return 0;
}

/* EINVAL for files that cannot be synced (pipes, ttys), as Linux. */
int vfs_fsync(struct file *file, int datasync)
{
	if (!file->f_op || !file->f_op->fsync)
		return -EINVAL;
	return file->f_op->fsync(file, datasync);
}

static long do_fsync(unsigned int fd, int datasync)
{
	struct file *file = fget(fd);
	long err;

	if (!file)
		return -EBADF;
	err = vfs_fsync(file, datasync);
	fput(file);
	return err;
}

SYSCALL_DEFINE1(fsync, unsigned int, fd)
{
	return do_fsync(fd, 0);
}

SYSCALL_DEFINE1(fdatasync, unsigned int, fd)
{
	return do_fsync(fd, 1);
}
