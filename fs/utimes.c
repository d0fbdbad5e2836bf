/*
 * fs/utimes.c: utimensat(2) (and futimens, which is utimensat with a NULL
 * path). "Now" needs ownership or write permission; explicit times need
 * ownership (checked by inode_change_ok through ATTR_TIMES_SET).
 */
#include <fs/file.h>
#include <fs/namei.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/uaccess.h>

static bool nsec_valid(long nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW ||
	       (nsec >= 0 && nsec < 1000000000L);
}

static int utimes_common(const struct path *path, struct timespec64 *times)
{
	struct inode *inode = path->dentry->d_inode;
	struct iattr newattrs = { .ia_valid = ATTR_CTIME | ATTR_MTIME |
					      ATTR_ATIME };
	int err;

	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	if (times) {
		if (times[0].tv_nsec == UTIME_OMIT) {
			newattrs.ia_valid &= ~ATTR_ATIME;
		} else if (times[0].tv_nsec != UTIME_NOW) {
			newattrs.ia_atime = times[0];
			newattrs.ia_valid |= ATTR_ATIME_SET | ATTR_TIMES_SET;
		}
		if (times[1].tv_nsec == UTIME_OMIT) {
			newattrs.ia_valid &= ~ATTR_MTIME;
		} else if (times[1].tv_nsec != UTIME_NOW) {
			newattrs.ia_mtime = times[1];
			newattrs.ia_valid |= ATTR_MTIME_SET | ATTR_TIMES_SET;
		}
	}
	if (!(newattrs.ia_valid & ATTR_TIMES_SET) &&
	    current->cred.fsuid != inode->i_uid && !capable_fsowner()) {
		err = inode_permission(inode, MAY_WRITE);
		if (err)
			return err;
	}
	mutex_lock(&inode->i_mutex);
	err = notify_change(path->dentry, &newattrs);
	mutex_unlock(&inode->i_mutex);
	return err;
}

long do_utimes(int dfd, const char *pathname, struct timespec64 *times,
	       int flags)
{
	struct path path;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (times) {
		if (!nsec_valid(times[0].tv_nsec) ||
		    !nsec_valid(times[1].tv_nsec))
			return -EINVAL;
		if (times[0].tv_nsec == UTIME_OMIT &&
		    times[1].tv_nsec == UTIME_OMIT)
			return 0;
	}
	if (!pathname) {	/* futimens: the file behind dfd */
		struct file *file;

		if (flags)
			return -EINVAL;
		file = fget(dfd);
		if (!file)
			return -EBADF;
		err = utimes_common(&file->f_path, times);
		fput(file);
		return err;
	}
	err = kern_path_at(dfd, pathname,
			   at_lookup_flags(flags),
			   &path);
	if (err)
		return err;
	err = utimes_common(&path, times);
	path_put(&path);
	return err;
}

SYSCALL_DEFINE4(utimensat, int, dfd, const char __user *, filename,
		struct user_timespec __user *, utimes, int, flags)
{
	struct user_timespec ut[2];
	struct timespec64 t[2];
	char *name = NULL;
	long err;

	if (utimes) {
		if (copy_from_user(ut, utimes, sizeof(ut)))
			return -EFAULT;
		for (int i = 0; i < 2; i++)
			t[i] = (struct timespec64){ ut[i].tv_sec, ut[i].tv_nsec };
	}
	if (filename) {
		name = getname_flags(filename,
				     flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
		if (IS_ERR(name))
			return PTR_ERR(name);
	}
	err = do_utimes(dfd, name, utimes ? t : NULL, flags);
	if (name)
		putname(name);
	return err;
}
