/*
 * fs/namespace.c: the mount table, mount(2) and umount2(2).
 *
 * Roadmap: vfsmount reference counting (mntget/mntput; the last put
 * releases the root dentry and the super block), lookup_mnt for path
 * walking, vfs_kern_mount to build an unattached mount, attach/detach to
 * graft a mount on a directory, then the system calls and /proc/mounts.
 *
 * mount_lock protects the list and the counts; namespace_mutex serialises
 * mount and umount against each other (they sleep: file systems read
 * their super blocks).
 */
#include <fs/mount.h>
#include <asm/cmpxchg.h>
#include <fs/namei.h>
#include <fs/proc_fs.h>
#include <fs/fs_struct.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

struct vfsmount *root_mnt;
static LIST_HEAD(mount_list);
static DEFINE_SPINLOCK(mount_lock);
static DEFINE_MUTEX(namespace_mutex);

struct vfsmount *mntget(struct vfsmount *mnt)
{
	if (mnt) {
		spin_lock(&mount_lock);
		mnt->mnt_count++;
		spin_unlock(&mount_lock);
	}
	return mnt;
}

void mntput(struct vfsmount *mnt)
{
	int count;

	if (!mnt)
		return;
	spin_lock(&mount_lock);
	count = --mnt->mnt_count;
	spin_unlock(&mount_lock);
	if (count)
		return;
	dput(mnt->mnt_root);
	deactivate_super(mnt->mnt_sb);
	kfree(mnt);
}

struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct dentry *dentry)
{
	struct vfsmount *child, *found = NULL;

	spin_lock(&mount_lock);
	list_for_each_entry(child, &mount_list, mnt_list) {
		if (child->mnt_parent == mnt && child != mnt &&
		    child->mnt_mountpoint == dentry) {
			child->mnt_count++;
			found = child;
			break;
		}
	}
	spin_unlock(&mount_lock);
	return found;
}

struct vfsmount *vfs_kern_mount(struct file_system_type *type, int flags,
				const char *dev_name, void *data)
{
	struct vfsmount *mnt = kzalloc(sizeof(*mnt), GFP_KERNEL);
	struct dentry *root;

	if (!mnt)
		return ERR_PTR(-ENOMEM);
	root = type->mount(type, flags, dev_name, data);
	if (IS_ERR(root)) {
		kfree(mnt);
		return (struct vfsmount *)root;	/* the same ERR_PTR */
	}
	root->d_sb->s_count++;
	mnt->mnt_root = root;
	mnt->mnt_sb = root->d_sb;
	mnt->mnt_parent = mnt;
	mnt->mnt_mountpoint = root;
	mnt->mnt_count = 1;
	INIT_LIST_HEAD(&mnt->mnt_list);
	strlcpy(mnt->mnt_devname, dev_name ? dev_name : "none",
		sizeof(mnt->mnt_devname));
	return mnt;
}

struct vfsmount *kern_mount(struct file_system_type *type)
{
	struct vfsmount *mnt = vfs_kern_mount(type, 0, type->name, NULL);

	if (!IS_ERR(mnt))
		mnt->mnt_flags |= MNT_INTERNAL;
	return mnt;
}

/* *slot's internal mount of type, made on first use. Two tasks may both
 * make one: the first installed stays, the other is dropped. */
struct vfsmount *kern_mount_once(struct vfsmount **slot,
				 struct file_system_type *type)
{
	struct vfsmount *mnt = READ_ONCE(*slot), *seen;

	if (mnt)
		return mnt;
	mnt = kern_mount(type);
	if (IS_ERR(mnt))
		return mnt;
	seen = cmpxchg(slot, NULL, mnt);
	if (!seen)
		return mnt;
	mntput(mnt);
	return seen;
}

void set_root_mount(struct vfsmount *mnt)
{
	root_mnt = mnt;
	spin_lock(&mount_lock);
	list_add_tail(&mnt->mnt_list, &mount_list);
	spin_unlock(&mount_lock);
}

/* Graft mnt on path (a directory, already on top of any mount there). */
static void attach_mnt(struct vfsmount *mnt, const struct path *path)
{
	mnt->mnt_parent = mntget(path->mnt);
	mnt->mnt_mountpoint = dget(path->dentry);
	spin_lock(&dcache_lock);
	path->dentry->d_mounted++;
	spin_unlock(&dcache_lock);
	spin_lock(&mount_lock);
	list_add_tail(&mnt->mnt_list, &mount_list);
	spin_unlock(&mount_lock);
}

static unsigned int mnt_flags_from(unsigned long flags)
{
	return (flags & MS_NOSUID ? MNT_NOSUID : 0) |
	       (flags & MS_NODEV ? MNT_NODEV : 0) |
	       (flags & MS_NOEXEC ? MNT_NOEXEC : 0);
}

static long do_new_mount(struct path *path, const char *type_name,
			 unsigned long flags, const char *dev_name, void *data)
{
	struct file_system_type *type;
	struct vfsmount *mnt;

	if (!type_name || !*type_name)
		return -EINVAL;
	type = get_fs_type(type_name);
	if (!type)
		return -ENODEV;
	if (!S_ISDIR(path->dentry->d_inode->i_mode))
		return -ENOTDIR;
	mnt = vfs_kern_mount(type, flags & (MS_RDONLY | MS_SILENT | MS_NOATIME),
			     dev_name, data);
	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	mnt->mnt_flags = mnt_flags_from(flags);
	/* Mounting on a mount point stacks on top of what is there. */
	follow_mount(path);
	if (d_unhashed(path->dentry) && !d_is_root(path->dentry)) {
		mntput(mnt);
		return -ENOENT;
	}
	attach_mnt(mnt, path);
	return 0;
}

static long do_remount(struct path *path, unsigned long flags, void *data)
{
	struct super_block *sb = path->mnt->mnt_sb;
	int sb_flags = flags;
	int err = 0;

	if (path->dentry != path->mnt->mnt_root)
		return -EINVAL;
	if (sb->s_op && sb->s_op->remount_fs)
		err = sb->s_op->remount_fs(sb, &sb_flags, data);
	if (err)
		return err;
	sb->s_flags = (sb->s_flags & ~MS_RDONLY) | (sb_flags & MS_RDONLY);
	path->mnt->mnt_flags = mnt_flags_from(flags);
	return 0;
}

static bool capable_sys_admin(void)
{
	return current->cred.euid == 0;
}

long do_mount(const char *dev_name, const char *dir_name,
	      const char *type_page, unsigned long flags, void *data)
{
	struct path path;
	long err;

	if (!capable_sys_admin())
		return -EPERM;
	err = kern_path(dir_name, LOOKUP_FOLLOW, &path);
	if (err)
		return err;
	mutex_lock(&namespace_mutex);
	if (flags & MS_REMOUNT)
		err = do_remount(&path, flags, data);
	else if (flags & (MS_BIND | MS_MOVE))
		err = -EINVAL;	/* not supported (yet) */
	else
		err = do_new_mount(&path, type_page, flags, dev_name, data);
	mutex_unlock(&namespace_mutex);
	path_put(&path);
	return err;
}

/* Anything keeping mnt busy? mount_lock held. refs: what the caller holds. */
static bool mnt_busy(struct vfsmount *mnt, int refs)
{
	struct vfsmount *m;

	if (mnt->mnt_count > refs + 1)	/* +1: the mount table's */
		return true;
	list_for_each_entry(m, &mount_list, mnt_list)
		if (m->mnt_parent == mnt && m != mnt)
			return true;
	return false;
}

static long do_umount(struct path *path, int flags)
{
	struct vfsmount *mnt = path->mnt;
	struct path parent;

	if (path->dentry != mnt->mnt_root)
		return -EINVAL;
	if (mnt == root_mnt || (flags & MNT_DETACH))
		return mnt == root_mnt ? -EBUSY : -EINVAL;
	spin_lock(&mount_lock);
	if (mnt_busy(mnt, 1)) {
		spin_unlock(&mount_lock);
		return -EBUSY;
	}
	list_del_init(&mnt->mnt_list);
	spin_unlock(&mount_lock);
	parent.mnt = mnt->mnt_parent;
	parent.dentry = mnt->mnt_mountpoint;
	spin_lock(&dcache_lock);
	parent.dentry->d_mounted--;
	spin_unlock(&dcache_lock);
	mnt->mnt_parent = mnt;
	mnt->mnt_mountpoint = mnt->mnt_root;
	path_put(&parent);	/* the references attach_mnt took */
	mntput(mnt);	/* the mount table's: the last one, with ours below */
	return 0;
}

long do_umount_path(const char *name, int flags)
{
	struct path path;
	long err;

	if (!capable_sys_admin())
		return -EPERM;
	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	err = kern_path(name, flags & UMOUNT_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
			&path);
	if (err)
		return err;
	mutex_lock(&namespace_mutex);
	err = do_umount(&path, flags);
	mutex_unlock(&namespace_mutex);
	path_put(&path);
	return err;
}

/* Copy an optional user string (type, source, data) of at most max. */
static char *copy_mount_string(const char __user *s, long max, long *err)
{
	char *k;
	long n;

	*err = 0;
	if (!s)
		return NULL;
	k = kmalloc(max, GFP_KERNEL);
	if (!k) {
		*err = -ENOMEM;
		return NULL;
	}
	n = strncpy_from_user(k, s, max);
	if (n < 0 || n == max) {
		*err = n < 0 ? n : -ENAMETOOLONG;
		kfree(k);
		return NULL;
	}
	return k;
}

SYSCALL_DEFINE5(mount, char __user *, dev_name, char __user *, dir_name,
		char __user *, type, unsigned long, flags, void __user *, data)
{
	char *kdev = NULL, *kdir, *ktype = NULL, *kdata = NULL;
	long err;

	kdir = getname(dir_name);
	if (IS_ERR(kdir))
		return PTR_ERR(kdir);
	ktype = copy_mount_string(type, 256, &err);
	if (!err)
		kdev = copy_mount_string(dev_name, PATH_MAX, &err);
	if (!err)
		kdata = copy_mount_string(data, PAGE_SIZE, &err);
	if (!err)
		err = do_mount(kdev, kdir, ktype, flags, kdata);
	kfree(kdata);
	kfree(kdev);
	kfree(ktype);
	putname(kdir);
	return err;
}

SYSCALL_DEFINE2(umount2, char __user *, name, int, flags)
{
	char *kname = getname(name);
	long err;

	if (IS_ERR(kname))
		return PTR_ERR(kname);
	err = do_umount_path(kname, flags);
	putname(kname);
	return err;
}

/* /proc/mounts: "device mountpoint type options 0 0", as Linux. */
int proc_mounts_show(struct seq_file *m, void *v)
{
	struct vfsmount *mnt;
	struct path root;
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	if (current->fs) {
		get_fs_root(current->fs, &root);
	} else {
		root.mnt = mntget(root_mnt);
		root.dentry = dget(root_mnt->mnt_root);
	}
	spin_lock(&mount_lock);
	list_for_each_entry(mnt, &mount_list, mnt_list) {
		struct path p = { mnt, mnt->mnt_root };
		char *where = d_path(&p, &root, buf, PATH_MAX);
		struct super_block *sb = mnt->mnt_sb;

		if (IS_ERR(where))
			continue;
		seq_printf(m, "%s %s %s %s", mnt->mnt_devname, where,
			   sb->s_type->name, sb_rdonly(sb) ? "ro" : "rw");
		if (sb->s_op && sb->s_op->show_options)
			sb->s_op->show_options(m, sb);
		seq_puts(m, " 0 0\n");
	}
	spin_unlock(&mount_lock);
	path_put(&root);
	kfree(buf);
	return 0;
}
