/*
 * mm/slab_test.c: self-test "kmalloc".
 *
 * A random mix of allocations and frees, sizes 1 byte to 16 KiB, up to
 * SLOTS objects live at once. Every object is filled with a byte derived
 * from its slot and checked before it is freed, so overlapping objects or a
 * corrupted freelist show up. At the end everything is freed and the free
 * page count and kmalloc's object count must be exactly as before: no leak.
 */
#include <mm/slab.h>
#include <kernel/selftest.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#define SLOTS 1024
#define ROUNDS 20000

struct slot {
	unsigned char *p;
	size_t size;
};

static unsigned long lcg_state = 12345;

static unsigned long lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005UL + 1442695040888963407UL;
	return lcg_state >> 33;
}

/* Mostly small objects, some pages, an occasional 16 KiB one. */
static size_t random_size(void)
{
	unsigned long r = lcg() % 100;

	if (r < 70)
		return 1 + lcg() % 256;
	if (r < 95)
		return 1 + lcg() % 2048;
	return 1 + lcg() % 16384;
}

static bool slot_intact(struct slot *s, int i)
{
	for (size_t k = 0; k < s->size; k++)
		if (s->p[k] != (unsigned char)(i * 7 + s->size))
			return false;
	return true;
}

static int churn(struct slot *slots, unsigned long *allocs)
{
	for (int round = 0; round < ROUNDS; round++) {
		int i = lcg() % SLOTS;
		struct slot *s = &slots[i];

		if (s->p) {
			if (!slot_intact(s, i))
				return selftest_fail("object %p (%lu bytes) "
						     "was overwritten", s->p,
						     s->size);
			kfree(s->p);
			s->p = NULL;
			continue;
		}
		s->size = random_size();
		s->p = kmalloc(s->size, GFP_KERNEL);
		if (!s->p)
			return selftest_fail("kmalloc(%lu) failed", s->size);
		if (ksize(s->p) < s->size)
			return selftest_fail("ksize %lu < %lu", ksize(s->p),
					     s->size);
		memset(s->p, (unsigned char)(i * 7 + s->size), s->size);
		(*allocs)++;
	}
	return 0;
}

static int test_kmalloc(void)
{
	unsigned long free_before = nr_free_pages(), allocs = 0;
	struct kmalloc_stats before, after;
	struct slot *slots;
	int err;

	kmalloc_get_stats(&before);
	/* The table itself is 16 KiB: too big for a kernel stack. */
	slots = (struct slot *)__get_free_pages(__GFP_ZERO, 2);
	if (!slots)
		return selftest_fail("no memory for the slot table");
	err = churn(slots, &allocs);
	for (int i = 0; i < SLOTS; i++)
		kfree(slots[i].p);
	free_pages((unsigned long)slots, 2);
	if (err)
		return err;
	kmalloc_get_stats(&after);
	pr_info("selftest: kmalloc: %lu allocations checked\n", allocs);
	if (after.objects != before.objects ||
	    after.large_pages != before.large_pages)
		return selftest_fail("leak: %lu objects and %lu large pages "
				     "before, %lu and %lu after",
				     before.objects, before.large_pages,
				     after.objects, after.large_pages);
	if (nr_free_pages() != free_before)
		return selftest_fail("leak: %lu free pages before, %lu after",
				     free_before, nr_free_pages());
	return 0;
}
DEFINE_SELFTEST(kmalloc, test_kmalloc);
