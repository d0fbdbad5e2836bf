/*
 * Event counters, shown in /proc/vmstat with Linux's names where Linux has
 * them. count_vm_event() is cheap: count anything a student might ask about.
 */
#ifndef _KERNEL_VMSTAT_H
#define _KERNEL_VMSTAT_H

#include <kernel/percpu.h>

enum vm_event_item {
	PGFAULT,	/* every page fault handled by handle_mm_fault */
	PGMAJFAULT,	/* faults that had to read from a backing store */
	PGFAULT_ANON,	/* demand-zero pages */
	COW_FAULT,	/* copy-on-write copies */
	MKWRITE,	/* page_mkwrite calls */
	BIO_POOL_USED,	/* bios from the block layer's reserve */
	NR_SYSCALLS_UNKNOWN,	/* ENOSYS returned */
	NR_FORKS,
	PGPGIN,		/* KiB read from disks */
	PGPGOUT,	/* KiB written to disks */
	PGCACHE_HIT,	/* read(): page found in the page cache */
	PGCACHE_MISS,	/* read(): page had to be read in (or read ahead) */
	NR_VM_EVENTS
};

/*
 * One row of counters per CPU (Linux's vm_event_states): each fault and
 * each cached read adds to a counter, and one shared row made every CPU's
 * add pull the same cache line from the others. A CPU adds to its own
 * row; a task moved to another CPU between finding its row and adding
 * to it adds there atomically, so nothing is lost. Readers sum the rows.
 */
struct vm_event_row {
	unsigned long events[NR_VM_EVENTS];
} __attribute__((aligned(64)));

extern struct vm_event_row vm_event_rows[NR_CPUS];
extern const char *const vm_event_names[NR_VM_EVENTS];

static inline void count_vm_events(enum vm_event_item item, unsigned long n)
{
	__atomic_add_fetch(&vm_event_rows[smp_processor_id()].events[item], n,
			   __ATOMIC_RELAXED);
}

static inline void count_vm_event(enum vm_event_item item)
{
	count_vm_events(item, 1);
}

/* The count of item, all CPUs together (a moment's sum). */
unsigned long vm_event_sum(enum vm_event_item item);

#endif
