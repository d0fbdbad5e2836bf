/*
 * Path names (fs/namei.c, fs/namei_ops.c): from a string to a dentry, and
 * the directory operations built on that.
 *
 * A walk starts at the process's root ("/...") or at a directory (cwd or
 * an openat dirfd) and takes one component at a time: permission to
 * search the directory, the child from the dcache or ->lookup, mounts
 * crossed, symlinks followed (at most MAX_NESTED_LINKS deep and
 * MAX_TOTAL_LINKS in all, else ELOOP). With LOOKUP_PARENT it stops before
 * the last component and leaves it in nd->last for create/unlink/rename.
 */
#ifndef _FS_NAMEI_H
#define _FS_NAMEI_H

#include <fs/dcache.h>

#define MAX_NESTED_LINKS 8
#define MAX_TOTAL_LINKS 40

/* lookup flags */
#define LOOKUP_FOLLOW 0x0001	/* follow a symlink in the last component */
#define LOOKUP_DIRECTORY 0x0002	/* the result must be a directory */
#define LOOKUP_PARENT 0x0010	/* stop at the parent of the last component */
#define LOOKUP_EMPTY 0x4000	/* "" names the starting directory */

/* nd->last_type: what the last component was */
enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

struct nameidata {
	struct path path;	/* where the walk is (referenced) */
	struct qstr last;	/* with LOOKUP_PARENT: the last component */
	int last_type;
	unsigned int flags;
	int depth;	/* symlinks being followed now */
	int total_links;	/* symlinks followed in this walk */
	struct path root;	/* the process's root, for "/" and ".." */
};

/* Copy a path name from user space into a kmalloc'ed PATH_MAX buffer.
 * ERR_PTR(-EFAULT, -ENAMETOOLONG, -ENOENT for ""). Free with putname. */
char *getname(const char __user *filename);
/* The same, "" allowed (for AT_EMPTY_PATH). */
char *getname_flags(const char __user *filename, unsigned int flags);
void putname(char *name);

void path_get(const struct path *path);
void path_put(const struct path *path);

/* Walk name from dfd; nd->path is referenced on success. 0 or -errno. */
int path_lookupat(int dfd, const char *name, unsigned int flags,
		  struct nameidata *nd);
/* Look name up (kernel string) from cwd/root; path referenced. */
int kern_path(const char *name, unsigned int flags, struct path *path);
int kern_path_at(int dfd, const char *name, unsigned int flags,
		 struct path *path);
/* The same for a user string. */
int user_path_at(int dfd, const char __user *name, unsigned int flags,
		 struct path *path);

/*
 * Look name up in base (whose i_mutex the caller holds): from the dcache
 * or ->lookup; returns a referenced dentry, maybe negative, or ERR_PTR.
 */
struct dentry *lookup_one_len(const char *name, struct dentry *base, int len);
/* nd->last in nd->path.dentry, i_mutex held. */
struct dentry *lookup_hash(struct nameidata *nd);
/*
 * For mkdir/mknod/symlink/link: parent walk done in nd. Locks the parent's
 * i_mutex and returns the (referenced) dentry for the new name, or an
 * ERR_PTR with the mutex released. EEXIST is the caller's check.
 */
struct dentry *lookup_create(struct nameidata *nd, bool is_dir);

/* Permission checks: 0 or -EACCES (-EROFS for writes on a ro mount). */
int generic_permission(struct inode *inode, int mask);
int inode_permission(struct inode *inode, int mask);
bool in_group_p(gid_t gid);
bool capable_fsowner(void);	/* fsuid 0: Linux's CAP_DAC_OVERRIDE */

/* Move to mounts stacked on path (mount crossing down). */
bool follow_mount(struct path *path);

/* The vfs_* directory operations: the parent's i_mutex is held. */
int vfs_create(struct inode *dir, struct dentry *dentry, umode_t mode,
	       bool excl);
int vfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode);
int vfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode,
	      dev_t dev);
int vfs_symlink(struct inode *dir, struct dentry *dentry, const char *target);
int vfs_link(struct dentry *old, struct inode *dir, struct dentry *new);
int vfs_rmdir(struct inode *dir, struct dentry *dentry);
int vfs_unlink(struct inode *dir, struct dentry *dentry);
int vfs_rename(struct inode *old_dir, struct dentry *old,
	       struct inode *new_dir, struct dentry *new);
/* Lock two directories for a rename; returns nothing, see fs/namei_ops.c */
void lock_rename(struct dentry *p1, struct dentry *p2);
void unlock_rename(struct dentry *p1, struct dentry *p2);

/* The system calls' bodies, with kernel strings. 0 or -errno. */
long do_mkdirat(int dfd, const char *pathname, umode_t mode);
long do_mknodat(int dfd, const char *pathname, umode_t mode, unsigned int dev);
long do_rmdir(int dfd, const char *pathname);
long do_unlinkat(int dfd, const char *pathname);
long do_symlinkat(const char *oldname, int newdfd, const char *newname);
long do_linkat(int olddfd, const char *oldname, int newdfd,
	       const char *newname, int flags);
long do_renameat2(int olddfd, const char *oldname, int newdfd,
		  const char *newname, unsigned int flags);

/* The LOOKUP_* flags an *at() call's AT_SYMLINK_NOFOLLOW / AT_EMPTY_PATH ask
 * for: symlinks are followed unless told not to. */
static inline unsigned int at_lookup_flags(int at_flags)
{
	return (at_flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
	       (at_flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
}

#endif
