/*
 * Held-lock assertions, Linux's lockdep_assert_held: a function whose
 * comment says "i_mutex held" says it in code too, and a caller that
 * forgot the lock is stopped at the first such function, with both the
 * lock's name and its holder in the report.
 *
 *	lockdep_assert_held(&inode->i_mutex);	held by current
 *	lockdep_assert_held(&mapping->tree_lock);	a spinlock: held at all
 *
 * A spinlock's word holds its holder's CPU: held "here" means by this
 * CPU (a spinlock holder is not preempted, so by the code running now).
 */
#ifndef _KERNEL_LOCKDEP_H
#define _KERNEL_LOCKDEP_H

#include <kernel/mutex.h>
#include <kernel/spinlock.h>
#include <kernel/sched.h>	/* current */

/* "fsx/9" into buf (or "nobody" for NULL), for lock reports. */
const char *lockdep_task_name(struct task_struct *t, char *buf, size_t size);

/* kernel/locking/lockdep.c: the reports; they panic. */
/* Where an assertion is: its file and line, the function it is in, and
 * that function's caller (the one that should have taken the lock, as
 * often as not: a lab's function calling a helper that asserts). */
struct lockdep_site {
	const char *file;
	int line;
	const char *func;
	unsigned long caller;
};

__cold __noreturn void lockdep_mutex_not_held(struct mutex *m, const char *name,
					      const struct lockdep_site *at);
__cold __noreturn void lockdep_spin_not_held(spinlock_t *l, const char *name,
					     const struct lockdep_site *at);

static inline void __lockdep_assert_mutex_held(struct mutex *m,
					       const char *name,
					       struct lockdep_site at)
{
	if (unlikely(!mutex_is_locked_by(m, get_current())))
		lockdep_mutex_not_held(m, name, &at);
}

static inline void __lockdep_assert_spin_held(spinlock_t *l, const char *name,
					      struct lockdep_site at)
{
	if (unlikely(!spin_is_locked_here(l)))
		lockdep_spin_not_held(l, name, &at);
}

#define lockdep_assert_held(l)                                           \
	_Generic((l), struct mutex * : __lockdep_assert_mutex_held,      \
		      spinlock_t * : __lockdep_assert_spin_held)(         \
		(l), #l,                                                  \
		(struct lockdep_site){ __FILE__, __LINE__, __func__,      \
			(unsigned long)__builtin_return_address(0) })

/* mutex.c, rwsem.c: current is about to wait for the lock l (taken at
 * ip): the order of l's class after each class current holds is checked
 * against every order seen so far, and learned (a trylock cannot
 * deadlock, and is not checked). */
void __lock_order_check(struct lockdep_map *l, unsigned long ip);
/* lockdep=off on the command line: no order checks (default on). */
extern bool lockdep_enabled;

/* Most mutexes are taken with none held: nothing to order them after. */
static inline void lock_order_check(struct lockdep_map *l, unsigned long ip)
{
	if (get_current()->lockdep_depth && lockdep_enabled)
		__lock_order_check(l, ip);
}

/* mutex.c, rwsem.c: l was taken at ip by current / is being released. */
void lock_acquired(struct lockdep_map *l, unsigned long ip);
void lock_released(struct lockdep_map *l);
/* Is l on current's held-lock stack? (-1: cannot tell, the stack
 * overflowed and l may be past its end.) For a lock that records no
 * owner of its own: an rw_semaphore held for read. */
int lockdep_current_holds(struct lockdep_map *l);
/* Print current's held mutexes, or another task's (task dump). */
void lockdep_print_held_locks(struct task_struct *t);

/* On the way back to user space: no lock may stay held. */
__cold __noreturn void lockdep_sys_exit_bug(void);
static inline void lockdep_sys_exit(void)
{
	if (unlikely(current->lockdep_depth || preempt_count()))
		lockdep_sys_exit_bug();
}

#endif
