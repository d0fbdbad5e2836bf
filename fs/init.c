/*
 * fs/init.c: bringing the VFS up at boot (Linux spreads this over
 * fs/dcache.c's vfs_caches_init, init/do_mounts.c, init/initramfs.c and
 * init/noinitramfs.c).
 *
 * Order: register the file system types and the memory devices; mount
 * ramfs as the root ("rootfs"); give init_task a root, a cwd, a umask and
 * an empty fd table (every task inherits them through fork); unpack the
 * boot modules that are cpio archives; create what the archive did not
 * bring (/dev with console, null, zero, random, urandom, tty; /proc;
 * /tmp); open /dev/console as fds 0, 1 and 2 of init_task, which is where
 * pid 1 gets its standard streams (Linux's console_on_rootfs, done by
 * kernel_init).
 */
#include <fs/file.h>
#include <fs/fs_struct.h>
#include <fs/initramfs.h>
#include <fs/mount.h>
#include <fs/namei.h>
#include <fs/proc_fs.h>
#include <fs/ramfs.h>
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/tty.h>
#include <mm/memblock.h>
#include <mm/mm.h>

/*
 * init_task's limits are inherited by every task. Where nothing has set
 * them yet (all zero), use Linux's defaults for the two the VFS enforces:
 * RLIMIT_FSIZE unlimited (else every write would be EFBIG) and
 * RLIMIT_NOFILE 1024, hard 4096.
 */
static void init_fs_rlimits(void)
{
	struct rlimit *r = init_task.rlim;

	if (!r[RLIMIT_FSIZE].rlim_cur && !r[RLIMIT_FSIZE].rlim_max)
		r[RLIMIT_FSIZE] = (struct rlimit){ RLIM_INFINITY,
						   RLIM_INFINITY };
	if (!r[RLIMIT_NOFILE].rlim_cur && !r[RLIMIT_NOFILE].rlim_max)
		r[RLIMIT_NOFILE] = (struct rlimit){ 1024, 4096 };
}

static void mount_root(void)
{
	struct vfsmount *mnt = vfs_kern_mount(&ramfs_fs_type, 0, "rootfs",
					      NULL);
	struct path root;

	if (IS_ERR(mnt))
		panic("VFS: cannot mount the root ramfs: error %ld",
		      PTR_ERR(mnt));
	set_root_mount(mnt);
	root.mnt = mnt;
	root.dentry = mnt->mnt_root;
	init_task.fs = alloc_fs_struct(&root);
	init_task.files = alloc_files();
	if (!init_task.fs || !init_task.files)
		panic("VFS: no memory for init_task's fs and files");
}

/* What processes need beyond the initramfs: a shell, a test program,
 * their page tables and the page cache they read through. */
#define WORKING_SET_PAGES (4UL << (20 - PAGE_SHIFT))

/*
 * Every file of the initramfs is copied into ramfs, which cannot give its
 * pages back: with too little RAM, unpacking fails file by file and init
 * then fails in ways that hide the cause (Linux panics with "No working
 * init found"). Say the cause instead, with the numbers.
 */
static void check_memory_for(unsigned long cpio_bytes)
{
	unsigned long cpio_kib = (cpio_bytes + 1023) >> 10;
	unsigned long free_kib = nr_free_pages() << (PAGE_SHIFT - 10);
	unsigned long ram_kib = memblock_total_ram() >> 10;
	unsigned long held_kib = ram_kib - free_kib;
	unsigned long work_kib = WORKING_SET_PAGES << (PAGE_SHIFT - 10);

	if (free_kib >= cpio_kib + work_kib)
		return;
	pr_emerg("pagelab needs at least %lu MiB; this machine has %lu MiB "
		 "(the kernel and boot modules hold %lu KiB, the initramfs "
		 "unpacks to %lu KiB, programs need %lu KiB)\n",
		 (held_kib + cpio_kib + work_kib + 1023) / 1024,
		 (ram_kib + 1023) / 1024, held_kib, cpio_kib, work_kib);
	panic("not enough memory to boot: give QEMU more (-m)");
}

/* The bytes of the boot modules that are cpio archives. */
static unsigned long boot_cpio_bytes(void)
{
	unsigned long cpio_bytes = 0;

	for (int i = 0; i < boot_info.nr_modules; i++) {
		struct boot_module *m = &boot_info.modules[i];

		if (m->end - m->start >= 6 &&
		    !memcmp(phys_to_virt(m->start), "0707", 4))
			cpio_bytes += m->end - m->start;
	}
	return cpio_bytes;
}

static void unpack_boot_modules(void)
{
	for (int i = 0; i < boot_info.nr_modules; i++) {
		struct boot_module *m = &boot_info.modules[i];
		const char *data = phys_to_virt(m->start);

		if (m->end - m->start < 6 || memcmp(data, "0707", 4)) {
			pr_warn("initramfs: module %d (%s) is not a cpio "
				"archive; skipped\n", i, m->name);
			continue;
		}
		populate_rootfs(data, m->end - m->start);
	}
}

/* mknod + chmod (mknod is subject to the umask), quiet when it exists. */
static void make_node(const char *path, umode_t mode, dev_t dev)
{
	long err = S_ISDIR(mode) ? do_mkdirat(AT_FDCWD, path, mode & 07777)
				 : do_mknodat(AT_FDCWD, path, mode,
					      new_encode_dev(dev));

	if (!err)
		err = do_fchmodat(AT_FDCWD, path, mode & 07777);
	if (err && err != -EEXIST)
		pr_warn("VFS: cannot create %s: error %ld\n", path, err);
}

/* /proc is only made here: mounting it is init's job, as on Linux. */
static void create_default_nodes(void)
{
	make_node("/dev", S_IFDIR | 0755, 0);
	make_node("/dev/console", S_IFCHR | 0600, MKDEV(TTYAUX_MAJOR, 1));
	make_node("/dev/tty", S_IFCHR | 0666, MKDEV(TTYAUX_MAJOR, 0));
	make_node("/dev/null", S_IFCHR | 0666, MKDEV(1, 3));
	make_node("/dev/ttyS1", S_IFCHR | 0600, MKDEV(TTY_MAJOR, 65));
	make_node("/dev/zero", S_IFCHR | 0666, MKDEV(1, 5));
	make_node("/dev/random", S_IFCHR | 0666, MKDEV(1, 8));
	make_node("/dev/urandom", S_IFCHR | 0666, MKDEV(1, 9));
	make_node("/proc", S_IFDIR | 0555, 0);
	make_node("/tmp", S_IFDIR | 01777, 0);
}

/* fds 0, 1, 2 of init_task: the console, when a tty driver serves it. */
static void open_console(void)
{
	int fd = ksys_open("/dev/console", O_RDWR, 0);

	if (fd < 0) {
		pr_warn("VFS: cannot open an initial console: error %d\n", fd);
		return;
	}
	if (ksys_dup(fd) != 1 || ksys_dup(fd) != 2)
		pr_warn("VFS: initial console is not fds 0-2\n");
}

void vfs_init(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	/* First: on a machine too small, the root file system itself may
	 * not fit, and the message must come before that failure. */
	check_memory_for(boot_cpio_bytes());
	init_fs_rlimits();
	init_ramfs_fs();
	proc_init();
	chr_dev_init();
	mount_root();
	unpack_boot_modules();
	create_default_nodes();
	/* The fds go into the caller's table: only the boot task's counts. */
	if (current == &init_task)
		open_console();
	else
		pr_warn("VFS: vfs_init ran in pid %d, not at boot: no console "
			"fds\n", current->pid);
	pr_info("VFS: mounted root (ramfs), %d boot module(s) unpacked\n",
		boot_info.nr_modules);
}
