/*
 * A small radix tree: a sparse array from unsigned long indices to non-NULL
 * pointers (lib/radix_tree.c). The page cache keys pages by their offset in
 * a file with it, so a huge sparse file costs memory only where it has pages.
 *
 * Each node has RADIX_TREE_MAP_SIZE slots and eats RADIX_TREE_MAP_SHIFT bits
 * of the index; the tree is as tall as the largest index needs and shrinks
 * back when it empties. Callers serialise modifications (the page cache
 * holds mapping->tree_lock, a spinlock), so insertion takes its nodes from
 * what radix_tree_preload set aside beforehand.
 */
#ifndef _KERNEL_RADIX_TREE_H
#define _KERNEL_RADIX_TREE_H

#include <kernel/types.h>
#include <mm/gfp.h>

#define RADIX_TREE_MAP_SHIFT 6
#define RADIX_TREE_MAP_SIZE (1UL << RADIX_TREE_MAP_SHIFT)
#define RADIX_TREE_MAP_MASK (RADIX_TREE_MAP_SIZE - 1)

struct radix_tree_node;

struct radix_tree_root {
	unsigned int height;	/* 0: empty, or only index 0 in rnode */
	struct radix_tree_node *rnode;	/* or the item itself at height 0 */
};

#define RADIX_TREE_INIT { 0, NULL }

static inline void INIT_RADIX_TREE(struct radix_tree_root *root)
{
	root->height = 0;
	root->rnode = NULL;
}

/*
 * Set aside the nodes an insertion can need, so that radix_tree_insert under
 * a spinlock allocates nothing. May sleep (gfp permitting); 0 or -ENOMEM.
 * Do not sleep between the preload and the insert (see lib/radix_tree.c).
 */
int radix_tree_preload(gfp_t gfp);
/* Free the spare nodes preloads set aside (leak checks compare without). */
void radix_tree_drain_preloads(void);

/* 0, -EEXIST when index is taken, -ENOMEM; item must not be NULL. */
int radix_tree_insert(struct radix_tree_root *root, unsigned long index,
		      void *item);
/* The item at index, or NULL. */
void *radix_tree_lookup(struct radix_tree_root *root, unsigned long index);
/* Remove and return the item at index (NULL if none); frees empty nodes. */
void *radix_tree_delete(struct radix_tree_root *root, unsigned long index);
/*
 * Up to max_items items with index >= first_index, in index order, stored
 * in results; returns how many. Callers continue from the last item's
 * index + 1 (the page cache reads it from page->index).
 */
unsigned int radix_tree_gang_lookup(struct radix_tree_root *root,
				    void **results, unsigned long first_index,
				    unsigned int max_items);

#endif
