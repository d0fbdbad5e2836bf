/*
 * fs/proc/meminfo.c: /proc/meminfo, in Linux's format (a 16-column name,
 * an 8-column number, " kB") and in Linux's order, so that tools that
 * parse Linux's file (busybox free) parse this one.
 *
 *   Buffers       the disks' own page caches: metadata buffers
 *                 (nr_blockdev_pages, block/genhd.c)
 *   Cached        every other page-cache page, ramfs's included (which
 *                 can never be reclaimed)
 *   MemAvailable  Linux's estimate, with pagelab's numbers: free pages
 *                 above the allocator's reserve, plus the page cache on
 *                 the LRU (what reclaim can free: files with a disk, and
 *                 buffers), less the part Linux keeps back as not freeable
 *                 without thrashing (half of it, at most the reserve)
 *   Dirty         file pages waiting to be written (PG_dirty); metadata
 *                 buffers are dirty per buffer here and are not counted
 *   Writeback     pages being written (PG_writeback)
 */
#include <fs/blkdev.h>
#include <fs/proc_fs.h>
#include <mm/filemap.h>
#include <mm/gfp.h>
#include <mm/overcommit.h>
#include <mm/writeback.h>

static void show_val_kb(struct seq_file *m, const char *name,
			unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, pages << (PAGE_SHIFT - 10));
}

static unsigned long mem_available(unsigned long free)
{
	unsigned long cache = nr_lru_pages();

	free = free > MIN_FREE_PAGES ? free - MIN_FREE_PAGES : 0;
	return free + cache - min(cache / 2, (unsigned long)MIN_FREE_PAGES);
}

int meminfo_proc_show(struct seq_file *m, void *v)
{
	unsigned long free = nr_free_pages();
	unsigned long cache = nr_pagecache_pages();
	unsigned long buffers = nr_blockdev_pages();

	show_val_kb(m, "MemTotal:", totalram_pages);
	show_val_kb(m, "MemFree:", free);
	show_val_kb(m, "MemAvailable:", mem_available(free));
	show_val_kb(m, "Buffers:", buffers);
	show_val_kb(m, "Cached:", cache > buffers ? cache - buffers : 0);
	show_val_kb(m, "Dirty:", nr_dirty_pages());
	show_val_kb(m, "Writeback:", nr_writeback_pages());
	show_val_kb(m, "CommitLimit:", vm_commit_limit());
	show_val_kb(m, "Committed_AS:", vm_committed_pages());
	return 0;
}
