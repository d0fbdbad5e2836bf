/*
 * Sleeping mutexes (kernel/locking/mutex.c): for long critical sections in
 * process context, such as an inode's i_mutex. Never from interrupts.
 */
#ifndef _KERNEL_MUTEX_H
#define _KERNEL_MUTEX_H

#include <kernel/wait.h>

struct mutex {
	int locked;
	struct task_struct *owner;
	wait_queue_head_t wait;
};

#define DEFINE_MUTEX(name) \
	struct mutex name = { 0, NULL, __WAIT_QUEUE_HEAD_INITIALIZER(name.wait) }

void mutex_init(struct mutex *m);
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
