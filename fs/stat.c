/*
 * fs/stat.c: stat(2) and friends, statx(2), readlink(2).
 *
 * vfs_getattr asks the file system (->getattr) or copies the inode
 * (generic_fillattr) into a struct kstat; cp_new_stat lays that out as
 * x86-64 Linux's 144-byte struct stat, cp_statx as the 256-byte struct
 * statx (the basic fields; no birth time). newfstatat is the one musl
 * uses for stat, lstat and fstat (AT_EMPTY_PATH with "").
 */
#include <fs/file.h>
#include <fs/namei.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

/* The ABI, checked against the host's <sys/stat.h> offsets. */
_Static_assert(sizeof(struct stat) == 144, "struct stat is 144 bytes");
_Static_assert(offsetof(struct stat, st_mode) == 24, "st_mode at 24");
_Static_assert(offsetof(struct stat, st_rdev) == 40, "st_rdev at 40");
_Static_assert(offsetof(struct stat, st_size) == 48, "st_size at 48");
_Static_assert(offsetof(struct stat, st_blocks) == 64, "st_blocks at 64");
_Static_assert(offsetof(struct stat, st_atime) == 72, "st_atim at 72");
_Static_assert(offsetof(struct stat, st_mtime) == 88, "st_mtim at 88");
_Static_assert(offsetof(struct stat, st_ctime) == 104, "st_ctim at 104");
_Static_assert(sizeof(struct statfs) == 120, "struct statfs is 120 bytes");
_Static_assert(sizeof(struct statx) == 256, "struct statx is 256 bytes");
_Static_assert(offsetof(struct statx, stx_ino) == 32, "stx_ino at 32");
_Static_assert(offsetof(struct statx, stx_atime) == 64, "stx_atime at 64");
_Static_assert(offsetof(struct statx, stx_rdev_major) == 128,
	       "stx_rdev_major at 128");

void generic_fillattr(struct inode *inode, struct kstat *stat)
{
	stat->dev = inode->i_sb->s_dev;
	stat->ino = inode->i_ino;
	stat->mode = inode->i_mode;
	stat->nlink = inode->i_nlink;
	stat->uid = inode->i_uid;
	stat->gid = inode->i_gid;
	stat->rdev = inode->i_rdev;
	stat->size = i_size_read(inode);
	stat->atime = inode->i_atime;
	stat->mtime = inode->i_mtime;
	stat->ctime = inode->i_ctime;
	stat->blksize = 1UL << inode->i_blkbits;
	stat->blocks = inode->i_blocks;
}

int vfs_getattr(const struct path *path, struct kstat *stat)
{
	struct inode *inode = path->dentry->d_inode;

	if (inode->i_op && inode->i_op->getattr)
		return inode->i_op->getattr(path, stat);
	generic_fillattr(inode, stat);
	return 0;
}

int vfs_fstat(unsigned int fd, struct kstat *stat)
{
	struct file *file = fget(fd);
	int err;

	if (!file)
		return -EBADF;
	err = vfs_getattr(&file->f_path, stat);
	fput(file);
	return err;
}

int vfs_fstatat(int dfd, const char *pathname, struct kstat *stat, int flags)
{
	struct path path;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	if (!*pathname && (flags & AT_EMPTY_PATH) && dfd != AT_FDCWD)
		return vfs_fstat(dfd, stat);
	err = kern_path_at(dfd, pathname,
			   at_lookup_flags(flags),
			   &path);
	if (err)
		return err;
	err = vfs_getattr(&path, stat);
	path_put(&path);
	return err;
}

static int cp_new_stat(const struct kstat *stat, struct stat __user *ubuf)
{
	struct stat tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.st_dev = new_encode_dev(stat->dev);
	tmp.st_ino = stat->ino;
	tmp.st_nlink = stat->nlink;
	tmp.st_mode = stat->mode;
	tmp.st_uid = stat->uid;
	tmp.st_gid = stat->gid;
	tmp.st_rdev = new_encode_dev(stat->rdev);
	tmp.st_size = stat->size;
	tmp.st_blksize = stat->blksize;
	tmp.st_blocks = stat->blocks;
	tmp.st_atime = stat->atime.tv_sec;
	tmp.st_atime_nsec = stat->atime.tv_nsec;
	tmp.st_mtime = stat->mtime.tv_sec;
	tmp.st_mtime_nsec = stat->mtime.tv_nsec;
	tmp.st_ctime = stat->ctime.tv_sec;
	tmp.st_ctime_nsec = stat->ctime.tv_nsec;
	return copy_to_user(ubuf, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

static long stat_user(int dfd, const char __user *filename,
		      struct stat __user *statbuf, int flags)
{
	char *name = getname_flags(filename,
				   flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
	struct kstat stat;
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = vfs_fstatat(dfd, name, &stat, flags);
	putname(name);
	return err ? err : cp_new_stat(&stat, statbuf);
}

SYSCALL_DEFINE2(stat, const char __user *, filename, struct stat __user *,
		statbuf)
{
	return stat_user(AT_FDCWD, filename, statbuf, 0);
}

SYSCALL_DEFINE2(lstat, const char __user *, filename, struct stat __user *,
		statbuf)
{
	return stat_user(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

SYSCALL_DEFINE4(newfstatat, int, dfd, const char __user *, filename,
		struct stat __user *, statbuf, int, flag)
{
	return stat_user(dfd, filename, statbuf, flag);
}

SYSCALL_DEFINE2(fstat, unsigned int, fd, struct stat __user *, statbuf)
{
	struct kstat stat;
	int err = vfs_fstat(fd, &stat);

	return err ? err : cp_new_stat(&stat, statbuf);
}

static struct statx_timestamp statx_time(struct timespec64 ts)
{
	struct statx_timestamp t = { ts.tv_sec, ts.tv_nsec, 0 };

	return t;
}

static int cp_statx(const struct kstat *stat, struct statx __user *buffer)
{
	struct statx tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.stx_mask = STATX_BASIC_STATS;
	tmp.stx_blksize = stat->blksize;
	tmp.stx_nlink = stat->nlink;
	tmp.stx_uid = stat->uid;
	tmp.stx_gid = stat->gid;
	tmp.stx_mode = stat->mode;
	tmp.stx_ino = stat->ino;
	tmp.stx_size = stat->size;
	tmp.stx_blocks = stat->blocks;
	tmp.stx_atime = statx_time(stat->atime);
	tmp.stx_ctime = statx_time(stat->ctime);
	tmp.stx_mtime = statx_time(stat->mtime);
	tmp.stx_rdev_major = MAJOR(stat->rdev);
	tmp.stx_rdev_minor = MINOR(stat->rdev);
	tmp.stx_dev_major = MAJOR(stat->dev);
	tmp.stx_dev_minor = MINOR(stat->dev);
	return copy_to_user(buffer, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

/* Every field is always known here, so mask only has to be valid. */
SYSCALL_DEFINE5(statx, int, dfd, const char __user *, filename,
		unsigned int, flags, unsigned int, mask,
		struct statx __user *, buffer)
{
	struct kstat stat;
	char *name;
	long err;

	if ((mask & STATX__RESERVED) ||
	    (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE ||
	    (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
		       AT_STATX_SYNC_TYPE)))
		return -EINVAL;
	name = getname_flags(filename,
			     flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
	if (IS_ERR(name))
		return PTR_ERR(name);
	err = vfs_fstatat(dfd, name, &stat, flags & ~AT_STATX_SYNC_TYPE);
	putname(name);
	return err ? err : cp_statx(&stat, buffer);
}

/* ---- readlink ---------------------------------------------------------- */

int vfs_readlink(struct dentry *dentry, char *buf, int buflen)
{
	struct inode *inode = dentry->d_inode;
	const char *link;
	int len;

	if (!inode->i_op)
		return -EINVAL;
	if (inode->i_op->readlink)
		return inode->i_op->readlink(dentry, buf, buflen);
	if (!S_ISLNK(inode->i_mode) || !inode->i_op->get_link)
		return -EINVAL;
	link = inode->i_op->get_link(dentry, inode);
	if (IS_ERR(link))
		return PTR_ERR(link);
	len = min((int)strlen(link), buflen);	/* truncated, unterminated */
	memcpy(buf, link, len);
	return len;
}

long do_readlinkat(int dfd, const char *pathname, char *buf, int bufsiz)
{
	struct path path;
	long err;

	if (bufsiz <= 0)
		return -EINVAL;
	err = kern_path_at(dfd, pathname, LOOKUP_EMPTY, &path);
	if (err)
		return err;
	err = vfs_readlink(path.dentry, buf, bufsiz);
	path_put(&path);
	return err;
}

SYSCALL_DEFINE4(readlinkat, int, dfd, const char __user *, pathname,
		char __user *, buf, int, bufsiz)
{
	char *name, *kbuf;
	long len;

	if (bufsiz <= 0)
		return -EINVAL;
	name = getname_flags(pathname, LOOKUP_EMPTY);
	if (IS_ERR(name))
		return PTR_ERR(name);
	kbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	len = -ENOMEM;
	if (kbuf)
		len = do_readlinkat(dfd, name, kbuf, min(bufsiz, PATH_MAX));
	if (len > 0 && copy_to_user(buf, kbuf, len))
		len = -EFAULT;
	kfree(kbuf);
	putname(name);
	return len;
}

SYSCALL_DEFINE3(readlink, const char __user *, path, char __user *, buf,
		int, bufsiz)
{
	char *name, *kbuf;
	long len;

	if (bufsiz <= 0)
		return -EINVAL;
	name = getname(path);
	if (IS_ERR(name))
		return PTR_ERR(name);
	kbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	len = -ENOMEM;
	if (kbuf)
		len = do_readlinkat(AT_FDCWD, name, kbuf, min(bufsiz, PATH_MAX));
	if (len > 0 && copy_to_user(buf, kbuf, len))
		len = -EFAULT;
	kfree(kbuf);
	putname(name);
	return len;
}
