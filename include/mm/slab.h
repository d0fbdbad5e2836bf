/*
 * kmalloc: small kernel objects (mm/slab.c). Sizes up to KMALLOC_MAX_CACHE
 * come from per-size caches of one-page slabs; bigger requests take whole
 * pages from the buddy allocator.
 */
#ifndef _MM_SLAB_H
#define _MM_SLAB_H

#include <mm/gfp.h>

#define KMALLOC_MIN_SIZE 16
#define KMALLOC_MAX_CACHE 2048

void kmalloc_init(void);
void *kmalloc(size_t size, gfp_t gfp);
void kfree(const void *ptr);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

/* Usable size of a kmalloc'ed object. */
size_t ksize(const void *ptr);

struct kmalloc_stats {
	unsigned long objects;	/* live kmalloc objects, all sizes */
	unsigned long slab_pages;
	unsigned long large_pages;
};
void kmalloc_get_stats(struct kmalloc_stats *st);

#endif
