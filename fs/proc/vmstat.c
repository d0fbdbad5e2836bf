/*
 * fs/proc/vmstat.c: /proc/vmstat, one "name value" line per counter, as in
 * Linux: the free page count first, then every event counter
 * (<kernel/vmstat.h>). Students watch a fault or a fork happen here.
 */
#include <fs/proc_fs.h>
#include <kernel/vmstat.h>
#include <mm/filemap.h>
#include <mm/gfp.h>
#include <mm/writeback.h>

int vmstat_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "nr_free_pages %lu\n", nr_free_pages());
	seq_printf(m, "nr_file_pages %lu\n", nr_pagecache_pages());
	seq_printf(m, "nr_dirty %lu\n", nr_dirty_pages());
	seq_printf(m, "nr_writeback %lu\n", nr_writeback_pages());
	for (int i = 0; i < NR_VM_EVENTS; i++)
		seq_printf(m, "%s %lu\n", vm_event_names[i], vm_event_sum(i));
	return 0;
}
