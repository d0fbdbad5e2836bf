/*
 * Files with no name in any directory (fs/anon_inodes.c): eventfd, epoll.
 * Each lives on an inode of the internal "anon_inodefs" mount, mode 0600.
 */
#ifndef _FS_ANON_INODES_H
#define _FS_ANON_INODES_H

#include <fs/fs.h>

/* A new file named name (as "[eventfd]") with fops and private_data
 * priv; flags: O_RDWR-style access plus O_NONBLOCK. ERR_PTR on failure
 * (then priv is still the caller's to free). */
struct file *anon_inode_getfile(const char *name,
				const struct file_operations *fops, void *priv,
				int flags);
/* The same, installed in a new fd (O_CLOEXEC in flags marks it). */
int anon_inode_getfd(const char *name, const struct file_operations *fops,
		     void *priv, int flags);

#endif
