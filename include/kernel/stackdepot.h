/*
 * A store of call stacks, each kept once (lib/stackdepot.c; Linux has
 * lib/stackdepot.c for the same job). A checker that wants to remember
 * where something happened to each of many objects (mm/page_owner.c: who
 * allocated, locked and took references on every page) keeps a 32-bit
 * handle per event instead of the frames themselves: the same few hundred
 * call paths take nearly every reference.
 */
#ifndef _KERNEL_STACKDEPOT_H
#define _KERNEL_STACKDEPOT_H

#include <kernel/types.h>

/* 0 is "no stack" (never recorded, or the depot was full). */
typedef u32 depot_stack_handle_t;

#define STACK_DEPOT_FRAMES 6

/* Make room for the depot (from memblock, at boot): once, before the
 * first save. Returns false when there is no memory for it. */
bool stack_depot_init(void);

/* The stack of whoever called our caller's caller ... : skip frames above
 * the caller of stack_depot_capture are dropped first (skip 0: the
 * stack begins at the caller of the function that calls us). */
depot_stack_handle_t stack_depot_capture(unsigned int skip);

/* The frames of a handle (return addresses, innermost first) into
 * entries; returns how many (0 for handle 0). */
unsigned int stack_depot_fetch(depot_stack_handle_t h,
			       unsigned long entries[STACK_DEPOT_FRAMES]);

/* "f+0x1/0x20 <- g+0x2/0x40 <- ..." (at most depth frames) into buf. */
void stack_depot_snprint(depot_stack_handle_t h, unsigned int depth,
			 char *buf, size_t size);

#endif
