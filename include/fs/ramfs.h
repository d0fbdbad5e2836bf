/* ramfs (fs/ramfs/): files that live only in the page cache. */
#ifndef _FS_RAMFS_H
#define _FS_RAMFS_H

#include <fs/fs.h>

/* A new ramfs inode of the given mode under dir (NULL for the root). */
struct inode *ramfs_get_inode(struct super_block *sb, const struct inode *dir,
			      umode_t mode, dev_t dev);
void init_ramfs_fs(void);

extern const struct file_operations ramfs_file_operations;
extern const struct inode_operations ramfs_file_inode_operations;
extern const struct address_space_operations ramfs_aops;
extern struct file_system_type ramfs_fs_type;

#endif
