/*
 * Mounts (fs/namespace.c): which super_block is seen where.
 *
 * A vfsmount attaches a super_block's root (mnt_root) on a dentry
 * (mnt_mountpoint) of its parent mount. The root mount is its own parent.
 * Path walking crosses into a mount when it reaches a dentry with
 * d_mounted set (follow_mount), and back out on ".." at a mount's root
 * (follow_dotdot in fs/namei.c). mnt_count counts struct path holders;
 * the mount tree itself holds one. mount_lock protects the table.
 */
#ifndef _FS_MOUNT_H
#define _FS_MOUNT_H

#include <fs/fs.h>

struct vfsmount {
	struct vfsmount *mnt_parent;
	struct dentry *mnt_mountpoint;	/* in the parent */
	struct dentry *mnt_root;	/* of this super block */
	struct super_block *mnt_sb;
	struct list_head mnt_list;	/* the mount table, in mount order */
	int mnt_count;
	int mnt_flags;	/* MNT_* */
	char mnt_devname[32];
};

#define MNT_NOSUID 0x01
#define MNT_NODEV 0x02
#define MNT_NOEXEC 0x04
#define MNT_INTERNAL 0x4000	/* pipefs and friends: never in the table */

/* umount2 flags */
#define MNT_FORCE 0x1
#define MNT_DETACH 0x2
#define MNT_EXPIRE 0x4
#define UMOUNT_NOFOLLOW 0x8

struct vfsmount *mntget(struct vfsmount *mnt);
void mntput(struct vfsmount *mnt);
/* The mount sitting on (mnt, dentry), referenced, or NULL. */
struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct dentry *dentry);
/* A mount of type that is not attached anywhere (pipefs, the root). */
struct vfsmount *vfs_kern_mount(struct file_system_type *type, int flags,
				const char *dev_name, void *data);
struct vfsmount *kern_mount(struct file_system_type *type);
struct vfsmount *kern_mount_once(struct vfsmount **slot,
				 struct file_system_type *type);
/* mount(2) with kernel strings. */
long do_mount(const char *dev_name, const char *dir_name,
	      const char *type_page, unsigned long flags, void *data);
long do_umount_path(const char *name, int flags);
struct seq_file;
/* The text of /proc/mounts. */
int proc_mounts_show(struct seq_file *m, void *v);
/* The mount at "/" (set by vfs_init). */
extern struct vfsmount *root_mnt;
/* Make mnt the root mount (vfs_init). */
void set_root_mount(struct vfsmount *mnt);

#endif
