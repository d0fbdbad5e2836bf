/*
 * fs/char_dev.c: character device numbers. A driver claims a major with
 * register_chrdev (all its minors, as Linux's old interface); opening a
 * character device inode goes through def_chr_fops, whose open looks the
 * major up, switches the file to the driver's operations and calls the
 * driver's open (which may look at the minor). Block devices and sockets
 * have no drivers yet: opening them fails with ENXIO.
 */
#include <fs/fs.h>
#include <fs/pipe_fs_i.h>
#include <kernel/errno.h>
#include <kernel/printk.h>

#define MAX_CHRDEV 256

struct char_device {
	const char *name;
	const struct file_operations *fops;
};

static struct char_device chrdevs[MAX_CHRDEV];
static DEFINE_SPINLOCK(chrdevs_lock);

int register_chrdev(unsigned int major, const char *name,
		    const struct file_operations *fops)
{
	int err = 0;

	if (major == 0 || major >= MAX_CHRDEV)
		return -EINVAL;
	spin_lock(&chrdevs_lock);
	if (chrdevs[major].fops)
		err = -EBUSY;
	else
		chrdevs[major] = (struct char_device){ name, fops };
	spin_unlock(&chrdevs_lock);
	return err;
}

void unregister_chrdev(unsigned int major, const char *name)
{
	spin_lock(&chrdevs_lock);
	if (major < MAX_CHRDEV)
		chrdevs[major] = (struct char_device){ NULL, NULL };
	spin_unlock(&chrdevs_lock);
}

static int chrdev_open(struct inode *inode, struct file *file)
{
	unsigned int major = MAJOR(inode->i_rdev);
	const struct file_operations *fops = NULL;

	spin_lock(&chrdevs_lock);
	if (major < MAX_CHRDEV)
		fops = chrdevs[major].fops;
	spin_unlock(&chrdevs_lock);
	if (!fops)
		return -ENXIO;
	file->f_op = fops;
	if (fops->open)
		return fops->open(inode, file);
	return 0;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};

static int no_device_open(struct inode *inode, struct file *file)
{
	return -ENXIO;
}

static const struct file_operations bad_sock_fops = {
	.open = no_device_open,
};

void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev)
{
	inode->i_mode = mode;
	if (S_ISCHR(mode)) {
		inode->i_fop = &def_chr_fops;
		inode->i_rdev = rdev;
	} else if (S_ISBLK(mode)) {
		inode->i_fop = &bad_sock_fops;	/* no block layer yet */
		inode->i_rdev = rdev;
	} else if (S_ISFIFO(mode)) {
		inode->i_fop = &pipefifo_fops;
	} else if (S_ISSOCK(mode)) {
		inode->i_fop = &bad_sock_fops;
	} else {
		pr_warn("init_special_inode: bogus i_mode (%o) for inode %lu\n",
			mode, inode->i_ino);
	}
}
