/*
 * fs/sync.c: sync(2), syncfs(2), fsync(2), fdatasync(2). sync writes every
 * file system's dirty inodes and pages, then asks the file system for its
 * own metadata; syncfs does the same for one file system; fsync is the
 * file system's ->fsync.
 */
#include <fs/file.h>
#include <kernel/errno.h>
#include <mm/writeback.h>

/* Linux's sync_filesystem: the files' data and inodes, then the fs's own
 * metadata (bitmaps, super block), waiting for all of it. 0 or the
 * file system's error. */
static int sync_filesystem(struct super_block *sb)
{
	if (sb_rdonly(sb))
		return 0;
	sync_inodes_sb(sb);
	if (sb->s_op && sb->s_op->sync_fs)
		return sb->s_op->sync_fs(sb, 1);
	return 0;
}

/* sync(2) reports nothing: an error of one fs must not stop the rest. */
static void sync_one(struct super_block *sb, void *arg)
{
	sync_filesystem(sb);
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

/*
 * sync(2) for the one file system fd is on, whatever fd is (a directory,
 * a pipe: pipefs has nothing to write). Linux also reports a writeback
 * error seen since fd was opened (errseq); pagelab keeps none, so only
 * the file system's own error is returned.
 */
SYSCALL_DEFINE1(syncfs, int, fd)
{
	struct file *file = fget(fd);
	long err = -EBADF;

	if (!file)
		return err;
	if (!(file->f_mode & FMODE_PATH))	/* fdget() skips O_PATH */
		err = sync_filesystem(file->f_inode->i_sb);
	fput(file);
	return err;
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
