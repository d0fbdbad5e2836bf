/*
 * lib/radix_tree.c: a sparse array of pointers, indexed by unsigned long.
 *
 * Roadmap: a tree of height h covers indices 0 .. 2^(6h)-1. The root points
 * at the top node (or, at height 0, directly at the item for index 0, so a
 * one-page file needs no node at all). Each node has 64 slots; inner slots
 * hold child nodes, slots of the bottom level hold the items. `count` is
 * the number of non-NULL slots, so a node that empties is freed at once and
 * the tree never holds memory for indices that have no item.
 *
 * Insertion first makes the tree tall enough (extend: push the current top
 * under a new node's slot 0), then walks down allocating missing nodes.
 * Deletion walks down remembering the path, clears the slot, frees nodes
 * that became empty, bottom up, then shrinks the tree while its top node
 * only uses slot 0. Linux's lib/radix-tree.c does the same with tags (dirty,
 * writeback) and RCU-safe lookups; pagelab has neither.
 *
 * Locking: none here. The caller serialises changes against each other and
 * against lookups (the page cache uses mapping->tree_lock).
 */
#include <kernel/radix_tree.h>
#include <kernel/spinlock.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include <kernel/fault_inject.h>

#define RADIX_TREE_MAX_HEIGHT \
	DIV_ROUND_UP(8 * sizeof(unsigned long), RADIX_TREE_MAP_SHIFT)

struct radix_tree_node {
	unsigned int count;	/* non-NULL slots */
	void *slots[RADIX_TREE_MAP_SIZE];
};

/* Largest index a tree of this height can hold. */
static unsigned long height_maxindex(unsigned int height)
{
	unsigned int bits = height * RADIX_TREE_MAP_SHIFT;

	return bits >= 8 * sizeof(unsigned long) ? ~0UL : (1UL << bits) - 1;
}

/*
 * Nodes set aside by radix_tree_preload for an insertion made under a
 * spinlock, where kmalloc may not sleep to reclaim memory. Linux keeps one
 * pool per CPU and returns from the preload with preemption disabled, so
 * the nodes are still there at the insert. pagelab keeps one pool for all,
 * under its own lock, and its callers stay preemptible: another task may
 * take the nodes between a preload and the insert that follows it, and
 * the insert then allocates with GFP_ATOMIC (which rarely fails: it may
 * use the reserve). The pool lock nests inside any tree's lock.
 */
static struct {
	unsigned int nr;
	struct radix_tree_node *nodes[RADIX_TREE_MAX_HEIGHT];
} preload_pool;
static DEFINE_SPINLOCK(preload_lock);

static struct radix_tree_node *pool_take(void)
{
	struct radix_tree_node *node = NULL;
	unsigned long flags;

	spin_lock_irqsave(&preload_lock, flags);
	if (preload_pool.nr)
		node = preload_pool.nodes[--preload_pool.nr];
	spin_unlock_irqrestore(&preload_lock, flags);
	return node;
}

/* Keep node (zeroed) in the pool if it has room; false if it had none. */
static bool pool_give(struct radix_tree_node *node)
{
	unsigned long flags;
	bool kept = false;

	memset(node, 0, sizeof(*node));
	spin_lock_irqsave(&preload_lock, flags);
	if (preload_pool.nr < RADIX_TREE_MAX_HEIGHT) {
		preload_pool.nodes[preload_pool.nr++] = node;
		kept = true;
	}
	spin_unlock_irqrestore(&preload_lock, flags);
	return kept;
}

static struct radix_tree_node *node_alloc(void)
{
	struct radix_tree_node *node = pool_take();

	if (node)
		return node;
	/* Not preloaded (or a bigger tree than the preload foresaw): the
	 * caller may hold a spinlock, so do not sleep; may use the reserve. */
	return kzalloc(sizeof(struct radix_tree_node), GFP_ATOMIC);
}

static void node_free(struct radix_tree_node *node)
{
	if (!pool_give(node))
		kfree(node);
}

void radix_tree_drain_preloads(void)
{
	struct radix_tree_node *node;

	while ((node = pool_take()))
		kfree(node);
}

int radix_tree_preload(gfp_t gfp)
{
	/* Memory short, as a test asks (/proc/fail/radix_preload): the
	 * callers' error paths (add_to_page_cache) are rarely run else. */
	if (should_fail(&fail_radix_preload))
		return -ENOMEM;
	while (READ_ONCE(preload_pool.nr) < RADIX_TREE_MAX_HEIGHT) {
		struct radix_tree_node *node =
			kzalloc(sizeof(struct radix_tree_node), gfp);

		if (!node)
			return -ENOMEM;
		/* kzalloc may have reclaimed page cache, and the nodes that
		 * freed refilled the pool meanwhile: full is full. */
		if (!pool_give(node)) {
			kfree(node);
			break;
		}
	}
	return 0;
}

/* Grow the tree until index fits. The old top goes into slot 0. */
static int radix_tree_extend(struct radix_tree_root *root, unsigned long index)
{
	unsigned int height = root->height + 1;

	while (index > height_maxindex(height))
		height++;
	if (!root->rnode) {
		root->height = height;
		return 0;
	}
	while (root->height < height) {
		struct radix_tree_node *node = node_alloc();

		if (!node)
			return -ENOMEM;
		node->slots[0] = root->rnode;
		node->count = 1;
		root->rnode = node;
		root->height++;
	}
	return 0;
}

/* The path from the top to the slot of index, for delete and pruning. */
struct radix_path {
	struct radix_tree_node *node;
	unsigned int offset;
};

/*
 * Fill path[] with the nodes on the way to index (top first); returns how
 * many levels were walked (fewer than the height when a node is missing).
 */
static unsigned int walk_path(struct radix_tree_root *root, unsigned long index,
			      struct radix_path *path)
{
	struct radix_tree_node *node = root->rnode;
	unsigned int shift = (root->height - 1) * RADIX_TREE_MAP_SHIFT;
	unsigned int level = 0;

	while (node && level < root->height) {
		path[level].node = node;
		path[level].offset = (index >> shift) & RADIX_TREE_MAP_MASK;
		node = node->slots[path[level].offset];
		shift -= RADIX_TREE_MAP_SHIFT;
		level++;
	}
	return level;
}

/* Free the nodes of path[0..levels) that are empty, bottom up. */
static void prune_path(struct radix_tree_root *root, struct radix_path *path,
		       unsigned int levels)
{
	while (levels--) {
		struct radix_tree_node *node = path[levels].node;

		if (node->count)
			break;
		node_free(node);
		if (levels) {
			path[levels - 1].node->slots[path[levels - 1].offset] =
				NULL;
			path[levels - 1].node->count--;
		} else {
			root->rnode = NULL;
			root->height = 0;
		}
	}
}

/* While the top node only uses slot 0, its child can be the top. */
static void radix_tree_shrink(struct radix_tree_root *root)
{
	while (root->height > 0) {
		struct radix_tree_node *node = root->rnode;

		if (node->count != 1 || !node->slots[0])
			break;
		root->rnode = node->slots[0];
		root->height--;
		node_free(node);
	}
}

int radix_tree_insert(struct radix_tree_root *root, unsigned long index,
		      void *item)
{
	struct radix_path path[RADIX_TREE_MAX_HEIGHT];
	struct radix_tree_node *node = NULL;
	unsigned int height, shift;
	void **slot;
	int err;

	if (index > height_maxindex(root->height)) {
		err = radix_tree_extend(root, index);
		if (err)
			return err;
	}
	slot = (void **)&root->rnode;
	height = root->height;
	shift = height ? (height - 1) * RADIX_TREE_MAP_SHIFT : 0;
	while (height > 0) {
		if (!*slot) {
			*slot = node_alloc();
			if (!*slot)
				goto nomem;
			if (node)
				node->count++;
		}
		node = *slot;
		slot = &node->slots[(index >> shift) & RADIX_TREE_MAP_MASK];
		shift -= RADIX_TREE_MAP_SHIFT;
		height--;
	}
	if (*slot)
		return -EEXIST;
	*slot = item;
	if (node)
		node->count++;
	return 0;

nomem:
	/* Do not leave the empty nodes this call made behind. */
	prune_path(root, path, walk_path(root, index, path));
	return -ENOMEM;
}

void *radix_tree_lookup(struct radix_tree_root *root, unsigned long index)
{
	struct radix_tree_node *node = root->rnode;
	unsigned int height = root->height;
	unsigned int shift;

	if (index > height_maxindex(height))
		return NULL;
	if (height == 0)
		return node;	/* the item for index 0, or NULL */
	shift = (height - 1) * RADIX_TREE_MAP_SHIFT;
	while (node && height > 1) {
		node = node->slots[(index >> shift) & RADIX_TREE_MAP_MASK];
		shift -= RADIX_TREE_MAP_SHIFT;
		height--;
	}
	return node ? node->slots[index & RADIX_TREE_MAP_MASK] : NULL;
}

void *radix_tree_delete(struct radix_tree_root *root, unsigned long index)
{
	struct radix_path path[RADIX_TREE_MAX_HEIGHT];
	struct radix_tree_node *leaf;
	unsigned int levels;
	void *item;

	if (index > height_maxindex(root->height))
		return NULL;
	if (root->height == 0) {
		item = root->rnode;
		root->rnode = NULL;
		return item;
	}
	levels = walk_path(root, index, path);
	if (levels < root->height)
		return NULL;
	leaf = path[levels - 1].node;
	item = leaf->slots[path[levels - 1].offset];
	if (!item)
		return NULL;
	leaf->slots[path[levels - 1].offset] = NULL;
	leaf->count--;
	prune_path(root, path, levels);
	radix_tree_shrink(root);
	return item;
}

/*
 * The first item with index >= first below slot, a subtree of the given
 * height whose indices start at base. Sets *found to its index.
 */
static void *next_item(void *slot, unsigned int height, unsigned long base,
		       unsigned long first, unsigned long *found)
{
	struct radix_tree_node *node = slot;
	unsigned int shift, off = 0;

	if (height == 0) {
		*found = base;
		return base >= first ? slot : NULL;
	}
	shift = (height - 1) * RADIX_TREE_MAP_SHIFT;
	if (first > base) {
		if (((first - base) >> shift) >= RADIX_TREE_MAP_SIZE)
			return NULL;
		off = (first - base) >> shift;
	}
	for (; off < RADIX_TREE_MAP_SIZE; off++) {
		void *item;

		if (!node->slots[off])
			continue;
		item = next_item(node->slots[off], height - 1,
				 base + ((unsigned long)off << shift), first,
				 found);
		if (item)
			return item;
	}
	return NULL;
}

unsigned int radix_tree_gang_lookup(struct radix_tree_root *root,
				    void **results, unsigned long first_index,
				    unsigned int max_items)
{
	unsigned int n = 0;
	unsigned long found;

	while (n < max_items && root->rnode) {
		void *item = next_item(root->rnode, root->height, 0,
				       first_index, &found);

		if (!item)
			break;
		results[n++] = item;
		if (found == ~0UL)
			break;
		first_index = found + 1;
	}
	return n;
}
