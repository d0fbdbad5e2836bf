/*
 * Completions: one task waits until another (or an interrupt handler)
 * says "done". The waiter sleeps uninterruptibly: I/O must finish.
 */
#ifndef _KERNEL_COMPLETION_H
#define _KERNEL_COMPLETION_H

#include <kernel/wait.h>

struct completion {
	volatile bool done;
	wait_queue_head_t wait;
};

static inline void init_completion(struct completion *c)
{
	c->done = false;
	init_waitqueue_head(&c->wait);
}

/* Safe from interrupt handlers. */
static inline void complete(struct completion *c)
{
	c->done = true;
	wake_up(&c->wait);
}

static inline void wait_for_completion(struct completion *c)
{
	wait_event(c->wait, c->done);
}

#endif
