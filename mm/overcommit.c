/*
 * mm/overcommit.c: how much memory processes may be promised (see
 * <mm/overcommit.h>). Mapping memory allocates nothing: a page comes at
 * the first touch. Without a limit, brk could grow to 3.6 GiB in a 64 MiB
 * machine and fail only when touched, page by page, much later and far
 * from the cause. So, as Linux does (mm/util.c, __vm_enough_memory), each
 * mapping that may need pages of its own is counted when it is made, and
 * a request that cannot be met fails then, with ENOMEM.
 *
 * Callers: do_mmap, brk, mprotect (a private mapping made writable) and
 * dup_mm (the child's copies) commit; vma_free gives back what a VMA had
 * (VM_ACCOUNT marks a VMA that committed its pages).
 */
#include <mm/overcommit.h>
#include <mm/gfp.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/string.h>

int sysctl_overcommit_memory = OVERCOMMIT_GUESS;
static int sysctl_overcommit_ratio = 50;	/* percent of RAM, mode 2 */
static long committed;	/* pages promised; atomic updates */

unsigned long vm_commit_limit(void)
{
	return totalram_pages * sysctl_overcommit_ratio / 100;
}

long vm_committed_pages(void)
{
	return __atomic_load_n(&committed, __ATOMIC_RELAXED);
}

void vm_unacct_memory(long pages)
{
	__atomic_sub_fetch(&committed, pages, __ATOMIC_RELAXED);
}

int vm_enough_memory(long pages)
{
	long total = __atomic_add_fetch(&committed, pages, __ATOMIC_RELAXED);

	switch (sysctl_overcommit_memory) {
	case OVERCOMMIT_ALWAYS:
		return 0;
	case OVERCOMMIT_GUESS:
		/* Only the obviously impossible: more than all of RAM at
		 * once (Linux adds swap; pagelab has none). */
		if ((unsigned long)pages <= totalram_pages)
			return 0;
		break;
	default:
		if (total <= (long)vm_commit_limit())
			return 0;
	}
	vm_unacct_memory(pages);
	return -ENOMEM;
}

static int show_int(struct seq_file *m, void *data)
{
	seq_printf(m, "%d\n", *(int *)data);
	return 0;
}

/* A decimal from lo to hi into *data. */
static int write_int(const char *buf, size_t len, int *data, int lo, int hi)
{
	char *end;
	long v = simple_strtol(buf, &end, 10);

	if (end == buf || (*end && *end != '\n') || v < lo || v > hi)
		return -EINVAL;
	*data = v;
	return 0;
}

static int write_mode(const char *buf, size_t len, void *data)
{
	return write_int(buf, len, data, 0, 2);
}

static int write_ratio(const char *buf, size_t len, void *data)
{
	return write_int(buf, len, data, 0, 1000);
}

static int overcommit_init(void)
{
	proc_create_rw_data("sys/vm/overcommit_memory", 0644, show_int,
			    write_mode, &sysctl_overcommit_memory);
	proc_create_rw_data("sys/vm/overcommit_ratio", 0644, show_int,
			    write_ratio, &sysctl_overcommit_ratio);
	return 0;
}
device_initcall(overcommit_init);
