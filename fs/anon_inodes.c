/*
 * fs/anon_inodes.c: files that are not in any directory (eventfd, epoll).
 *
 * Like pipes (fs/pipe.c), each file gets an inode of an internal mount,
 * "anon_inodefs", made on first use, and a pseudo dentry named after the
 * kind of file ("[eventfd]"); the file's private_data is the object, and
 * its ->release frees it. Linux shares one inode among all such files;
 * one each is as simple here and changes nothing a program can rely on.
 */
#include <fs/anon_inodes.h>
#include <fs/dcache.h>
#include <fs/file.h>
#include <fs/mount.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/string.h>

#define ANON_INODE_FS_MAGIC 0x09041934

static const struct super_operations anon_inodefs_ops = {
	.statfs = simple_statfs,
};

static int anon_inodefs_fill_super(struct super_block *sb, void *data,
				   int silent)
{
	struct inode *root = new_inode(sb);

	if (!root)
		return -ENOMEM;
	root->i_mode = S_IFDIR | 0700;
	sb->s_magic = ANON_INODE_FS_MAGIC;
	sb->s_op = &anon_inodefs_ops;
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static struct dentry *anon_inodefs_mount(struct file_system_type *type,
					 int flags, const char *dev_name,
					 void *data)
{
	return mount_nodev(type, flags, data, anon_inodefs_fill_super);
}

static struct file_system_type anon_inode_fs_type = {
	.name = "anon_inodefs",
	.mount = anon_inodefs_mount,
	.kill_sb = kill_litter_super,
};

static struct vfsmount *anon_inode_mnt;

static struct vfsmount *get_anon_mnt(void)
{
	return kern_mount_once(&anon_inode_mnt, &anon_inode_fs_type);
}

static fmode_t open_fmode(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return FMODE_READ;
	case O_WRONLY:
		return FMODE_WRITE;
	}
	return FMODE_READ | FMODE_WRITE;
}

struct file *anon_inode_getfile(const char *name,
				const struct file_operations *fops, void *priv,
				int flags)
{
	struct vfsmount *mnt = get_anon_mnt();
	struct qstr qname = QSTR_INIT(name, strlen(name));
	struct inode *inode;
	struct file *file;
	struct path path;

	if (IS_ERR(mnt))
		return ERR_PTR(PTR_ERR(mnt));
	inode = new_inode(mnt->mnt_sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_mode = S_IRUSR | S_IWUSR;	/* no file type, as Linux */
	inode->i_uid = current->cred.fsuid;
	inode->i_gid = current->cred.fsgid;
	inode->i_fop = fops;
	path.mnt = mnt;
	path.dentry = d_alloc_pseudo(mnt->mnt_sb, &qname);
	if (!path.dentry) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	d_instantiate(path.dentry, inode);
	file = alloc_file(&path, open_fmode(flags), fops);
	dput(path.dentry);	/* the file holds it now, or it goes */
	if (!file)
		return ERR_PTR(-ENOMEM);
	file->f_flags = flags & (O_ACCMODE | O_NONBLOCK);
	file->private_data = priv;
	return file;
}

int anon_inode_getfd(const char *name, const struct file_operations *fops,
		     void *priv, int flags)
{
	int fd = get_unused_fd_flags(flags);
	struct file *file;

	if (fd < 0)
		return fd;
	file = anon_inode_getfile(name, fops, priv, flags);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		return PTR_ERR(file);
	}
	fd_install(fd, file);
	return fd;
}
