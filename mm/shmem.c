/*
 * mm/shmem.c: shared anonymous memory (mmap MAP_SHARED|MAP_ANONYMOUS) as
 * Linux does it: the mapping gets a file of its own, an unlinked ramfs
 * file on an internal mount, as long as the mapping. Its pages are the
 * file's page cache: a fault allocates one when it is first touched
 * (lazily, so a 1 TiB mapping costs nothing until used), and after fork
 * parent and child fault in the same pages because they map the same
 * file. Linux's shmem also swaps; pagelab has no swap, so these pages,
 * like ramfs pages, stay until the last mapping goes.
 *
 *   shmem_file_setup   the file behind one such mapping
 *
 * Above: do_mmap (mm/mmap.c). Below: ramfs (fs/ramfs/) and the page cache
 * (mm/filemap_fault.c).
 */
#include <mm/shmem.h>
#include <fs/dcache.h>
#include <fs/file.h>
#include <fs/mount.h>
#include <fs/ramfs.h>
#include <kernel/errno.h>

static struct vfsmount *shm_mnt;

/* The internal mount, made on first use. */
static struct vfsmount *get_shm_mnt(void)
{
	return kern_mount_once(&shm_mnt, &ramfs_fs_type);
}

struct file *shmem_file_setup(loff_t size)
{
	static const struct qstr name = QSTR_INIT("dev/zero", 8);
	struct vfsmount *mnt = get_shm_mnt();
	struct inode *inode;
	struct file *file;
	struct path path;

	if (IS_ERR(mnt))
		return (struct file *)mnt;
	inode = ramfs_get_inode(mnt->mnt_sb, NULL, S_IFREG | 0600, 0);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_size = size;	/* past it a fault is SIGBUS, as in Linux */
	path.mnt = mnt;
	path.dentry = d_alloc_pseudo(mnt->mnt_sb, &name);
	if (!path.dentry) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	d_instantiate(path.dentry, inode);
	file = alloc_file(&path, FMODE_READ | FMODE_WRITE, inode->i_fop);
	dput(path.dentry);	/* the file holds it now */
	return file ? file : ERR_PTR(-ENOMEM);
}
