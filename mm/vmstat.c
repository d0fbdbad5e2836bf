/* mm/vmstat.c: the event counters behind /proc/vmstat. */
#include <kernel/compiler.h>
#include <kernel/vmstat.h>

struct vm_event_row vm_event_rows[NR_CPUS];

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

unsigned long vm_event_sum(enum vm_event_item item)
{
	unsigned long n = 0;

	for (int c = 0; c < NR_CPUS; c++)
		n += READ_ONCE(vm_event_rows[c].events[item]);
	return n;
}
