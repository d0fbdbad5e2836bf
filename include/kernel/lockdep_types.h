/*
 * The held-lock stack a task carries (kernel/locking/lockdep.c): each
 * sleeping lock (mutex) it holds, with where it was taken. Reports and
 * the task dump list them; a task may not return to user space with
 * any. Separate from <kernel/lockdep.h> so <kernel/sched.h> can embed it.
 */
#ifndef _KERNEL_LOCKDEP_TYPES_H
#define _KERNEL_LOCKDEP_TYPES_H

#define MAX_LOCK_DEPTH 16

struct mutex;

/* A lock class is where its locks are initialised: mutex_init keeps a
 * static key at each call site (a DEFINE_MUTEX is a class of its own).
 * The validator learns the order of classes, not of single locks. */
struct lock_class_key {
	char unused;	/* a distinct address is all a key is */
};

struct held_lock {
	struct mutex *instance;
	unsigned long acquire_ip;	/* the mutex_lock call's return address */
};

#endif
