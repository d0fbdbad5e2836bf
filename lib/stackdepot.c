/*
 * lib/stackdepot.c: call stacks stored once each, named by a 32-bit handle.
 *
 * A record holds up to STACK_DEPOT_FRAMES return addresses. Records live
 * in one array taken from memblock at boot and are never freed; a handle
 * is a record's index plus one. Saving a stack hashes its frames and looks
 * in a hash table of chains: a stack seen before (nearly every one, after
 * the first seconds) is found without a lock; a new one is added under
 * depot_lock, which looks again first, and is published with a release
 * store so that a lockless reader that sees the index sees the record.
 * When the array is full, new stacks get handle 0 and a one-time warning.
 *
 * Roadmap: init; capture (walk our own frame pointers); find or add;
 * fetch and print.
 */
#include <kernel/stackdepot.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <kernel/string.h>
#include <mm/memblock.h>
#include <mm/mm.h>

#define DEPOT_RECORDS 8192
#define DEPOT_BUCKETS 4096	/* a power of two */

struct depot_record {
	u32 next;	/* handle of the next record in the chain, or 0 */
	u32 hash;
	u32 nr;		/* frames used */
	unsigned long frames[STACK_DEPOT_FRAMES];
};

static struct depot_record *records;
static u32 *buckets;		/* handle of each chain's first record */
static u32 nr_records;		/* records used (written under depot_lock) */
/* Not a spinlock_t: spin_unlock is a preemption point, which the schedule
 * explorer numbers, and a stack added on the first pass of a schedule
 * only (found without the lock on the next) would make the passes' points
 * differ. With interrupts off nothing preempts the holder anyway. */
static int depot_lock;

static unsigned long depot_lock_irqsave(void)
{
	unsigned long flags = local_irq_save();

	while (__atomic_exchange_n(&depot_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	return flags;
}

static void depot_unlock_irqrestore(unsigned long flags)
{
	__atomic_store_n(&depot_lock, 0, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

bool stack_depot_init(void)
{
	size_t rsize = DEPOT_RECORDS * sizeof(*records);
	size_t bsize = DEPOT_BUCKETS * sizeof(*buckets);

	if (records)
		return true;
	/* memblock_alloc zeroes what it gives: every bucket starts empty. */
	records = phys_to_virt(memblock_alloc(rsize + bsize, PAGE_SIZE));
	buckets = (u32 *)(records + DEPOT_RECORDS);
	return true;
}

struct capture {
	unsigned int nr;
	unsigned long frames[STACK_DEPOT_FRAMES];
};

/*
 * The frame-pointer walk of kernel/backtrace.c, written out here without
 * its callback: this runs at every page allocation and free. Skip the
 * first skip return addresses, keep the next STACK_DEPOT_FRAMES.
 */
static void capture(struct capture *c, unsigned long rbp, unsigned int skip)
{
	unsigned long lo = ALIGN_DOWN(rbp, THREAD_SIZE), hi = lo + THREAD_SIZE;

	c->nr = 0;
	while (c->nr < STACK_DEPOT_FRAMES) {
		const unsigned long *frame = (const unsigned long *)rbp;

		if (rbp < lo || rbp + 16 > hi || !IS_ALIGNED(rbp, 8) ||
		    !frame[1])
			break;
		if (skip)
			skip--;
		else
			c->frames[c->nr++] = frame[1];
		if (frame[0] <= rbp)	/* must move towards the stack base */
			break;
		rbp = frame[0];
	}
}

static u32 hash_frames(const unsigned long *f, unsigned int nr)
{
	u64 h = 0x9e3779b97f4a7c15ULL * (nr + 1);

	for (unsigned int i = 0; i < nr; i++)
		h = (h ^ f[i]) * 0xff51afd7ed558ccdULL;
	return (u32)(h ^ (h >> 32));
}

static struct depot_record *record_of(u32 handle)
{
	return &records[handle - 1];
}

static bool same(const struct depot_record *r, u32 hash,
		 const struct capture *c)
{
	return r->hash == hash && r->nr == c->nr &&
	       !memcmp(r->frames, c->frames, c->nr * sizeof(c->frames[0]));
}

static u32 find(u32 *head, u32 hash, const struct capture *c)
{
	u32 h = __atomic_load_n(head, __ATOMIC_ACQUIRE);

	for (; h; h = __atomic_load_n(&record_of(h)->next, __ATOMIC_ACQUIRE))
		if (same(record_of(h), hash, c))
			return h;
	return 0;
}

static u32 add(u32 *head, u32 hash, const struct capture *c)
{
	struct depot_record *r;
	unsigned long flags;
	u32 h;

	flags = depot_lock_irqsave();
	h = find(head, hash, c);	/* another CPU may have just added it */
	if (!h && nr_records < DEPOT_RECORDS) {
		r = &records[nr_records++];
		r->hash = hash;
		r->nr = c->nr;
		memcpy(r->frames, c->frames, c->nr * sizeof(c->frames[0]));
		r->next = *head;
		h = nr_records;
		__atomic_store_n(head, h, __ATOMIC_RELEASE);
	}
	depot_unlock_irqrestore(flags);
	if (!h)
		pr_warn_once("stackdepot: full (%d stacks): later stacks are "
			     "not recorded\n", DEPOT_RECORDS);
	return h;
}

__noinline depot_stack_handle_t stack_depot_capture(unsigned int skip)
{
	struct capture c;
	u32 hash;

	if (!records)
		return 0;
	/* The first return address is into our caller: skip it as well. */
	capture(&c, (unsigned long)__builtin_frame_address(0), skip + 1);
	if (!c.nr)
		return 0;
	hash = hash_frames(c.frames, c.nr);
	return find(&buckets[hash & (DEPOT_BUCKETS - 1)], hash, &c) ?:
	       add(&buckets[hash & (DEPOT_BUCKETS - 1)], hash, &c);
}

unsigned int stack_depot_fetch(depot_stack_handle_t h,
			       unsigned long entries[STACK_DEPOT_FRAMES])
{
	const struct depot_record *r;

	if (!h || !records || h > DEPOT_RECORDS)
		return 0;
	r = record_of(h);
	memcpy(entries, r->frames, r->nr * sizeof(r->frames[0]));
	return r->nr;
}

void stack_depot_snprint(depot_stack_handle_t h, unsigned int depth,
			 char *buf, size_t size)
{
	unsigned long f[STACK_DEPOT_FRAMES];
	unsigned int nr = stack_depot_fetch(h, f);
	size_t n = 0;

	buf[0] = '\0';
	if (!nr) {
		strlcpy(buf, "(no stack recorded)", size);
		return;
	}
	for (unsigned int i = 0; i < nr && i < depth && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%pS", i ? " <- " : "",
			      (void *)f[i]);
}
