/*
 * fs/drop_caches.c: /proc/sys/vm/drop_caches, with Linux's meaning. Write
 * 1 to drop clean page-cache pages, the metadata buffers' pages of the
 * block devices among them (dirty ones stay: run sync first), 2 to drop unused dentries (positive
 * and negative) and the inodes only they held, 3 for both. Tests write 3
 * after sync to prove that the data they read back came from the disk.
 */
#include <mm/kstack.h>
#include <fs/dcache.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <mm/writeback.h>

int drop_caches_show(struct seq_file *m, void *v)
{
	seq_printf(m, "0\n");
	return 0;
}

int drop_caches_write(const char *buf, size_t len, void *data)
{
	unsigned long mode = simple_strtoul(buf, NULL, 10);
	unsigned long freed = 0, dentries = 0, inodes = 0;

	if (mode < 1 || mode > 3)
		return -EINVAL;
	kstack_purge();	/* exited tasks' stacks still mapped (SMP) */
	/* Dentries first: the inodes they free drop their pages too. */
	if (mode & 2)
		dentries = prune_dcache(~0UL);
	if (mode & 1)
		freed = drop_pagecache();	/* metadata too: bdev pages */
	if (mode & 2)
		inodes = prune_icache();
	pr_info("%s (%d): drop_caches: %lu: %lu page-cache pages freed, %lu "
		"dentries, %lu inodes\n", current->comm, current->pid, mode,
		freed, dentries, inodes);
	return 0;
}
