/*
 * fs/namei.c: from path names to dentries.
 *
 * Roadmap:
 *   getname/putname      copy a user path in (PATH_MAX, ENAMETOOLONG)
 *   permission           generic_permission: owner/group/other bits for
 *                        the caller's fsuid/fsgid; fsuid 0 overrides all
 *                        but exec of a file with no x bit at all
 *   the walk             path_init picks the start (root, cwd, dirfd);
 *                        link_path_walk takes components one by one:
 *                        MAY_EXEC on the directory, "." and ".." (across
 *                        mount roots: follow_dotdot), the child from the
 *                        dcache or ->lookup (do_lookup), mounts on it
 *                        (follow_mount), symlinks (follow_link, which
 *                        walks the link body recursively, ELOOP past
 *                        MAX_NESTED_LINKS deep or MAX_TOTAL_LINKS in all)
 *   lookup helpers       lookup_hash, lookup_one_len, lookup_create for the
 *                        directory operations in fs/namei_ops.c
 *
 * References: nd->path always holds a reference (dentry and mount); each
 * step takes the new one before dropping the old. The walk takes no lock
 * but the directory's i_mutex around ->lookup, so a name being created
 * or removed is looked up either before or after, never half-way.
 */
#include <fs/namei.h>
#include <fs/file.h>
#include <fs/fs_struct.h>
#include <fs/mount.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

/* ---- user path names -------------------------------------------------- */

char *getname_flags(const char __user *filename, unsigned int flags)
{
	char *name = kmalloc(PATH_MAX, GFP_KERNEL);
	long len;

	if (!name)
		return ERR_PTR(-ENOMEM);
	len = strncpy_from_user(name, filename, PATH_MAX);
	if (len < 0 || len == PATH_MAX || (!len && !(flags & LOOKUP_EMPTY))) {
		kfree(name);
		if (len < 0)
			return ERR_PTR(len);
		return ERR_PTR(len ? -ENAMETOOLONG : -ENOENT);
	}
	return name;
}

char *getname(const char __user *filename)
{
	return getname_flags(filename, 0);
}

void putname(char *name)
{
	kfree(name);
}

void path_get(const struct path *path)
{
	mntget(path->mnt);
	dget(path->dentry);
}

void path_put(const struct path *path)
{
	dput(path->dentry);
	mntput(path->mnt);
}

/* ---- permission ------------------------------------------------------- */

bool capable_fsowner(void)
{
	return current->cred.fsuid == 0;
}

/* No supplementary groups yet: the fsgid is the only group. */
bool in_group_p(gid_t gid)
{
	return current->cred.fsgid == gid;
}

int generic_permission(struct inode *inode, int mask)
{
	unsigned int mode = inode->i_mode;

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (current->cred.fsuid == inode->i_uid)
		mode >>= 6;
	else if (in_group_p(inode->i_gid))
		mode >>= 3;
	/* MAY_READ/WRITE/EXEC are the r, w, x bits: compare directly. */
	if (!(mask & ~mode & 7))
		return 0;
	/* Root may do anything, except run a file nobody may execute. */
	if (capable_fsowner() &&
	    (!(mask & MAY_EXEC) || (inode->i_mode & S_IXUGO) ||
	     S_ISDIR(inode->i_mode)))
		return 0;
	return -EACCES;
}

int inode_permission(struct inode *inode, int mask)
{
	umode_t mode = inode->i_mode;

	if ((mask & MAY_WRITE) && sb_rdonly(inode->i_sb) &&
	    (S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)))
		return -EROFS;
	if ((mask & MAY_WRITE) && IS_IMMUTABLE(inode))
		return -EPERM;
	if (inode->i_op && inode->i_op->permission)
		return inode->i_op->permission(inode, mask);
	return generic_permission(inode, mask);
}

/* ---- walking ------------------------------------------------------------ */

bool follow_mount(struct path *path)
{
	bool crossed = false;

	while (d_mountpoint(path->dentry)) {
		struct vfsmount *mounted = lookup_mnt(path->mnt, path->dentry);

		if (!mounted)
			break;
		dput(path->dentry);
		mntput(path->mnt);
		path->mnt = mounted;
		path->dentry = dget(mounted->mnt_root);
		crossed = true;
	}
	return crossed;
}

/*
 * "..": stay put at the process root; at the root of a mount, first step
 * out to the mount point in the parent mount (repeatedly: mounts stack),
 * then go to the parent; finally step into anything mounted there.
 */
static void follow_dotdot(struct nameidata *nd)
{
	for (;;) {
		struct vfsmount *mnt = nd->path.mnt;
		struct path up;

		if (nd->path.dentry == nd->root.dentry && mnt == nd->root.mnt)
			break;
		if (nd->path.dentry != mnt->mnt_root) {
			struct dentry *parent = dget_parent(nd->path.dentry);

			dput(nd->path.dentry);
			nd->path.dentry = parent;
			break;
		}
		if (mnt->mnt_parent == mnt)
			break;	/* the top of the tree */
		up.mnt = mntget(mnt->mnt_parent);
		up.dentry = dget(mnt->mnt_mountpoint);
		path_put(&nd->path);
		nd->path = up;
	}
	follow_mount(&nd->path);
}

/* The child name of base from the dcache or the file system. i_mutex of
 * base held. Returns a referenced dentry (maybe negative) or ERR_PTR. */
static struct dentry *__lookup_hash(const struct qstr *name,
				    struct dentry *base)
{
	struct inode *dir = base->d_inode;
	struct dentry *dentry, *old;

	dentry = d_lookup(base, name);
	if (dentry)
		return dentry;
	if (!dir->i_op || !dir->i_op->lookup)
		return ERR_PTR(-ENOTDIR);
	dentry = d_alloc(base, name);
	if (!dentry)
		return ERR_PTR(-ENOMEM);
	old = dir->i_op->lookup(dir, dentry, 0);
	if (old) {	/* the file system had another dentry, or an error */
		dput(dentry);
		dentry = old;
	}
	return dentry;
}

/* The child of nd->path named name, mounts crossed, into *path. */
static int do_lookup(struct nameidata *nd, const struct qstr *name,
		     struct path *path)
{
	struct dentry *parent = nd->path.dentry;
	struct dentry *dentry = d_lookup(parent, name);

	if (!dentry) {
		mutex_lock(&parent->d_inode->i_mutex);
		dentry = __lookup_hash(name, parent);
		mutex_unlock(&parent->d_inode->i_mutex);
		if (IS_ERR(dentry))
			return PTR_ERR(dentry);
	}
	path->mnt = mntget(nd->path.mnt);
	path->dentry = dentry;
	follow_mount(path);
	return 0;
}

static int link_path_walk(const char *name, struct nameidata *nd);

static void get_walk_root(struct path *root)
{
	if (!root_mnt)	/* a lookup before start_kernel called vfs_init */
		vfs_init();
	if (current->fs) {
		get_fs_root(current->fs, root);
	} else {
		root->mnt = mntget(root_mnt);
		root->dentry = dget(root_mnt->mnt_root);
	}
}

/*
 * link is a symlink found in the directory nd->path; walk its target
 * from there (or from the root, for an absolute target). Consumes link.
 */
static int follow_link(struct path *link, struct nameidata *nd)
{
	struct inode *inode = link->dentry->d_inode;
	unsigned int saved_flags = nd->flags;
	const char *body;
	int err;

	if (nd->depth >= MAX_NESTED_LINKS ||
	    nd->total_links >= MAX_TOTAL_LINKS) {
		path_put(link);
		return -ELOOP;
	}
	body = inode->i_op && inode->i_op->get_link
		       ? inode->i_op->get_link(link->dentry, inode)
		       : ERR_PTR(-EINVAL);
	if (IS_ERR(body)) {
		path_put(link);
		return PTR_ERR(body);
	}
	if (!*body) {
		path_put(link);
		return -ENOENT;
	}
	if (*body == '/') {
		path_put(&nd->path);
		nd->path = nd->root;
		path_get(&nd->path);
	}
	nd->depth++;
	nd->total_links++;
	/* The target is resolved completely, whatever the caller asked for
	 * the last component of its own path. */
	nd->flags = LOOKUP_FOLLOW;
	err = link_path_walk(body, nd);
	nd->flags = saved_flags;
	nd->depth--;
	path_put(link);	/* the body stays valid until here */
	return err;
}

/* One component: ".", "..", or a name (following it if a symlink). */
static int walk_component(struct nameidata *nd, const struct qstr *name,
			  int type, bool follow)
{
	struct path path;
	int err;

	if (type == LAST_DOT)
		return 0;
	if (type == LAST_DOTDOT) {
		follow_dotdot(nd);
		return 0;
	}
	err = do_lookup(nd, name, &path);
	if (err)
		return err;
	if (!path.dentry->d_inode) {
		path_put(&path);
		return -ENOENT;
	}
	if (follow && S_ISLNK(path.dentry->d_inode->i_mode))
		return follow_link(&path, nd);
	path_put(&nd->path);
	nd->path = path;
	return 0;
}

static int component_type(const struct qstr *name)
{
	if (name->name[0] == '.' && name->len == 1)
		return LAST_DOT;
	if (name->name[0] == '.' && name->name[1] == '.' && name->len == 2)
		return LAST_DOTDOT;
	return LAST_NORM;
}

static int walk_last(struct nameidata *nd, const struct qstr *name)
{
	int type = component_type(name);
	int err;

	if (nd->flags & LOOKUP_PARENT) {
		nd->last = *name;
		nd->last_type = type;
		return 0;
	}
	err = walk_component(nd, name, type, nd->flags & LOOKUP_FOLLOW);
	if (err)
		return err;
	if ((nd->flags & LOOKUP_DIRECTORY) &&
	    !S_ISDIR(nd->path.dentry->d_inode->i_mode))
		return -ENOTDIR;
	return 0;
}

static int link_path_walk(const char *name, struct nameidata *nd)
{
	while (*name == '/')
		name++;
	while (*name) {
		const char *p = name;
		struct qstr this;
		bool trailing;
		int err;

		/* Search permission on the directory we are in. */
		err = inode_permission(nd->path.dentry->d_inode, MAY_EXEC);
		if (err)
			return err;
		while (*p && *p != '/')
			p++;
		this.name = name;
		this.len = p - name;
		this.hash = 0;
		if (this.len > NAME_MAX)
			return -ENAMETOOLONG;
		trailing = *p == '/';
		while (*p == '/')
			p++;
		if (!*p) {
			/* "name/" must be a directory, and a symlink there is
			 * followed even by lstat, as POSIX says. */
			if (trailing)
				nd->flags |= LOOKUP_DIRECTORY | LOOKUP_FOLLOW;
			return walk_last(nd, &this);
		}
		err = walk_component(nd, &this, component_type(&this), true);
		if (err)
			return err;
		if (!S_ISDIR(nd->path.dentry->d_inode->i_mode))
			return -ENOTDIR;
		name = p;
	}
	return 0;
}

static int path_init(int dfd, const char *name, struct nameidata *nd)
{
	struct file *file;

	get_walk_root(&nd->root);
	if (*name == '/') {
		nd->path = nd->root;
		path_get(&nd->path);
		return 0;
	}
	if (dfd == AT_FDCWD) {
		if (current->fs) {
			get_fs_pwd(current->fs, &nd->path);
		} else {
			nd->path = nd->root;
			path_get(&nd->path);
		}
		return 0;
	}
	file = fget(dfd);
	if (!file)
		return -EBADF;
	if (!S_ISDIR(file->f_inode->i_mode)) {
		fput(file);
		return -ENOTDIR;
	}
	nd->path = file->f_path;
	path_get(&nd->path);
	fput(file);
	return 0;
}

int path_lookupat(int dfd, const char *name, unsigned int flags,
		  struct nameidata *nd)
{
	int err;

	nd->path.mnt = NULL;
	nd->path.dentry = NULL;
	nd->last_type = LAST_ROOT;
	nd->last.name = NULL;
	nd->last.len = 0;
	nd->flags = flags;
	nd->depth = 0;
	nd->total_links = 0;
	if (!*name && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	if (strnlen(name, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	err = path_init(dfd, name, nd);
	if (!err)
		err = link_path_walk(name, nd);
	if (err) {
		path_put(&nd->path);
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
	path_put(&nd->root);
	return err;
}

int kern_path_at(int dfd, const char *name, unsigned int flags,
		 struct path *path)
{
	struct nameidata nd;
	int err = path_lookupat(dfd, name, flags, &nd);

	if (!err)
		*path = nd.path;
	return err;
}

int kern_path(const char *name, unsigned int flags, struct path *path)
{
	return kern_path_at(AT_FDCWD, name, flags, path);
}

int user_path_at(int dfd, const char __user *name, unsigned int flags,
		 struct path *path)
{
	char *kname = getname_flags(name, flags);
	int err;

	if (IS_ERR(kname))
		return PTR_ERR(kname);
	err = kern_path_at(dfd, kname, flags, path);
	putname(kname);
	return err;
}

/* ---- lookups for the directory operations -------------------------------- */

struct dentry *lookup_hash(struct nameidata *nd)
{
	int err = inode_permission(nd->path.dentry->d_inode, MAY_EXEC);

	if (err)
		return ERR_PTR(err);
	return __lookup_hash(&nd->last, nd->path.dentry);
}

struct dentry *lookup_one_len(const char *name, struct dentry *base, int len)
{
	struct qstr this = { .name = name, .len = len };
	int err;

	if (!len || len > NAME_MAX || memchr(name, '/', len))
		return ERR_PTR(len > NAME_MAX ? -ENAMETOOLONG : -EACCES);
	err = inode_permission(base->d_inode, MAY_EXEC);
	if (err)
		return ERR_PTR(err);
	return __lookup_hash(&this, base);
}

struct dentry *lookup_create(struct nameidata *nd, bool is_dir)
{
	struct inode *dir = nd->path.dentry->d_inode;
	struct dentry *dentry;

	mutex_lock(&dir->i_mutex);
	if (nd->last_type != LAST_NORM) {	/* "/", "." or ".." exist */
		dentry = ERR_PTR(-EEXIST);
		goto fail;
	}
	dentry = lookup_hash(nd);
	if (IS_ERR(dentry))
		goto fail;
	/* "name/" can only be made as a directory. */
	if (nd->last.name[nd->last.len] && !is_dir && !dentry->d_inode) {
		dput(dentry);
		dentry = ERR_PTR(-ENOENT);
		goto fail;
	}
	return dentry;
fail:
	mutex_unlock(&dir->i_mutex);
	return dentry;
}
