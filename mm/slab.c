/*
 * mm/slab.c: kmalloc and kfree.
 *
 * One cache per power-of-two size from 16 to 2048 bytes. A slab is one page
 * cut into equal objects; free objects are chained through a free pointer
 * (page->freelist, then the object's first word, or with slub_debug a word
 * beside it), page->private counts objects in use. A cache keeps its
 * slabs that still have room on `partial`; a slab that becomes full leaves
 * the list, and one that becomes empty goes back to the page allocator at
 * once, so kmalloc holds no memory it does not use (tests rely on that to
 * find leaks).
 *
 * Misuse panics: freeing an address inside an object, freeing twice, or
 * freeing memory kmalloc never returned. With slub_debug (on unless
 * slub_debug=off) each object also has red zones, poison when free and
 * the sites of its last kmalloc and kfree: mm/slab_debug.c checks them,
 * and mm/slab.h draws an object. /proc/slabinfo lists the caches.
 *
 * slab_lock (a spinlock, interrupts off: kmalloc is called from interrupt
 * handlers) protects the lists, the freelists and the counts. Pages are
 * allocated and freed outside it, and so are the debug checks, which run
 * on an object that only the caller can reach.
 */
#include "slab.h"
#include <kernel/init.h>
#include <kernel/panic.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <fs/proc_fs.h>

static struct kmem_cache kmalloc_caches[] = {
	{ "kmalloc-16", 16 },	{ "kmalloc-32", 32 },
	{ "kmalloc-64", 64 },	{ "kmalloc-128", 128 },
	{ "kmalloc-256", 256 },	{ "kmalloc-512", 512 },
	{ "kmalloc-1024", 1024 }, { "kmalloc-2048", 2048 },
};
static unsigned long large_pages;
static DEFINE_SPINLOCK(slab_lock);

/* A piece's size and layout (mm/slab.h), once slub_debug= is known. */
static void calculate_sizes(struct kmem_cache *c)
{
	if (slub_debug) {
		c->red_left_pad = SLAB_RED_LEFT;
		c->offset = c->object_size + SLAB_RED_RIGHT +
			    offsetof(struct slab_track, free_next);
		c->size = SLAB_RED_LEFT + c->object_size + SLAB_RED_RIGHT +
			  sizeof(struct slab_track);
	} else {
		c->red_left_pad = 0;
		c->offset = 0;
		c->size = c->object_size;
	}
	c->objects_per_slab = PAGE_SIZE / c->size;
}

/* Called after the command line is parsed, before the first kmalloc. */
void kmalloc_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_caches); i++) {
		calculate_sizes(&kmalloc_caches[i]);
		INIT_LIST_HEAD(&kmalloc_caches[i].partial);
	}
}

static struct kmem_cache *cache_for(size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_caches); i++)
		if (size <= kmalloc_caches[i].object_size)
			return &kmalloc_caches[i];
	return NULL;
}

/* The i-th object of the slab at base. */
static void *slab_object(struct kmem_cache *c, char *base, unsigned int i)
{
	return base + i * c->size + c->red_left_pad;
}

/*
 * Make page a fresh slab of c: every object on its freelist, in address
 * order. The page is still nobody else's: no lock needed.
 */
static void new_slab(struct kmem_cache *c, struct page *page)
{
	char *base = page_address(page);
	unsigned int n = c->objects_per_slab;

	for (unsigned int i = 0; i < n; i++) {
		void *obj = slab_object(c, base, i);

		if (slub_debug)
			init_object(c, obj);
		set_freepointer(c, obj,
				i + 1 < n ? slab_object(c, base, i + 1) : NULL);
	}
	SetPageSlab(page);
	page->slab_cache = c;
	page->freelist = slab_object(c, base, 0);
	page->private = 0;
}

/* Called with slab_lock held. */
static void add_partial(struct kmem_cache *c, struct page *page)
{
	list_add(&page->lru, &c->partial);
	c->slabs++;
}

/* An object from a slab with room, or NULL. Called with slab_lock held. */
static void *slab_alloc(struct kmem_cache *c)
{
	struct page *page;
	void *obj;

	if (list_empty(&c->partial))
		return NULL;
	page = list_first_entry(&c->partial, struct page, lru);
	obj = page->freelist;
	page->freelist = get_freepointer(c, obj);
	if (++page->private == c->objects_per_slab)
		list_del_init(&page->lru);	/* full: off the partial list */
	c->objects++;
	return obj;
}

static void *large_alloc(size_t size, gfp_t gfp)
{
	unsigned int order = 0;
	struct page *page;

	while ((PAGE_SIZE << order) < size)
		order++;
	page = alloc_pages(gfp, order);
	if (!page)
		return NULL;
	SetPageLargeKmalloc(page);
	page->private = order;
	__atomic_add_fetch(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	return page_address(page);
}

/*
 * kmalloc's caller is each object's allocation site (kzalloc is inline, so
 * its caller's address is the one recorded).
 */
void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *c = cache_for(size);
	unsigned long flags;
	void *obj;

	/* At every call, not only at the rare one that needs a new slab
	 * page (whose alloc_page checks again). */
	might_alloc(gfp);
	if (!c)
		return large_alloc(size, gfp);
	spin_lock_irqsave(&slab_lock, flags);
	obj = slab_alloc(c);
	spin_unlock_irqrestore(&slab_lock, flags);
	if (!obj) {	/* every slab full: a new one, made unlocked */
		struct page *page = alloc_page(gfp & ~__GFP_ZERO);

		if (!page)
			return NULL;
		new_slab(c, page);
		spin_lock_irqsave(&slab_lock, flags);
		add_partial(c, page);
		obj = slab_alloc(c);
		spin_unlock_irqrestore(&slab_lock, flags);
	}
	if (!obj)
		return NULL;
	if (slub_debug)	/* only this caller can reach obj: unlocked */
		alloc_debug(c, obj, size, _RET_IP_);
	else
		size = c->object_size;
	if (gfp & __GFP_ZERO)
		memset(obj, 0, size);
	return obj;
}

static void check_object_start(struct kmem_cache *c, const void *obj)
{
	unsigned long off = (unsigned long)obj & ~PAGE_MASK;

	if (off < c->red_left_pad || (off - c->red_left_pad) % c->size ||
	    (off - c->red_left_pad) / c->size >= c->objects_per_slab)
		panic("kfree: %p is not the start of a %s object", obj,
		      c->name);
}

/*
 * Called with slab_lock held. Returns the slab if it is now empty (off
 * the lists: nobody can take an object from it), for the caller to
 * discard once unlocked; NULL otherwise.
 */
static struct page *slab_free(struct page *page, void *obj)
{
	struct kmem_cache *c = page->slab_cache;

	for (void *f = page->freelist; f; f = get_freepointer(c, f))
		if (f == obj)
			panic("kfree: double free of %p (%s)", obj, c->name);
	set_freepointer(c, obj, page->freelist);
	page->freelist = obj;
	c->objects--;
	if (page->private-- == c->objects_per_slab)
		list_add(&page->lru, &c->partial);	/* was full */
	if (page->private)
		return NULL;
	list_del_init(&page->lru);
	c->slabs--;
	return page;
}

/*
 * An empty slab goes back to the page allocator. With slub_debug its
 * objects are checked first, as kmalloc would check them: a write after
 * kfree would otherwise vanish under page poisoning's fill.
 */
static void discard_slab(struct kmem_cache *c, struct page *page)
{
	if (slub_debug)
		for (unsigned int i = 0; i < c->objects_per_slab; i++)
			check_free_object(c, slab_object(c, page_address(page),
							 i));
	ClearPageSlab(page);
	page->slab_cache = NULL;
	page->freelist = NULL;
	__free_page(page);
}

void kfree(const void *ptr)
{
	struct page *page, *empty;
	unsigned long flags;

	if (!ptr)
		return;
	page = virt_to_page(ptr);
	if (PageSlab(page)) {
		struct kmem_cache *c = page->slab_cache;

		check_object_start(c, ptr);
		if (slub_debug)	/* still the caller's: unlocked */
			free_debug(c, (void *)ptr, _RET_IP_);
		spin_lock_irqsave(&slab_lock, flags);
		empty = slab_free(page, (void *)ptr);
		spin_unlock_irqrestore(&slab_lock, flags);
		if (empty)
			discard_slab(c, empty);
	} else if (PageLargeKmalloc(page) &&
		   !((unsigned long)ptr & ~PAGE_MASK)) {
		unsigned int order = page->private;

		ClearPageLargeKmalloc(page);
		__atomic_sub_fetch(&large_pages, 1UL << order, __ATOMIC_RELAXED);
		__free_pages(page, order);
	} else {
		panic("kfree: %p was not allocated by kmalloc", ptr);
	}
}

/*
 * With slub_debug, the size asked for: the rest of the slot is red zone,
 * and a caller that used it would be reported.
 */
size_t ksize(const void *ptr)
{
	struct page *page = virt_to_page(ptr);

	if (!PageSlab(page))
		return PAGE_SIZE << page->private;
	if (slub_debug)
		return get_track(page->slab_cache, ptr)->size;
	return page->slab_cache->object_size;
}

void kmalloc_get_stats(struct kmalloc_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&slab_lock, flags);
	st->objects = st->slab_pages = 0;
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_caches); i++) {
		st->objects += kmalloc_caches[i].objects;
		st->slab_pages += kmalloc_caches[i].slabs;
	}
	st->large_pages = large_pages;
	spin_unlock_irqrestore(&slab_lock, flags);
}

/*
 * /proc/slabinfo, in Linux's format (version 2.1, which slabtop reads):
 * objsize is a piece, the slot with its red zones and track, so what the
 * checker costs in memory shows in objperslab. A comment line says
 * whether slub_debug is on and how many pages kmalloc took past the
 * caches.
 */
static int slabinfo_show(struct seq_file *m, void *v)
{
	struct kmalloc_stats st;

	kmalloc_get_stats(&st);
	seq_printf(m, "slabinfo - version: 2.1\n");
	seq_printf(m, "# name            <active_objs> <num_objs> <objsize> "
		   "<objperslab> <pagesperslab> : tunables <limit> "
		   "<batchcount> <sharedfactor> : slabdata <active_slabs> "
		   "<num_slabs> <sharedavail>\n");
	seq_printf(m, "# slub_debug %s; larger than %d bytes: %lu pages\n",
		   slub_debug ? "on (red zones, poison, alloc/free sites)" :
				"off",
		   KMALLOC_MAX_CACHE, st.large_pages);
	for (size_t i = ARRAY_SIZE(kmalloc_caches); i-- > 0;) {
		struct kmem_cache *c = &kmalloc_caches[i];
		unsigned long objects = READ_ONCE(c->objects);
		unsigned long slabs = READ_ONCE(c->slabs);

		seq_printf(m, "%-17s %6lu %6lu %6u %4u %4d : tunables %4d %4d "
			   "%4d : slabdata %6lu %6lu %6d\n", c->name, objects,
			   slabs * c->objects_per_slab, c->size,
			   c->objects_per_slab, 1, 0, 0, 0, slabs, slabs, 0);
	}
	return 0;
}

static int slab_proc_init(void)
{
	proc_create_single("slabinfo", slabinfo_show);
	return 0;
}
device_initcall(slab_proc_init);
