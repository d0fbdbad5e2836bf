/*
 * fs/ioctl.c: ioctl(2). A few requests apply to every fd (close-on-exec,
 * non-blocking mode), a few to every regular file (bytes left, FIBMAP,
 * pagelab's pagemap); the rest go to the file's ->unlocked_ioctl, and a
 * file without one answers ENOTTY (which is how isatty() learns "not a
 * terminal").
 */
#include <fs/file.h>
#include <pagelab/pagemap.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>

#define FIBMAP 1	/* _IO(0x00, 1): file block -> disk block */

/*
 * FIBMAP: the int at p is a file block number; it is replaced by the disk
 * block holding it (0 for a hole). Linux's rules: CAP_SYS_RAWIO (root
 * here), EINVAL for a negative block or a file system without ->bmap,
 * ERANGE for a disk block an int cannot hold.
 */
static long ioctl_fibmap(struct file *file, int __user *p)
{
	sector_t block;
	int ur_block;
	long err;

	if (current->cred.euid != 0)
		return -EPERM;
	err = get_user(ur_block, p);
	if (err)
		return err;
	if (ur_block < 0)
		return -EINVAL;
	block = ur_block;
	err = bmap(file->f_inode, &block);
	if (err)
		return err;
	if (block > INT_MAX)
		return -ERANGE;
	return put_user((int)block, p);
}

static long file_ioctl(struct file *file, unsigned int cmd,
		       unsigned long arg)
{
	struct inode *inode = file->f_inode;

	if (cmd == FIONREAD && S_ISREG(inode->i_mode)) {
		loff_t left = i_size_read(inode) - file->f_pos;

		return put_user((int)(left > 0 ? left : 0), (int __user *)arg);
	}
	if (cmd == FIBMAP && S_ISREG(inode->i_mode))
		return ioctl_fibmap(file, (int __user *)arg);
	if (cmd == PAGELAB_IOC_PAGEMAP)
		return pagemap_ioctl(file, arg);
	if (file->f_op && file->f_op->unlocked_ioctl)
		return file->f_op->unlocked_ioctl(file, cmd, arg);
	return -ENOTTY;
}

SYSCALL_DEFINE3(ioctl, unsigned int, fd, unsigned int, cmd, unsigned long,
		arg)
{
	struct file *file = fget(fd);
	long err = 0;
	int on;

	if (!file)
		return -EBADF;
	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
		do_fcntl(fd, 2 /* F_SETFD */, cmd == FIOCLEX ? FD_CLOEXEC : 0);
		break;
	case FIONBIO:
		err = get_user(on, (int __user *)arg);
		if (err)
			break;
		if (on)
			file->f_flags |= O_NONBLOCK;
		else
			file->f_flags &= ~O_NONBLOCK;
		break;
	default:
		err = file_ioctl(file, cmd, arg);
	}
	fput(file);
	return err;
}
