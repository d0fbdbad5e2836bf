/*
 * mm/slab.h: what mm/slab.c (the allocator) and mm/slab_debug.c (its
 * checker) share. The rest of the kernel sees include/mm/slab.h; Linux
 * splits mm/slab.h from include/linux/slab.h the same way.
 *
 * A slab is one page cut into equal pieces of c->size bytes. Without
 * slub_debug a piece is just the object's slot, its power of two
 * (size == object_size), and a free object holds the free pointer in its
 * first word. With slub_debug (the default) each piece reads
 *
 *	| red zone | slot, object_size bytes        | red zone | track    |
 *	| 16 bytes | asked for  | the rest: red zone | 16 bytes | 32 bytes |
 *	           ^ what kmalloc returns (16-byte aligned)
 *
 * The track keeps the size asked for and the last kmalloc and kfree
 * callers beside each object rather than in an array per slab: the
 * address of an object gives its track by an addition, and the slab's
 * page needs nothing more than it has. The free pointer moves into the
 * track too, so that poison can cover the whole object and a write
 * after free cannot send the freelist astray.
 */
#ifndef _MM_SLAB_INTERNAL_H
#define _MM_SLAB_INTERNAL_H

#include <mm/slab.h>
#include <kernel/list.h>

#define SLAB_RED_LEFT 16	/* keeps the object 16-byte aligned */
#define SLAB_RED_RIGHT 16	/* a red zone even for an exact fit */

struct slab_track {
	void *free_next;	/* while free: the next free object */
	unsigned long alloc_ip;	/* kmalloc's caller */
	unsigned long free_ip;	/* kfree's caller (0: never freed yet) */
	unsigned int size;	/* bytes the caller asked for */
	unsigned int live;	/* 1 from kmalloc to kfree */
};

struct kmem_cache {
	const char *name;
	unsigned int object_size;	/* the slot, the name's power of two */
	unsigned int size;		/* a piece: slot, red zones, track */
	unsigned int red_left_pad;	/* piece start to object */
	unsigned int offset;		/* object to its free pointer */
	unsigned int objects_per_slab;
	struct list_head partial;	/* slabs with a free object */
	unsigned long objects;		/* live objects */
	unsigned long slabs;
};

extern bool slub_debug;

static inline void *get_freepointer(const struct kmem_cache *c, void *obj)
{
	return *(void **)((char *)obj + c->offset);
}

static inline void set_freepointer(const struct kmem_cache *c, void *obj,
				   void *next)
{
	*(void **)((char *)obj + c->offset) = next;
}

/* Only with slub_debug. */
static inline struct slab_track *get_track(const struct kmem_cache *c,
					   const void *obj)
{
	return (struct slab_track *)((char *)obj + c->object_size +
				     SLAB_RED_RIGHT);
}

/* mm/slab_debug.c; each is called only with slub_debug on. */
void init_object(struct kmem_cache *c, void *obj);
void alloc_debug(struct kmem_cache *c, void *obj, size_t size,
		 unsigned long ip);
void free_debug(struct kmem_cache *c, void *obj, unsigned long ip);
void check_free_object(struct kmem_cache *c, void *obj);

#endif
