/*
 * fs/sync.c: sync(2), fsync(2), fdatasync(2). sync writes every file
 * system's dirty inodes and pages, then asks the file system for its own
 * metadata; fsync is the file system's ->fsync.
 */
#include <fs/file.h>
#include <kernel/errno.h>
#include <mm/writeback.h>

/* Linux's sync_filesystem: the files' data and inodes, then the fs's own
 * metadata (bitmaps, super block). */
static void sync_one(struct super_block *sb, void *arg)
{
	if (sb_rdonly(sb))
		return;
	sync_inodes_sb(sb);
	if (sb->s_op && sb->s_op->sync_fs)
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
