/*
 * Sleeping mutexes (kernel/locking/mutex.c): for long critical sections in
 * process context, such as an inode's i_mutex. Never from interrupts.
 */
#ifndef _KERNEL_MUTEX_H
#define _KERNEL_MUTEX_H

#include <kernel/wait.h>
#include <kernel/lockdep_types.h>

struct mutex {
	int locked;
	struct task_struct *owner;
	wait_queue_head_t wait;
	struct lockdep_map dep_map;	/* its name and class */
};

#define DEFINE_MUTEX(mname)                                              \
	struct mutex mname = { 0, NULL,                                  \
			       __WAIT_QUEUE_HEAD_INITIALIZER(mname.wait),   \
			       LOCKDEP_MAP_INIT(#mname) }

void __mutex_init(struct mutex *m, const char *name,
		  struct lock_class_key *key);
/* The name is the expression initialised, as Linux's lockdep names a
 * lock class: reports then say "&inode->i_mutex", not an address. */
#define mutex_init(m)                                                   \
	do {                                                             \
		static struct lock_class_key __key;                      \
		__mutex_init((m), #m, &__key);                           \
	} while (0)
void mutex_lock(struct mutex *m);
/* 0, or -EINTR when a signal arrived while waiting. */
int mutex_lock_interruptible(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_locked(struct mutex *m);
/* Held, and by task (current, in assertions). */
static inline bool mutex_is_locked_by(struct mutex *m, struct task_struct *task)
{
	return m->locked && m->owner == task;
}

#endif
