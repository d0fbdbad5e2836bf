/*
 * fs/ext2/namei.c: the directory inode operations (Linux's
 * fs/ext2/namei.c). Each is a few steps over dir.c and ialloc.c, ordered
 * so that a failure part-way undoes what was done: a new inode is only
 * made visible (d_instantiate) once its name is in the directory, and an
 * inode whose name could not be added is dropped with no links, which
 * frees it (ext2_evict_inode).
 *
 * Link counts: a file has one per name; a directory one for its name, one
 * for its own "." and one more in its parent for each subdirectory's
 * "..". They are kept with inc_nlink/drop_nlink and written back with the
 * inode. The VFS holds the directories' i_mutex around every call.
 */
#include "ext2.h"
#include <fs/dcache.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>

static struct dentry *ext2_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned int flags)
{
	struct inode *inode = NULL;
	unsigned long ino;
	int err;

	if (dentry->d_name.len > EXT2_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	ino = ext2_inode_by_name(dir, &dentry->d_name, &err);
	if (err)
		return ERR_PTR(err);
	if (ino) {
		inode = ext2_iget(dir->i_sb, ino);
		if (IS_ERR(inode))
			return (struct dentry *)inode;
	}
	/* NULL: a negative dentry */
	return d_splice_alias(inode, dentry);
}

/*
 * A new inode that never got its name dies: no links, no page cache,
 * then the last iput frees its blocks and its number.
 */
static void ext2_discard_new_inode(struct inode *inode)
{
	clear_nlink(inode);
	mark_inode_dirty(inode);
	truncate_inode_pages(inode->i_mapping, 0);
	iput(inode);
}

/* A new non-directory inode gets its name; on failure it dies. */
static int ext2_add_nondir(struct dentry *dentry, struct inode *inode)
{
	int err = ext2_add_link(dentry, inode);

	if (!err) {
		d_instantiate(dentry, inode);
		return 0;
	}
	ext2_discard_new_inode(inode);
	return err;
}

static int ext2_create(struct inode *dir, struct dentry *dentry,
		       umode_t mode, bool excl)
{
	struct inode *inode = ext2_new_inode(dir, mode);

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	ext2_set_inode_ops(inode);
	return ext2_add_nondir(dentry, inode);
}

static int ext2_mknod(struct inode *dir, struct dentry *dentry, umode_t mode,
		      dev_t rdev)
{
	struct inode *inode = ext2_new_inode(dir, mode);

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	inode->i_rdev = rdev;
	ext2_set_inode_ops(inode);
	return ext2_add_nondir(dentry, inode);
}

/*
 * A target shorter than i_data (60 bytes, NUL included) is kept there: a
 * fast symlink, no block. A longer one gets a block of its own, written
 * through the page cache like file data: a slow symlink.
 */
static int ext2_symlink(struct inode *dir, struct dentry *dentry,
			const char *target)
{
	unsigned int l = strnlen(target, PATH_MAX) + 1;
	struct inode *inode;
	int err;

	if (l > dir->i_sb->s_blocksize)
		return -ENAMETOOLONG;
	inode = ext2_new_inode(dir, S_IFLNK | S_IRWXUGO);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	if (l > sizeof(EXT2_I(inode)->i_data)) {
		inode->i_op = &ext2_symlink_inode_operations;
		inode->i_mapping->a_ops = &ext2_aops;
		err = ext2_page_symlink(inode, target, l - 1);
		if (err) {
			ext2_discard_new_inode(inode);
			return err;
		}
	} else {
		inode->i_op = &ext2_fast_symlink_inode_operations;
		memcpy(EXT2_I(inode)->i_data, target, l);
		inode->i_size = l - 1;
	}
	mark_inode_dirty(inode);
	return ext2_add_nondir(dentry, inode);
}

static int ext2_link(struct dentry *old_dentry, struct inode *dir,
		     struct dentry *dentry)
{
	struct inode *inode = old_dentry->d_inode;
	int err;

	if (inode->i_nlink >= EXT2_LINK_MAX)
		return -EMLINK;
	inode->i_ctime = current_time(inode);
	inc_nlink(inode);
	ihold(inode);	/* the new dentry's reference */
	err = ext2_add_link(dentry, inode);
	if (!err) {
		mark_inode_dirty(inode);
		d_instantiate(dentry, inode);
		return 0;
	}
	drop_nlink(inode);
	mark_inode_dirty(inode);
	iput(inode);
	return err;
}

static int ext2_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct inode *inode;
	int err;

	if (dir->i_nlink >= EXT2_LINK_MAX)
		return -EMLINK;
	inode = ext2_new_inode(dir, S_IFDIR | mode);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	ext2_set_inode_ops(inode);
	inc_nlink(inode);	/* its "." */
	err = ext2_make_empty(inode, dir);
	if (!err)
		err = ext2_add_link(dentry, inode);
	if (err) {
		ext2_discard_new_inode(inode);	/* blocks and all */
		return err;
	}
	inc_nlink(dir);	/* the new ".." */
	mark_inode_dirty(dir);
	d_instantiate(dentry, inode);
	return 0;
}

static int ext2_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	struct ext2_dir_entry_2 *de;
	struct page *page;
	int err;

	de = ext2_find_entry(dir, &dentry->d_name, &page);
	if (IS_ERR(de))
		return PTR_ERR(de);
	if (!de)
		return -ENOENT;
	err = ext2_delete_entry(de, page);
	if (err)
		return err;
	inode->i_ctime = dir->i_ctime;
	drop_nlink(inode);
	mark_inode_dirty(inode);
	return 0;
}

static int ext2_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	int err = ext2_empty_dir(inode);

	if (err <= 0)
		return err ? err : -ENOTEMPTY;
	err = ext2_unlink(dir, dentry);
	if (err)
		return err;
	inode->i_size = 0;	/* its blocks go when the inode does */
	drop_nlink(inode);	/* its "." */
	mark_inode_dirty(inode);
	drop_nlink(dir);	/* its ".." */
	mark_inode_dirty(dir);
	return 0;
}

/*
 * Rename: the new name first (added, or an existing one pointed at the
 * inode), then the old name removed, then a moved directory's ".."
 * pointed at its new parent. A directory moving between parents moves
 * one link from the old parent to the new one.
 */
static int ext2_rename(struct inode *old_dir, struct dentry *old_dentry,
		       struct inode *new_dir, struct dentry *new_dentry)
{
	struct inode *old_inode = old_dentry->d_inode;
	struct inode *new_inode = new_dentry->d_inode;
	struct page *dir_page = NULL, *old_page, *new_page;
	struct ext2_dir_entry_2 *dir_de = NULL, *old_de, *new_de;
	int err;

	old_de = ext2_find_entry(old_dir, &old_dentry->d_name, &old_page);
	if (IS_ERR_OR_NULL(old_de))
		return old_de ? PTR_ERR(old_de) : -ENOENT;
	if (S_ISDIR(old_inode->i_mode)) {
		err = -EIO;
		dir_de = ext2_dotdot(old_inode, &dir_page);
		if (!dir_de)
			goto out_old;
	}
	if (new_inode) {
		err = dir_de ? ext2_empty_dir(new_inode) : 1;
		if (err <= 0) {
			err = err ? err : -ENOTEMPTY;
			goto out_dir;
		}
		new_de = ext2_find_entry(new_dir, &new_dentry->d_name,
					 &new_page);
		err = IS_ERR(new_de) ? PTR_ERR(new_de) : -ENOENT;
		if (IS_ERR_OR_NULL(new_de))
			goto out_dir;
		err = ext2_set_link(new_dir, new_de, new_page, old_inode);
		if (err)
			goto out_dir;
		new_inode->i_ctime = current_time(new_inode);
		if (dir_de)
			drop_nlink(new_inode);	/* its "." */
		drop_nlink(new_inode);
		mark_inode_dirty(new_inode);
	} else {
		err = -EMLINK;
		if (dir_de && new_dir->i_nlink >= EXT2_LINK_MAX)
			goto out_dir;
		err = ext2_add_link(new_dentry, old_inode);
		if (err)
			goto out_dir;
		if (dir_de) {
			inc_nlink(new_dir);
			mark_inode_dirty(new_dir);
		}
	}
	old_inode->i_ctime = current_time(old_inode);
	mark_inode_dirty(old_inode);
	err = ext2_delete_entry(old_de, old_page);
	if (dir_de) {
		if (old_dir != new_dir)
			ext2_set_link(old_inode, dir_de, dir_page, new_dir);
		else
			ext2_put_page(dir_page);
		drop_nlink(old_dir);
		mark_inode_dirty(old_dir);
	}
	return err;
out_dir:
	if (dir_page)
		ext2_put_page(dir_page);
out_old:
	ext2_put_page(old_page);
	return err;
}

const struct inode_operations ext2_dir_inode_operations = {
	.lookup = ext2_lookup,
	.create = ext2_create,
	.link = ext2_link,
	.unlink = ext2_unlink,
	.symlink = ext2_symlink,
	.mkdir = ext2_mkdir,
	.rmdir = ext2_rmdir,
	.mknod = ext2_mknod,
	.rename = ext2_rename,
	.setattr = ext2_setattr,
};

const struct inode_operations ext2_special_inode_operations = {
	.setattr = ext2_setattr,
};
