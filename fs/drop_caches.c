/*
 * fs/drop_caches.c: /proc/sys/vm/drop_caches, with Linux's meaning. Write
 * 1 to drop clean page-cache pages (dirty ones stay: run sync first), 2 to
 * drop unused dentries and inodes (not done yet: pagelab's dcache keeps
 * them until umount, so 2 only logs), 3 for both. Tests write 3 after
 * sync to prove that the data they read back came from the disk.
 */
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
	unsigned long freed = 0;

	if (mode < 1 || mode > 3)
		return -EINVAL;
	if (mode & 1)
		freed = drop_pagecache();
	pr_info("%s (%d): drop_caches: %lu: %lu page-cache pages freed\n",
		current->comm, current->pid, mode, freed);
	return 0;
}
