/*
 * mm/slab.c: kmalloc and kfree.
 *
 * One cache per power-of-two size from 16 to 2048 bytes. A slab is one page
 * cut into equal objects; free objects are chained through their first word
 * (page->freelist), page->private counts objects in use. A cache keeps its
 * slabs that still have room on `partial`; a slab that becomes full leaves
 * the list, and one that becomes empty goes back to the page allocator at
 * once, so kmalloc holds no memory it does not use (tests rely on that to
 * find leaks).
 *
 * Misuse panics: freeing an address inside an object, freeing twice, or
 * freeing memory kmalloc never returned. Freed objects are poisoned with
 * 0x6b so a use after free reads garbage that stands out.
 */
#include <mm/slab.h>
#include <kernel/panic.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>

#define POISON_FREE 0x6b

struct kmem_cache {
	const char *name;
	size_t size;
	unsigned int objects_per_slab;
	struct list_head partial;
	unsigned long objects;	/* live objects */
	unsigned long slabs;
};

static struct kmem_cache kmalloc_caches[] = {
	{ "kmalloc-16", 16 },	{ "kmalloc-32", 32 },
	{ "kmalloc-64", 64 },	{ "kmalloc-128", 128 },
	{ "kmalloc-256", 256 },	{ "kmalloc-512", 512 },
	{ "kmalloc-1024", 1024 }, { "kmalloc-2048", 2048 },
};
static unsigned long large_pages;
static DEFINE_SPINLOCK(slab_lock);

void kmalloc_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_caches); i++) {
		struct kmem_cache *c = &kmalloc_caches[i];

		c->objects_per_slab = PAGE_SIZE / c->size;
		INIT_LIST_HEAD(&c->partial);
	}
}

static struct kmem_cache *cache_for(size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_caches); i++)
		if (size <= kmalloc_caches[i].size)
			return &kmalloc_caches[i];
	return NULL;
}

/*
 * Make page a fresh slab of c: every object on the freelist, in address
 * order. Called with slab_lock held; the page was allocated before taking
 * it, because allocating may sleep to reclaim memory.
 */
static void new_slab(struct kmem_cache *c, struct page *page)
{
	char *base = page_address(page);

	for (unsigned int i = 0; i < c->objects_per_slab; i++)
		*(void **)(base + i * c->size) =
			i + 1 < c->objects_per_slab ? base + (i + 1) * c->size
						    : NULL;
	SetPageSlab(page);
	page->slab_cache = c;
	page->freelist = base;
	page->private = 0;
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
	page->freelist = *(void **)obj;
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

void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *c = cache_for(size);
	unsigned long flags;
	void *obj;

	if (!c)
		return large_alloc(size, gfp);
	spin_lock_irqsave(&slab_lock, flags);
	obj = slab_alloc(c);
	spin_unlock_irqrestore(&slab_lock, flags);
	if (!obj) {	/* every slab full: a new one, allocated unlocked */
		struct page *page = alloc_page(gfp & ~__GFP_ZERO);

		if (!page)
			return NULL;
		spin_lock_irqsave(&slab_lock, flags);
		new_slab(c, page);
		obj = slab_alloc(c);
		spin_unlock_irqrestore(&slab_lock, flags);
	}
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, c->size);
	return obj;
}

static void check_slab_free(struct page *page, const void *obj)
{
	struct kmem_cache *c = page->slab_cache;
	unsigned long off = (unsigned long)obj & ~PAGE_MASK;

	if (off % c->size)
		panic("kfree: %p is not the start of a %s object", obj, c->name);
	for (void *f = page->freelist; f; f = *(void **)f)
		if (f == obj)
			panic("kfree: double free of %p (%s)", obj, c->name);
}

/* Called with slab_lock held. */
static void slab_free(struct page *page, void *obj)
{
	struct kmem_cache *c = page->slab_cache;

	check_slab_free(page, obj);
	memset(obj, POISON_FREE, c->size);
	*(void **)obj = page->freelist;
	page->freelist = obj;
	c->objects--;
	if (page->private-- == c->objects_per_slab)
		list_add(&page->lru, &c->partial);	/* was full */
	if (page->private == 0) {
		list_del_init(&page->lru);
		ClearPageSlab(page);
		page->slab_cache = NULL;
		page->freelist = NULL;
		c->slabs--;
		__free_page(page);
	}
}

void kfree(const void *ptr)
{
	struct page *page;
	unsigned long flags;

	if (!ptr)
		return;
	page = virt_to_page(ptr);
	if (PageSlab(page)) {
		spin_lock_irqsave(&slab_lock, flags);
		slab_free(page, (void *)ptr);
		spin_unlock_irqrestore(&slab_lock, flags);
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

size_t ksize(const void *ptr)
{
	struct page *page = virt_to_page(ptr);

	if (PageSlab(page))
		return page->slab_cache->size;
	return PAGE_SIZE << page->private;
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
