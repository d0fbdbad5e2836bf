/*
 * kernel/locking/lock_stat.c: where CPUs wait for spinlocks (Linux's
 * /proc/lock_stat, written small). With one CPU a spinlock is never found
 * taken; with several, a lock every CPU takes on a hot path (one free
 * list for the whole machine, one run queue) makes them queue, and the
 * kernel stops scaling with no error anywhere. This file says which.
 *
 * spin_lock tries once inline; only when that finds the lock taken does it
 * call spin_lock_contended, which spins, timing the wait, and adds it to
 * the place that asked (the instruction address of the spin_lock, which
 * kallsyms names, and where its function was called from: wake_up_process
 * has many callers) in a small table: so an uncontended lock costs
 * nothing more than before, and a contended one two clock reads.
 *
 * /proc/lock_stat lists the places by total wait, longest first: waits,
 * total and longest wait in microseconds, the function that waited, its
 * caller, and the lock's address (`nm build/kernel.elf` names a static lock). Writing 0 to
 * it empties the table (to measure one phase of a program).
 *
 * The table is LOCK_STAT_SITES places; a place is claimed with one
 * compare-and-exchange, its counts are atomic adds, so CPUs never wait
 * for each other here (that would be a contended lock of its own). When
 * the table is full, further places are counted in "other".
 */
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/kallsyms.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <fs/proc_fs.h>

#define LOCK_STAT_SITES 128

struct lock_site {
	unsigned long ip;	/* 0: free */
	unsigned long caller;	/* set before ip: a found ip has it */
	const void *lock;	/* the first lock waited for here */
	u64 waits, wait_ns, max_ns;
};

static struct lock_site sites[LOCK_STAT_SITES];
static struct lock_site other;	/* places past a full table */

/*
 * The entry of (ip, caller), claimed if new; &other when the table is
 * full. An entry is claimed by writing its ip (0 -> ip); caller and lock
 * are written after, so a CPU that finds ip there waits for its caller
 * (a claim in progress) before comparing.
 */
static struct lock_site *site_of(unsigned long ip, unsigned long caller,
				 const void *lock)
{
	unsigned int h = ((ip ^ caller) >> 2) % LOCK_STAT_SITES;

	for (int n = 0; n < LOCK_STAT_SITES; n++) {
		struct lock_site *s = &sites[(h + n) % LOCK_STAT_SITES];
		unsigned long found = 0;

		if (__atomic_compare_exchange_n(&s->ip, &found, ip, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			s->lock = lock;
			__atomic_store_n(&s->caller, caller, __ATOMIC_RELEASE);
			return s;
		}
		if (found != ip)
			continue;
		while (!__atomic_load_n(&s->caller, __ATOMIC_ACQUIRE))
			cpu_relax();
		if (s->caller == caller)
			return s;
	}
	return &other;
}

static void account(struct lock_site *s, u64 ns)
{
	u64 max = __atomic_load_n(&s->max_ns, __ATOMIC_RELAXED);

	__atomic_add_fetch(&s->waits, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->wait_ns, ns, __ATOMIC_RELAXED);
	while (ns > max && !__atomic_compare_exchange_n(&s->max_ns, &max, ns,
							 true,
							 __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
		;
}

/* Never inlined: its caller's frame is the function that took the lock,
 * and the return address one frame up is that function's caller (every
 * kernel function keeps its frame pointer: -fno-omit-frame-pointer). */
#pragma GCC diagnostic ignored "-Wframe-address"
__noinline void spin_lock_contended(spinlock_t *l, unsigned long ip)
{
	unsigned long caller = (unsigned long)__builtin_return_address(1);
	u64 start = ktime_get_ns();
	unsigned long flags;

	do {
		while (l->locked)
			cpu_relax();
	} while (!__spin_trylock(l));
	/* An interrupt here whose handler waits at the same place would
	 * wait for our claim of the entry to finish: none comes. */
	flags = local_irq_save();
	account(site_of(ip, caller ? caller : 1, (const void *)l),
		ktime_get_ns() - start);
	local_irq_restore(flags);
}

/* ---- /proc/lock_stat ----------------------------------------------------- */

static void show_site(struct seq_file *m, const struct lock_site *s)
{
	char where[KSYM_NAME_LEN + 24], from[KSYM_NAME_LEN + 24];

	if (s == &other) {
		snprintf(where, sizeof(where), "(other places)");
		snprintf(from, sizeof(from), "-");
	} else {
		sprint_symbol(where, sizeof(where), s->ip);
		sprint_symbol(from, sizeof(from), s->caller);
	}
	seq_printf(m, "%10llu %12llu %10llu  %s  %s  %p\n",
		   (unsigned long long)s->waits,
		   (unsigned long long)(s->wait_ns / 1000),
		   (unsigned long long)(s->max_ns / 1000), where, from,
		   s->lock);
}

static int lock_stat_show(struct seq_file *m, void *v)
{
	bool shown[LOCK_STAT_SITES] = { false };

	(void)v;
	seq_printf(m, "spinlock waits, longest total first (a wait: a "
		   "spin_lock that found the lock taken)\n");
	seq_printf(m, "%10s %12s %10s  %s  %s  %s\n", "waits", "total-us",
		   "max-us", "where", "called-from", "lock");
	for (;;) {
		int best = -1;

		for (int i = 0; i < LOCK_STAT_SITES; i++)
			if (sites[i].waits && !shown[i] &&
			    (best < 0 || sites[i].wait_ns > sites[best].wait_ns))
				best = i;
		if (best < 0)
			break;
		shown[best] = true;
		show_site(m, &sites[best]);
	}
	if (other.waits)
		show_site(m, &other);
	return 0;
}

/* "0": forget every wait so far. */
static int lock_stat_write(const char *buf, size_t len, void *data)
{
	(void)len;
	(void)data;
	if (strcmp(buf, "0") && strcmp(buf, "0\n"))
		return -EINVAL;
	for (int i = 0; i < LOCK_STAT_SITES; i++)
		sites[i].waits = sites[i].wait_ns = sites[i].max_ns = 0;
	other.waits = other.wait_ns = other.max_ns = 0;
	return 0;
}

static int lock_stat_init(void)
{
	proc_create_rw("lock_stat", 0644, lock_stat_show, lock_stat_write);
	return 0;
}
device_initcall(lock_stat_init);
