/*
 * kernel/locking/mutex.c: sleeping locks. A waiter sleeps on m->wait until
 * the holder's unlock wakes it, then competes again for the lock.
 */
#include <kernel/lockdep.h>
#include <kernel/explore.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/panic.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>

void __mutex_init(struct mutex *m, const char *name,
		  struct lock_class_key *key)
{
	m->locked = 0;
	m->owner = NULL;
	m->dep_map = (struct lockdep_map){ name, key, 0 };
	init_waitqueue_head(&m->wait);
}

static bool __mutex_trylock(struct mutex *m, unsigned long ip)
{
	if (__atomic_exchange_n(&m->locked, 1, __ATOMIC_ACQUIRE))
		return false;
	m->owner = current;
	lock_acquired(&m->dep_map, ip);
	return true;
}

bool mutex_trylock(struct mutex *m)
{
	return __mutex_trylock(m, _RET_IP_);
}

void __sched mutex_lock(struct mutex *m)
{
	unsigned long ip = _RET_IP_;

	might_sleep();
	if (mutex_is_locked_by(m, current))
		panic("mutex_lock: recursive locking of %s by pid %d",
		      m->dep_map.name, current->pid);
	lock_order_check(&m->dep_map, ip);	/* before we may wait: a deadlock */
	explore_point(EP_LOCK, ip);
	wait_event(m->wait, __mutex_trylock(m, ip));
}

int __sched mutex_lock_interruptible(struct mutex *m)
{
	unsigned long ip = _RET_IP_;

	might_sleep();
	lock_order_check(&m->dep_map, ip);
	explore_point(EP_LOCK, ip);
	return wait_event_interruptible(m->wait, __mutex_trylock(m, ip)) ?
		-EINTR : 0;
}

static __cold __noreturn void mutex_unlock_bug(struct mutex *m)
{
	char held[40], by[40];

	printk(KERN_EMERG "BUG: mutex_unlock of %s mutex %s by %s, %s %s\n",
	       m->locked ? "a" : "an unlocked", m->dep_map.name,
	       lockdep_task_name(current, by, sizeof(by)),
	       m->locked ? "which is held by" : "held by",
	       lockdep_task_name(m->owner, held, sizeof(held)));
	panic("mutex_unlock by a task that does not hold the mutex");
}

/* Only the task that took a mutex may release it: anything else is two
 * paths that each think they own the critical section. */
void mutex_unlock(struct mutex *m)
{
	if (unlikely(!mutex_is_locked_by(m, current)))
		mutex_unlock_bug(m);
	lock_released(&m->dep_map);
	m->owner = NULL;
	__atomic_store_n(&m->locked, 0, __ATOMIC_RELEASE);
	wake_up(&m->wait);
	explore_point(EP_UNLOCK, _RET_IP_);
}

bool mutex_is_locked(struct mutex *m)
{
	return m->locked;
}
