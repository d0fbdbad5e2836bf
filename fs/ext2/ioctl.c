/*
 * fs/ext2/ioctl.c: the inode flags of chattr(1) and lsattr(1), through
 * FS_IOC_GETFLAGS / FS_IOC_SETFLAGS (Linux's fs/ext2/ioctl.c).
 *
 * The flags live in the on-disk inode (i_flags). Two of them change what
 * the VFS allows, so ext2_set_inode_flags mirrors them in inode->i_flags:
 *   'a' EXT2_APPEND_FL    -> S_APPEND: written only at the end, opened for
 *                            writing only with O_APPEND; no truncate,
 *                            unlink, rename or new link (EPERM)
 *   'i' EXT2_IMMUTABLE_FL -> S_IMMUTABLE: no change at all (EPERM)
 * Setting or clearing either needs privilege (Linux: CAP_LINUX_IMMUTABLE);
 * the other user-modifiable flags are kept on disk and have no effect here.
 */
#include "ext2.h"
#include <fs/namei.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/uaccess.h>

#define FS_IOC_GETFLAGS 0x80086601	/* _IOR('f', 1, long) */
#define FS_IOC_SETFLAGS 0x40086602	/* _IOW('f', 2, long) */

void ext2_set_inode_flags(struct inode *inode)
{
	u32 flags = EXT2_I(inode)->i_flags;

	inode->i_flags &= ~(S_APPEND | S_IMMUTABLE);
	if (flags & EXT2_APPEND_FL)
		inode->i_flags |= S_APPEND;
	if (flags & EXT2_IMMUTABLE_FL)
		inode->i_flags |= S_IMMUTABLE;
}

static int ext2_setflags(struct inode *inode, u32 flags)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	u32 old = ei->i_flags;

	if (current->cred.fsuid != inode->i_uid && !capable_fsowner())
		return -EPERM;
	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	if (((flags ^ old) & (EXT2_APPEND_FL | EXT2_IMMUTABLE_FL)) &&
	    !capable_fsowner())
		return -EPERM;
	/* Flags a user may not change keep their value. */
	ei->i_flags = (flags & EXT2_FL_USER_MODIFIABLE) |
		      (old & ~EXT2_FL_USER_MODIFIABLE);
	ext2_set_inode_flags(inode);
	inode->i_ctime = current_time(inode);
	mark_inode_dirty(inode);
	return 0;
}

long ext2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_inode;
	int __user *p = (int __user *)arg;
	int flags, err;

	switch (cmd) {
	case FS_IOC_GETFLAGS:
		flags = EXT2_I(inode)->i_flags & EXT2_FL_USER_VISIBLE;
		return put_user(flags, p);
	case FS_IOC_SETFLAGS:
		if (get_user(flags, p))
			return -EFAULT;
		mutex_lock(&inode->i_mutex);
		err = ext2_setflags(inode, (u32)flags);
		mutex_unlock(&inode->i_mutex);
		return err;
	default:
		return -ENOTTY;
	}
}
