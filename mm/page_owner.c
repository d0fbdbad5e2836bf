/*
 * mm/page_owner.c: who allocated each page, who last locked it, and its
 * last references, so that a report can name the function that broke a
 * rule rather than the one that tripped over the page later.
 *
 * A page freed while locked is caught when it is freed (mm/page_alloc.c),
 * but the free is not where the mistake was: the lock was taken, and never
 * dropped, by some earlier function. A leaked page is seen only by the
 * audit after the program (=== PAGES LEAK), long after the reference that
 * was never dropped. So each page frame has a record here:
 *
 *   alloc       the stack of its allocation, and the allocation's number
 *               (alloc_seq): "allocated since the snapshot" is a number
 *               compare
 *   free        the stack of its last free (0 while allocated)
 *   lock_ip     where its lock was last taken (trylock_page, lock_page,
 *               SetPageLocked): one address, not a stack, since fault-
 *               around alone takes sixteen page locks a fault
 *   refs[]      its last PAGE_OWNER_REFS references taken (get_page) and
 *               dropped (put_page), oldest overwritten first: only with
 *               page_owner=refs
 *
 * Stacks are stack depot handles (lib/stackdepot.c), 4 bytes each. The
 * records are written without a lock: two CPUs taking references on one
 * page at once may each write a slot, and a report may read a slot half
 * updated. That costs a line of a report, never a wrong count, since the
 * counts themselves (page->_refcount) are not kept here.
 *
 * /proc/page_owner explains a leak: write "CLASS SEQ" (CLASS other,
 * mapped or pagecache, as /proc/pagecheck counts them; SEQ an alloc_seq
 * from /proc/pagecheck) and read which allocation stacks the pages of that
 * class allocated since SEQ come from, most pages first, leaving out the
 * reader's own kernel stack and page tables.
 *
 * Cost: a stack walk and a hash per allocation and free, and
 * with page_owner=refs per reference too, which makes a read fault on a
 * cached page five times slower (doc/checkers.md has the figures); off
 * with page_owner=off (make bench boots with it off).
 *
 * Roadmap: the command line and init; the hooks; the report of one page;
 * /proc/page_owner.
 */
#include <mm/page_owner.h>
#include <mm/pagecheck.h>
#include <mm/memblock.h>
#include <mm/mm.h>
#include <mm/mm_types.h>
#include <mm/mmap_lock.h>
#include <mm/pgtable.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>

#define PAGE_OWNER_REFS 8
#define REF_PUT 0x80000000u	/* in a refs[] slot: a put, not a get */

struct page_owner {
	depot_stack_handle_t alloc;
	depot_stack_handle_t free;	/* 0 while allocated */
	unsigned long lock_ip;
	u32 alloc_seq;
	u32 ref_next;	/* refs[ref_next % PAGE_OWNER_REFS] is written next */
	depot_stack_handle_t refs[PAGE_OWNER_REFS];
};

bool page_owner_on;
bool page_owner_refs;
static bool page_owner_wanted = true, page_owner_refs_wanted;
static struct page_owner *owners;	/* one per page frame */
static u32 alloc_seq;

static int set_page_owner(const char *val)
{
	if (strcmp(val, "on") && strcmp(val, "off") && strcmp(val, "refs"))
		return -EINVAL;
	page_owner_wanted = strcmp(val, "off");
	page_owner_refs_wanted = !strcmp(val, "refs");
	return 0;
}
__setup("page_owner", set_page_owner);

void page_owner_init(void)
{
	size_t size = max_pfn * sizeof(*owners);

	if (!page_owner_wanted || !stack_depot_init())
		return;
	owners = phys_to_virt(memblock_alloc(size, PAGE_SIZE));
	page_owner_on = true;
	page_owner_refs = page_owner_refs_wanted;
	pr_info("page_owner: on%s, %zuK for %lu page frames (page_owner=%s)\n",
		page_owner_refs ? " with every reference" : "", size >> 10,
		max_pfn, page_owner_refs ? "on: without references; off" :
		"refs: every get_page and put_page too; off");
}

static struct page_owner *owner_of(const struct page *page)
{
	return &owners[page_to_pfn(page)];
}

u32 page_owner_alloc_seq(void)
{
	return __atomic_load_n(&alloc_seq, __ATOMIC_RELAXED);
}

/* -------------------------------------------------------------------- */
/* The hooks. Each captures one frame more than it is told to skip: its
 * own. */

void __page_owner_alloc(struct page *page, unsigned int order,
			unsigned int skip)
{
	depot_stack_handle_t h = stack_depot_capture(skip);
	u32 seq = __atomic_add_fetch(&alloc_seq, 1, __ATOMIC_RELAXED);

	for (unsigned long i = 0; i < (1UL << order); i++) {
		struct page_owner *o = owner_of(page + i);

		memset(o, 0, sizeof(*o));
		o->alloc = h;
		o->alloc_seq = seq;
	}
}

void __page_owner_ref(struct page *page, int delta, unsigned int skip)
{
	struct page_owner *o = owner_of(page);
	depot_stack_handle_t h = stack_depot_capture(skip);
	u32 slot = __atomic_fetch_add(&o->ref_next, 1, __ATOMIC_RELAXED);

	o->refs[slot % PAGE_OWNER_REFS] = h | (delta < 0 ? REF_PUT : 0);
}

void __page_owner_lock(struct page *page, unsigned long ip)
{
	owner_of(page)->lock_ip = ip;
}

void __page_owner_free(struct page *page, unsigned int order,
		       unsigned int skip)
{
	depot_stack_handle_t h = stack_depot_capture(skip);

	for (unsigned long i = 0; i < (1UL << order); i++)
		owner_of(page + i)->free = h;
}

/* -------------------------------------------------------------------- */
/* One page's history. */

void page_owner_lock_site(const struct page *page, char *buf, size_t size)
{
	buf[0] = '\0';
	if (page_owner_on && owner_of(page)->lock_ip)
		snprintf(buf, size, "%pS", (void *)owner_of(page)->lock_ip);
}

/* Calls fn(slot value, data) for each recorded reference, oldest first. */
static void for_each_ref(const struct page_owner *o,
			 void (*fn)(depot_stack_handle_t, void *), void *data)
{
	u32 next = READ_ONCE(o->ref_next);
	u32 first = next > PAGE_OWNER_REFS ? next - PAGE_OWNER_REFS : 0;

	for (u32 i = first; i < next; i++)
		fn(o->refs[i % PAGE_OWNER_REFS], data);
}

static void print_ref(depot_stack_handle_t r, void *data)
{
	char buf[256];

	stack_depot_snprint(r & ~REF_PUT, 4, buf, sizeof(buf));
	printk(KERN_EMERG "page_owner:   %s at %s\n",
	       r & REF_PUT ? "put" : "get", buf);
}

void page_owner_dump(const struct page *page)
{
	const struct page_owner *o;
	char buf[256];

	if (!page_owner_on)
		return;
	o = owner_of(page);
	stack_depot_snprint(o->alloc, STACK_DEPOT_FRAMES, buf, sizeof(buf));
	printk(KERN_EMERG "page_owner: allocated (number %u) at %s\n",
	       o->alloc_seq, buf);
	if (o->free) {
		stack_depot_snprint(o->free, STACK_DEPOT_FRAMES, buf,
				    sizeof(buf));
		printk(KERN_EMERG "page_owner: freed at %s\n", buf);
	}
	if (o->lock_ip)
		printk(KERN_EMERG "page_owner: last locked in %pS\n",
		       (void *)o->lock_ip);
	if (o->ref_next) {
		printk(KERN_EMERG "page_owner: references taken and dropped "
		       "(the last %u, oldest first):\n",
		       min(o->ref_next, (u32)PAGE_OWNER_REFS));
		for_each_ref(o, print_ref, NULL);
	}
}

/* -------------------------------------------------------------------- */
/* /proc/page_owner: where a class's pages allocated since a mark came
 * from, grouped by allocation stack. */

#define GROUPS 16

struct group {
	depot_stack_handle_t alloc;
	unsigned long pages;
	unsigned long pfn;	/* one of them, the first found */
};

/* Which pages a report is about: of class, allocated after since. */
struct owner_query {
	enum page_class class;
	u32 since;
	bool set;
};

static struct owner_query query;	/* /proc/page_owner's, written */

static const char *const class_names[] = {
	[PC_PAGECACHE] = "pagecache", [PC_MAPPED] = "mapped",
	[PC_OTHER] = "other",
};

/* Adds pfn to its allocation's group; false when every group is taken. */
static bool group_add(struct group *g, unsigned int *n, unsigned long pfn)
{
	depot_stack_handle_t h = owners[pfn].alloc;

	for (unsigned int i = 0; i < *n; i++)
		if (g[i].alloc == h) {
			g[i].pages++;
			return true;
		}
	if (*n == GROUPS)
		return false;
	g[(*n)++] = (struct group){ .alloc = h, .pages = 1, .pfn = pfn };
	return true;
}

struct ref_line {
	struct seq_file *m;
	unsigned int n;
};

static void show_ref(depot_stack_handle_t r, void *data)
{
	struct ref_line *l = data;
	char buf[256];

	stack_depot_snprint(r & ~REF_PUT, 3, buf, sizeof(buf));
	seq_printf(l->m, "%s%s at %s", l->n++ ? "; " : "",
		   r & REF_PUT ? "put" : "get", buf);
}

static void show_group(struct seq_file *m, const struct group *g,
		       const struct owner_query *q)
{
	const struct page *page = pfn_to_page(g->pfn);
	struct ref_line l = { .m = m };
	char buf[384];

	stack_depot_snprint(g->alloc, STACK_DEPOT_FRAMES, buf, sizeof(buf));
	seq_printf(m, "page_owner: %lu %s page%s allocated since the "
		   "snapshot still held, allocated at %s\n", g->pages,
		   class_names[q->class], g->pages == 1 ? "" : "s", buf);
	seq_printf(m, "page_owner:   pfn 0x%lx (refcount %d, mapcount %d): "
		   "last references: ", g->pfn, page_count(page),
		   page->_mapcount + 1);
	for_each_ref(&owners[g->pfn], show_ref, &l);
	seq_printf(m, "%s\n", l.n ? "" : "none recorded");
}

/*
 * The reader's own pages: a leak check runs after the programs, in a
 * process of its own made since the snapshot, so its kernel stack and
 * page tables are "other" pages allocated since, and would be listed
 * beside the leak (the check counts the same pages for the process that
 * took the snapshot, so they cancel in its counts, not here).
 */
#define OWN_MAX 64	/* a small program's: pagecheck has ten */

struct own_pages {
	unsigned long pfn[OWN_MAX];
	int n;
};

static void own_add(struct own_pages *o, unsigned long pfn)
{
	if (o->n < OWN_MAX)
		o->pfn[o->n++] = pfn;
}

static void own_tables(struct own_pages *o, pte_t *table, int level,
		       int entries)
{
	own_add(o, virt_to_phys(table) >> PAGE_SHIFT);
	for (int i = 0; level > 1 && i < entries; i++)
		if ((table[i] & _PAGE_PRESENT) && !(table[i] & _PAGE_PSE))
			own_tables(o, pte_table(table[i]), level - 1,
				   PTRS_PER_TABLE);
}

/* Caller holds current->mm's mmap lock, if it has an mm. */
static void own_collect(struct own_pages *o)
{
	for (unsigned long i = 0; i < THREAD_SIZE / PAGE_SIZE; i++) {
		pte_t *pte = lookup_pte(init_pgd, (unsigned long)current->stack
					+ i * PAGE_SIZE, false);

		if (pte && (*pte & _PAGE_PRESENT))
			own_add(o, (*pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
	}
	if (current->mm)
		own_tables(o, current->mm->pgd, 4, PTRS_PER_TABLE / 2);
}

static bool own_page(const struct own_pages *o, unsigned long pfn)
{
	for (int i = 0; i < o->n; i++)
		if (o->pfn[i] == pfn)
			return true;
	return false;
}

static unsigned int group_scan(struct group *g, const struct owner_query *q,
			       unsigned long *ungrouped)
{
	struct own_pages own = { .n = 0 };
	struct mm_struct *mm = current->mm;
	unsigned int n = 0;

	if (mm)
		mmap_read_lock(mm);
	own_collect(&own);
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++)
		if (page_class(pfn_to_page(pfn)) == q->class &&
		    (s32)(owners[pfn].alloc_seq - q->since) > 0 &&
		    !own_page(&own, pfn) && !group_add(g, &n, pfn))
			(*ungrouped)++;
	if (mm)
		mmap_read_unlock(mm);
	return n;
}

#define GROUPS_SHOWN 6

static void report(struct seq_file *m, const struct owner_query *q)
{
	struct group g[GROUPS];
	unsigned long ungrouped = 0, more = 0;
	unsigned int n = group_scan(g, q, &ungrouped);

	/* Most pages first: the leak is usually the biggest group. */
	for (unsigned int shown = 0; shown < n; shown++) {
		unsigned int best = shown;

		for (unsigned int i = shown + 1; i < n; i++)
			if (g[i].pages > g[best].pages)
				best = i;
		swap(g[shown], g[best]);
		if (shown < GROUPS_SHOWN)
			show_group(m, &g[shown], q);
		else
			more += g[shown].pages;
	}
	if (!n)
		seq_printf(m, "page_owner: no %s page allocated since the "
			   "snapshot is still held (not counting the reader's "
			   "own stack and page tables)\n",
			   class_names[q->class]);
	if (more + ungrouped)
		seq_printf(m, "page_owner: and %lu more, from other places\n",
			   more + ungrouped);
}

static int page_owner_show(struct seq_file *m, void *data)
{
	if (!page_owner_on)
		seq_puts(m, "page_owner: off (page_owner=off)\n");
	else if (!query.set)
		seq_puts(m, "page_owner: write \"CLASS SEQ\" first (CLASS "
			 "other, mapped or pagecache; SEQ alloc_seq of "
			 "/proc/pagecheck)\n");
	else
		report(m, &query);
	return 0;
}

/* The same report on the console, for a self-test: the pages of class
 * allocated after allocation number since. */
void page_owner_print_leaks(enum page_class class, u32 since)
{
	static char buf[4096];
	struct seq_file m = { .buf = buf, .size = sizeof(buf) };
	struct owner_query q = { class, since, true };

	if (!page_owner_on)
		return;
	report(&m, &q);
	for (char *line = buf, *end; line < buf + m.count; line = end + 1) {
		end = memchr(line, '\n', buf + m.count - line);
		if (!end)
			break;
		printk(KERN_INFO "%.*s\n", (int)(end - line), line);
	}
}

static int page_owner_write(const char *buf, size_t len, void *data)
{
	const char *sp = strchr(buf, ' ');
	char *end;
	unsigned long since;

	if (!sp)
		return -EINVAL;
	since = simple_strtoul(sp + 1, &end, 10);
	if (end == sp + 1 || (*end && *end != '\n'))
		return -EINVAL;
	for (unsigned int c = 0; c < ARRAY_SIZE(class_names); c++)
		if (class_names[c] && strlen(class_names[c]) == (size_t)(sp - buf) &&
		    !strncmp(buf, class_names[c], sp - buf)) {
			query.class = c;
			query.since = since;
			query.set = true;
			return 0;
		}
	return -EINVAL;
}

static int page_owner_proc_init(void)
{
	proc_create_rw("page_owner", 0644, page_owner_show, page_owner_write);
	return 0;
}
device_initcall(page_owner_proc_init);
