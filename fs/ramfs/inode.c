/*
 * fs/ramfs/inode.c: ramfs, the file system that is nothing but the VFS
 * caches (Linux's fs/ramfs). Directories are dentries pinned in the
 * dcache, files are pages pinned in the page cache; there is no backing
 * store, no size limit but memory, and nothing to write back. "tmpfs" is
 * the same code under another name (and magic), for mount(2) callers
 * that ask for it.
 *
 * Every creation path ends in ramfs_instantiate: a new inode bound to the
 * negative dentry, plus one extra dentry reference (the pin) that
 * simple_unlink/simple_rmdir drop again.
 */
#include <fs/dcache.h>
#include <fs/ramfs.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/slab.h>

static const struct inode_operations ramfs_dir_inode_operations;

static const struct super_operations ramfs_ops = {
	.statfs = simple_statfs,
};

struct inode *ramfs_get_inode(struct super_block *sb, const struct inode *dir,
			      umode_t mode, dev_t dev)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode_init_owner(inode, dir, mode);
	inode->i_mapping->a_ops = &ramfs_aops;
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &ramfs_file_inode_operations;
		inode->i_fop = &ramfs_file_operations;
		break;
	case S_IFDIR:
		inode->i_op = &ramfs_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);	/* "." as well as its name */
		break;
	case S_IFLNK:
		inode->i_op = &simple_symlink_inode_operations;
		break;
	default:
		init_special_inode(inode, inode->i_mode, dev);
		break;
	}
	return inode;
}

/* Bind inode to dentry and pin the dentry: it is the directory entry. */
static void ramfs_instantiate(struct inode *dir, struct dentry *dentry,
			      struct inode *inode)
{
	d_instantiate(dentry, inode);
	dget(dentry);
	dir->i_mtime = dir->i_ctime = current_time(dir);
}

static int ramfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode,
		       dev_t dev)
{
	struct inode *inode = ramfs_get_inode(dir->i_sb, dir, mode, dev);

	if (!inode)
		return -ENOSPC;
	ramfs_instantiate(dir, dentry, inode);
	return 0;
}

static int ramfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	int err = ramfs_mknod(dir, dentry, mode | S_IFDIR, 0);

	if (!err)
		inc_nlink(dir);	/* the new directory's ".." */
	return err;
}

static int ramfs_create(struct inode *dir, struct dentry *dentry,
			umode_t mode, bool excl)
{
	return ramfs_mknod(dir, dentry, mode | S_IFREG, 0);
}

/* Linux's ramfs keeps the target in a page-cache page; a kmalloc'ed
 * string (inode->i_link) is simpler and reads the same. */
static int ramfs_symlink(struct inode *dir, struct dentry *dentry,
			 const char *target)
{
	size_t len = strnlen(target, PATH_MAX);
	struct inode *inode;

	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	inode = ramfs_get_inode(dir->i_sb, dir, S_IFLNK | S_IRWXUGO, 0);
	if (!inode)
		return -ENOSPC;
	inode->i_link = kmalloc(len + 1, GFP_KERNEL);
	if (!inode->i_link) {
		clear_nlink(inode);
		iput(inode);
		return -ENOSPC;
	}
	memcpy(inode->i_link, target, len + 1);
	inode->i_size = len;
	ramfs_instantiate(dir, dentry, inode);
	return 0;
}

static const struct inode_operations ramfs_dir_inode_operations = {
	.create = ramfs_create,
	.lookup = simple_lookup,
	.link = simple_link,
	.unlink = simple_unlink,
	.symlink = ramfs_symlink,
	.mkdir = ramfs_mkdir,
	.rmdir = simple_rmdir,
	.mknod = ramfs_mknod,
	.rename = simple_rename,
	.setattr = simple_setattr,
	.getattr = simple_getattr,
};

static int ramfs_fill_super(struct super_block *sb, void *data, int silent)
{
	struct inode *root;

	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = !strcmp(sb->s_type->name, "tmpfs") ? TMPFS_MAGIC
							 : RAMFS_MAGIC;
	sb->s_op = &ramfs_ops;
	root = ramfs_get_inode(sb, NULL, S_IFDIR | 0755, 0);
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static struct dentry *ramfs_mount(struct file_system_type *type, int flags,
				  const char *dev_name, void *data)
{
	return mount_nodev(type, flags, data, ramfs_fill_super);
}

struct file_system_type ramfs_fs_type = {
	.name = "ramfs",
	.mount = ramfs_mount,
	.kill_sb = kill_litter_super,
};

static struct file_system_type tmpfs_fs_type = {
	.name = "tmpfs",
	.mount = ramfs_mount,
	.kill_sb = kill_litter_super,
};

void init_ramfs_fs(void)
{
	register_filesystem(&ramfs_fs_type);
	register_filesystem(&tmpfs_fs_type);
}
