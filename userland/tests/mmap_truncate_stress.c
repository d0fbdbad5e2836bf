/*
 * mmap_truncate_stress: one task shrinks and grows a file while the others
 * store, load and fault through shared mappings of it, with no race window
 * held open (/proc/fail/delay is not used): the truncate races as they
 * come, on several CPUs or under preemption (tests/races.list).
 *
 *   mmap_truncate_stress [-s SEED] [-w WORKERS] [-p] [-a]
 *                        [-n PAGES] [-i OPS] [-T SECONDS] [-c EVERY]
 *
 * -w workers (3) run beside the truncator, as threads of one process, or
 * with -p as processes (each its own mm); -a pins each to a CPU of its
 * own. The run stops after -i size changes (100000) or -T seconds of the
 * machine's time (3, or PAGELAB_STRESS_SECONDS), whichever comes first,
 * or at the first violation.
 * The seed (printed first; default from the clock) fixes the truncator's
 * sizes and each worker's choices; only the interleaving is the
 * machine's.
 *
 * The model. The file is -n pages (4); every 8-byte word of it, and of
 * one page past it, has one owner: worker w % (WORKERS + 1), the last
 * being the truncator, which grows the file with pwrite into its own
 * words. So a word holds its owner's last store, or zero (cut off by a
 * truncate, or never file data), never anyone else's bytes. The truncator
 * logs each size change k (its new size) and bumps a sequence number to
 * 2k+1 before the call and 2k+2 after it; a worker reads the sequence
 * before and after each access, so when both reads agree and are even,
 * the file's size was stable across the access and known. Then:
 *   - an access to a page past EOF must be SIGBUS, one inside EOF's page
 *     must not (a page left mapped past EOF; a fault refused in the file);
 *   - a load must see what the model allows: the worker's last store, or
 *     zero where a truncate cut it off or (pagelab) a growth passed over
 *     a store made past EOF (stale bytes of a page truncated meanwhile);
 *   - every few hundred size changes a checkpoint: the file grows to its
 *     full size, the workers park with their mappings unmapped, every
 *     byte is checked in the page cache (pread), then after fsync and
 *     drop_caches from the disk, which must agree (a store that landed
 *     in a block that was never allocated is lost there: the 2009
 *     page_mkwrite bug); msync and fsync must never fail.
 * A store whose access was not stable may have landed or been cut: the
 * model allows its value or zero until a later cut decides.
 *
 * On Linux (no /proc/sys/vm/pagecache_isize_extended) a store past EOF
 * may become file data when the file grows (Linux zeroes it only when
 * blocks are smaller than pages): the model then allows both. The first
 * violation stops the run and prints what was seen, the word's last
 * store, the last size changes and the time to it.
 *
 * Where the tasks aim. A wrong kernel shows only in a few interleavings,
 * at a few sizes: the stress goes there rather than wait for luck
 * (scripts/race-rates measures how often it catches each lab mutant).
 * The truncator announces each size change before it makes it
 * (aim_from, aim_to, aim_seq), and the workers meet it (meet_change):
 *   - a cut: faults on the page the cut makes the first past EOF, then
 *     a look at the same word once the cut is over (a fault that
 *     rechecks the size off by one maps that page after the cut);
 *   - a growth from inside a page: stores into that page's tail all
 *     through it, then an msync (pagecache_isize_extended must
 *     write-protect before it zeroes, or a store in between is kept in
 *     a hole, and the msync fails). A later store that faults gives the
 *     hole its block and hides that; so each store of the burst is
 *     timed, and one too quick to have faulted, through a PTE no slower
 *     store of ours could have made writable since the growth began, is
 *     read back after it: in the part the growth zeroed it must be zero
 *     (check_quick_store).
 * Its moves: cuts to page and block edges and into a page's earlier
 * blocks (pick_edge_cut); after a cut, sometimes the growth back at once
 * (page_mkwrite must notice its page left the file meanwhile), and after
 * a cut to a page boundary, growth and the same cut again (recut: the
 * cut then meets the first faults on pages the growth left uncached,
 * filemap_fault's slow path). Accesses save no signal mask (no system
 * call each), so a worker makes many within one size change.
 *
 * Roadmap: main -> setup, start_workers, truncator (size_change and
 * announce, pick_cut, pick_edge_cut, pick_growth, pwrite_growth, recut,
 * do_checkpoint), report. worker -> pick_word, meet_change
 * (worker_fault_across_cut, worker_eof_burst), worker_store, load_at,
 * worker_fresh_load, worker_pread, worker_msync, park; judge_access,
 * allowed and word_fits apply the model.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

#define NAME "truncate_stress.dat"
#define PAGE 4096L
#define MAX_WORKERS 8
#define COUNT(x) __atomic_add_fetch(&sh->x, 1, __ATOMIC_RELAXED)

enum kind { SIGBUS_RULE, STALE, CHECKPOINT, SYNC_ERR, NR_KINDS };
static const char *const kind_names[NR_KINDS] = {
	"SIGBUS rule", "stale or lost bytes", "checkpoint", "msync/fsync",
};

/* A word's last store: its value, and the sequence around it. */
struct rec {
	uint64_t v;	/* 0: nothing stored since the last checkpoint */
	long s1, s2;
};

/* Everything the tasks share, in one MAP_SHARED|MAP_ANONYMOUS region. */
struct shared {
	volatile long seq;
	/* The size change announced (in flight at aim_seq, or about to be,
	 * or the last one made): from aim_from to aim_to. */
	volatile long aim_from, aim_to, aim_seq;
	volatile int aim_quiet;	/* a growth the workers should keep off */
	volatile int stop, pause, parked, failed;
	long stores, loads, sigbus, msyncs, fresh, quick_checks;
	long violations[NR_KINDS];
	double fail_time;
	long max_ops;
	long *sizes;		/* sizes[k]: the size op k set */
	struct rec *recs;	/* one per word of the mapping */
};

static struct shared *sh;
static long full, map_len, blocksize, nworkers;
static int strict, use_procs, pin, ncpus;
static unsigned long seed;
static double t0;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A store value whose 8 bytes are all non-zero: zero means "cut off". */
static uint64_t word_value(uint64_t c)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)(0x80 | ((c >> (7 * i)) & 0x7f)) << (8 * i);
	return v;
}

static long page_up(long x)
{
	return (x + PAGE - 1) & ~(PAGE - 1);
}

/* The size after the operations a stable sequence number s counts. */
static long size_at(long s)
{
	return s == 0 ? full : sh->sizes[s / 2 - 1];
}

static int owner_of(long off)
{
	return (off / 8) % (nworkers + 1);
}

/* ---- the model ---- */

/* Which of v's byte and zero byte b may hold at stable sequence at. */
enum { ALLOW_ZERO = 1, ALLOW_V = 2 };

static int allowed(const struct rec *r, long b, long at)
{
	int stable = r->s1 == r->s2 && !(r->s1 & 1);
	int past_eof = stable && b >= size_at(r->s1);
	int allow = stable && !past_eof ? ALLOW_V : ALLOW_V | ALLOW_ZERO;
	long k;

	if (!r->v)
		return ALLOW_ZERO;
	/* The size changes begun after the store's second look. */
	for (k = stable ? r->s2 / 2 : (r->s2 + 1) / 2; k < at / 2; k++) {
		long prev = k ? sh->sizes[k - 1] : full, t = sh->sizes[k];

		if (!past_eof && t <= b && (stable || t < prev))
			return ALLOW_ZERO;		/* cut off */
		if (past_eof && t < prev)
			return ALLOW_ZERO;		/* cut: dropped or zeroed */
		if (past_eof && t > b) {
			if (strict)	/* pagecache_isize_extended zeroes it */
				return ALLOW_ZERO;
			past_eof = 0;	/* Linux: maybe file data now */
		}
	}
	return allow;
}

/* Does 8-byte word w (read at stable sequence at) fit the model? */
static int word_fits(const struct rec *r, long off, uint64_t got, long at)
{
	for (int i = 0; i < 8; i++) {
		int a = allowed(r, off + i, at);
		unsigned char g = got >> (8 * i), v = r->v >> (8 * i);

		if (!((g == 0 && (a & ALLOW_ZERO)) || (g == v && (a & ALLOW_V))))
			return 0;
	}
	return 1;
}

/* ---- reporting ---- */

static void print_ops(long upto)
{
	long k = upto / 2, from = k > 8 ? k - 8 : 0;	/* the done ones */

	for (; from < k; from++)
		diag("  size change %ld: %ld -> %ld", from,
		     from ? sh->sizes[from - 1] : full, sh->sizes[from]);
}

/* Record a violation; the first one is described and stops the run. */
static void violation(enum kind kind, int who, long off, uint64_t got,
		      long s1, long s2, const char *what)
{
	const struct rec *r = &sh->recs[off / 8];

	__atomic_add_fetch(&sh->violations[kind], 1, __ATOMIC_SEQ_CST);
	if (__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST))
		return;
	sh->fail_time = now() - t0;
	diag("VIOLATION (%s) after %.3f s: task %d: %s at offset %ld "
	     "(word of task %d): got %#llx, sequence %ld..%ld (size %ld)",
	     kind_names[kind], sh->fail_time, who, what, off, owner_of(off),
	     (unsigned long long)got, s1, s2, s1 & 1 ? -1 : size_at(s1));
	diag("  its last store: %#llx, sequence %ld..%ld",
	     (unsigned long long)r->v, r->s1, r->s2);
	print_ops(s2);
	diag("  replay: mmap_truncate_stress -s %lu -w %ld -n %ld%s", seed,
	     nworkers, full / PAGE, use_procs ? " -p" : "");
	sh->stop = 1;
}

/* ---- faults: SIGBUS is caught per task ---- */

static __thread sigjmp_buf fault_jmp;
static __thread volatile int fault_armed;

static void on_fault(int sig)
{
	if (!fault_armed) {
		signal(sig, SIG_DFL);
		return;
	}
	fault_armed = 0;
	siglongjmp(fault_jmp, sig);
}

/* Load (store when v) the word at p; 0, or the signal it raised. The
 * signal mask is not saved (no system call per access, so that a worker
 * stores and loads many times within one size change): the handlers are
 * installed SA_NODEFER, so SIGBUS is never left blocked by the jump. */
static int access_word(volatile uint64_t *p, uint64_t v, uint64_t *got)
{
	int sig = sigsetjmp(fault_jmp, 0);

	if (sig)
		return sig;
	fault_armed = 1;
	if (v)
		*p = v;
	else
		*got = *p;
	fault_armed = 0;
	return 0;
}

static long seq_read(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return sh->seq;
}

/* The SIGBUS rule for an access at off, stable at s1 == s2: 1 if kept. */
static int judge_access(int who, long off, int sig, uint64_t got,
			long s1, long s2, const char *what)
{
	long eof_page;

	if (s1 != s2 || (s1 & 1)) {
		if (sig && sig != SIGBUS)
			violation(SIGBUS_RULE, who, off, got, s1, s2, what);
		return 0;
	}
	eof_page = page_up(size_at(s1));
	if (sig == SIGBUS && off < eof_page)
		violation(SIGBUS_RULE, who, off, got, s1, s2,
			  "SIGBUS inside the file's last page");
	else if (!sig && off >= eof_page)
		violation(SIGBUS_RULE, who, off, got, s1, s2,
			  "no SIGBUS past the file's last page");
	else if (sig && sig != SIGBUS)
		violation(SIGBUS_RULE, who, off, got, s1, s2, "signal");
	return !sig && off < eof_page;
}

/* ---- workers ---- */

struct worker {
	int id;
	uint64_t rng, count;
	char *map;
	int fd;
	/* The sequence read after this worker's last slow store through
	 * map (one that may have faulted, and made its PTE writable). */
	long slow_end;
};

/* A store as worker_store saw it. */
struct store_seen {
	long off, s1, s2, slow_end;
	uint64_t v;
	int quick;	/* landed, too fast to have faulted */
};

/* The nearest word of this worker's at or after off (or just before
 * it, at the end of the mapping). */
static long own_word(struct worker *w, long off)
{
	off &= ~7L;
	off += 8L * ((w->id - owner_of(off) + nworkers + 1) % (nworkers + 1));
	return off < map_len ? off : off - 8L * (nworkers + 1);
}

/* Is the announced size change still to come, or under way? */
static int change_pending(void)
{
	return seq_read() <= sh->aim_seq;
}

/*
 * Where the size change the truncator announced (in flight, or the last
 * one) does its delicate work, as [*lo, *hi):
 *   - a cut to t: the last block of t's page and the first block of the
 *     page after it. A fault that looked at the size before the cut and
 *     maps that next page after it must see the new size (the size
 *     recheck: an off-by-one lets exactly this page through); a store
 *     there waits in page_mkwrite while the page is cut, perhaps
 *     regrown, and must not then trust the size alone.
 *   - a growth from z: the rest of z's page, past the old EOF, where
 *     pagecache_isize_extended write-protects and zeroes, in that order;
 *     from a page boundary, the page it uncovers (a store there may
 *     have begun before the cut that came just before);
 *   - nowhere, for a growth the truncator wants left alone (recut).
 */
static void change_window(long *lo, long *hi)
{
	long from = sh->aim_from, to = sh->aim_to;

	if (sh->aim_quiet) {
		*lo = *hi = 0;
	} else if (to < from) {
		*lo = page_up(to) - blocksize;
		*hi = page_up(to) + blocksize;
	} else if (from % PAGE) {
		*lo = from;
		*hi = page_up(from);
	} else {
		*lo = from;
		*hi = from + PAGE;
	}
	*lo = *lo < 0 ? 0 : *lo;
	*hi = *hi > map_len ? map_len : *hi;
}

/* An offset of one of this worker's words: anywhere, around the size
 * last seen stable (not while a change is coming: a growth from a page
 * boundary should leave the pages after it uncached for the cut that
 * may follow), or where the announced size change works. */
static long pick_word(struct worker *w)
{
	long off = rnd(&w->rng) % map_len, lo, hi;

	switch (rnd(&w->rng) % 4) {
	case 0:
		break;
	case 1:
		if (!change_pending()) {
			long z = size_at(sh->seq & ~1L);

			off = z - 2 * blocksize +
			      (long)(rnd(&w->rng) % (4 * blocksize));
		}
		break;
	default:
		change_window(&lo, &hi);
		if (hi > lo)
			off = lo + (long)(rnd(&w->rng) % (hi - lo));
	}
	if (off < 0 || off >= map_len)
		off = rnd(&w->rng) % map_len;
	return own_word(w, off);
}

static uint64_t cycles(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* Faster than any page fault (an exception, page_mkwrite, back): a
 * store this quick went through a PTE that was writable already. A
 * slower one may or may not have faulted. */
#define QUICK_CYCLES 1500

static void worker_store_seen(struct worker *w, long off,
			      struct store_seen *seen)
{
	uint64_t v = word_value(++w->count + ((uint64_t)w->id << 40));
	long s1 = seq_read(), s2;
	uint64_t c0 = cycles();
	int sig = access_word((uint64_t *)(w->map + off), v, NULL);
	int quick = !sig && cycles() - c0 < QUICK_CYCLES;

	s2 = seq_read();
	if (!quick)
		w->slow_end = s2;
	if (seen)
		*seen = (struct store_seen){ off, s1, s2, w->slow_end, v,
					     quick };
	judge_access(w->id, off, sig, v, s1, s2, "store");
	if (sig)
		COUNT(sigbus);
	else
		sh->recs[off / 8] = (struct rec){ v, s1, s2 };
	COUNT(stores);
}

static void worker_store(struct worker *w, long off)
{
	worker_store_seen(w, off, NULL);
}

/* Load the word at off through base + off, and judge it. */
static void load_at(struct worker *w, char *base, long off, const char *what)
{
	uint64_t got = 0;
	long s1 = seq_read(), s2;
	int sig = access_word((uint64_t *)(base + off), 0, &got);

	s2 = seq_read();
	if (sig)
		COUNT(sigbus);
	if (judge_access(w->id, off, sig, got, s1, s2, what) &&
	    !word_fits(&sh->recs[off / 8], off, got, s1))
		violation(STALE, w->id, off, got, s1, s2, what);
	COUNT(loads);
}

/* A load through a mapping made just now: no PTE yet, a fault for sure. */
static void worker_fresh_load(struct worker *w, long off)
{
	long page = off & ~(PAGE - 1);
	char *m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, w->fd, page);

	if (m == MAP_FAILED)
		return;
	load_at(w, m - page, off, "load through a fresh mapping");
	munmap(m, PAGE);
	COUNT(fresh);
}

static void worker_pread(struct worker *w, long off)
{
	uint64_t got = 0;
	long s1 = seq_read(), s2, n = pread(w->fd, &got, 8, off);

	s2 = seq_read();
	if (s1 == s2 && !(s1 & 1) && off + 8 <= size_at(s1) &&
	    (n != 8 || !word_fits(&sh->recs[off / 8], off, got, s1)))
		violation(STALE, w->id, off, got, s1, s2, "pread");
}

/* msync writes the pages back and write-protects them: the next store
 * faults again (page_mkwrite). It must never fail. */
static void worker_msync(struct worker *w, long off)
{
	long page = off & ~(PAGE - 1), s = seq_read();

	if (msync(w->map + page, PAGE, MS_SYNC))
		violation(SYNC_ERR, w->id, off, errno, s, seq_read(),
			  "msync failed (got: errno)");
	COUNT(msyncs);
}

/* Is a growth that the workers should meet still to come, or under way?
 * (One from inside a page zeroes that page's tail.) */
static int growth_pending(void)
{
	return change_pending() && sh->aim_to > sh->aim_from &&
	       !sh->aim_quiet;
}

/* Stores in a row to this worker's words of the page that holds EOF,
 * past EOF: 32, and more (up to 512) while a growth is coming or under
 * way. A growth that zeroes that tail must write-protect the page before
 * it zeroes, or a store in between is kept in a hole: the stores keep
 * coming through the whole growth, so that one lands in that moment if
 * the kernel leaves it open. The msync after them writes the page back
 * at once: a store kept in a hole fails it ("no disk block") before a
 * later cut can take the evidence away. */
/*
 * A store of the burst that was quick (it did not fault) while no store
 * of ours through the mapping had been slow since the growth began went
 * through a PTE writable from before the growth. The growth must
 * write-protect the page before it zeroes past the old EOF, so such a
 * store, in the words it zeroes, reads zero after it: one that survived
 * landed between the zeroing and the write-protect, and is kept in a
 * hole. (pagelab only. Threads too: each worker maps the file itself, so
 * its PTEs are its own; another's fault never makes them writable.)
 */
static void check_quick_store(struct worker *w, const struct store_seen *st)
{
	long op = st->s1 / 2, from, to, lo, hi;
	uint64_t got = 0;

	if (!st->quick || st->s2 > 2 * op + 1 || st->slow_end >= 2 * op + 1 ||
	    seq_read() < 2 * op + 2)
		return;
	from = size_at(2 * op);
	to = sh->sizes[op];
	lo = (from + 7) & ~7L;
	hi = to < page_up(from) ? to : page_up(from);
	if (to <= from || st->off < lo || st->off + 8 > hi)
		return;
	COUNT(quick_checks);
	if (pread(w->fd, &got, 8, st->off) == 8 && got == st->v)
		violation(STALE, w->id, st->off, got, st->s1, st->s2,
			  "a store that did not fault before the file grew "
			  "over it survived the growth (kept in a hole)");
}

static void worker_eof_burst(struct worker *w)
{
	long z = size_at(seq_read() & ~1L), page = z & ~(PAGE - 1), off = z;
	static __thread struct store_seen seen[512];
	int n = 0;

	for (int i = 0; i < 512 && !sh->stop; i++, off += 8L * (nworkers + 1)) {
		if (i >= 32 && !growth_pending())
			break;
		if (off >= page_up(z + 1) || off >= map_len)
			off = z;
		off = own_word(w, off);
		if (off < map_len)
			worker_store_seen(w, off, &seen[n++]);
	}
	/* The last store to each word decides what it holds. */
	for (int i = 0; strict && i < n; i++) {
		int last = 1;

		for (int j = i + 1; j < n && last; j++)
			last = seen[j].off != seen[i].off;
		if (last)
			check_quick_store(w, &seen[i]);
	}
	if (page < map_len)
		worker_msync(w, page);
}

static int map_file(struct worker *w)
{
	w->map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      w->fd, 0);
	return w->map != MAP_FAILED;
}

/* A checkpoint: unmap (so drop_caches can drop every page) and wait. */
static void park(struct worker *w)
{
	munmap(w->map, map_len);
	__atomic_add_fetch(&sh->parked, 1, __ATOMIC_SEQ_CST);
	while (sh->pause && !sh->stop)
		usleep(200);
	__atomic_sub_fetch(&sh->parked, 1, __ATOMIC_SEQ_CST);
	if (!map_file(w))
		sh->stop = 1;
}

static void pin_to(int cpu)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (!pin || n < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % n, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Map off's page of w->map again in place: the next access faults. */
static int remap_page(struct worker *w, long off)
{
	long page = off & ~(PAGE - 1);

	if (mmap(w->map + page, PAGE, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, w->fd, page) != MAP_FAILED)
		return 1;
	sh->stop = 1;	/* w->map has a hole now */
	return 0;
}

/*
 * Faults on off's page (mapped again in place each time: a fault for
 * sure, a load or a store, which calls page_mkwrite too) until the
 * announced cut is over, then one more look through the same mapping. A
 * fault that looked at the size before the cut and mapped the page
 * after it (filemap_fault's recheck under the page lock, off by one, on
 * a page the cut made the first past EOF) leaves a PTE past EOF: the
 * look gets no SIGBUS. (A fresh mapping of its own would be gone by
 * then; a later fault in the loop would replace the PTE, but the loop
 * stops at the access the cut ended in.)
 */
static void worker_fault_across_cut(struct worker *w, long off)
{
	for (int i = 0; i < 64 && change_pending() && !sh->stop; i++) {
		if (!remap_page(w, off))
			return;
		if (i % 2)
			load_at(w, w->map, off, "load (a fault) across a cut");
		else
			worker_store(w, off);
	}
	load_at(w, w->map, off, "load after a cut, where a fault was");
}

/*
 * The announced size change is coming or under way: meet it where it
 * works (change_window). A cut: a fault across it. A growth from inside
 * a page: stores into that page's tail until it is over. Another
 * growth: a store.
 */
static void meet_change(struct worker *w)
{
	long lo, hi, off;

	if (growth_pending()) {
		worker_eof_burst(w);
		return;
	}
	change_window(&lo, &hi);
	if (hi <= lo)
		return;
	off = own_word(w, lo + (long)(rnd(&w->rng) % (hi - lo)));
	if (sh->aim_to < sh->aim_from)
		worker_fault_across_cut(w, off);
	else
		worker_store(w, off);
}

static void *worker(void *arg)
{
	struct worker *w = arg;

	pin_to(w->id + 1);
	if (!map_file(w))
		return (void *)1;
	while (!sh->stop) {
		long off = pick_word(w);
		unsigned op = rnd(&w->rng) % 100;

		if (sh->pause)
			park(w);
		else if ((op < 15 && change_pending()) ||
			 (op < 60 && growth_pending()))
			meet_change(w);
		else if (op < 40)
			worker_store(w, off);
		else if (op < 45)
			worker_eof_burst(w);
		else if (op < 85)
			load_at(w, w->map, off, "load");
		else if (op < 93)
			worker_fresh_load(w, off);
		else if (op < 97)
			worker_pread(w, off);
		else
			worker_msync(w, off);
	}
	munmap(w->map, map_len);
	return NULL;
}

/* ---- the truncator ---- */

/*
 * A cut below a page boundary b < z: to b itself (the page after the new
 * EOF page starts exactly at EOF: where a size recheck off by one looks
 * wrong), or into an earlier block of b's page (the file's next growth
 * then zeroes, and must first write-protect, the blocks after it).
 */
static long pick_edge_cut(uint64_t *x, long z)
{
	long b = ((z - 1) & ~(PAGE - 1)) - PAGE * (long)(rnd(x) % 2);

	if (b <= 0)
		return 0;
	switch (rnd(x) % 4) {
	case 0:
	case 1:
		return b;
	case 2:
		return b - 1 - (long)(rnd(x) % 8);
	default:
		b -= blocksize * (1 + (long)(rnd(x) % (PAGE / blocksize)));
		return b + 1 + (long)(rnd(x) % 64);
	}
}

/* Cut to a size of interest: page and block edges, one past, near EOF. */
static long pick_cut(uint64_t *x, long z)
{
	long pages = full / PAGE;

	switch (rnd(x) % 7) {
	case 0: return rnd(x) % full;
	case 1: return (long)(rnd(x) % pages) * PAGE;
	case 2: return (long)(rnd(x) % (full / blocksize)) * blocksize + 1;
	case 3: return (long)(rnd(x) % (full / blocksize)) * blocksize;
	case 4: return z > 64 ? z - 1 - (long)(rnd(x) % 64) : 0;
	default: return pick_edge_cut(x, z);
	}
}

/* Growth: to the full size, inside the EOF block, inside the EOF page. */
static long pick_growth(uint64_t *x, long z)
{
	long end;

	switch (rnd(x) % 4) {
	case 0:
		end = (z / blocksize + 1) * blocksize;
		break;
	case 1:
		end = page_up(z + 1);
		break;
	default:
		return full;
	}
	end = end > full ? full : end;
	return z + 1 + (long)(rnd(x) % (end - z > 0 ? end - z : 1));
}

/* Grow with a pwrite of one of the truncator's words past EOF (at most
 * a page on): generic_write_end's growth, gap zeroed. Its new size. */
static long pwrite_growth(int fd, uint64_t *x, long z, long k)
{
	long off = z + (long)(rnd(x) % PAGE), me = nworkers;
	uint64_t v = word_value(k + ((uint64_t)me << 40));

	off &= ~7L;
	off += 8L * ((me - owner_of(off) + nworkers + 1) % (nworkers + 1));
	if (off + 8 > full)
		return -1;
	if (pwrite(fd, &v, 8, off) != 8)
		return -2;
	sh->recs[off / 8] = (struct rec){ v, 2 * k + 2, 2 * k + 2 };
	return off + 8 > z ? off + 8 : z;
}

/*
 * Tell the workers which size change k comes next (a pwrite grows by at
 * most a page), and give them a moment to meet it (meet_change). On one
 * CPU, a yield: they run only when the truncator lets them. On several,
 * before a cut, a spin of random length, so that their faults begin now
 * before the cut, now inside it. Not before a growth (the stores that
 * meet it would be spent before it began), and no yield there: pagelab's
 * one run queue would hand this CPU to the task the last change woke (a
 * store waiting in page_mkwrite for the page a cut took), which would
 * then always run before the growth that follows the cut.
 */
static void announce(uint64_t *x, long from, long to, long k)
{
	sh->aim_from = from;
	sh->aim_to = to;
	__atomic_store_n(&sh->aim_seq, 2 * k + 1, __ATOMIC_SEQ_CST);
	if (ncpus == 1)
		sched_yield();
	else if (to < from)
		for (volatile long n = rnd(x) % 20000; n > 0; n--)
			;
}

/* Size change k: log it, then make it, between the two sequence bumps. */
static int size_change(int fd, uint64_t *x, long k, long force)
{
	long z = size_at(2 * k), t;
	unsigned r = rnd(x) % 16;

	if (force >= 0)
		t = force, r = 0;
	else if (z > 0 && r < 7)
		t = pick_cut(x, z);
	else
		t = r < 13 ? pick_growth(x, z) : -1;
	if (t >= 0 && t > full)
		t = full;
	announce(x, z, t >= 0 ? t : (z + PAGE > full ? full : z + PAGE), k);
	__atomic_store_n(&sh->seq, 2 * k + 1, __ATOMIC_SEQ_CST);
	if (t < 0) {
		t = pwrite_growth(fd, x, z, k);
		if (t == -1)
			t = ftruncate(fd, full) ? -2 : full;
	} else if (ftruncate(fd, t)) {
		t = -2;
	}
	sh->sizes[k] = t < 0 ? z : t;
	__atomic_store_n(&sh->seq, 2 * k + 2, __ATOMIC_SEQ_CST);
	return t == -2 ? -1 : 0;
}

/* Drop the file's clean pages, so that the next read is the disk's. */
static void drop_file_cache(int fd)
{
	int p = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (p < 0 || write(p, "1\n", 2) != 2)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (p >= 0)
		close(p);
}

/* Every byte of buf (the file at stable sequence at) fits the model;
 * the last word's offset that does not, or -1. */
static long first_misfit(const char *buf, long at)
{
	for (long off = 0; off < full; off += 8) {
		uint64_t got;

		memcpy(&got, buf + off, 8);
		if (!word_fits(&sh->recs[off / 8], off, got, at))
			return off;
	}
	return -1;
}

static int wait_parked(void)
{
	for (long i = 0; sh->parked < nworkers; i++) {
		if (sh->stop || i > 100000)
			return 0;
		usleep(200);
	}
	return 1;
}

/* The model made exact again: what the checkpoint found is the truth. */
static void rebase(const char *buf, long at)
{
	for (long off = 0; off < full; off += 8) {
		uint64_t got;

		memcpy(&got, buf + off, 8);
		sh->recs[off / 8] = (struct rec){ got, at, at };
	}
}

/*
 * Where the disk differs from the page cache: the offset of the first
 * word, or -1. (Bytes stored past EOF that the cache zeroed when the file
 * grew over them, but that a writeback running in the middle of the
 * growth had put on the disk, were such a difference until pagelab's
 * writeback learnt to leave the blocks between the two sizes alone.)
 */
static long disk_differs(const char *cache, const char *disk)
{
	for (long off = 0; off < full; off += 8)
		if (memcmp(cache + off, disk + off, 8))
			return off;
	return -1;
}

/* Check the page cache, then the disk, against the model and each other. */
static int checkpoint(int fd, char *cache, char *disk, long at)
{
	long bad;

	if (pread(fd, cache, full, 0) != full)
		return violation(CHECKPOINT, -1, 0, 0, at, at, "pread"), 0;
	if ((bad = first_misfit(cache, at)) >= 0) {
		violation(CHECKPOINT, -1, bad, *(uint64_t *)(cache + bad), at,
			  at, "page cache misfit");
		return 0;
	}
	if (fsync(fd))
		return violation(SYNC_ERR, -1, 0, errno, at, at, "fsync"), 0;
	drop_file_cache(fd);
	if (pread(fd, disk, full, 0) != full)
		return violation(CHECKPOINT, -1, 0, 0, at, at, "pread"), 0;
	if ((bad = disk_differs(cache, disk)) >= 0) {
		violation(CHECKPOINT, -1, bad, *(uint64_t *)(disk + bad), at,
			  at, "read back from the disk, not what was cached");
		return 0;
	}
	rebase(disk, at);
	return 1;
}

struct tstats {
	long ops, cuts, checkpoints;
};

/* Grow to full size, park the workers, check, let them go on. */
static void do_checkpoint(int fd, uint64_t *x, struct tstats *st,
			  char *cache, char *disk)
{
	size_change(fd, x, st->ops++, full);
	sh->pause = 1;
	if (wait_parked() && checkpoint(fd, cache, disk, sh->seq))
		st->checkpoints++;
	sh->pause = 0;
}

/* Size change st->ops (to force, or of the truncator's choice). */
static void one_change(int fd, uint64_t *x, struct tstats *st, long force)
{
	if (size_change(fd, x, st->ops, force))
		violation(SYNC_ERR, -1, 0, errno, 2 * st->ops,
			  2 * st->ops + 1, "ftruncate/pwrite failed");
	st->cuts += sh->sizes[st->ops] < size_at(2 * st->ops);
	st->ops++;
}

/* One more size change in the same breath, unless a checkpoint is due. */
static int extra_change(int fd, uint64_t *x, struct tstats *st, long every,
			long size)
{
	if (st->ops % every == every - 1)
		return 0;
	one_change(fd, x, st, size);
	return 1;
}

/*
 * After a cut to a page boundary b: one to three times, the growth back
 * to the full size at once (which the workers keep off), then the same
 * cut again. That cut meets the first faults on the pages the growth
 * left uncached: they read their page in (filemap_fault's slow path,
 * which adds it to the cache, perhaps after the cut looked there) and
 * must check the size again once they hold its lock; the page at b is
 * the one an off-by-one lets through. Stops where a checkpoint is due.
 */
static void recut(int fd, uint64_t *x, struct tstats *st, long every, long b)
{
	for (long n = 1 + rnd(x) % 3; n > 0; n--) {
		int grown;

		sh->aim_quiet = 1;	/* keep those pages uncached */
		grown = extra_change(fd, x, st, every, full);
		sh->aim_quiet = 0;
		if (!grown || !extra_change(fd, x, st, every, b))
			return;
	}
}

static void truncator(int fd, long max_ops, double seconds, long every,
		      struct tstats *st)
{
	uint64_t x = seed * 2654435761u + 1;
	char *cache = malloc(full), *disk = malloc(full);
	long before, after;

	pin_to(0);
	while (!sh->stop && st->ops + 8 < sh->max_ops) {
		if (st->ops >= max_ops || now() - t0 >= seconds)
			break;
		if (st->ops % every == every - 1) {
			do_checkpoint(fd, &x, st, cache, disk);
			continue;
		}
		before = size_at(2 * st->ops);
		one_change(fd, &x, st, -1);
		after = sh->sizes[st->ops - 1];
		/* After a cut, sometimes the growth back at once: a store
		 * that waited in page_mkwrite through the cut wakes up to a
		 * file that covers its page again (and must notice that the
		 * page left the file). Or, after a cut to a page boundary, a
		 * recut. */
		if (after < before && after % PAGE == 0 && rnd(&x) % 2)
			recut(fd, &x, st, every, after);
		else if (after < before && rnd(&x) % 3 == 0)
			extra_change(fd, &x, st, every, full);
		if (rnd(&x) % 4 == 0)
			usleep(rnd(&x) % 300);
	}
	if (!sh->stop)
		do_checkpoint(fd, &x, st, cache, disk);
	sh->stop = 1;
	free(cache);
	free(disk);
}

/* ---- setup, start, report ---- */

static void usage(void)
{
	diag("usage: mmap_truncate_stress [-s SEED] [-w WORKERS] [-p] [-a] "
	     "[-n PAGES] [-i OPS] [-T SECONDS] [-c EVERY]");
	exit(2);
}

static void *share(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int setup(long max_ops)
{
	struct statvfs sv;
	struct sigaction sa = { .sa_handler = on_fault,
				.sa_flags = SA_NODEFER };
	char *zero = calloc(1, full);
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);

	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	blocksize = statvfs(".", &sv) == 0 && sv.f_bsize ? (long)sv.f_bsize
							  : PAGE;
	blocksize = blocksize > PAGE ? PAGE : blocksize;
	sh = share(sizeof(*sh));
	if (sh) {
		sh->max_ops = max_ops;
		sh->sizes = share(max_ops * sizeof(long));
		sh->recs = share(map_len / 8 * sizeof(struct rec));
	}
	ok(fd >= 0 && sh && sh->sizes && sh->recs &&
	       write(fd, zero, full) == full && fsync(fd) == 0,
	   "create %s: %ld pages of zeroes (blocks of %ld bytes)", NAME,
	   full / PAGE, blocksize);
	free(zero);
	return fd;
}

static pthread_t threads[MAX_WORKERS];
static pid_t pids[MAX_WORKERS];
static struct worker workers[MAX_WORKERS];

static void start_workers(int fd)
{
	for (int i = 0; i < nworkers; i++) {
		workers[i] = (struct worker){
			.id = i, .fd = fd, .slow_end = -1,
			.rng = seed * 1000003u + 7919u * (i + 1) + 1 };
		if (!use_procs) {
			pthread_create(&threads[i], NULL, worker, &workers[i]);
			continue;
		}
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(worker(&workers[i]) != NULL);
	}
}

static int stop_workers(void)
{
	int bad = 0, status;
	void *ret;

	for (int i = 0; i < nworkers; i++) {
		if (!use_procs) {
			pthread_join(threads[i], &ret);
			bad += ret != NULL;
		} else if (waitpid(pids[i], &status, 0) != pids[i] ||
			   !WIFEXITED(status) || WEXITSTATUS(status)) {
			diag("worker %d: status %#x", i, status);
			bad++;
		}
	}
	return bad;
}

static void report(const struct tstats *st, double secs, int bad_workers)
{
	diag("%ld size changes (%ld cuts), %ld checkpoints in %.1f s; "
	     "%ld stores, %ld loads (%ld through fresh mappings), %ld SIGBUS, "
	     "%ld msync", st->ops, st->cuts, st->checkpoints, secs, sh->stores,
	     sh->loads, sh->fresh, sh->sigbus, sh->msyncs);
	if (strict)
		diag("%ld stores made past EOF without a fault checked zeroed "
		     "by the growth that followed", sh->quick_checks);
	ok(!bad_workers && sh->stores > 0 && sh->loads > 0 && st->ops > 0,
	   "%ld workers (%s) stored and loaded while the file was cut and "
	   "grown", nworkers, use_procs ? "processes" : "threads");
	for (int k = 0; k < NR_KINDS; k++)
		is_long(sh->violations[k], 0, "no violation of the model: %s",
			kind_names[k]);
	if (sh->failed) {
		skip("stopped at the first violation", "checkpoints");
		diag("first violation after %.3f s", sh->fail_time);
	} else {
		ok(st->checkpoints > 0, "the page cache and the disk were "
		   "checked %ld times", st->checkpoints);
	}
}

int main(int argc, char **argv)
{
	long max_ops = 100000, every = 250, pages = 4;
	double seconds = stress_seconds(3);
	struct tstats st = { 0, 0, 0 };
	int opt, fd;

	seed = (unsigned long)time(NULL);
	nworkers = 3;
	while ((opt = getopt(argc, argv, "s:w:pan:i:T:c:")) != -1) {
		switch (opt) {
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'w': nworkers = atol(optarg); break;
		case 'p': use_procs = 1; break;
		case 'a': pin = 1; break;
		case 'n': pages = atol(optarg); break;
		case 'i': max_ops = atol(optarg); break;
		case 'T': seconds = atof(optarg); break;
		case 'c': every = atol(optarg); break;
		default: usage();
		}
	}
	if (nworkers < 1 || nworkers > MAX_WORKERS || pages < 1 || every < 2)
		usage();
	full = pages * PAGE;
	map_len = full + PAGE;
	strict = access("/proc/sys/vm/pagecache_isize_extended", F_OK) == 0;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	diag("seed %lu, %ld workers (%s%s), %ld pages, %ld size changes or "
	     "%.0f s (replay: mmap_truncate_stress -s %lu -w %ld -n %ld%s%s)",
	     seed, nworkers, use_procs ? "processes" : "threads",
	     pin ? ", pinned" : "", pages, max_ops, seconds, seed, nworkers,
	     pages, use_procs ? " -p" : "", pin ? " -a" : "");
	if (!strict)
		diag("not pagelab: a store past EOF may become file data");
	plan(8);
	t0 = now();
	fd = setup(max_ops + max_ops / every + 16);
	if (fd < 0 || !sh || !sh->sizes || !sh->recs)
		return done_testing();
	start_workers(fd);
	truncator(fd, max_ops, seconds, every, &st);
	report(&st, now() - t0, stop_workers());
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
