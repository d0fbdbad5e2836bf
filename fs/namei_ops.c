/*
 * fs/namei_ops.c: the directory operations and their system calls.
 * (Linux keeps all of this in fs/namei.c; it is split here for length.)
 *
 * Each operation has three layers, as in Linux:
 *   sys_mkdirat            copies the user's path in (getname)
 *   do_mkdirat             walks to the parent (LOOKUP_PARENT), locks it
 *                          and finds the child (lookup_create/lookup_hash)
 *   vfs_mkdir              checks permission and calls the file system
 * The checks (may_create, may_delete) come before the file system is
 * called, so a refused operation changes nothing. The victim's inode is
 * held across unlink so that its last iput (which may truncate a large
 * file) runs after the parent's i_mutex is released.
 */
#include <fs/namei.h>
#include <fs/fs_struct.h>
#include <fs/mount.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/string.h>

/* May a child be created in dir? (child is negative, dir locked) */
static int may_create(struct inode *dir, struct dentry *child)
{
	if (child->d_inode)
		return -EEXIST;
	if (!dir->i_nlink)	/* a removed directory takes no new names */
		return -ENOENT;
	return inode_permission(dir, MAY_WRITE | MAY_EXEC);
}

/* The sticky bit: only the owner of the file or directory may remove. */
static bool check_sticky(struct inode *dir, struct inode *inode)
{
	uid_t fsuid = current->cred.fsuid;

	if (!(dir->i_mode & S_ISVTX))
		return false;
	return inode->i_uid != fsuid && dir->i_uid != fsuid &&
	       !capable_fsowner();
}

static int may_delete(struct inode *dir, struct dentry *victim, bool isdir)
{
	struct inode *inode = victim->d_inode;
	int err;

	if (!inode)
		return -ENOENT;
	err = inode_permission(dir, MAY_WRITE | MAY_EXEC);
	if (err)
		return err;
	if (check_sticky(dir, inode) || IS_APPEND(dir) || IS_APPEND(inode) ||
	    IS_IMMUTABLE(inode))
		return -EPERM;
	if (isdir) {
		if (!S_ISDIR(inode->i_mode))
			return -ENOTDIR;
		if (d_is_root(victim))
			return -EBUSY;
	} else if (S_ISDIR(inode->i_mode)) {
		return -EISDIR;
	}
	if (!dir->i_nlink)
		return -ENOENT;
	return 0;
}

int vfs_create(struct inode *dir, struct dentry *dentry, umode_t mode,
	       bool excl)
{
	int err = may_create(dir, dentry);

	if (err)
		return err;
	if (!dir->i_op->create)
		return -EACCES;
	return dir->i_op->create(dir, dentry, (mode & S_IALLUGO) | S_IFREG,
				 excl);
}

int vfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	int err = may_create(dir, dentry);

	if (err)
		return err;
	if (!dir->i_op->mkdir)
		return -EPERM;
	return dir->i_op->mkdir(dir, dentry, mode & (S_IRWXUGO | S_ISVTX));
}

int vfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode,
	      dev_t dev)
{
	int err = may_create(dir, dentry);

	if (err)
		return err;
	/* Device nodes need privilege (CAP_MKNOD); FIFOs do not. */
	if ((S_ISCHR(mode) || S_ISBLK(mode)) && !capable_fsowner())
		return -EPERM;
	if (!dir->i_op->mknod)
		return -EPERM;
	return dir->i_op->mknod(dir, dentry, mode, dev);
}

int vfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	int err = may_create(dir, dentry);

	if (err)
		return err;
	if (!dir->i_op->symlink)
		return -EPERM;
	return dir->i_op->symlink(dir, dentry, target);
}

int vfs_link(struct dentry *old, struct inode *dir, struct dentry *new)
{
	struct inode *inode = old->d_inode;
	int err;

	if (!inode)
		return -ENOENT;
	err = may_create(dir, new);
	if (err)
		return err;
	if (dir->i_sb != inode->i_sb)
		return -EXDEV;
	if (S_ISDIR(inode->i_mode) || !dir->i_op->link ||
	    IS_APPEND(inode) || IS_IMMUTABLE(inode))
		return -EPERM;
	mutex_lock(&inode->i_mutex);
	/* A file unlinked meanwhile (nlink 0) must not come back. */
	err = inode->i_nlink ? dir->i_op->link(old, dir, new) : -ENOENT;
	mutex_unlock(&inode->i_mutex);
	return err;
}

int vfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	int err = may_delete(dir, dentry, true);

	if (err)
		return err;
	if (!dir->i_op->rmdir)
		return -EPERM;
	mutex_lock(&dentry->d_inode->i_mutex);
	err = d_mountpoint(dentry) ? -EBUSY : dir->i_op->rmdir(dir, dentry);
	mutex_unlock(&dentry->d_inode->i_mutex);
	if (!err) {
		/* Cached misses below it would keep the dead inode. */
		shrink_dcache_parent(dentry);
		d_delete(dentry);
	}
	return err;
}

int vfs_unlink(struct inode *dir, struct dentry *dentry)
{
	int err = may_delete(dir, dentry, false);

	if (err)
		return err;
	if (!dir->i_op->unlink)
		return -EPERM;
	mutex_lock(&dentry->d_inode->i_mutex);
	err = d_mountpoint(dentry) ? -EBUSY : dir->i_op->unlink(dir, dentry);
	mutex_unlock(&dentry->d_inode->i_mutex);
	if (!err)
		d_delete(dentry);
	return err;
}

int vfs_rename(struct inode *old_dir, struct dentry *old,
	       struct inode *new_dir, struct dentry *new)
{
	bool is_dir = S_ISDIR(old->d_inode->i_mode);
	int err;

	if (old->d_inode == new->d_inode)
		return 0;	/* POSIX: two links to one file, nothing to do */
	err = may_delete(old_dir, old, is_dir);
	if (err)
		return err;
	err = new->d_inode ? may_delete(new_dir, new, is_dir)
			   : may_create(new_dir, new);
	if (err)
		return err;
	if (!old_dir->i_op->rename)
		return -EPERM;
	/* Moving a directory rewrites its "..": that needs write access. */
	if (is_dir && new_dir != old_dir) {
		err = inode_permission(old->d_inode, MAY_WRITE);
		if (err)
			return err;
	}
	if (d_mountpoint(old) || d_mountpoint(new))
		return -EBUSY;
	err = old_dir->i_op->rename(old_dir, old, new_dir, new);
	if (!err && is_dir && new->d_inode)
		shrink_dcache_parent(new);	/* a replaced empty directory */
	if (!err)
		d_move(old, new);
	return err;
}

/*
 * Two directories for a rename. Across directories, the per-sb rename
 * mutex keeps the tree shape fixed, so "ancestor first" is a stable order.
 */
void lock_rename(struct dentry *p1, struct dentry *p2)
{
	if (p1 == p2) {
		mutex_lock(&p1->d_inode->i_mutex);
		return;
	}
	mutex_lock(&p1->d_sb->s_vfs_rename_mutex);
	if (is_subdir(p1, p2)) {
		mutex_lock(&p2->d_inode->i_mutex);
		mutex_lock(&p1->d_inode->i_mutex);
	} else {
		mutex_lock(&p1->d_inode->i_mutex);
		mutex_lock(&p2->d_inode->i_mutex);
	}
}

void unlock_rename(struct dentry *p1, struct dentry *p2)
{
	mutex_unlock(&p1->d_inode->i_mutex);
	if (p1 != p2) {
		mutex_unlock(&p2->d_inode->i_mutex);
		mutex_unlock(&p1->d_sb->s_vfs_rename_mutex);
	}
}

/* ---- do_*: kernel path strings --------------------------------------------- */

/* Walk to the parent of pathname and find the entry to create; the
 * parent's i_mutex is held on success. */
static struct dentry *create_start(int dfd, const char *pathname, bool is_dir,
				   struct nameidata *nd)
{
	struct dentry *dentry;
	int err = path_lookupat(dfd, pathname, LOOKUP_PARENT, nd);

	if (err)
		return ERR_PTR(err);
	dentry = lookup_create(nd, is_dir);
	if (IS_ERR(dentry)) {
		path_put(&nd->path);
		return dentry;
	}
	if (dentry->d_inode) {
		dput(dentry);
		mutex_unlock(&nd->path.dentry->d_inode->i_mutex);
		path_put(&nd->path);
		return ERR_PTR(-EEXIST);
	}
	return dentry;
}

static void create_done(struct dentry *dentry, struct nameidata *nd)
{
	dput(dentry);
	mutex_unlock(&nd->path.dentry->d_inode->i_mutex);
	path_put(&nd->path);
}

long do_mkdirat(int dfd, const char *pathname, umode_t mode)
{
	struct nameidata nd;
	struct dentry *dentry = create_start(dfd, pathname, true, &nd);
	long err;

	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	err = vfs_mkdir(nd.path.dentry->d_inode, dentry,
			mode & ~current_umask());
	create_done(dentry, &nd);
	return err;
}

long do_mknodat(int dfd, const char *pathname, umode_t mode, unsigned int dev)
{
	struct nameidata nd;
	struct dentry *dentry;
	struct inode *dir;
	long err;

	if (S_ISDIR(mode))
		return -EPERM;
	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG: case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		break;
	default:
		return -EINVAL;
	}
	dentry = create_start(dfd, pathname, false, &nd);
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	dir = nd.path.dentry->d_inode;
	mode &= ~current_umask();
	if (S_ISREG(mode))
		err = vfs_create(dir, dentry, mode, true);
	else
		err = vfs_mknod(dir, dentry, mode, new_decode_dev(dev));
	create_done(dentry, &nd);
	return err;
}

long do_symlinkat(const char *oldname, int newdfd, const char *newname)
{
	struct nameidata nd;
	struct dentry *dentry;
	long err;

	if (!*oldname)
		return -ENOENT;
	dentry = create_start(newdfd, newname, false, &nd);
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	err = vfs_symlink(nd.path.dentry->d_inode, dentry, oldname);
	create_done(dentry, &nd);
	return err;
}

long do_linkat(int olddfd, const char *oldname, int newdfd,
	       const char *newname, int flags)
{
	struct nameidata nd;
	struct dentry *dentry;
	struct path old;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = kern_path_at(olddfd, oldname,
			   (flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0) |
				   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0),
			   &old);
	if (err)
		return err;
	dentry = create_start(newdfd, newname, false, &nd);
	if (IS_ERR(dentry)) {
		path_put(&old);
		return PTR_ERR(dentry);
	}
	err = old.mnt != nd.path.mnt ? -EXDEV
				     : vfs_link(old.dentry,
						nd.path.dentry->d_inode, dentry);
	create_done(dentry, &nd);
	path_put(&old);
	return err;
}

long do_rmdir(int dfd, const char *pathname)
{
	struct nameidata nd;
	struct dentry *dentry;
	struct inode *dir;
	long err = path_lookupat(dfd, pathname, LOOKUP_PARENT, &nd);

	if (err)
		return err;
	switch (nd.last_type) {
	case LAST_DOTDOT:
		err = -ENOTEMPTY;
		goto out;
	case LAST_DOT:
		err = -EINVAL;
		goto out;
	case LAST_ROOT:
		err = -EBUSY;
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	mutex_lock(&dir->i_mutex);
	dentry = lookup_hash(&nd);
	err = PTR_ERR(dentry);
	if (!IS_ERR(dentry)) {
		err = vfs_rmdir(dir, dentry);
		dput(dentry);
	}
	mutex_unlock(&dir->i_mutex);
out:
	path_put(&nd.path);
	return err;
}

long do_unlinkat(int dfd, const char *pathname)
{
	struct inode *dir, *inode = NULL;
	struct nameidata nd;
	struct dentry *dentry;
	long err = path_lookupat(dfd, pathname, LOOKUP_PARENT, &nd);

	if (err)
		return err;
	if (nd.last_type != LAST_NORM) {
		path_put(&nd.path);
		return -EISDIR;
	}
	dir = nd.path.dentry->d_inode;
	mutex_lock(&dir->i_mutex);
	dentry = lookup_hash(&nd);
	err = PTR_ERR(dentry);
	if (!IS_ERR(dentry)) {
		inode = dentry->d_inode;
		/* Our own reference first: the dentry's may be the only one,
		 * and unlinking drops it. */
		if (inode)
			ihold(inode);
		if (!inode)
			err = -ENOENT;
		else if (nd.last.name[nd.last.len])	/* "name/" */
			err = S_ISDIR(inode->i_mode) ? -EISDIR : -ENOTDIR;
		else
			err = vfs_unlink(dir, dentry);
		dput(dentry);
	}
	mutex_unlock(&dir->i_mutex);
	iput(inode);	/* the final one, maybe: outside the parent's lock */
	path_put(&nd.path);
	return err;
}

static long do_rename_locked(struct nameidata *oldnd, struct nameidata *newnd)
{
	struct dentry *old_dir = oldnd->path.dentry;
	struct dentry *new_dir = newnd->path.dentry;
	struct dentry *old, *new;
	long err;

	old = lookup_hash(oldnd);
	if (IS_ERR(old))
		return PTR_ERR(old);
	err = -ENOENT;
	if (!old->d_inode)
		goto out_old;
	err = -ENOTDIR;
	if (!S_ISDIR(old->d_inode->i_mode) &&
	    (oldnd->last.name[oldnd->last.len] ||
	     newnd->last.name[newnd->last.len]))
		goto out_old;
	err = -EINVAL;	/* a directory cannot move below itself */
	if (is_subdir(new_dir, old))
		goto out_old;
	new = lookup_hash(newnd);
	err = PTR_ERR(new);
	if (IS_ERR(new))
		goto out_old;
	err = -ENOTEMPTY;	/* the target is an ancestor of the source */
	if (new->d_inode && is_subdir(old_dir, new))
		goto out_new;
	err = vfs_rename(old_dir->d_inode, old, new_dir->d_inode, new);
out_new:
	dput(new);
out_old:
	dput(old);
	return err;
}

long do_renameat2(int olddfd, const char *oldname, int newdfd,
		  const char *newname, unsigned int flags)
{
	struct nameidata oldnd, newnd;
	long err;

	if (flags)
		return -EINVAL;	/* RENAME_NOREPLACE & co: not yet */
	err = path_lookupat(olddfd, oldname, LOOKUP_PARENT, &oldnd);
	if (err)
		return err;
	err = path_lookupat(newdfd, newname, LOOKUP_PARENT, &newnd);
	if (err)
		goto out_old;
	err = -EXDEV;
	if (oldnd.path.mnt != newnd.path.mnt)
		goto out;
	err = -EBUSY;
	if (oldnd.last_type != LAST_NORM || newnd.last_type != LAST_NORM)
		goto out;
	lock_rename(newnd.path.dentry, oldnd.path.dentry);
	err = do_rename_locked(&oldnd, &newnd);
	unlock_rename(newnd.path.dentry, oldnd.path.dentry);
out:
	path_put(&newnd.path);
out_old:
	path_put(&oldnd.path);
	return err;
}

/* ---- system calls ----------------------------------------------------------- */

/* The common shape: one user path in, a do_* call, the path freed. */
#define WITH_NAME(uname, kname, call)                         \
	({                                                    \
		char *kname = getname(uname);                 \
		long __r = PTR_ERR(kname);                    \
		if (!IS_ERR(kname)) {                         \
			__r = (call);                         \
			putname(kname);                       \
		}                                             \
		__r;                                          \
	})

SYSCALL_DEFINE3(mkdirat, int, dfd, const char __user *, pathname,
		umode_t, mode)
{
	return WITH_NAME(pathname, k, do_mkdirat(dfd, k, mode));
}

SYSCALL_DEFINE2(mkdir, const char __user *, pathname, umode_t, mode)
{
	return WITH_NAME(pathname, k, do_mkdirat(AT_FDCWD, k, mode));
}

SYSCALL_DEFINE4(mknodat, int, dfd, const char __user *, filename,
		umode_t, mode, unsigned int, dev)
{
	return WITH_NAME(filename, k, do_mknodat(dfd, k, mode, dev));
}

SYSCALL_DEFINE3(mknod, const char __user *, filename, umode_t, mode,
		unsigned int, dev)
{
	return WITH_NAME(filename, k, do_mknodat(AT_FDCWD, k, mode, dev));
}

SYSCALL_DEFINE1(rmdir, const char __user *, pathname)
{
	return WITH_NAME(pathname, k, do_rmdir(AT_FDCWD, k));
}

SYSCALL_DEFINE1(unlink, const char __user *, pathname)
{
	return WITH_NAME(pathname, k, do_unlinkat(AT_FDCWD, k));
}

SYSCALL_DEFINE3(unlinkat, int, dfd, const char __user *, pathname, int, flag)
{
	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	if (flag & AT_REMOVEDIR)
		return WITH_NAME(pathname, k, do_rmdir(dfd, k));
	return WITH_NAME(pathname, k, do_unlinkat(dfd, k));
}

/* Two user paths: both copied before anything is looked up. */
static long two_names(const char __user *a, const char __user *b,
		      char **ka, char **kb)
{
	*ka = getname(a);
	if (IS_ERR(*ka))
		return PTR_ERR(*ka);
	*kb = getname(b);
	if (IS_ERR(*kb)) {
		putname(*ka);
		return PTR_ERR(*kb);
	}
	return 0;
}

SYSCALL_DEFINE3(symlinkat, const char __user *, oldname, int, newdfd,
		const char __user *, newname)
{
	char *from, *to;
	long err = two_names(oldname, newname, &from, &to);

	if (err)
		return err;
	err = do_symlinkat(from, newdfd, to);
	putname(to);
	putname(from);
	return err;
}

SYSCALL_DEFINE2(symlink, const char __user *, oldname, const char __user *,
		newname)
{
	char *from, *to;
	long err = two_names(oldname, newname, &from, &to);

	if (err)
		return err;
	err = do_symlinkat(from, AT_FDCWD, to);
	putname(to);
	putname(from);
	return err;
}

SYSCALL_DEFINE5(linkat, int, olddfd, const char __user *, oldname, int,
		newdfd, const char __user *, newname, int, flags)
{
	char *from, *to;
	long err;

	from = getname_flags(oldname, flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
	if (IS_ERR(from))
		return PTR_ERR(from);
	to = getname(newname);
	if (IS_ERR(to)) {
		putname(from);
		return PTR_ERR(to);
	}
	err = do_linkat(olddfd, from, newdfd, to, flags);
	putname(to);
	putname(from);
	return err;
}

SYSCALL_DEFINE2(link, const char __user *, oldname, const char __user *,
		newname)
{
	char *from, *to;
	long err = two_names(oldname, newname, &from, &to);

	if (err)
		return err;
	err = do_linkat(AT_FDCWD, from, AT_FDCWD, to, 0);
	putname(to);
	putname(from);
	return err;
}

SYSCALL_DEFINE5(renameat2, int, olddfd, const char __user *, oldname, int,
		newdfd, const char __user *, newname, unsigned int, flags)
{
	char *from, *to;
	long err = two_names(oldname, newname, &from, &to);

	if (err)
		return err;
	err = do_renameat2(olddfd, from, newdfd, to, flags);
	putname(to);
	putname(from);
	return err;
}

SYSCALL_DEFINE4(renameat, int, olddfd, const char __user *, oldname, int,
		newdfd, const char __user *, newname)
{
	char *from, *to;
	long err = two_names(oldname, newname, &from, &to);

	if (err)
		return err;
	err = do_renameat2(olddfd, from, newdfd, to, 0);
	putname(to);
	putname(from);
	return err;
}

SYSCALL_DEFINE2(rename, const char __user *, oldname, const char __user *,
		newname)
{
	char *from, *to;
	long err = two_names(oldname, newname, &from, &to);

	if (err)
		return err;
	err = do_renameat2(AT_FDCWD, from, AT_FDCWD, to, 0);
	putname(to);
	putname(from);
	return err;
}
