/*
 * fs/ioctl.c: ioctl(2). A few requests apply to every fd (close-on-exec,
 * non-blocking mode, bytes left in a file); the rest go to the file's
 * ->unlocked_ioctl, and a file without one answers ENOTTY (which is how
 * isatty() learns "not a terminal").
 */
#include <fs/file.h>
#include <pagelab/pagemap.h>
#include <kernel/errno.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>

static long file_ioctl(struct file *file, unsigned int cmd,
		       unsigned long arg)
{
	struct inode *inode = file->f_inode;

	if (cmd == FIONREAD && S_ISREG(inode->i_mode)) {
		loff_t left = i_size_read(inode) - file->f_pos;

		return put_user((int)(left > 0 ? left : 0), (int __user *)arg);
	}
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
