/*
 * kernel/locking/lockdep.c: the lock validator, written small after
 * Linux's lockdep (Ingo Molnar's "lock validator", Linux 2.6.18).
 *
 * - Held-lock assertions (<kernel/lockdep.h>): a failed one prints which
 *   lock, where it was required, who runs and who holds it, then panics so
 *   that the backtrace shows the caller that came without the lock.
 * - Each task's held-lock stack (the mutexes and rw_semaphores it holds,
 *   and where each was taken: lock_acquired/lock_released, from mutex.c
 *   and rwsem.c), shown in the task dump and checked on the way back to
 *   user space; and the report of might_sleep (<kernel/preempt.h>).
 * - The order of lock classes: of the sleeping locks a task holds, and of
 *   the spinlocks a CPU holds (a spinlock is innermost to any sleeping
 *   lock, since nothing may sleep under it: those two never mix in one
 *   cycle). A lock is a struct lockdep_map to the validator, whatever its
 *   kind; a read and a write
 *   acquisition of an rw_semaphore count alike, since a waiting writer
 *   blocks new readers (rwsem.c): A read then B, against B then A read,
 *   deadlocks as surely as with a mutex. When a task that
 *   holds A waits for B, "A before B" is learned; if "B before A" was
 *   learned before (directly or through other classes), two tasks can
 *   deadlock, each holding what the other waits for, and the report
 *   shows both orders with the places that took each lock, on the first
 *   run that does both, whether or not the deadlock happens. A class is
 *   where locks are initialised (struct lock_class_key). Classes and
 *   orders are fixed-size tables, listed in /proc/lockdep; when one
 *   fills, the validator says so and stops learning.
 *
 * - Spinlocks taken in an interrupt handler and elsewhere with interrupts
 *   on (spin_irq_usage): the handler would spin for ever on the CPU that
 *   holds the lock.
 *
 * Roadmap: task names and the assertions; the held-lock stack; the order
 * graph (class_of, order_path, lock_order_check, the report); the
 * spinlocks (each CPU's stack, spin_irq_usage); /proc
 * and the command line.
 */
#include <kernel/lockdep.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/preempt.h>
#include <kernel/param.h>
#include <fs/proc_fs.h>
#include <kernel/init.h>
#include <kernel/errno.h>

const char *lockdep_task_name(struct task_struct *t, char *buf, size_t size)
{
	if (!t)
		return "nobody";
	snprintf(buf, size, "%s/%d", t->comm, t->pid);
	return buf;
}

void lockdep_mutex_not_held(struct mutex *m, const char *name,
			    const struct lockdep_site *at)
{
	char held[40], by[40];

	printk(KERN_EMERG "BUG: %s must be held at %s:%d, by %s; it is held "
	       "by %s (in %s, called from %pS)\n", name, at->file, at->line,
	       lockdep_task_name(current, by, sizeof(by)),
	       m->locked ? lockdep_task_name(m->owner, held, sizeof(held))
			 : "nobody", at->func, (void *)at->caller);
	panic("lock %s not held at %s:%d", name, at->file, at->line);
}

void lockdep_spin_not_held(spinlock_t *l, const char *name,
			   const struct lockdep_site *at)
{
	int holder = l->locked;
	char who[32] = "it is not";

	if (holder)
		snprintf(who, sizeof(who), "CPU %d holds it, not CPU %d",
			 holder - 1, smp_processor_id());
	printk(KERN_EMERG "BUG: spinlock %s must be held at %s:%d, and %s "
	       "(in %s, called from %pS)\n", name, at->file, at->line, who,
	       at->func, (void *)at->caller);
	panic("lock %s not held at %s:%d", name, at->file, at->line);
}

/* ---- the held-lock stack -------------------------------------------------- */

void lock_acquired(struct lockdep_map *l, unsigned long ip)
{
	struct task_struct *t = current;
	static bool warned;

	if (t->lockdep_depth < MAX_LOCK_DEPTH)
		t->held_locks[t->lockdep_depth] = (struct held_lock){ l, ip };
	else if (!warned) {
		warned = true;
		pr_warn("lockdep: %s/%d holds more than %d locks; only the "
			"first %d are listed\n", t->comm, t->pid,
			MAX_LOCK_DEPTH, MAX_LOCK_DEPTH);
	}
	t->lockdep_depth++;
}

/*
 * Take l off a held-lock stack of *depth entries (a task's, or a CPU's
 * spinlocks). Locks are often released out of order (rename): find l,
 * close the gap. Not listed: one past the listed ones goes, if the stack
 * overflowed (else l was taken while the validator stood aside).
 */
static void held_lock_remove(struct held_lock *held, int *depth,
			     struct lockdep_map *l)
{
	int n = min(*depth, MAX_LOCK_DEPTH), i = n - 1;

	while (i >= 0 && held[i].instance != l)
		i--;
	if (i >= 0) {
		memmove(&held[i], &held[i + 1], (n - i - 1) * sizeof(held[0]));
		(*depth)--;
	} else if (*depth > MAX_LOCK_DEPTH) {
		(*depth)--;
	}
}

void lock_released(struct lockdep_map *l)
{
	struct task_struct *t = current;

	held_lock_remove(t->held_locks, &t->lockdep_depth, l);
}

int lockdep_current_holds(struct lockdep_map *l)
{
	struct task_struct *t = current;
	int n = min(t->lockdep_depth, MAX_LOCK_DEPTH);

	for (int i = 0; i < n; i++)
		if (t->held_locks[i].instance == l)
			return 1;
	return t->lockdep_depth > MAX_LOCK_DEPTH ? -1 : 0;
}

void lockdep_print_held_locks(struct task_struct *t)
{
	int n = min(t->lockdep_depth, MAX_LOCK_DEPTH);

	if (!t->lockdep_depth)
		return;
	printk(KERN_INFO "%d lock%s held by %s/%d:\n", t->lockdep_depth,
	       t->lockdep_depth == 1 ? "" : "s", t->comm, t->pid);
	for (int i = 0; i < n; i++)
		printk(KERN_INFO " #%d: %s, taken at %pS\n", i,
		       t->held_locks[i].instance->name,
		       (void *)t->held_locks[i].acquire_ip);
}

void lockdep_sys_exit_bug(void)
{
	struct task_struct *t = current;

	console_loglevel = 15;
	if (preempt_count())
		printk(KERN_EMERG "BUG: %s/%d returning to user space with "
		       "preempt_count 0x%x (a spinlock held, or an interrupt "
		       "not left)\n", t->comm, t->pid, preempt_count());
	else
		printk(KERN_EMERG "BUG: %s/%d returning to user space with "
		       "a lock held\n", t->comm, t->pid);
	lockdep_print_held_locks(t);
	panic("lock held when returning to user space");
}

void __might_sleep_bug(const char *file, int line)
{
	struct task_struct *t = current;

	printk(KERN_EMERG "BUG: sleeping function called from invalid context "
	       "at %s:%d\n", file, line);
	printk(KERN_EMERG "in_atomic(): 1, in_interrupt(): %d, preempt_count: "
	       "0x%x, pid: %d, name: %s (%s)\n", in_interrupt() ? 1 : 0,
	       preempt_count(), t->pid, t->comm,
	       in_interrupt() ? "an interrupt handler may not sleep"
			      : "a spinlock is held: release it first");
	lockdep_print_held_locks(t);
	panic("sleeping function called from invalid context at %s:%d",
	      file, line);
}

/* ---- the order of lock classes --------------------------------------------- */

#define MAX_LOCK_CLASSES 256
#define CLASS_HASH_SIZE 512		/* open addressing, at most half full */
#define MAX_LOCK_ORDERS 2048

struct lock_class {
	const void *key;
	const char *name;		/* of the first lock seen */
	/* Spinlocks: where one of the class was first taken in an
	 * interrupt handler, and first taken with interrupts on (0: not
	 * yet). Both: an interrupt on a CPU holding it deadlocks there. */
	unsigned long in_irq_ip, irqs_on_ip;
};

/* "from before to", and where it was first seen: from taken at from_ip,
 * then to waited for at to_ip. */
struct lock_order {
	unsigned short from, to;
	unsigned long from_ip, to_ip;
};

bool lockdep_enabled = true;
static struct lock_class lock_classes[MAX_LOCK_CLASSES];
static unsigned short class_hash[CLASS_HASH_SIZE];	/* index + 1 */
static int nr_lock_classes;
/* before[a] has bit b: "a before b" was learned. */
static u64 before[MAX_LOCK_CLASSES][MAX_LOCK_CLASSES / 64];
static struct lock_order lock_orders[MAX_LOCK_ORDERS];
static int nr_lock_orders;

static void lockdep_full(const char *what, int max)
{
	lockdep_enabled = false;
	pr_warn("lockdep: more than %d %s: lock order checks off\n", max,
		what);
}

/* The class of l, registered on first sight and then kept in l; -1 when
 * the table is full. */
static int class_of(struct lockdep_map *l)
{
	const void *key = l->key ? (const void *)l->key : (const void *)l;
	unsigned int h = ((unsigned long)key >> 3) % CLASS_HASH_SIZE;

	if (l->class)
		return l->class - 1;
	for (;; h = (h + 1) % CLASS_HASH_SIZE) {
		int i = class_hash[h] - 1;

		if (i >= 0 && lock_classes[i].key == key) {
			l->class = i + 1;
			return i;
		}
		if (i < 0)
			break;
	}
	if (nr_lock_classes == MAX_LOCK_CLASSES) {
		lockdep_full("lock classes", MAX_LOCK_CLASSES);
		return -1;
	}
	lock_classes[nr_lock_classes] = (struct lock_class){ key, l->name };
	class_hash[h] = ++nr_lock_classes;
	l->class = nr_lock_classes;
	return nr_lock_classes - 1;
}

static bool is_before(int a, int b)
{
	return before[a][b / 64] & (1ULL << (b % 64));
}

static struct lock_order *find_order(int a, int b)
{
	for (int i = 0; i < nr_lock_orders; i++)
		if (lock_orders[i].from == a && lock_orders[i].to == b)
			return &lock_orders[i];
	return NULL;
}

/*
 * Is "from before ... before to" known? A breadth-first walk of the order
 * graph; path[] (if not NULL) gets the classes from `from` to `to` (at
 * most MAX_LOCK_CLASSES), *len their number. Only a new order is walked
 * for: known ones were checked when they were learned.
 */
static bool order_path(int from, int to, unsigned short *path, int *len)
{
	static unsigned short queue[MAX_LOCK_CLASSES], came[MAX_LOCK_CLASSES];
	static u64 seen[MAX_LOCK_CLASSES / 64];
	int head = 0, tail = 0;

	memset(seen, 0, sizeof(seen));
	queue[tail++] = from;
	seen[from / 64] |= 1ULL << (from % 64);
	while (head < tail) {
		int a = queue[head++];

		if (a == to) {
			int n = 0;

			if (!path)
				return true;
			for (int c = to; c != from; c = came[c])
				n++;
			*len = n + 1;
			for (int c = to; n >= 0; c = came[c])
				path[n--] = c;
			return true;
		}
		for (int b = 0; b < nr_lock_classes; b++) {
			if (!is_before(a, b) || (seen[b / 64] & (1ULL << (b % 64))))
				continue;
			seen[b / 64] |= 1ULL << (b % 64);
			came[b] = a;
			queue[tail++] = b;
		}
	}
	return false;
}

static __cold __noreturn void lock_inversion_bug(struct lockdep_map *m, int b,
						 const struct held_lock *held,
						 int a, unsigned long ip)
{
	static unsigned short path[MAX_LOCK_CLASSES];
	char who[40];
	int len = 0;

	console_loglevel = 15;
	order_path(b, a, path, &len);
	printk(KERN_EMERG "BUG: possible circular locking dependency: %s "
	       "waits for %s at %pS\n",
	       lockdep_task_name(current, who, sizeof(who)), m->name,
	       (void *)ip);
	printk(KERN_EMERG "while it holds %s, taken at %pS;\n",
	       held->instance->name, (void *)held->acquire_ip);
	printk(KERN_EMERG "the opposite order was seen before (a task that "
	       "takes them so, beside this one, deadlocks):\n");
	for (int i = 0; i + 1 < len; i++) {
		struct lock_order *o = find_order(path[i], path[i + 1]);

		printk(KERN_EMERG " %s, held since %pS, then %s at %pS\n",
		       lock_classes[path[i]].name,
		       o ? (void *)o->from_ip : NULL,
		       lock_classes[path[i + 1]].name,
		       o ? (void *)o->to_ip : NULL);
	}
	lockdep_print_held_locks(current);
	dump_stack();
	panic("possible circular locking dependency: %s and %s",
	      lock_classes[a].name, lock_classes[b].name);
}

static void learn_order(int a, int b, unsigned long a_ip, unsigned long b_ip)
{
	if (nr_lock_orders == MAX_LOCK_ORDERS) {
		lockdep_full("lock orders", MAX_LOCK_ORDERS);
		return;
	}
	before[a][b / 64] |= 1ULL << (b % 64);
	lock_orders[nr_lock_orders++] =
		(struct lock_order){ a, b, a_ip, b_ip };
}

/* The class tables, the order graph and order_path's scratch arrays are
 * shared by every task: one at a time (a spinlock with no name: not
 * itself in the graph). */
static spinlock_t graph_lock = SPIN_LOCK_UNLOCKED;

/* The class of m, registered under graph_lock the first time. */
static int lock_class_of(struct lockdep_map *m)
{
	unsigned long flags;
	int c;

	if (m->class)
		return m->class - 1;
	spin_lock_irqsave(&graph_lock, flags);
	c = class_of(m);
	spin_unlock_irqrestore(&graph_lock, flags);
	return c;
}

/*
 * m is taken at ip with the n locks of held held (a task's sleeping
 * locks, or a CPU's spinlocks): each "held before m" order is known (a
 * bit test, no lock), or learned under graph_lock after a look for the
 * opposite path.
 */
static void check_lock_order(const struct held_lock *held, int n,
			     struct lockdep_map *m, unsigned long ip)
{
	int b = lock_class_of(m);
	unsigned long flags;

	if (b < 0)
		return;
	n = min(n, MAX_LOCK_DEPTH);
	for (int i = 0; i < n; i++) {
		const struct held_lock *h = &held[i];
		int a = lock_class_of(h->instance);

		/* Two locks of one class (two inodes' i_mutex) are ordered
		 * by the code that takes them, not by their class. */
		if (a < 0 || a == b || is_before(a, b))
			continue;
		spin_lock_irqsave(&graph_lock, flags);
		if (lockdep_enabled && !is_before(a, b)) {
			if (order_path(b, a, NULL, NULL))
				lock_inversion_bug(m, b, h, a, ip);
			learn_order(a, b, h->acquire_ip, ip);
		}
		spin_unlock_irqrestore(&graph_lock, flags);
	}
}

void __lock_order_check(struct lockdep_map *m, unsigned long ip)
{
	struct task_struct *t = current;

	check_lock_order(t->held_locks, t->lockdep_depth, m, ip);
}

/* ---- spinlocks -------------------------------------------------------------- */

/*
 * The spinlocks a CPU holds, innermost last. Per CPU, not per task: a
 * spinlock's holder runs on one CPU until it lets go (preemption is off),
 * and the run queue's lock, taken by one task in schedule() and released
 * by the next, stays on the CPU. An interrupt handler's locks go on top of
 * those of the code it interrupted, which are held while it spins: "A held,
 * then B in an interrupt" is an order like any other (with B before A
 * elsewhere, two CPUs deadlock). A report prints, and printk takes
 * spinlocks: `busy` keeps the validator out of its own way.
 */
struct spin_stack {
	int depth, busy;
	struct held_lock held[MAX_LOCK_DEPTH];
} __attribute__((aligned(64)));

static struct spin_stack spin_stacks[NR_CPUS];

/*
 * A class taken in an interrupt handler and, somewhere else, with
 * interrupts on: on a CPU that holds it with interrupts on, an interrupt
 * whose handler takes it spins for ever on its own CPU (Linux's
 * "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage"). The place that
 * took it with interrupts on wants spin_lock_irqsave.
 */
static __cold __noreturn void irq_unsafe_bug(struct lockdep_map *m,
					     const struct lock_class *c)
{
	console_loglevel = 15;
	printk(KERN_EMERG "BUG: inconsistent lock usage: %s is taken in an "
	       "interrupt handler (first at %pS) and with interrupts on (first "
	       "at %pS): an interrupt that comes while this CPU holds it there "
	       "spins for ever; take it with spin_lock_irqsave there\n",
	       m->name, (void *)c->in_irq_ip, (void *)c->irqs_on_ip);
	dump_stack();
	panic("inconsistent lock usage: %s", m->name);
}

/* Note how m's class is taken now; report when both ways are seen. */
static void spin_irq_usage(struct lockdep_map *m, unsigned long ip,
			   bool irqs_were_on)
{
	int c = lock_class_of(m);
	struct lock_class *lc;

	if (c < 0)
		return;
	lc = &lock_classes[c];
	if (in_interrupt()) {
		if (!lc->in_irq_ip)
			lc->in_irq_ip = ip;
	} else if (irqs_were_on) {
		if (!lc->irqs_on_ip)
			lc->irqs_on_ip = ip;
	} else {
		return;
	}
	if (lc->in_irq_ip && lc->irqs_on_ip)
		irq_unsafe_bug(m, lc);
}

void lockdep_spin_acquired(spinlock_t *l, unsigned long ip, bool check)
{
	unsigned long flags = local_irq_save();
	struct spin_stack *st = &spin_stacks[smp_processor_id()];

	if (!st->busy && !oops_in_progress) {
		st->busy = 1;
		spin_irq_usage(&l->dep_map, ip, flags & X86_EFLAGS_IF);
		if (check && st->depth)
			check_lock_order(st->held, st->depth, &l->dep_map,
					 ip);
		if (st->depth < MAX_LOCK_DEPTH)
			st->held[st->depth] =
				(struct held_lock){ &l->dep_map, ip };
		st->depth++;
		st->busy = 0;
	}
	local_irq_restore(flags);
}

/* Often released out of order: find it, close the gap. A lock taken
 * while the validator stood aside is not there, and is let go. */
void lockdep_spin_released(spinlock_t *l)
{
	unsigned long flags = local_irq_save();
	struct spin_stack *st = &spin_stacks[smp_processor_id()];

	if (!st->busy && !oops_in_progress)
		held_lock_remove(st->held, &st->depth, &l->dep_map);
	local_irq_restore(flags);
}

/* ---- /proc/lockdep and lockdep=on|off ------------------------------------- */

static int lockdep_show(struct seq_file *m, void *v)
{
	seq_printf(m, "lockdep: order checks %s; %d classes, %d orders\n",
		   lockdep_enabled ? "on" : "off", nr_lock_classes,
		   nr_lock_orders);
	seq_printf(m, "classes:\n");
	for (int i = 0; i < nr_lock_classes; i++)
		seq_printf(m, " %s\n", lock_classes[i].name);
	seq_printf(m, "orders (first seen: the first lock taken at, then the "
		   "second at):\n");
	for (int i = 0; i < nr_lock_orders; i++) {
		const struct lock_order *o = &lock_orders[i];

		seq_printf(m, " %s -> %s  (%pS, %pS)\n",
			   lock_classes[o->from].name, lock_classes[o->to].name,
			   (void *)o->from_ip, (void *)o->to_ip);
	}
	return 0;
}

static int lockdep_proc_init(void)
{
	proc_create_single("lockdep", lockdep_show);
	return 0;
}
device_initcall(lockdep_proc_init);

static int set_lockdep(const char *val)
{
	return param_set_onoff(val, &lockdep_enabled);
}
__setup("lockdep", set_lockdep);
