/*
 * fs/proc/meminfo.c: /proc/meminfo, in Linux's format (a 16-column name,
 * an 8-column number, " kB"), so tools that parse Linux's file parse
 * this one. ramfs pages are page cache that cannot be reclaimed: they
 * count as Cached, and not as available.
 */
#include <fs/proc_fs.h>
#include <mm/filemap.h>
#include <mm/gfp.h>
#include <mm/overcommit.h>

static void show_val_kb(struct seq_file *m, const char *name,
			unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, pages << (PAGE_SHIFT - 10));
}

int meminfo_proc_show(struct seq_file *m, void *v)
{
	show_val_kb(m, "MemTotal:", totalram_pages);
	show_val_kb(m, "MemFree:", nr_free_pages());
	show_val_kb(m, "MemAvailable:", nr_free_pages());
	show_val_kb(m, "Buffers:", 0);
	show_val_kb(m, "Cached:", nr_pagecache_pages());
	show_val_kb(m, "CommitLimit:", vm_commit_limit());
	show_val_kb(m, "Committed_AS:", vm_committed_pages());
	return 0;
}
