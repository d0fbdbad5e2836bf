/* mm/vmstat.c: the event counters behind /proc/vmstat. */
#include <kernel/vmstat.h>

unsigned long vm_events[NR_VM_EVENTS];

const char *const vm_event_names[NR_VM_EVENTS] = {
	[PGFAULT] = "pgfault",
	[PGMAJFAULT] = "pgmajfault",
	[PGFAULT_ANON] = "pgfault_anon",
	[COW_FAULT] = "cow_fault",
	[MKWRITE] = "mkwrite",
	[BIO_POOL_USED] = "bio_pool_used",
	[NR_SYSCALLS_UNKNOWN] = "syscall_enosys",
	[NR_FORKS] = "nr_forks",
	[PGPGIN] = "pgpgin",
	[PGPGOUT] = "pgpgout",
	[PGCACHE_HIT] = "pgcache_hit",
	[PGCACHE_MISS] = "pgcache_miss",
};
