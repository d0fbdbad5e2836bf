/*
 * kernel/locking/rwsem.c: reader-writer semaphores (<kernel/rwsem.h>).
 *
 * count says who holds the lock: n > 0 readers, -1 one writer, 0 nobody.
 * It changes only under wait_lock, a real spinlock, so the lock is right
 * on several CPUs without help from preemption.
 *
 * Fairness is a queue with hand-off. A task that cannot have the lock at
 * once, or finds anyone waiting, joins the tail of wait_list and sleeps.
 * Whoever leaves the lock free (or to readers only) grants it to the head
 * of the queue, the first writer alone or every reader up to the next
 * writer: it counts them in itself and then wakes them. A woken waiter
 * already holds the lock, so no newcomer can take it between the wake-up
 * and the waiter's running, and nobody waits for ever behind newcomers.
 * (Linux's rwsem lets newcomers in first and hands off only to a waiter
 * that waited too long; always handing off is simpler and slower.)
 *
 * A waiter looks at its `granted` only under wait_lock, which the granter
 * holds until it has woken it: so the waiter, whose record lives on its
 * stack, cannot return (and its task cannot exit) under the granter.
 *
 * Roadmap: rwsem_grant and rwsem_wait, the hand-off; down/up, the
 * trylocks and downgrade_write; the reports and assertions.
 */
#include <kernel/rwsem.h>
#include <kernel/explore.h>
#include <kernel/lockdep.h>
#include <kernel/sched.h>
#include <kernel/panic.h>
#include <kernel/printk.h>

struct rwsem_waiter {
	struct list_head list;	/* on sem->wait_list */
	struct task_struct *task;
	bool write;
	bool granted;		/* the lock is ours (under wait_lock) */
};

void __init_rwsem(struct rw_semaphore *sem, const char *name,
		  struct lock_class_key *key)
{
	spin_lock_init(&sem->wait_lock);
	sem->count = 0;
	sem->owner = NULL;
	INIT_LIST_HEAD(&sem->wait_list);
	sem->dep_map = (struct lockdep_map){ name, key, 0 };
}

/* wait_lock held, and nobody holds sem for write: hand it to the waiters
 * at the head of the queue that may share it with the holders now. */
static void rwsem_grant(struct rw_semaphore *sem)
{
	struct rwsem_waiter *w, *next;

	list_for_each_entry_safe(w, next, &sem->wait_list, list) {
		if (w->write && sem->count)
			break;	/* readers still in: the writer waits on */
		if (w->write) {
			sem->count = -1;
			sem->owner = w->task;
		} else {
			sem->count++;
		}
		list_del(&w->list);
		w->granted = true;
		wake_up_process(w->task);
		if (sem->count < 0)
			break;	/* a writer goes in alone */
	}
}

/* wait_lock held: queue current and sleep until the lock is granted.
 * Returns holding sem, with wait_lock released. */
static void __sched rwsem_wait(struct rw_semaphore *sem, bool write)
{
	struct rwsem_waiter w = { .task = current, .write = write };

	list_add_tail(&w.list, &sem->wait_list);
	while (!w.granted) {
		/* Set under wait_lock: a grant after the unlock finds us
		 * asleep or about to be, and wakes us either way. */
		current->state = TASK_UNINTERRUPTIBLE;
		spin_unlock(&sem->wait_lock);
		schedule();
		spin_lock(&sem->wait_lock);
	}
	current->state = TASK_RUNNING;
	spin_unlock(&sem->wait_lock);
}

static __cold __noreturn void rwsem_bug(struct rw_semaphore *sem,
					const char *op, const char *what)
{
	char by[40], holder[40];

	console_loglevel = 15;
	printk(KERN_EMERG "BUG: %s of %s by %s, %s; it is held %s%s\n", op,
	       sem->dep_map.name, lockdep_task_name(current, by, sizeof(by)),
	       what, sem->count < 0 ? "for write by " :
	       sem->count ? "for read" : "by nobody",
	       sem->count < 0 ? lockdep_task_name(sem->owner, holder,
						  sizeof(holder)) : "");
	lockdep_print_held_locks(current);
	panic("%s of %s: %s", op, sem->dep_map.name, what);
}

/* Taking sem again while holding it waits for ourselves as soon as a
 * writer queues in between: say so now, on the first run that does it. */
static void rwsem_check_recursion(struct rw_semaphore *sem, const char *op)
{
	if (sem->owner == current ||
	    lockdep_current_holds(&sem->dep_map) == 1)
		rwsem_bug(sem, op, "which it holds already (recursive locking "
			  "deadlocks once a writer waits)");
}

void __sched down_read(struct rw_semaphore *sem)
{
	unsigned long ip = _RET_IP_;

	might_sleep();
	rwsem_check_recursion(sem, "down_read");
	lock_order_check(&sem->dep_map, ip);	/* before we may wait */
	explore_point(EP_LOCK, ip);
	spin_lock(&sem->wait_lock);
	if (sem->count >= 0 && list_empty(&sem->wait_list)) {
		sem->count++;
		spin_unlock(&sem->wait_lock);
	} else {
		rwsem_wait(sem, false);
	}
	lock_acquired(&sem->dep_map, ip);
}

void __sched down_write(struct rw_semaphore *sem)
{
	unsigned long ip = _RET_IP_;

	might_sleep();
	rwsem_check_recursion(sem, "down_write");
	lock_order_check(&sem->dep_map, ip);
	explore_point(EP_LOCK, ip);
	spin_lock(&sem->wait_lock);
	if (sem->count == 0 && list_empty(&sem->wait_list)) {
		sem->count = -1;
		sem->owner = current;
		spin_unlock(&sem->wait_lock);
	} else {
		rwsem_wait(sem, true);
	}
	lock_acquired(&sem->dep_map, ip);
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	bool taken;

	spin_lock(&sem->wait_lock);
	taken = sem->count >= 0 && list_empty(&sem->wait_list);
	if (taken)
		sem->count++;
	spin_unlock(&sem->wait_lock);
	if (taken)
		lock_acquired(&sem->dep_map, _RET_IP_);
	return taken;
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	bool taken;

	spin_lock(&sem->wait_lock);
	taken = sem->count == 0 && list_empty(&sem->wait_list);
	if (taken) {
		sem->count = -1;
		sem->owner = current;
	}
	spin_unlock(&sem->wait_lock);
	if (taken)
		lock_acquired(&sem->dep_map, _RET_IP_);
	return taken;
}

/* Only a task that holds it may release it: anything else is two paths
 * that each think they own the section (or a lost up_read). */
void up_read(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	if (unlikely(sem->count <= 0 ||
		     !lockdep_current_holds(&sem->dep_map))) {
		spin_unlock(&sem->wait_lock);
		rwsem_bug(sem, "up_read", "which does not hold it for read");
	}
	if (--sem->count == 0)
		rwsem_grant(sem);
	spin_unlock(&sem->wait_lock);
	lock_released(&sem->dep_map);
	explore_point(EP_UNLOCK, _RET_IP_);
}

void up_write(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	if (unlikely(sem->count >= 0 || sem->owner != current)) {
		spin_unlock(&sem->wait_lock);
		rwsem_bug(sem, "up_write", "which does not hold it for write");
	}
	sem->count = 0;
	sem->owner = NULL;
	rwsem_grant(sem);
	spin_unlock(&sem->wait_lock);
	lock_released(&sem->dep_map);
	explore_point(EP_UNLOCK, _RET_IP_);
}

/* The held-lock entry stays: the lock is still held, for read now. */
void downgrade_write(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	if (unlikely(sem->count >= 0 || sem->owner != current)) {
		spin_unlock(&sem->wait_lock);
		rwsem_bug(sem, "downgrade_write",
			  "which does not hold it for write");
	}
	sem->count = 1;
	sem->owner = NULL;
	rwsem_grant(sem);	/* the readers at the head come in too */
	spin_unlock(&sem->wait_lock);
}

/* ---- assertions ---------------------------------------------------------- */

bool rwsem_held_write_by_current(struct rw_semaphore *sem)
{
	return READ_ONCE(sem->count) < 0 && READ_ONCE(sem->owner) == current;
}

/* Readers are not recorded in sem: current's held-lock stack says whether
 * it is one (and when that stack overflowed, we cannot tell: held). */
bool rwsem_held_by_current(struct rw_semaphore *sem)
{
	return rwsem_held_write_by_current(sem) ||
	       (READ_ONCE(sem->count) > 0 &&
		lockdep_current_holds(&sem->dep_map) != 0);
}

void rwsem_not_held(struct rw_semaphore *sem, bool write, const char *func,
		    const char *file, int line)
{
	char by[40], holder[40];
	long count = READ_ONCE(sem->count);

	console_loglevel = 15;
	printk(KERN_EMERG "BUG: %s must be held%s in %s (%s:%d), by %s; it is "
	       "held %s%s\n", sem->dep_map.name, write ? " for write" : "",
	       func, file, line, lockdep_task_name(current, by, sizeof(by)),
	       count < 0 ? "for write by " : count ? "for read" : "by nobody",
	       count < 0 ? lockdep_task_name(sem->owner, holder,
					     sizeof(holder)) : "");
	lockdep_print_held_locks(current);
	panic("lock %s not held%s in %s", sem->dep_map.name,
	      write ? " for write" : "", func);
}
