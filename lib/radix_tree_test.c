/*
 * lib/radix_tree_test.c: self-test "radix".
 *
 * Items at indices that need every tree height from 0 to 6 go in, are
 * found by lookup and by gang lookup in index order, and come out again;
 * the emptied tree is back at height 0 with no node. Then the reason for
 * radix_tree_preload: after a preload, an insertion that needs six new
 * nodes, made with interrupts off as under mapping->tree_lock, must
 * allocate nothing (the page cache once got ENOMEM from a write there,
 * with plenty of clean cache to reclaim). No kmalloc object may leak.
 */
#include <kernel/errno.h>
#include <kernel/radix_tree.h>
#include <kernel/selftest.h>
#include <asm/processor.h>
#include <mm/slab.h>

static const unsigned long indices[] = {
	0, 1, 63, 64, 4095, 4096, 1UL << 20, (1UL << 30) + 5, 1UL << 35,
};
#define NR_INDICES (sizeof(indices) / sizeof(indices[0]))

/* The item stored for index i: any non-NULL pointer that names it. */
static void *item(unsigned long i)
{
	return (void *)(0x1000 + i);
}

static unsigned long live_objects(void)
{
	struct kmalloc_stats st;

	kmalloc_get_stats(&st);
	return st.objects;
}

static int fill_and_empty(struct radix_tree_root *root)
{
	void *found[NR_INDICES + 1];
	unsigned int n;

	for (unsigned int i = 0; i < NR_INDICES; i++)
		if (radix_tree_insert(root, indices[i], item(indices[i])))
			return selftest_fail("insert %lu failed", indices[i]);
	if (radix_tree_insert(root, 64, item(1)) != -EEXIST)
		return selftest_fail("a second insert at 64 did not say EEXIST");
	for (unsigned int i = 0; i < NR_INDICES; i++)
		if (radix_tree_lookup(root, indices[i]) != item(indices[i]))
			return selftest_fail("lookup %lu", indices[i]);
	if (radix_tree_lookup(root, 65) || radix_tree_lookup(root, 1UL << 40))
		return selftest_fail("lookup of an absent index found something");
	n = radix_tree_gang_lookup(root, found, 2, NR_INDICES + 1);
	if (n != NR_INDICES - 2)
		return selftest_fail("gang lookup from 2: %u items", n);
	for (unsigned int i = 0; i < n; i++)
		if (found[i] != item(indices[i + 2]))
			return selftest_fail("gang lookup item %u out of order", i);
	for (unsigned int i = NR_INDICES; i-- > 0;)
		if (radix_tree_delete(root, indices[i]) != item(indices[i]))
			return selftest_fail("delete %lu", indices[i]);
	if (root->height || root->rnode)
		return selftest_fail("emptied tree: height %u, rnode %p",
				     root->height, root->rnode);
	return 0;
}

static int test_radix(void)
{
	struct radix_tree_root root = RADIX_TREE_INIT;
	struct selftest_mem mem;
	unsigned long before, flags;
	int err;

	selftest_mem_snapshot(&mem);	/* with the preload pool drained */
	err = fill_and_empty(&root);
	if (err)
		return err;

	if (radix_tree_preload(GFP_KERNEL))
		return selftest_fail("preload: no memory");
	before = live_objects();
	flags = local_irq_save();
	err = radix_tree_insert(&root, (1UL << 30) + 5, item(1));
	local_irq_restore(flags);
	if (err)
		return selftest_fail("preloaded insert failed: %d", err);
	if (root.height != 6 || live_objects() != before)
		return selftest_fail("preloaded insert: height %u, %ld kmalloc "
				     "objects more (want 6 and 0)", root.height,
				     (long)(live_objects() - before));
	radix_tree_delete(&root, (1UL << 30) + 5);
	return selftest_mem_check(&mem);
}
DEFINE_SELFTEST(radix, test_radix);
