/*
 * fs/open.c: opening files, and the calls that change an inode's
 * attributes by name or fd (truncate, chmod, chown, access).
 *
 * Opening, in three steps:
 *   do_filp_open   finds (or with O_CREAT creates) the dentry: a plain
 *                  walk, or a parent walk + lookup_hash + vfs_create
 *   may_open       the checks that need the inode: ELOOP for O_NOFOLLOW
 *                  on a symlink, EISDIR for writing a directory,
 *                  ENOTDIR for O_DIRECTORY, then inode_permission
 *   dentry_open    builds the struct file, takes write access
 *                  (i_writecount: ETXTBSY against exec) and calls
 *                  ->open; O_TRUNC then truncates through
 *                  handle_truncate (write access again: O_RDONLY|O_TRUNC
 *                  truncates too) and do_truncate
 * do_sys_open reserves the fd first and installs the file last, so a
 * failed open leaves no trace in the table.
 * At the end, as in Linux's fs/open.c: fallocate's checks, and vhangup.
 */
#include <fs/file.h>
#include <fs/fs_struct.h>
#include <fs/mount.h>
#include <fs/namei.h>
#include <kernel/errno.h>
#include <kernel/explore.h>
#include <kernel/sched.h>
#include <mm/slab.h>
#include <mm/writeback.h>

/* ---- write access bookkeeping ---------------------------------------- */

static DEFINE_SPINLOCK(writecount_lock);

int get_write_access(struct inode *inode)
{
	int err = 0;

	spin_lock(&writecount_lock);
	if (inode->i_writecount < 0)
		err = -ETXTBSY;
	else
		inode->i_writecount++;
	spin_unlock(&writecount_lock);
	return err;
}

void put_write_access(struct inode *inode)
{
	spin_lock(&writecount_lock);
	inode->i_writecount--;
	spin_unlock(&writecount_lock);
}

int deny_write_access(struct file *file)
{
	struct inode *inode = file->f_inode;
	int err = 0;

	spin_lock(&writecount_lock);
	if (inode->i_writecount > 0)
		err = -ETXTBSY;
	else
		inode->i_writecount--;
	spin_unlock(&writecount_lock);
	return err;
}

void allow_write_access(struct file *file)
{
	spin_lock(&writecount_lock);
	file->f_inode->i_writecount++;
	spin_unlock(&writecount_lock);
}

/* ---- opening ------------------------------------------------------------ */

/* open(2)'s access mode as f_mode: 0 -> READ, 1 -> WRITE, 2 -> both. */
#define OPEN_FMODE(flags) ((fmode_t)(((flags) + 1) & O_ACCMODE))

static int open_acc_mode(int flags)
{
	static const int acc[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE,
				    MAY_READ | MAY_WRITE };
	int mode = acc[flags & O_ACCMODE];

	if (flags & O_TRUNC)
		mode |= MAY_WRITE;
	if ((flags & O_APPEND) && (mode & MAY_WRITE))
		mode |= MAY_APPEND;
	return mode;
}

static const struct file_operations empty_fops;

struct file *dentry_open(const struct path *path, int flags)
{
	struct inode *inode = path->dentry->d_inode;
	fmode_t mode = OPEN_FMODE(flags) | FMODE_LSEEK | FMODE_PREAD |
		       FMODE_PWRITE;
	struct file *file;
	int err;

	if (flags & O_PATH)
		mode = FMODE_PATH;
	if (mode & FMODE_WRITE) {
		err = get_write_access(inode);
		if (err)
			return ERR_PTR(err);
	}
	file = alloc_file(path, mode,
			  (flags & O_PATH) ? &empty_fops : inode->i_fop);
	if (!file) {
		if (mode & FMODE_WRITE)
			put_write_access(inode);
		return ERR_PTR(-ENOMEM);
	}
	/* Linux reports O_LARGEFILE on every 64-bit open (F_GETFL). */
	file->f_flags = (flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC |
				   O_CLOEXEC)) |
			O_LARGEFILE;
	if (file->f_op && file->f_op->open) {
		err = file->f_op->open(inode, file);
		if (err) {
			file->f_op = NULL;	/* no ->release for a failed open */
			fput(file);
			return ERR_PTR(err);
		}
	}
	return file;
}

static int may_open(const struct path *path, int acc_mode, int flags)
{
	struct inode *inode = path->dentry->d_inode;
	umode_t mode = inode->i_mode;

	if (flags & O_PATH)
		return 0;
	if (S_ISLNK(mode))
		return -ELOOP;	/* only reached with O_NOFOLLOW */
	if (S_ISDIR(mode) && (acc_mode & MAY_WRITE))
		return -EISDIR;
	if ((flags & O_DIRECTORY) && !S_ISDIR(mode))
		return -ENOTDIR;
	if ((S_ISCHR(mode) || S_ISBLK(mode)) &&
	    (path->mnt->mnt_flags & MNT_NODEV))
		return -EACCES;
	/* An append-only file is written only at its end: opened for
	 * writing only with O_APPEND, and never truncated. */
	if (IS_APPEND(inode) &&
	    (((acc_mode & MAY_WRITE) && !(flags & O_APPEND)) ||
	     (flags & O_TRUNC)))
		return -EPERM;
	return inode_permission(inode, acc_mode);
}

/*
 * O_CREAT: the parent walk, then the last name under the parent's lock,
 * created if missing. A symlink found there is followed with a new walk;
 * pagelab then needs its target to exist (Linux would create it).
 */
static int open_create(int dfd, const char *pathname, int flags,
		       umode_t mode, struct path *out)
{
	struct nameidata nd;
	struct dentry *dentry;
	struct inode *dir;
	int err = path_lookupat(dfd, pathname, LOOKUP_PARENT, &nd);

	if (err)
		return err;
	err = -EISDIR;	/* "/", ".", ".." or "name/" with O_CREAT */
	if (nd.last_type != LAST_NORM || nd.last.name[nd.last.len])
		goto out;
	dir = nd.path.dentry->d_inode;
	mutex_lock(&dir->i_mutex);
	dentry = lookup_hash(&nd);
	if (IS_ERR(dentry)) {
		mutex_unlock(&dir->i_mutex);
		err = PTR_ERR(dentry);
		goto out;
	}
	if (!dentry->d_inode) {
		err = vfs_create(dir, dentry, mode & ~current_umask(),
				 flags & O_EXCL);
		mutex_unlock(&dir->i_mutex);
		out->mnt = mntget(nd.path.mnt);
		out->dentry = dentry;
		if (err)
			path_put(out);
		goto out;
	}
	mutex_unlock(&dir->i_mutex);
	out->mnt = mntget(nd.path.mnt);
	out->dentry = dentry;
	if (S_ISLNK(dentry->d_inode->i_mode) && !(flags & O_EXCL)) {
		path_put(out);
		if (flags & O_NOFOLLOW)
			err = -ELOOP;
		else
			err = kern_path_at(dfd, pathname, LOOKUP_FOLLOW, out);
		goto out;
	}
	err = 0;
	if (flags & O_EXCL)
		err = -EEXIST;
	else if (S_ISDIR(dentry->d_inode->i_mode))
		err = -EISDIR;	/* O_CREAT never opens a directory */
	if (err)
		path_put(out);
	else
		follow_mount(out);
out:
	path_put(&nd.path);
	return err;
}

/*
 * O_TRUNC, once the file is open. Write access is taken here whatever the
 * access mode: O_RDONLY|O_TRUNC truncates too (Linux does; may_open asked
 * for MAY_WRITE), and must get ETXTBSY on a file being executed just as
 * an open for writing does. (Linux: handle_truncate.)
 */
static int handle_truncate(struct file *file)
{
	struct inode *inode = file->f_inode;
	int err = get_write_access(inode);

	if (err)
		return err;
	err = do_truncate(file->f_dentry, 0,
			  ATTR_MTIME | ATTR_CTIME | ATTR_OPEN, file);
	put_write_access(inode);
	return err;
}

struct file *do_filp_open(int dfd, const char *pathname, int flags,
			  umode_t mode)
{
	int acc_mode = open_acc_mode(flags);
	struct file *file;
	struct path path;
	int err;

	if ((flags & O_TMPFILE) == O_TMPFILE)
		return ERR_PTR(-EINVAL);	/* not supported */
	if (flags & O_PATH)
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	if (flags & O_CREAT)
		err = open_create(dfd, pathname, flags, mode, &path);
	else
		err = kern_path_at(dfd, pathname,
				   (flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
					   (flags & O_DIRECTORY
						    ? LOOKUP_DIRECTORY
						    : 0),
				   &path);
	if (err)
		return ERR_PTR(err);
	if (S_ISFIFO(path.dentry->d_inode->i_mode) ||
	    S_ISSOCK(path.dentry->d_inode->i_mode))
		flags &= ~O_TRUNC;
	err = may_open(&path, acc_mode, flags);
	file = err ? ERR_PTR(err) : dentry_open(&path, flags);
	if (!IS_ERR(file) && (flags & O_TRUNC) &&
	    S_ISREG(file->f_inode->i_mode)) {
		err = handle_truncate(file);
		if (err) {
			fput(file);
			file = ERR_PTR(err);
		}
	}
	path_put(&path);
	return file;
}

struct file *filp_open(const char *pathname, int flags, umode_t mode)
{
	return do_filp_open(AT_FDCWD, pathname, flags, mode);
}

int filp_close(struct file *file)
{
	fput(file);
	return 0;
}

long do_sys_open(int dfd, const char *pathname, int flags, umode_t mode)
{
	int fd = get_unused_fd_flags(flags);
	struct file *file;

	if (fd < 0)
		return fd;
	file = do_filp_open(dfd, pathname, flags, mode);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		return PTR_ERR(file);
	}
	fd_install(fd, file);
	return fd;
}

int ksys_open(const char *pathname, int flags, umode_t mode)
{
	return do_sys_open(AT_FDCWD, pathname, flags, mode);
}

struct file *open_exec(const char *pathname)
{
	struct file *file;
	struct path path;
	int err = kern_path(pathname, LOOKUP_FOLLOW, &path);

	if (err)
		return ERR_PTR(err);
	err = -EACCES;
	if (!S_ISREG(path.dentry->d_inode->i_mode) ||
	    (path.mnt->mnt_flags & MNT_NOEXEC))
		goto out;
	err = inode_permission(path.dentry->d_inode, MAY_EXEC);
	if (err)
		goto out;
	file = dentry_open(&path, O_RDONLY);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out;
	}
	file->f_mode |= FMODE_EXEC;
	path_put(&path);
	return file;
out:
	path_put(&path);
	return ERR_PTR(err);
}

SYSCALL_DEFINE3(open, const char __user *, filename, int, flags, umode_t,
		mode)
{
	char *name = getname(filename);
	long fd;

	if (IS_ERR(name))
		return PTR_ERR(name);
	fd = do_sys_open(AT_FDCWD, name, flags, mode);
	putname(name);
	return fd;
}

SYSCALL_DEFINE4(openat, int, dfd, const char __user *, filename, int, flags,
		umode_t, mode)
{
	char *name = getname(filename);
	long fd;

	if (IS_ERR(name))
		return PTR_ERR(name);
	fd = do_sys_open(dfd, name, flags, mode);
	putname(name);
	return fd;
}

SYSCALL_DEFINE2(creat, const char __user *, pathname, umode_t, mode)
{
	char *name = getname(pathname);
	long fd;

	if (IS_ERR(name))
		return PTR_ERR(name);
	fd = do_sys_open(AT_FDCWD, name, O_CREAT | O_WRONLY | O_TRUNC, mode);
	putname(name);
	return fd;
}

/* ---- truncate --------------------------------------------------------- */

/*
 * The one truncate below every caller (truncate, ftruncate, O_TRUNC):
 * i_mutex, then notify_change with ATTR_SIZE and the caller's time
 * attributes. Like Linux's, it also drops set-id bits (should_remove_suid),
 * with ATTR_FORCE: the caller may write the file without owning it.
 */
int do_truncate(struct dentry *dentry, loff_t length, unsigned int time_attrs,
		struct file *filp)
{
	struct inode *inode = dentry->d_inode;
	struct iattr newattrs = {
		.ia_valid = ATTR_SIZE | time_attrs,
		.ia_size = length,
	};
	unsigned int kill;
	int err;

	if (length < 0)
		return -EINVAL;
	if (filp) {
		newattrs.ia_file = filp;
		newattrs.ia_valid |= ATTR_FILE;
	}
	explore_enter();	/* the explorer's points: <kernel/explore.h> */
	mutex_lock(&inode->i_mutex);
	kill = should_remove_suid(inode);
	if (kill)
		newattrs.ia_valid |= kill | ATTR_FORCE;
	/* Until notify_change returns, the page cache may disagree with
	 * i_size: writeback and faults wait rather than judge. */
	mapping_resize_begin(inode->i_mapping);
	err = notify_change(dentry, &newattrs);
	mapping_resize_end(inode->i_mapping);
	mutex_unlock(&inode->i_mutex);
	explore_exit();
	return err;
}

long do_sys_truncate(const char *pathname, loff_t length)
{
	struct inode *inode;
	struct path path;
	long err;

	if (length < 0)
		return -EINVAL;
	err = kern_path(pathname, LOOKUP_FOLLOW, &path);
	if (err)
		return err;
	inode = path.dentry->d_inode;
	err = -EISDIR;	/* directories: EISDIR; other non-files: EINVAL */
	if (S_ISDIR(inode->i_mode))
		goto out;
	err = -EINVAL;
	if (!S_ISREG(inode->i_mode))
		goto out;
	err = inode_permission(inode, MAY_WRITE);	/* EPERM: immutable */
	if (err)
		goto out;
	err = -EPERM;
	if (IS_APPEND(inode))
		goto out;
	err = get_write_access(inode);	/* ETXTBSY: being executed */
	if (err)
		goto out;
	err = do_truncate(path.dentry, length, 0, NULL);
	put_write_access(inode);
out:
	path_put(&path);
	return err;
}

long do_sys_ftruncate(unsigned int fd, loff_t length)
{
	struct file *file;
	long err;

	if (length < 0)
		return -EINVAL;
	file = fget(fd);
	if (!file)
		return -EBADF;
	err = -EBADF;	/* Linux's fdget() does not see O_PATH files */
	if (file->f_mode & FMODE_PATH)
		goto out;
	/* Not a regular file, or not open for writing: EINVAL (not EBADF). */
	err = -EINVAL;
	if (!S_ISREG(file->f_inode->i_mode) || !(file->f_mode & FMODE_WRITE))
		goto out;
	err = -EPERM;	/* opened with O_APPEND, it still cannot be cut */
	if (IS_APPEND(file->f_inode))
		goto out;
	err = do_truncate(file->f_dentry, length, ATTR_MTIME | ATTR_CTIME,
			  file);
out:
	fput(file);
	return err;
}

SYSCALL_DEFINE2(truncate, const char __user *, path, long, length)
{
	char *name;
	long err;

	if (length < 0)	/* before the path: truncate(bad, -1) is EINVAL */
		return -EINVAL;
	name = getname(path);
	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_sys_truncate(name, length);
	putname(name);
	return err;
}

SYSCALL_DEFINE2(ftruncate, unsigned int, fd, long, length)
{
	return do_sys_ftruncate(fd, length);
}

/* ---- access ----------------------------------------------------------- */

long do_faccessat(int dfd, const char *pathname, int mode, int flags)
{
	struct cred saved = current->cred;
	struct path path;
	long err;

	if (mode & ~7)
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	/* access(2) asks about the real ids, not the effective ones. */
	if (!(flags & AT_EACCESS)) {
		current->cred.fsuid = saved.uid;
		current->cred.fsgid = saved.gid;
	}
	err = kern_path_at(dfd, pathname,
			   at_lookup_flags(flags),
			   &path);
	if (!err) {
		if (mode)
			err = inode_permission(path.dentry->d_inode, mode);
		path_put(&path);
	}
	current->cred.fsuid = saved.fsuid;
	current->cred.fsgid = saved.fsgid;
	return err;
}

SYSCALL_DEFINE3(faccessat, int, dfd, const char __user *, filename, int,
		mode)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_faccessat(dfd, name, mode, 0);
	putname(name);
	return err;
}

SYSCALL_DEFINE2(access, const char __user *, filename, int, mode)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_faccessat(AT_FDCWD, name, mode, 0);
	putname(name);
	return err;
}

/* ---- chmod, chown -------------------------------------------------------- */

int chmod_common(const struct path *path, umode_t mode)
{
	struct inode *inode = path->dentry->d_inode;
	struct iattr newattrs;
	int err;

	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	mutex_lock(&inode->i_mutex);
	newattrs.ia_mode = (mode & S_IALLUGO) | (inode->i_mode & ~S_IALLUGO);
	newattrs.ia_valid = ATTR_MODE | ATTR_CTIME;
	err = notify_change(path->dentry, &newattrs);
	mutex_unlock(&inode->i_mutex);
	return err;
}

int chown_common(const struct path *path, uid_t user, gid_t group)
{
	struct inode *inode = path->dentry->d_inode;
	struct iattr newattrs = { .ia_valid = ATTR_CTIME };
	int err;

	if (sb_rdonly(inode->i_sb))
		return -EROFS;
	if (user != (uid_t)-1) {
		newattrs.ia_valid |= ATTR_UID;
		newattrs.ia_uid = user;
	}
	if (group != (gid_t)-1) {
		newattrs.ia_valid |= ATTR_GID;
		newattrs.ia_gid = group;
	}
	/* A file that changes hands loses set-user-ID, and set-group-ID when
	 * setattr_should_drop_sgid says so (Linux's rule since 6.2). */
	if (!S_ISDIR(inode->i_mode))
		newattrs.ia_valid |= ATTR_KILL_SUID |
				     setattr_should_drop_sgid(inode);
	mutex_lock(&inode->i_mutex);
	err = notify_change(path->dentry, &newattrs);
	mutex_unlock(&inode->i_mutex);
	return err;
}

long do_fchmodat(int dfd, const char *pathname, umode_t mode)
{
	struct path path;
	long err = kern_path_at(dfd, pathname, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = chmod_common(&path, mode);
	path_put(&path);
	return err;
}

long do_fchownat(int dfd, const char *pathname, uid_t user, gid_t group,
		 int flag)
{
	struct path path;
	long err;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = kern_path_at(dfd, pathname,
			   at_lookup_flags(flag),
			   &path);
	if (err)
		return err;
	err = chown_common(&path, user, group);
	path_put(&path);
	return err;
}

SYSCALL_DEFINE3(fchmodat, int, dfd, const char __user *, filename, umode_t,
		mode)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_fchmodat(dfd, name, mode);
	putname(name);
	return err;
}

SYSCALL_DEFINE2(chmod, const char __user *, filename, umode_t, mode)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_fchmodat(AT_FDCWD, name, mode);
	putname(name);
	return err;
}

SYSCALL_DEFINE2(fchmod, unsigned int, fd, umode_t, mode)
{
	struct file *file = fget(fd);
	long err = -EBADF;

	if (!file)
		return err;
	if (!(file->f_mode & FMODE_PATH))
		err = chmod_common(&file->f_path, mode);
	fput(file);
	return err;
}

SYSCALL_DEFINE5(fchownat, int, dfd, const char __user *, filename, uid_t,
		user, gid_t, group, int, flag)
{
	char *name = getname_flags(filename,
				   flag & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_fchownat(dfd, name, user, group, flag);
	putname(name);
	return err;
}

SYSCALL_DEFINE3(chown, const char __user *, filename, uid_t, user, gid_t,
		group)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_fchownat(AT_FDCWD, name, user, group, 0);
	putname(name);
	return err;
}

SYSCALL_DEFINE3(lchown, const char __user *, filename, uid_t, user, gid_t,
		group)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = do_fchownat(AT_FDCWD, name, user, group, AT_SYMLINK_NOFOLLOW);
	putname(name);
	return err;
}

SYSCALL_DEFINE3(fchown, unsigned int, fd, uid_t, user, gid_t, group)
{
	struct file *file = fget(fd);
	long err = -EBADF;

	if (!file)
		return err;
	if (!(file->f_mode & FMODE_PATH))
		err = chown_common(&file->f_path, user, group);
	fput(file);
	return err;
}

/* ---- fallocate ---------------------------------------------------------- */

#define FALLOC_FL_KEEP_SIZE 0x01
#define FALLOC_FL_PUNCH_HOLE 0x02
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE 0x10
#define FALLOC_FL_INSERT_RANGE 0x20
#define FALLOC_FL_UNSHARE_RANGE 0x40
#define FALLOC_FL_SUPPORTED_MASK                                       \
	(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE |                   \
	 FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_ZERO_RANGE |              \
	 FALLOC_FL_INSERT_RANGE | FALLOC_FL_UNSHARE_RANGE)

/*
 * Linux's vfs_fallocate checks, in its order: the arguments, the mode's
 * combinations, the file's open mode and flags, its type, the size; then
 * the file system's ->fallocate does the work. None of pagelab's file
 * systems has one yet (ext2 has none on Linux either), so every request
 * that gets that far is EOPNOTSUPP, as on Linux's ext2.
 */
static long vfs_fallocate(struct file *file, int mode, loff_t offset,
			  loff_t len)
{
	struct inode *inode = file->f_inode;

	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~FALLOC_FL_SUPPORTED_MASK)
		return -EOPNOTSUPP;
	/* A hole punched and zeroed at once, or a hole punched that would
	 * change the size, are not things a file system can do. */
	if ((mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) ==
	    (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	/* Collapse and insert shift the file's tail: nothing else goes
	 * with them; unshare goes only with keep-size. */
	if ((mode & FALLOC_FL_COLLAPSE_RANGE) &&
	    (mode & ~FALLOC_FL_COLLAPSE_RANGE))
		return -EINVAL;
	if ((mode & FALLOC_FL_INSERT_RANGE) &&
	    (mode & ~FALLOC_FL_INSERT_RANGE))
		return -EINVAL;
	if ((mode & FALLOC_FL_UNSHARE_RANGE) &&
	    (mode & ~(FALLOC_FL_UNSHARE_RANGE | FALLOC_FL_KEEP_SIZE)))
		return -EINVAL;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	/* An append-only file may only get blocks, never lose or move
	 * bytes. */
	if ((mode & ~FALLOC_FL_KEEP_SIZE) && IS_APPEND(inode))
		return -EPERM;
	if (IS_IMMUTABLE(inode))
		return -EPERM;
	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode) && !S_ISBLK(inode->i_mode))
		return -ENODEV;
	/* Summed unsigned: both are positive, so it cannot wrap, and a sum
	 * past LLONG_MAX is too big as well. */
	if ((u64)offset + (u64)len > (u64)inode->i_sb->s_maxbytes)
		return -EFBIG;
	if (!file->f_op || !file->f_op->fallocate)
		return -EOPNOTSUPP;
	return file->f_op->fallocate(file, mode, offset, len);
}

SYSCALL_DEFINE4(fallocate, int, fd, int, mode, loff_t, offset, loff_t, len)
{
	struct file *file = fget(fd);
	long err = -EBADF;

	if (!file)
		return err;
	if (!(file->f_mode & FMODE_PATH))	/* fdget() skips O_PATH */
		err = vfs_fallocate(file, mode, offset, len);
	fput(file);
	return err;
}

/* ---- vhangup ------------------------------------------------------------ */

/*
 * Root may hang up its controlling terminal (Linux's tty_vhangup_self:
 * SIGHUP and SIGCONT to the session, the open files of the terminal cut
 * off from it). pagelab's console has no hangup (drivers/tty/tty.c), so
 * for root this only succeeds: nothing is signalled or cut off. Linux
 * does nothing either for a caller without a controlling terminal.
 */
SYSCALL_DEFINE0(vhangup)
{
	if (current->cred.euid != 0)	/* CAP_SYS_TTY_CONFIG */
		return -EPERM;
	return 0;
}
