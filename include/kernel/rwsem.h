/*
 * Reader-writer semaphores (kernel/locking/rwsem.c): a sleeping lock that
 * many readers may hold at once, or one writer alone. For long sections
 * in process context that mostly read, such as a process's VMA list
 * (mm->mmap_lock). Never from interrupts.
 *
 *	down_read(&sem);  ...look...  up_read(&sem);
 *	down_write(&sem); ...change... up_write(&sem);
 *
 * Fair: waiters are served in the order they came, and a newcomer does not
 * slip past one that waits, so a stream of readers cannot starve a writer
 * (nor a stream of writers a reader). The price is Linux's: a task that
 * holds it for read must not take it for read again, since a writer
 * waiting in between blocks the second down_read for ever (the validator
 * reports such a recursion at once).
 *
 * Roadmap: the structure and its initialisers; lock and unlock; the
 * assertions, which say which lock, where, and who holds it.
 */
#ifndef _KERNEL_RWSEM_H
#define _KERNEL_RWSEM_H

#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/lockdep_types.h>

struct task_struct;

struct rw_semaphore {
	spinlock_t wait_lock;	/* count, owner and the wait list */
	long count;		/* readers holding it; -1: a writer does */
	struct task_struct *owner;	/* the writer, for assertions */
	struct list_head wait_list;	/* struct rwsem_waiter, oldest first */
	struct lockdep_map dep_map;
};

#define __RWSEM_INITIALIZER(name)                                         \
	{ SPIN_LOCK_UNLOCKED, 0, NULL, LIST_HEAD_INIT((name).wait_list),    \
	  LOCKDEP_MAP_INIT(#name) }
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)

void __init_rwsem(struct rw_semaphore *sem, const char *name,
		  struct lock_class_key *key);
/* One class per call site, named as the expression initialised
 * ("&mm->mmap_lock"), as mutex_init does. */
#define init_rwsem(sem)                                                   \
	do {                                                              \
		static struct lock_class_key __key;                       \
		__init_rwsem((sem), #sem, &__key);                        \
	} while (0)

void down_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
/* true when taken; never sleeps, and never takes it past a waiter. */
bool down_read_trylock(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* Held for write by current: keep it for read, and let the readers
 * waiting at the head of the queue in with us. */
void downgrade_write(struct rw_semaphore *sem);

static inline bool rwsem_is_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) != 0;
}

/* Held by current: for write / either way. A failed one names the lock
 * (as initialised: "&mm->mmap_lock"), the function that needs it, the
 * place, and who holds it, then panics: the backtrace shows the caller
 * that came without it. */
__cold __noreturn void rwsem_not_held(struct rw_semaphore *sem, bool write,
				      const char *func, const char *file,
				      int line);
bool rwsem_held_by_current(struct rw_semaphore *sem);
bool rwsem_held_write_by_current(struct rw_semaphore *sem);

#define __rwsem_assert(sem, write, held)                                  \
	do {                                                              \
		if (unlikely(!(held)))                                    \
			rwsem_not_held((sem), (write), __func__, __FILE__,\
				       __LINE__);                         \
	} while (0)
#define rwsem_assert_held(sem)                                            \
	__rwsem_assert((sem), false, rwsem_held_by_current(sem))
#define rwsem_assert_held_write(sem)                                      \
	__rwsem_assert((sem), true, rwsem_held_write_by_current(sem))

#endif
