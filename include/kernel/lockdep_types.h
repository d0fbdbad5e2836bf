/*
 * The held-lock stack a task carries (kernel/locking/lockdep.c): each
 * sleeping lock (mutex, rw_semaphore) it holds, with where it was taken.
 * Reports and the task dump list them; a task may not return to user
 * space with any. Separate from <kernel/lockdep.h> so <kernel/sched.h>
 * can embed it.
 */
#ifndef _KERNEL_LOCKDEP_TYPES_H
#define _KERNEL_LOCKDEP_TYPES_H

#define MAX_LOCK_DEPTH 16

/* A lock class is where its locks are initialised: mutex_init keeps a
 * static key at each call site (a DEFINE_MUTEX is a class of its own).
 * The validator learns the order of classes, not of single locks. */
struct lock_class_key {
	char unused;	/* a distinct address is all a key is */
};

/* What the validator knows of one lock, whatever its kind: each mutex,
 * rw_semaphore and spinlock embeds one (Linux's struct lockdep_map). */
struct lockdep_map {
	const char *name;	/* as initialised: "&inode->i_mutex" */
	struct lock_class_key *key;	/* its class; NULL: the lock itself */
	unsigned int class;	/* the validator's index + 1; 0: not
				 * looked up yet */
};

#define LOCKDEP_MAP_INIT(lname) { lname, NULL, 0 }

struct held_lock {
	struct lockdep_map *instance;
	unsigned long acquire_ip;	/* the lock call's return address */
};

#endif
