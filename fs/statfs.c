/* fs/statfs.c: statfs(2), fstatfs(2): the file system's ->statfs. */
#include <fs/file.h>
#include <fs/mount.h>
#include <fs/namei.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>

#define ST_RDONLY 0x0001
#define ST_NOSUID 0x0002
#define ST_NODEV 0x0004
#define ST_NOEXEC 0x0008

int vfs_statfs(const struct path *path, struct kstatfs *buf)
{
	struct super_block *sb = path->dentry->d_sb;
	int mf = path->mnt->mnt_flags;
	int err = 0;

	memset(buf, 0, sizeof(*buf));
	if (sb->s_op && sb->s_op->statfs)
		err = sb->s_op->statfs(sb->s_root, buf);
	else
		err = simple_statfs(sb->s_root, buf);
	if (!buf->f_frsize)
		buf->f_frsize = buf->f_bsize;
	buf->f_flags = (sb_rdonly(sb) ? ST_RDONLY : 0) |
		       (mf & MNT_NOSUID ? ST_NOSUID : 0) |
		       (mf & MNT_NODEV ? ST_NODEV : 0) |
		       (mf & MNT_NOEXEC ? ST_NOEXEC : 0);
	return err;
}

static int cp_statfs(const struct kstatfs *k, struct super_block *sb,
		     struct statfs __user *ubuf)
{
	struct statfs st;

	memset(&st, 0, sizeof(st));
	st.f_type = k->f_type;
	st.f_bsize = k->f_bsize;
	st.f_blocks = k->f_blocks;
	st.f_bfree = k->f_bfree;
	st.f_bavail = k->f_bavail;
	st.f_files = k->f_files;
	st.f_ffree = k->f_ffree;
	st.f_fsid.val[0] = sb->s_dev;
	st.f_namelen = k->f_namelen;
	st.f_frsize = k->f_frsize;
	st.f_flags = k->f_flags;
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

SYSCALL_DEFINE2(statfs, const char __user *, pathname, struct statfs __user *,
		buf)
{
	struct kstatfs st;
	struct path path;
	long err = user_path_at(AT_FDCWD, pathname, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = vfs_statfs(&path, &st);
	if (!err)
		err = cp_statfs(&st, path.dentry->d_sb, buf);
	path_put(&path);
	return err;
}

SYSCALL_DEFINE2(fstatfs, unsigned int, fd, struct statfs __user *, buf)
{
	struct file *file = fget(fd);
	struct kstatfs st;
	long err;

	if (!file)
		return -EBADF;
	err = vfs_statfs(&file->f_path, &st);
	if (!err)
		err = cp_statfs(&st, file->f_dentry->d_sb, buf);
	fput(file);
	return err;
}
