/*
 * explore_truncate - a fault against a truncate, under every schedule
 * with up to K switches (pagelab's /proc/explore, after Landslide: Ben
 * Blum's explorer for CMU 15-410 kernels; doc/checkers.md).
 *
 * One run: a 3-page file of 'r' bytes, mapped MAP_SHARED; two children,
 * forked after the schedule was written to /proc/explore:
 *   A (the faulter) loads the first byte of the last page (LAST), waits
 *     for B to finish (a pipe), loads it again and stores 'Z' after it;
 *   B (the cutter) cuts the file to CUT bytes, then, in the cases that
 *     regrow it, extends it back to 3 pages.
 * B writes its phase to shared memory before and after each ftruncate:
 * A reads it just before and just after its first load, and since the
 * kernel switches explored tasks only inside system calls and faults,
 * the load saw the file as it was somewhere in that span (0 before the
 * cut, 1 during, 2 after, 3 during the regrow, 4 after). The verdicts:
 *   - the first load is a value (or SIGBUS) the file had at some moment
 *     of that span: 'r' inside the file, SIGBUS past EOF, and zeroes
 *     where a cut page was regrown (no bytes from past EOF come back);
 *   - once B is done, the second load and the store see the file as it
 *     ends: SIGBUS exactly past EOF (no page left mapped past it), and a
 *     store inside it reaches the file (pread sees it);
 *   - the mapping shows what pread reads there, and the file's size is
 *     B's last one;
 *   - and the kernel stays silent: its checkers panic on a page returned
 *     by ->fault that left the file, and, under the explorer, on a page
 *     past i_size or a SIGBUS inside it that i_size at the page lock
 *     does not explain (mm/memory.c, explore_check_fault);
 *   - every page the cutter removed from the file is free once both
 *     children are reaped (/proc/explore's "kept": a reference kept).
 * Cases: boundary (cut to LAST, regrow), partial (cut inside the last
 * page, regrow), shrink (cut inside the first page, stay short): the
 * race lab's, run when no -c is given. The same three with a store as
 * A's first access (store-boundary, store-partial, store-shrink: a
 * page_mkwrite against the truncate, lab mkwrite, on a disk), and with B
 * forked first, so that one switch puts A's fault inside the truncate
 * (cutfirst-boundary, cutfirst-shrink). And one of another shape,
 * grow-store (lab mkwrite, pagecache_isize_extended): the file is
 * GROW_FROM bytes, its first page mapped writable (the parent's store
 * at byte 0 ran page_mkwrite before the run); B, forked first, grows it
 * to 3 pages while A stores 'Z' (the probe's byte) at PAST_EOF, past
 * the old EOF in the same page, through the PTE it inherited. The
 * growth must write-protect the page before it zeroes the old tail: a
 * store between the two stays, without a fault, in a block that has no
 * disk block, and writeback drops it (msync says EIO). The store reads
 * back as zero if it came before the growth, as 'Z' if after, either
 * during it; msync and fsync succeed. It means something only with
 * blocks smaller than a page (a 1 KiB-block disk). Before each case one
 * run that does not count brings the caches to the state every later
 * run sees.
 *
 * Usage:
 *   explore_truncate [-c CASE[,CASE...]|all] [-k K]
 *                                         every schedule with up to K
 *                                         switches (2), each case in turn
 *   explore_truncate -c CASE -r SCHED [-n N] [-t]
 *                                         replay SCHED N times (1); -t
 *                                         logs each point (the kernel's
 *                                         "explore: N task ..." lines)
 * The search numbers the points of a run without switches, tries a
 * switch at each, then a second at each point after the first, and so on
 * (depth first), and stops at the first failing schedule:
 *   explore: FAIL case boundary schedule 5,9: WHY
 *   explore: replay: scripts/explore -c boundary -r 5,9
 * A schedule whose switch found no other task to run is the same as a
 * shorter one: it is skipped, and not extended.
 *
 * On Linux (no /proc/explore) each case runs 20 times as the host's
 * scheduler pleases, with the same verdicts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"
#include "tap.h"

#define PAGE 4096L
#define NPAGES 3
#define LAST (2 * PAGE)
#define CUT 100
#define FILE_NAME "explore.dat"
#define MAX_DEPTH 3
#define GROW_FROM 1124	/* grow-store: EOF inside the second 1 KiB block */
#define PAST_EOF 3000	/* ... and A's store: its page, its fourth block */

struct race_case {
	const char *name;
	long cut;	/* B cuts the file to this */
	int regrow;	/* then extends it back to NPAGES pages */
	int store;	/* A's first access is a store ('Z'), not a load */
	int cutter_first;	/* B runs first, A once B sleeps or yields */
	int by_default;	/* run without -c (the race lab's three) */
	int grow;	/* grow-store: B grows the file, A stores past EOF */
};

static const struct race_case cases[] = {
	{ "boundary", LAST, 1, 0, 0, 1, 0 },
	{ "partial", LAST + CUT, 1, 0, 0, 1, 0 },
	{ "shrink", CUT, 0, 0, 0, 1, 0 },
	/* A store first: page_mkwrite against the truncate (lab mkwrite). */
	{ "store-boundary", LAST, 1, 1, 0, 0, 0 },
	{ "store-partial", LAST + CUT, 1, 1, 0, 0, 0 },
	{ "store-shrink", CUT, 0, 1, 0, 0, 0 },
	/* The truncate first: a fault inside it with one switch
	 * (the order of the truncate's own steps, lab truncate-new). */
	{ "cutfirst-boundary", LAST, 1, 0, 1, 0, 0 },
	{ "cutfirst-shrink", CUT, 0, 0, 1, 0, 0 },
	/* A store past EOF while the file grows (lab mkwrite). */
	{ "grow-store", GROW_FROM, 0, 1, 1, 0, 1 },
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

/* What the children saw, in a MAP_SHARED|MAP_ANONYMOUS page. */
struct shared {
	volatile int phase;	/* B's: 0 before the cut .. 4 after */
	volatile int before, after;	/* A's view of it around its load */
	volatile int sig1, sig2, store_sig;
	volatile char v1, v2;
	volatile long cut_rc, grow_rc;
};

/* One run's outcome, from /proc/explore and the checks. */
struct run {
	unsigned long points, hash;
	int switches, missed;
	int kept;	/* pages the run removed from the cache, still held */
	char why[200];	/* empty: the run passed */
};

static struct shared *sh;
static int explore_fd = -1;	/* /proc/explore is there (the host: -1) */

extern char __executable_start[], end[];

/* Every page of the program's image mapped before the children fork:
 * their own faults on it would be points of no interest. */
static void prefault_image(void)
{
	uintptr_t a = (uintptr_t)__executable_start & ~(uintptr_t)(PAGE - 1);
	struct fault f;

	for (; a < (uintptr_t)end; a += PAGE)
		probe_load((void *)a, &f);
}

/* A load of p that may fault: the byte; *signo the signal or 0. */
static char load(volatile char *p, volatile int *signo)
{
	struct fault f;
	int byte;

	/* One access: a probe and then a read would be two, and a truncate
	 * in between (unforced runs, on Linux) would kill us at the second. */
	if (probe_load_byte((void *)p, &f, &byte)) {
		*signo = f.signo;
		return 0;
	}
	*signo = 0;
	return byte;
}

static int make_file(const struct race_case *c)
{
	static char buf[NPAGES * PAGE];
	int fd = open(FILE_NAME, O_CREAT | O_RDWR | O_TRUNC, 0644);
	size_t size = c->grow ? GROW_FROM : sizeof(buf);

	memset(buf, 'r', sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, size, 0) != (ssize_t)size)
		return -1;
	/* Nothing dirty when the run starts (on a disk): the flusher, which
	 * wakes when its timer says, then has nothing to lock, and cannot
	 * make one run differ from the next. */
	sync();
	return fd;
}

/* ---- the racers ------------------------------------------------------------ */

static void faulter(const struct race_case *c, volatile char *map,
		    int done_fd)
{
	struct fault f;
	char byte;

	sh->before = sh->phase;
	if (c->grow) {	/* the store past EOF, and nothing after it */
		sh->sig1 = probe_store((void *)(map + PAST_EOF), &f) ?
				f.signo : 0;
		sh->after = sh->phase;
		_exit(0);
	}
	if (c->store)
		sh->sig1 = probe_store((void *)(map + LAST), &f) ? f.signo : 0;
	else
		sh->v1 = load(map + LAST, &sh->sig1);
	sh->after = sh->phase;
	if (read(done_fd, &byte, 1) != 1)
		_exit(3);
	sh->v2 = load(map + LAST, &sh->sig2);
	sh->store_sig = probe_store((void *)(map + LAST + 1), &f) ?
				f.signo : 0;
	_exit(0);
}

static void cutter(const struct race_case *c, int fd, int done_fd)
{
	sh->phase = 1;
	sh->cut_rc = ftruncate(fd, c->grow ? NPAGES * PAGE : c->cut);
	sh->phase = 2;
	if (c->regrow) {
		sh->phase = 3;
		sh->grow_rc = ftruncate(fd, NPAGES * PAGE);
	}
	sh->phase = 4;
	if (write(done_fd, "x", 1) != 1)
		_exit(3);
	_exit(0);
}

/* ---- the verdicts ---------------------------------------------------------- */

/* The byte at LAST in the file before the cut (0), after it (2), after
 * the regrow (4): 'r', a zero byte, or -1 for SIGBUS (past EOF). */
static int state_at(const struct race_case *c, int stage)
{
	if (stage == 0 || c->cut > LAST)
		return 'r';
	if (stage == 2 || !c->regrow)
		return -1;
	return 0;	/* regrown: the cut part reads as zeroes */
}

/* Is got what the file held at LAST at some moment of phases from..to?
 * (An odd phase is a change in progress: either side of it.) For a
 * store, only whether it was SIGBUS counts: got is -1 or 'Z'. */
static int same(const struct race_case *c, int state, int got)
{
	return c->store ? (state == -1) == (got == -1) : state == got;
}

static int allowed(const struct race_case *c, int from, int to, int got)
{
	for (int ph = from; ph <= to; ph++)
		if (same(c, state_at(c, ph & ~1), got) ||
		    ((ph & 1) && same(c, state_at(c, ph + 1), got)))
			return 1;
	return 0;
}

static const char *shown(int v)
{
	static char buf[4][24];
	static int i;

	i = (i + 1) % 4;
	if (v == -1)
		return "SIGBUS";
	if (v == 0)
		return "a zero byte";
	snprintf(buf[i], sizeof(buf[i]), "'%c'", v);
	return buf[i];
}

/* Judge a grow-store run (see the top): fill r->why, or leave it empty. */
static void judge_grow(int fd, volatile char *map, struct run *r)
{
	static char back[NPAGES * PAGE];
	int want = sh->after == 0 ? 0 : sh->before >= 2 ? 'Z' : -1;
	int got = (unsigned char)map[PAST_EOF];
	long bad = -1;

	if (sh->sig1) {
		snprintf(r->why, sizeof(r->why), "the store past EOF got %s",
			 strsignal(sh->sig1));
	} else if (want != -1 && got != want) {
		snprintf(r->why, sizeof(r->why), "the store %s the growth "
			 "reads %s through the mapping, want %s",
			 want ? "after" : "before", shown(got), shown(want));
	} else if (got && got != 'Z') {
		snprintf(r->why, sizeof(r->why), "byte %d reads %s through "
			 "the mapping", PAST_EOF, shown(got));
	} else if (msync((void *)map, PAGE, MS_SYNC) || fsync(fd)) {
		snprintf(r->why, sizeof(r->why), "msync or fsync failed (%s): "
			 "the store during the growth (%s in the page) was "
			 "left where the file has no disk block",
			 strerror(errno), shown(got));
	} else if (pread(fd, back, sizeof(back), 0) != (ssize_t)sizeof(back)) {
		snprintf(r->why, sizeof(r->why), "pread of the grown file "
			 "failed");
	} else {
		for (long i = GROW_FROM; i < (long)sizeof(back) && bad < 0; i++)
			if (back[i] != (i == PAST_EOF ? got : 0))
				bad = i;
		if (back[0] != 'b' || bad >= 0)
			snprintf(r->why, sizeof(r->why), "the file (pread) "
				 "holds %s at byte %ld, the mapping %s",
				 shown(bad < 0 ? back[0] : back[bad]),
				 bad < 0 ? 0 : bad, shown(bad < 0 ? 'b' :
				 bad == PAST_EOF ? got : 0));
	}
}

/* Judge a run: fill r->why, or leave it empty. */
static void judge(const struct race_case *c, int fd, volatile char *map,
		  int st_a, int st_b, struct run *r)
{
	int got1 = sh->sig1 ? -1 : c->store ? 'Z' : (unsigned char)sh->v1;
	int got2 = sh->sig2 ? -1 : (unsigned char)sh->v2;
	int want2 = state_at(c, c->regrow ? 4 : 2);
	long want_size = c->regrow ? NPAGES * PAGE : c->cut;
	struct stat st;
	char b = 0, at_last = 0;

	/* A store that succeeded stays where the file never stopped
	 * covering LAST; elsewhere the cut took it, or it came after the
	 * regrow: either value. */
	if (c->store && got1 == 'Z' && want2 != -1 &&
	    (c->cut > LAST || got2 == 'Z'))
		want2 = 'Z';

	r->why[0] = 0;
	if (!WIFEXITED(st_a) || WEXITSTATUS(st_a) ||
	    !WIFEXITED(st_b) || WEXITSTATUS(st_b)) {
		snprintf(r->why, sizeof(r->why), "a racer died (faulter "
			 "status 0x%x, cutter 0x%x)", st_a, st_b);
	} else if (sh->cut_rc || (c->regrow && sh->grow_rc)) {
		snprintf(r->why, sizeof(r->why), "ftruncate failed");
	} else if (c->grow) {
		judge_grow(fd, map, r);
	} else if ((sh->sig1 && sh->sig1 != SIGBUS) ||
		   (sh->sig2 && sh->sig2 != SIGBUS)) {
		snprintf(r->why, sizeof(r->why), "a load got %s",
			 strsignal(sh->sig1 ? sh->sig1 : sh->sig2));
	} else if (!allowed(c, sh->before, sh->after, got1)) {
		snprintf(r->why, sizeof(r->why), "the %s during the "
			 "truncate (cutter in phases %d..%d) got %s, which "
			 "the file never %s there", c->store ? "store" : "load",
			 sh->before, sh->after, c->store ? (got1 == -1 ?
			 "SIGBUS" : "through") : shown(got1), c->store ?
			 "allowed" : "held");
	} else if (got2 != want2) {
		snprintf(r->why, sizeof(r->why), "the load after the "
			 "truncate got %s, the file says %s", shown(got2),
			 shown(want2));
	} else if (want2 == -1 ? sh->store_sig != SIGBUS : sh->store_sig) {
		snprintf(r->why, sizeof(r->why), "the store after the "
			 "truncate got %s, want %s", sh->store_sig ?
			 strsignal(sh->store_sig) : "no signal",
			 want2 == -1 ? "SIGBUS" : "no signal");
	} else if (want2 != -1 &&
		   (pread(fd, &b, 1, LAST + 1) != 1 || b != 'Z')) {
		snprintf(r->why, sizeof(r->why), "the store after the "
			 "truncate did not reach the file (pread: %s)",
			 shown((unsigned char)b));
	} else if (want2 != -1 &&
		   (pread(fd, &at_last, 1, LAST) != 1 || at_last != got2)) {
		snprintf(r->why, sizeof(r->why), "the mapping shows %s at "
			 "the last page, the file (pread) %s", shown(got2),
			 shown((unsigned char)at_last));
	} else if (fstat(fd, &st) || st.st_size != want_size) {
		snprintf(r->why, sizeof(r->why), "the file is %ld bytes, "
			 "want %ld", (long)st.st_size, want_size);
	}
}

/* ---- one run --------------------------------------------------------------- */

/* Write one line to /proc/explore: 0, or -1 with errno. */
static int explore_write(const char *line)
{
	int fd = open("/proc/explore", O_WRONLY), n = strlen(line), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, line, n) == n ? 0 : -1;
	close(fd);
	return ret;
}

static int explore_start(const char *sched, int trace)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s\n", trace ? "trace " : "", sched);
	return explore_write(buf);
}

/* The run's numbers, then end it. /proc/explore says
 * "run R active points P hash H switches S missed M kept K ...", as it
 * was when opened: open it afresh. Read once both racers are reaped:
 * K, the pages the run removed from the page cache that something still
 * holds, must then be 0. */
static int explore_stop(struct run *r)
{
	char buf[256];
	int fd = open("/proc/explore", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "run %*u %*s points %lu hash %lx switches %d "
		   "missed %d kept %d", &r->points, &r->hash, &r->switches,
		   &r->missed, &r->kept) != 5)
		return -1;
	return explore_write("end\n");
}

/* Run case c under sched ("none": no switch). 0, or -1 if the run could
 * not be made (not a verdict). */
static int run_one(const struct race_case *c, const char *sched, int trace,
		   struct run *r)
{
	int fd = make_file(c), done[2], st_a = 0, st_b = 0;
	volatile char *map;
	pid_t a, b = -1;

	memset(r, 0, sizeof(*r));
	if (fd < 0 || pipe(done))
		return -1;
	map = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		   fd, 0);
	if (map == MAP_FAILED)
		return -1;
	/* grow-store: page_mkwrite before the run, and a writable PTE
	 * for A to inherit (fork copies a shared mapping's PTEs). */
	if (c->grow)
		map[0] = 'b';
	memset((void *)sh, 0, sizeof(*sh));
	if (explore_fd >= 0 && explore_start(sched, trace)) {
		diag("explore: schedule \"%s\" refused: %s", sched,
		     strerror(errno));
		return -1;
	}
	/* The first forked runs first: nothing switches to the other
	 * before it sleeps or a point of the schedule says so. */
	if (c->cutter_first) {
		b = fork();
		if (b == 0)
			cutter(c, fd, done[1]);
	}
	a = fork();
	if (a == 0)
		faulter(c, map, done[0]);
	if (!c->cutter_first) {
		b = fork();
		if (b == 0)
			cutter(c, fd, done[1]);
	}
	if (a < 0 || b < 0)
		return -1;
	waitpid(a, &st_a, 0);
	waitpid(b, &st_b, 0);
	if (explore_fd >= 0 && explore_stop(r))
		return -1;
	judge(c, fd, map, st_a, st_b, r);
	if (!r->why[0] && r->kept)
		snprintf(r->why, sizeof(r->why), "%d page%s the truncate "
			 "removed from the file %s still held after the run: "
			 "a reference never dropped (the console says which)",
			 r->kept, r->kept == 1 ? "" : "s",
			 r->kept == 1 ? "is" : "are");
	munmap((void *)map, NPAGES * PAGE);
	close(done[0]);
	close(done[1]);
	close(fd);
	return 0;
}

/* ---- the search ------------------------------------------------------------ */

struct search {
	const struct race_case *c;
	int k;
	unsigned long sched[MAX_DEPTH];
	unsigned long tried, skipped, max_points;
	int failed, broken;
};

static void sched_str(const unsigned long *s, int n, char *buf, size_t len)
{
	size_t off = 0;

	if (!n)
		snprintf(buf, len, "none");
	for (int i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%lu", i ? "," : "",
				s[i]);
}

/* Run the schedule sched[0..depth), then extend it by one switch at
 * each later point; stop at the first failure. */
static void search(struct search *s, int depth)
{
	char str[64];
	struct run r;

	if (s->failed || s->broken)
		return;
	sched_str(s->sched, depth, str, sizeof(str));
	if (run_one(s->c, str, 0, &r)) {
		s->broken = 1;
		return;
	}
	s->tried++;
	if (r.points > s->max_points)
		s->max_points = r.points;
	if (r.missed) {	/* the same as a shorter schedule */
		s->skipped++;
		return;
	}
	if (r.why[0]) {
		s->failed = 1;
		tap_printf("explore: FAIL case %s schedule %s: %s\n",
			   s->c->name, str, r.why);
		tap_printf("explore: replay: scripts/explore -c %s -r %s\n",
			   s->c->name, str);
		return;
	}
	if (depth == 0)
		diag("explore: case %s: %lu points without a switch, hash "
		     "%016lx", s->c->name, r.points, r.hash);
	if (depth == s->k)
		return;
	for (unsigned long p = depth ? s->sched[depth - 1] + 1 : 1;
	     p <= r.points && !s->failed && !s->broken; p++) {
		s->sched[depth] = p;
		search(s, depth + 1);
	}
}

/*
 * One run before the first that counts: the first run of a boot creates
 * the file where later ones find it, and on a disk reads metadata that
 * later ones find cached. Its points differ; the search and a replay in
 * a fresh boot must both start from the state every later run sees.
 */
static void warm_up(const struct race_case *c)
{
	struct run r;

	run_one(c, "none", 0, &r);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 0, or -1 when a schedule failed (the search stops there). */
static int explore_case(const struct race_case *c, int k)
{
	struct search s = { .c = c, .k = k };
	double t0 = now();

	/* The host's console watches for this line: a panic names only
	 * the schedule, this says of which case. */
	tap_printf("explore: case %s, up to %d switches\n", c->name, k);
	warm_up(c);
	search(&s, 0);
	diag("explore: case %s: %lu schedules run (%lu skipped), at most "
	     "%lu points, %.1f s", c->name, s.tried, s.skipped, s.max_points,
	     now() - t0);
	ok(!s.broken, "case %s: every run could be made", c->name);
	ok(!s.failed, "case %s: every schedule with up to %d switches "
	   "passes", c->name, k);
	return s.failed || s.broken ? -1 : 0;
}

/* Replay: the same schedule n times, the same points and hash each time. */
static void replay(const struct race_case *c, const char *sched, int n,
		   int trace)
{
	struct run first = { 0 }, r;
	int same = 1, made = 1, failed = 0;

	tap_printf("explore: case %s, replaying %s\n", c->name, sched);
	warm_up(c);
	for (int i = 0; i < n; i++) {
		if (run_one(c, sched, trace, &r)) {
			made = 0;
			break;
		}
		diag("explore: case %s schedule %s: %lu points, hash %016lx, "
		     "%d switches, %d missed%s%s", c->name, sched, r.points,
		     r.hash, r.switches, r.missed, r.why[0] ? ": FAIL: " : "",
		     r.why);
		if (r.why[0])
			failed = 1;
		if (i == 0)
			first = r;
		else if (r.points != first.points || r.hash != first.hash)
			same = 0;
	}
	ok(made, "case %s: schedule %s could be run %d times", c->name, sched,
	   n);
	ok(same, "case %s: schedule %s: the same points and hash all %d "
	   "times", c->name, sched, n);
	ok(!failed, "case %s: schedule %s passes", c->name, sched);
}

/* The host: no explorer; the scheduler picks the interleavings. */
static void unforced(const struct race_case *c)
{
	struct run r;
	int bad = 0, made = 1;

	for (int i = 0; i < 20 && !bad; i++) {
		if (run_one(c, "none", 0, &r)) {
			made = 0;
			break;
		}
		if (r.why[0]) {
			diag("case %s: %s", c->name, r.why);
			bad = 1;
		}
	}
	ok(made, "case %s: every run could be made", c->name);
	ok(!bad, "case %s: 20 unforced runs pass", c->name);
}

/* Nonsense schedules are refused with EINVAL (and a line on the console
 * saying what a schedule is), not taken for something else. */
static void bad_schedules(void)
{
	static const char *const bad[] = {
		"banana\n", "5,1\n", "0\n", "1,,2\n", "3,\n", "-1\n",
		"1,2,3,4,5,6,7,8,9\n", "trace \n",
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = explore_write(bad[i]);

		is_errno(ret, EINVAL, "/proc/explore refuses the schedule "
			 "\"%.*s\"", (int)strlen(bad[i]) - 1, bad[i]);
	}
	ok(explore_write("end\n") == 0, "/proc/explore takes \"end\" with no "
	   "run");
}

static void usage(void)
{
	fprintf(stderr, "usage: explore_truncate [-c CASE[,CASE...]|all] "
		"[-k K] | -c CASE -r SCHEDULE [-n N] [-t]\ncases:");
	for (int i = 0; i < NCASES; i++)
		fprintf(stderr, " %s", cases[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

/* Is case i among -c's list (none given: the race lab's three)? */
static int chosen(const char *list, int i)
{
	size_t len = strlen(cases[i].name);

	if (!list)
		return cases[i].by_default;
	if (!strcmp(list, "all"))
		return 1;
	for (const char *p = list; *p; p += strcspn(p, ","), p += !!*p)
		if (strcspn(p, ",") == len && !strncmp(p, cases[i].name, len))
			return 1;
	return 0;
}

/* Every name in -c's list is a case's. */
static int list_ok(const char *list)
{
	int n = 0, want = 1;

	if (!list || !strcmp(list, "all"))
		return 1;
	for (const char *p = list; *p; p++)
		want += *p == ',';
	for (int i = 0; i < NCASES; i++)
		n += chosen(list, i);
	return n == want;
}

int main(int argc, char **argv)
{
	const char *only = NULL, *sched = NULL;
	int k = 2, n = 1, trace = 0, opt;

	while ((opt = getopt(argc, argv, "c:k:r:n:t")) != -1) {
		switch (opt) {
		case 'c': only = optarg; break;
		case 'k': k = atoi(optarg); break;
		case 'r': sched = optarg; break;
		case 'n': n = atoi(optarg); break;
		case 't': trace = 1; break;
		default: usage();
		}
	}
	if (k < 0 || k > MAX_DEPTH || n < 1 || (sched && !only) ||
	    !list_ok(only))
		usage();
	fault_install();
	prefault_image();
	sh = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	memset((void *)sh, 0, sizeof(*sh));
	explore_fd = open("/proc/explore", O_RDWR);
	if (explore_fd < 0)
		diag("no /proc/explore (%s): unforced runs only",
		     strerror(errno));
	else if (!sched)
		bad_schedules();
	for (int i = 0; i < NCASES; i++) {
		if (!chosen(only, i))
			continue;
		if (explore_fd < 0)
			unforced(&cases[i]);
		else if (sched)
			replay(&cases[i], sched, n, trace);
		else if (explore_case(&cases[i], k))
			break;	/* the first failure is the report */
	}
	unlink(FILE_NAME);
	return done_testing();
}
