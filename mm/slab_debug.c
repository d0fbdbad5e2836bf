/*
 * mm/slab_debug.c: kmalloc's checker, Linux's slub_debug made small.
 *
 * On unless slub_debug=off. mm/slab.c calls in here at four points, each
 * on an object only its caller can reach, so slab_lock is not held:
 *
 *	init_object	a new slab's object: free, as below
 *	alloc_debug	kmalloc takes a free object: is its poison intact?
 *	free_debug	kfree gets a live object: are its red zones intact?
 *	check_free_object  alloc_debug's check, on each object of a slab
 *			going back to the page allocator
 *
 * A free object is poison (0x6b) from end to end of its slot, between two
 * red zones (0xcc); a live one has the caller's bytes up to the size it
 * asked for, and red zone from there to 16 bytes past the slot. mm/slab.h
 * draws one. The track beside each object (struct slab_track) keeps the size
 * asked for and the callers of its last kmalloc and kfree, and every
 * report shows them: the kmalloc of a live object, the kfree and the
 * kmalloc of its previous life for a free one.
 *
 * The checks run at kmalloc and kfree, never on a timer: a write past an
 * object is found when that object is freed (the backtrace is the kfree
 * that found it), a write after free when the object is handed out again
 * or its slab is given back (the kfree that freed it is in the report).
 * An object never freed is never checked, and a stray write that jumps
 * over a red zone into the next object is not seen as one: Linux's
 * KASAN, which checks every access, is the tool for those.
 *
 * Costs: 64 bytes more per object (kmalloc-16 fits 51 a page, not 256),
 * a fill of the object at each kfree and a compare of it at each kmalloc
 * (doc/checkers.md has the figures). Linux: mm/slub.c,
 * alloc_debug_processing, free_debug_processing, check_object.
 */
#include "slab.h"
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#define POISON_FREE 0x6b	/* Linux's, from include/linux/poison.h */
#define RED_ACTIVE 0xcc

bool slub_debug = true;

static int set_slub_debug(const char *val)
{
	return param_set_onoff(val, &slub_debug);
}
__setup("slub_debug", set_slub_debug);

/* ---- reports ------------------------------------------------------------ */

/* The 16 bytes around obj[off], as page poisoning shows a page's. */
static void print_bytes(const u8 *obj, int off)
{
	int from = off < 0 ? -16 : off & ~15;

	printk(KERN_EMERG "bytes %d%s%d:", from, from < 0 ? " to " : "-",
	       from + 15);
	for (int i = from; i < from + 16; i++)
		printk(KERN_CONT " %02x", obj[i]);
	printk(KERN_CONT "\n");
}

static void print_sites(const struct slab_track *t)
{
	if (t->live && t->free_ip)
		printk(KERN_EMERG "allocated at %pS (its previous life freed "
		       "at %pS)\n", (void *)t->alloc_ip, (void *)t->free_ip);
	else if (t->live)
		printk(KERN_EMERG "allocated at %pS (never freed before)\n",
		       (void *)t->alloc_ip);
	else if (t->alloc_ip)
		printk(KERN_EMERG "freed at %pS (allocated at %pS)\n",
		       (void *)t->free_ip, (void *)t->alloc_ip);
	else
		printk(KERN_EMERG "never allocated (a new slab's object)\n");
}

/*
 * A red zone byte of obj is not RED_ACTIVE, at off from the object's
 * start (negative: before it).
 */
static __cold __noreturn void redzone_bug(struct kmem_cache *c, u8 *obj,
					  int off)
{
	const struct slab_track *t = get_track(c, obj);

	console_loglevel = 15;
	printk(KERN_EMERG "BUG: %s: red zone overwritten %s %sobject %p "
	       "(size %u, %u-byte slot): byte 0x%02x at %s%d\n", c->name,
	       off < 0 ? "before" : "after", t->live ? "" : "freed ", obj,
	       t->size, c->object_size, obj[off], off < 0 ? "" : "+", off);
	print_bytes(obj, off);
	print_sites(t);
	panic("%s: red zone overwritten", c->name);
}

/* A freed object's poison byte at obj[off] was written. */
static __cold __noreturn void poison_bug(struct kmem_cache *c, u8 *obj,
					 int off)
{
	console_loglevel = 15;
	printk(KERN_EMERG "BUG: %s: poison overwritten in freed object %p "
	       "(%u-byte slot): byte 0x%02x at +%d, not 0x%02x: written "
	       "after kfree\n", c->name, obj, c->object_size, obj[off], off,
	       POISON_FREE);
	print_bytes(obj, off);
	print_sites(get_track(c, obj));
	panic("%s: poison overwritten (a write after kfree)", c->name);
}

static __cold __noreturn void double_free_bug(struct kmem_cache *c, u8 *obj)
{
	console_loglevel = 15;
	printk(KERN_EMERG "BUG: %s: double free of object %p (%u-byte slot)\n",
	       c->name, obj, c->object_size);
	print_sites(get_track(c, obj));
	panic("kfree: double free of %p (%s)", obj, c->name);
}

/* ---- checks ------------------------------------------------------------- */

/* The red zone before obj, and the one after it from byte `from` on. */
static void check_redzones(struct kmem_cache *c, u8 *obj, unsigned int from)
{
	u8 *bad = memchr_inv(obj - SLAB_RED_LEFT, RED_ACTIVE, SLAB_RED_LEFT);

	if (!bad)
		bad = memchr_inv(obj + from, RED_ACTIVE,
				 c->object_size + SLAB_RED_RIGHT - from);
	if (unlikely(bad))
		redzone_bug(c, obj, bad - obj);
}

void init_object(struct kmem_cache *c, void *obj)
{
	u8 *p = obj;

	memset(p - SLAB_RED_LEFT, RED_ACTIVE, SLAB_RED_LEFT);
	memset(p, POISON_FREE, c->object_size);
	memset(p + c->object_size, RED_ACTIVE, SLAB_RED_RIGHT);
	memset(get_track(c, obj), 0, sizeof(struct slab_track));
}

/* A free object: poison from end to end, red zones intact. */
void check_free_object(struct kmem_cache *c, void *obj)
{
	u8 *p = obj, *bad = memchr_inv(p, POISON_FREE, c->object_size);

	if (unlikely(bad))
		poison_bug(c, p, bad - p);
	check_redzones(c, p, c->object_size);
}

/*
 * obj, just taken off the freelist, goes to a caller of kmalloc(size)
 * at ip. The bytes past size become red zone; the caller's stay poison,
 * so that a read of memory never written shows 0x6b6b...
 */
void alloc_debug(struct kmem_cache *c, void *obj, size_t size,
		 unsigned long ip)
{
	struct slab_track *t = get_track(c, obj);
	u8 *p = obj;

	check_free_object(c, p);
	memset(p + size, RED_ACTIVE, c->object_size - size);
	t->size = size;
	t->alloc_ip = ip;
	t->live = 1;
}

/* kfree(obj) called at ip: check, then poison. */
void free_debug(struct kmem_cache *c, void *obj, unsigned long ip)
{
	struct slab_track *t = get_track(c, obj);

	if (unlikely(!t->live))
		double_free_bug(c, obj);
	check_redzones(c, obj, t->size);
	memset(obj, POISON_FREE, c->object_size);
	t->free_ip = ip;
	t->live = 0;
}
