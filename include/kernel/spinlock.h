/*
 * Spinlocks: a test-and-set lock, written for several CPUs; the _irqsave
 * forms disable interrupts so an interrupt handler taking the same lock
 * cannot deadlock. Holding one counts in preempt_count
 * (<kernel/preempt.h>): the holder is not preempted, and must not sleep,
 * until it is released. The word says who holds it: 0 free, else the
 * holding CPU's number plus one (a holder stays on its CPU), so that
 * lockdep_assert_held can tell "held here" from "held by another CPU".
 */
#ifndef _KERNEL_SPINLOCK_H
#define _KERNEL_SPINLOCK_H

#include <kernel/compiler.h>
#include <asm/processor.h>
#include <kernel/preempt.h>
#include <kernel/lockdep_types.h>

typedef struct {
	volatile int locked;	/* 0, or the holder's CPU + 1 */
	/* The lock validator's view (kernel/locking/lockdep.c): a lock
	 * made by DEFINE_SPINLOCK is a class of its own, one made by
	 * spin_lock_init is of the class of that line; one with no name
	 * (SPIN_LOCK_UNLOCKED, or zeroed memory) is not in the graph. */
	struct lockdep_map dep_map;
} spinlock_t;

#define SPIN_LOCK_UNLOCKED { 0, { NULL, NULL, 0 } }
#define DEFINE_SPINLOCK(x) spinlock_t x = { 0, LOCKDEP_MAP_INIT(#x) }

static inline void __spin_lock_init(spinlock_t *l, const char *name,
				    struct lock_class_key *key)
{
	l->locked = 0;
	l->dep_map = (struct lockdep_map){ name, key, 0 };
}

/* A class per line that initialises locks (Linux's spin_lock_init). */
#define spin_lock_init(l)                                 \
	do {                                              \
		static struct lock_class_key __key;       \
		__spin_lock_init((l), #l, &__key);        \
	} while (0)

/* kernel/locking/lockdep.c: l was taken at ip on this CPU (check: not a
 * trylock, its order after the spinlocks held here is checked), or is
 * being released. Only for a named lock, while lockdep is on. */
extern bool lockdep_enabled;
void lockdep_spin_acquired(spinlock_t *l, unsigned long ip, bool check);
void lockdep_spin_released(spinlock_t *l);

static inline void spin_acquire_hook(spinlock_t *l, unsigned long ip,
				     bool check)
{
	if (l->dep_map.name && lockdep_enabled)
		lockdep_spin_acquired(l, ip, check);
}

static inline void spin_release_hook(spinlock_t *l)
{
	if (l->dep_map.name && lockdep_enabled)
		lockdep_spin_released(l);
}

/* The lock was taken at the first try: spin for it, and count the wait
 * against ip in /proc/lock_stat (kernel/locking/lock_stat.c). */
void spin_lock_contended(spinlock_t *l, unsigned long ip);

/* What a held lock's word says on this CPU. */
static inline int spin_owner_here(void)
{
	return smp_processor_id() + 1;
}

/* Take l if it is free. A compare-and-exchange, not an exchange: that
 * would write our number into a word another CPU's holds, for a moment,
 * and its lockdep_assert_held could see it. */
static inline bool __spin_trylock(spinlock_t *l)
{
	int free = 0;

	return __atomic_compare_exchange_n(&l->locked, &free,
					   spin_owner_here(), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_lock(spinlock_t *l)
{
	preempt_disable();
	if (unlikely(!__spin_trylock(l)))
		spin_lock_contended(l, _THIS_IP_);
	spin_acquire_hook(l, _THIS_IP_, true);
}

static inline bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (__spin_trylock(l)) {
		spin_acquire_hook(l, _THIS_IP_, false);
		return true;
	}
	preempt_enable();
	return false;
}

static inline void spin_unlock(spinlock_t *l)
{
	spin_release_hook(l);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	preempt_enable();
}

/* Release without a preemption point: the caller is about to schedule()
 * (an exiting task, which must not be preempted before). */
static inline void spin_unlock_no_resched(spinlock_t *l)
{
	spin_release_hook(l);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	preempt_enable_no_resched();
}

static inline bool spin_is_locked(spinlock_t *l)
{
	return l->locked;
}

/* Held, and by this CPU (preemption off: lockdep_assert_held). */
static inline bool spin_is_locked_here(spinlock_t *l)
{
	return l->locked == spin_owner_here();
}

#define spin_lock_irqsave(l, flags)           \
	do {                                  \
		(flags) = local_irq_save();   \
		spin_lock(l);                 \
	} while (0)

/* Interrupts back on before preemption is: a switch the section held
 * off can then happen at once, not at the next tick. */
static inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	spin_release_hook(l);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	local_irq_restore(flags);
	preempt_enable();
}

#endif
