/*
 * kernel/sched/explore.c: the schedule explorer (<kernel/explore.h>).
 *
 *   /proc/explore          write a schedule to start a run, "end" to end
 *                          it; read the run's numbers (explore_show)
 *   explore_fork           a child of an explored task is explored too
 *   explore_enter/exit     where points are numbered (faults, truncates)
 *   __explore_point        count a point, hash it, maybe switch there
 *   explore_yield          (kernel/sched/core.c) the switch itself
 *   explore_panic_note     a panic names the schedule that led to it
 *   explore_page_removed   pages the run's truncates removed, and
 *   __explore_page_freed   which of them were freed; the rest are
 *                          "kept" in the run's numbers, and shown when
 *                          the run ends (report_kept_pages)
 *
 * One run at a time, on one CPU: the explorer is for one-CPU boots (with
 * several CPUs the racers would run side by side, and no schedule could
 * say in what order). The run's tasks are numbered in fork order, the
 * writer of the schedule 1, so that a trace reads the same in every boot
 * whatever the pids.
 */
#include <kernel/explore.h>
#include <kernel/errno.h>
#include <kernel/fail_delay.h>
#include <kernel/init.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <asm/processor.h>
#include <fs/proc_fs.h>
#include <mm/mm.h>
#include <mm/mmdebug.h>

#define EXPLORE_MAX_SWITCHES 8
/* A run is a few hundred points; one that passes this many is a task
 * caught in a loop (a fault retried forever), which, with the tick not
 * switching it, would hang the boot without a word. */
#define EXPLORE_MAX_POINTS 50000
/* No run needs a second of the CPU; a task of the run that has had ten
 * spins, most likely in user space waiting for the other (where there
 * is no point to switch at). */
#define EXPLORE_MAX_TICKS (10 * HZ)
#define FD_EXPLORE_BIT (1UL << 63)	/* in fail_delay_armed: see below */
/* Pages a run removes from the page cache: a truncate of a few pages. */
#define EXPLORE_MAX_REMOVED 32

bool explore_active;
unsigned long explore_seq;	/* the run's number */

static struct explore_run {
	unsigned long sched[EXPLORE_MAX_SWITCHES];	/* increasing */
	int nsched, next;	/* the schedule, and its next entry */
	unsigned long points;	/* numbered so far */
	u64 hash;		/* FNV-1a over (task, kind, place) */
	int switches, missed;	/* done, and asked where nobody could run */
	int ntasks;		/* explored tasks so far */
	bool trace;		/* log every point */
	/* Removed from the page cache by the run, not freed yet. */
	struct page *removed[EXPLORE_MAX_REMOVED];
	int nremoved;
} run;

static const char *const kind_names[] = {
	[EP_SPIN_UNLOCK] = "spin_unlock", [EP_LOCK] = "lock",
	[EP_UNLOCK] = "unlock", [EP_LOCK_PAGE] = "lock_page",
	[EP_UNLOCK_PAGE] = "unlock_page", [EP_DELAY] = "fail_delay",
};

bool explore_current(void)
{
	return explore_active && current->explore_run == explore_seq;
}

void explore_fork(struct task_struct *p, struct task_struct *parent)
{
	p->explore_depth = 0;
	p->explore_off = 0;
	p->explore_ticks = 0;
	if (explore_active && parent->explore_run == explore_seq) {
		p->explore_run = explore_seq;
		p->explore_id = ++run.ntasks;
	} else {
		p->explore_run = 0;
	}
}

/* A run may begin or end while a task is between the two (not one of
 * the run's: they are forked after it begins, and reaped before it
 * ends): the depth never goes below 0. */
void __explore_enter(void)
{
	current->explore_depth++;
	current->explore_lock_gen = i_size_changes;
}

void __explore_exit(void)
{
	if (current->explore_depth > 0)
		current->explore_depth--;
}

void explore_page_locked(void)
{
	current->explore_lock_gen = i_size_changes;
}

static u64 fnv(u64 h, unsigned long v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	return h;
}

static __cold __noreturn void explore_loop_bug(int kind, unsigned long ip)
{
	printk(KERN_EMERG "BUG: explore: the run passed %d points without "
	       "ending: task %d (%s[%d]) loops, now at %s %pS\n",
	       EXPLORE_MAX_POINTS, current->explore_id, current->comm,
	       current->pid, kind_names[kind < EP_DELAY ? kind : EP_DELAY],
	       (void *)ip);
	panic("explore: a task of the run loops");
}

/*
 * A point reached by current. Counted only for an explored task inside a
 * fault or truncate, where a switch is allowed (preemption on, interrupts
 * on), and not inside explore_quiet: the explorer itself (its printk and
 * the run queue's lock end in points of their own), printk.
 */
void __explore_point(int kind, unsigned long ip)
{
	struct task_struct *t = current;
	bool sw;

	if (t->explore_run != explore_seq || !t->explore_depth ||
	    t->explore_off || preempt_count() || irqs_disabled())
		return;
	explore_quiet_begin();
	if (++run.points > EXPLORE_MAX_POINTS)
		explore_loop_bug(kind, ip);
	run.hash = fnv(fnv(fnv(run.hash, t->explore_id), kind), ip);
	sw = run.next < run.nsched && run.sched[run.next] == run.points;
	if (run.trace) {
		int k = kind < EP_DELAY ? kind : EP_DELAY;

		pr_info("explore: %lu task %d %s%s%s at %pS%s\n", run.points,
			t->explore_id, kind_names[k],
			kind >= EP_DELAY ? " " : "",
			kind >= EP_DELAY ? fail_delay_name(kind - EP_DELAY) : "",
			(void *)ip, sw ? "  <- switch" : "");
	}
	if (sw) {
		run.next++;
		if (explore_yield())
			run.switches++;
		else
			run.missed++;
	}
	explore_quiet_end();
}

static void explore_stop(void)
{
	explore_active = false;
	preempt_hooks &= ~PREEMPT_HOOK_EXPLORE;
	fail_delay_armed &= ~FD_EXPLORE_BIT;
}

/*
 * From the tick (interrupts off): true when t, one of the run's tasks,
 * must not be preempted. The tick does not switch them; but one that
 * spins for EXPLORE_MAX_TICKS would then hold the CPU for ever, so the
 * run is given up, said so, and the tick switches again.
 */
bool explore_tick(struct task_struct *t)
{
	if (!explore_task(t))
		return false;
	if (++t->explore_ticks < EXPLORE_MAX_TICKS)
		return true;
	pr_warn("explore: task %d (%s[%d]) ran %d s without sleeping or "
		"ending (a busy wait? the other task never runs unless it "
		"sleeps): run %lu given up\n", t->explore_id, t->comm, t->pid,
		EXPLORE_MAX_TICKS / HZ, explore_seq);
	explore_stop();
	return false;
}

void explore_panic_note(void)
{
	if (!explore_active)
		return;
	printk(KERN_EMERG "explore: panic in run %lu, schedule ", explore_seq);
	if (!run.nsched)
		printk(KERN_CONT "none");
	for (int i = 0; i < run.nsched; i++)
		printk(KERN_CONT "%s%lu", i ? "," : "", run.sched[i]);
	printk(KERN_CONT ", at point %lu\n", run.points);
}

/*
 * A task of the run removed page from the page cache. Called before the
 * cache's reference is dropped, so that its free is seen. (One CPU: an
 * interrupt that frees a page is the only other writer.)
 */
void __explore_page_removed(struct page *page)
{
	unsigned long flags;

	if (!explore_current())
		return;
	flags = local_irq_save();
	if (run.nremoved < EXPLORE_MAX_REMOVED)
		run.removed[run.nremoved++] = page;
	local_irq_restore(flags);
}

/* The last reference to page went (__free_pages). */
void __explore_page_freed(struct page *page)
{
	unsigned long flags = local_irq_save();

	for (int i = 0; i < run.nremoved; i++)
		if (run.removed[i] == page) {
			run.removed[i] = run.removed[--run.nremoved];
			break;
		}
	local_irq_restore(flags);
}

/*
 * At the end of a run (its tasks reaped: the test program reads the
 * run's numbers, "kept N", and then ends it), nobody may hold a page the
 * file no longer has: each one still held is shown with its history
 * (page_owner; with page_owner=refs, the reference never dropped).
 */
static void report_kept_pages(void)
{
	for (int i = 0; i < run.nremoved; i++) {
		pr_warn("explore: run %lu removed page pfn %#lx (index %lu) "
			"from the page cache, and it is still held after the "
			"run's tasks ended: a reference that was never "
			"dropped\n", explore_seq, page_to_pfn(run.removed[i]),
			run.removed[i]->index);
		dump_page(run.removed[i], "kept after the run");
	}
}

static int explore_show(struct seq_file *m, void *data)
{
	seq_printf(m, "run %lu %s points %lu hash %016llx switches %d "
		   "missed %d kept %d unreached %d tasks %d schedule ",
		   explore_seq, explore_active ? "active" : "ended",
		   run.points, (unsigned long long)run.hash, run.switches,
		   run.missed, run.nremoved, run.nsched - run.next,
		   run.ntasks);
	if (!run.nsched)
		seq_puts(m, "none");
	for (int i = 0; i < run.nsched; i++)
		seq_printf(m, "%s%lu", i ? "," : "", run.sched[i]);
	seq_putc(m, '\n');
	return 0;
}

/* "N,N,...": increasing point numbers from 1; "none": no switch. */
static int parse_schedule(const char *s, const char *end, unsigned long *v,
			  int *n)
{
	*n = 0;
	if (end - s == 4 && !strncmp(s, "none", 4))
		return 0;
	while (s < end) {
		char *e;
		unsigned long p = simple_strtoul(s, &e, 10);

		if (e == s || p == 0 || *n == EXPLORE_MAX_SWITCHES ||
		    (*n && p <= v[*n - 1]))
			return -EINVAL;
		v[(*n)++] = p;
		s = e;
		if (s < end && *s++ != ',')
			return -EINVAL;
		if (s == end && s[-1] == ',')
			return -EINVAL;
	}
	return *n ? 0 : -EINVAL;
}

static int explore_write(const char *buf, size_t len, void *data)
{
	const char *end = buf + len;
	unsigned long sched[EXPLORE_MAX_SWITCHES];
	bool trace = false;
	int n, err;

	if (end > buf && end[-1] == '\n')
		end--;
	if (end - buf == 3 && !strncmp(buf, "end", 3)) {
		if (explore_active)
			report_kept_pages();
		explore_stop();
		return 0;
	}
	if (end - buf > 6 && !strncmp(buf, "trace ", 6)) {
		trace = true;
		buf += 6;
	}
	err = parse_schedule(buf, end, sched, &n);
	if (err) {
		pr_warn("explore: %s[%d]: bad schedule \"%.*s\": want \"none\" "
			"or up to %d increasing point numbers from 1, "
			"comma-separated\n", current->comm, current->pid,
			end - buf > 40 ? 40 : (int)(end - buf), buf,
			EXPLORE_MAX_SWITCHES);
		return err;
	}
	if (num_online_cpus() != 1) {
		pr_warn("explore: needs one CPU (boot with smp 1)\n");
		return -EBUSY;
	}
	memcpy(run.sched, sched, sizeof(sched));
	run.nsched = n;
	run.next = 0;
	run.points = 0;
	run.hash = 0xcbf29ce484222325ULL;
	run.switches = run.missed = 0;
	run.trace = trace;
	run.nremoved = 0;
	explore_seq++;
	run.ntasks = 1;
	current->explore_run = explore_seq;
	current->explore_id = 1;
	current->explore_depth = 0;
	current->explore_ticks = 0;
	/* fail_delay() looks at fail_delay_armed only: a bit of it brings
	 * every delay point (and the tracer's entry points) to
	 * __fail_delay, which counts it as a point. */
	fail_delay_armed |= FD_EXPLORE_BIT;
	preempt_hooks |= PREEMPT_HOOK_EXPLORE;	/* spinlocks' ends are points */
	explore_active = true;
	return 0;
}

static int explore_init(void)
{
	/* Root's: a run's tasks are never preempted by the tick. */
	proc_create_rw_data("explore", 0644, explore_show, explore_write,
			    NULL);
	return 0;
}
device_initcall(explore_init);
