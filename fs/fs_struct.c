/*
 * fs/fs_struct.c: a process's root, cwd and umask, and the calls that
 * change or report them (chdir, fchdir, getcwd, umask; chroot is left
 * out). Root and cwd are referenced paths; fs->lock guards swapping them.
 */
#include <fs/fs_struct.h>
#include <fs/file.h>
#include <fs/mount.h>
#include <fs/namei.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

struct fs_struct *alloc_fs_struct(const struct path *root)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs), GFP_KERNEL);

	if (!fs)
		return NULL;
	fs->users = 1;
	spin_lock_init(&fs->lock);
	fs->umask = 022;
	fs->root = *root;
	fs->pwd = *root;
	path_get(root);
	path_get(root);
	return fs;
}

struct fs_struct *copy_fs_struct(struct fs_struct *old)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs), GFP_KERNEL);

	if (!fs)
		return NULL;
	fs->users = 1;
	spin_lock_init(&fs->lock);
	spin_lock(&old->lock);
	fs->umask = old->umask;
	fs->root = old->root;
	fs->pwd = old->pwd;
	path_get(&fs->root);
	path_get(&fs->pwd);
	spin_unlock(&old->lock);
	return fs;
}

struct fs_struct *get_fs_struct(struct fs_struct *fs)
{
	spin_lock(&fs->lock);
	fs->users++;
	spin_unlock(&fs->lock);
	return fs;
}

void put_fs_struct(struct fs_struct *fs)
{
	int users;

	if (!fs)
		return;
	spin_lock(&fs->lock);
	users = --fs->users;
	spin_unlock(&fs->lock);
	if (users)
		return;
	path_put(&fs->root);
	path_put(&fs->pwd);
	kfree(fs);
}

static void set_path(struct fs_struct *fs, struct path *which,
		     const struct path *path)
{
	struct path old;

	path_get(path);
	spin_lock(&fs->lock);
	old = *which;
	*which = *path;
	spin_unlock(&fs->lock);
	path_put(&old);
}

void set_fs_root(struct fs_struct *fs, const struct path *path)
{
	set_path(fs, &fs->root, path);
}

void set_fs_pwd(struct fs_struct *fs, const struct path *path)
{
	set_path(fs, &fs->pwd, path);
}

void get_fs_root(struct fs_struct *fs, struct path *root)
{
	spin_lock(&fs->lock);
	*root = fs->root;
	path_get(root);
	spin_unlock(&fs->lock);
}

void get_fs_pwd(struct fs_struct *fs, struct path *pwd)
{
	spin_lock(&fs->lock);
	*pwd = fs->pwd;
	path_get(pwd);
	spin_unlock(&fs->lock);
}

int current_umask(void)
{
	return current->fs ? current->fs->umask : 022;
}

/* ---- system calls -------------------------------------------------------- */

/* cwd becomes path, if it is a directory we may search. */
static long set_cwd(const struct path *path)
{
	long err;

	if (!current->fs)	/* a kernel thread made before vfs_init */
		return -ENOENT;
	if (!S_ISDIR(path->dentry->d_inode->i_mode))
		return -ENOTDIR;
	err = inode_permission(path->dentry->d_inode, MAY_EXEC);
	if (!err)
		set_fs_pwd(current->fs, path);
	return err;
}

long ksys_chdir(const char *pathname)
{
	struct path path;
	long err = kern_path(pathname, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);

	if (err)
		return err;
	err = set_cwd(&path);
	path_put(&path);
	return err;
}

SYSCALL_DEFINE1(chdir, const char __user *, filename)
{
	char *name = getname(filename);
	long err;

	if (IS_ERR(name))
		return PTR_ERR(name);
	err = ksys_chdir(name);
	putname(name);
	return err;
}

SYSCALL_DEFINE1(fchdir, unsigned int, fd)
{
	struct file *file = fget(fd);
	long err;

	if (!file)
		return -EBADF;
	err = set_cwd(&file->f_path);
	fput(file);
	return err;
}

SYSCALL_DEFINE2(getcwd, char __user *, buf, unsigned long, size)
{
	char *page = kmalloc(PATH_MAX, GFP_KERNEL);
	struct path pwd, root;
	long len;
	char *cwd;

	if (!page)
		return -ENOMEM;
	if (!current->fs) {
		kfree(page);
		return -ENOENT;
	}
	get_fs_root(current->fs, &root);
	get_fs_pwd(current->fs, &pwd);
	cwd = d_path(&pwd, &root, page, PATH_MAX);
	path_put(&pwd);
	path_put(&root);
	if (IS_ERR(cwd)) {
		len = PTR_ERR(cwd);
	} else {
		len = page + PATH_MAX - cwd;	/* with the NUL */
		if ((unsigned long)len > size)
			len = -ERANGE;
		else if (copy_to_user(buf, cwd, len))
			len = -EFAULT;
	}
	kfree(page);
	return len;
}

SYSCALL_DEFINE1(umask, int, mask)
{
	int old = current_umask();

	if (current->fs)
		current->fs->umask = mask & S_IRWXUGO;
	return old;
}
