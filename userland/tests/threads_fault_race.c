/*
 * threads_fault_race: threads of one process fault the same pages at the
 * same moment, and each fault maps one page, once: no store is lost,
 * every thread sees the page the others see, and no page is left over
 * (the page audit around the program, === PAGES, checks that).
 *
 * Two faults meet here (the paging lab's do_anonymous_page and
 * wp_page_copy). Both allocate a page with no lock held (the allocation
 * may sleep), so a second thread may fault on the same address
 * meanwhile; the one that takes page_table_lock second must find the
 * first's PTE and give its own page back.
 *
 * Roadmap:
 *   1. anonymous: each round maps a fresh region; THREADS threads,
 *      released together, store their own byte in every page, in the
 *      same order (so that they meet on page after page), wait for each
 *      other, then each reads every page: all THREADS bytes must be
 *      there, and nothing else. A page mapped twice loses the stores of
 *      the thread whose page was replaced.
 *   2. copy-on-write: the region is filled, then a child is forked that
 *      keeps every page shared (it waits on a pipe); the threads store as
 *      in 1, each store a write fault on a page two processes share, so
 *      each page is copied by one of them. Then the child checks that its
 *      pages still hold the fill and none of the threads' stores.
 *   3. reuse: as 2, but the child exits before the stores: the first
 *      fault finds the page its own and makes it writable, the others
 *      must find it writable (or copied), not copy it again over the
 *      first thread's store.
 * Usage: threads_fault_race [ROUNDS] (default 40).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define THREADS 4
#define PAGES 32
#define FILL 0x5a

static pthread_barrier_t stored;
static int arrived;	/* threads at the start gate */
static unsigned char *region;
static long ps;
static unsigned char fill;	/* what the region holds but the marks */
static int seen_wrong;	/* pages some thread saw without another's store */

/* The byte thread id stores: never 0 or FILL. */
static unsigned char mark(long id)
{
	return 0xa0 + id;
}

/* Does page p hold every thread's byte, and want everywhere else? */
static int page_right(int p, unsigned char want)
{
	const unsigned char *pg = region + p * ps;

	for (long i = 0; i < ps; i++)
		if (pg[i] != (i < THREADS ? mark(i) : want))
			return 0;
	return 1;
}

/* Wait until every storer is here, spinning rather than sleeping: a
 * futex wake-up takes far longer to reach each thread than a fault, and
 * threads that start apart never meet on a page. sched_yield lets the
 * others run when they share a CPU. */
static void start_gate(void)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < THREADS)
		sched_yield();
}

static void *storer(void *arg)
{
	long id = (long)arg;
	int wrong = 0;

	start_gate();
	for (int p = 0; p < PAGES; p++)
		((volatile unsigned char *)region)[p * ps + id] = mark(id);
	pthread_barrier_wait(&stored);
	for (int p = 0; p < PAGES; p++)
		wrong += !page_right(p, fill);
	__atomic_add_fetch(&seen_wrong, wrong, __ATOMIC_RELAXED);
	return NULL;
}

/* One round of THREADS storers on region; the pages they got wrong. */
static int store_round(void)
{
	pthread_t t[THREADS];

	seen_wrong = 0;
	arrived = 0;
	pthread_barrier_init(&stored, NULL, THREADS);
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, storer, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&stored);
	return seen_wrong;
}

static unsigned char *map_region(void)
{
	void *p = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void fill_region(void)
{
	fill = FILL;
	for (long i = 0; i < PAGES * ps; i++)
		region[i] = FILL;
}

/* The child of a copy-on-write round: wait for the parent's word, then
 * exit 0 if every page still holds nothing but the fill. */
static void cow_child(int rfd)
{
	char c;

	if (read(rfd, &c, 1) != 1)
		_exit(2);
	for (long i = 0; i < PAGES * ps; i++)
		if (region[i] != FILL)
			_exit(1);
	_exit(0);
}

/* A copy-on-write round: fork, THREADS storers, then the child's check.
 * With keep_child, the child holds every page through the stores. */
static int cow_round(int keep_child, int *child_wrong)
{
	int fd[2], status, wrong;
	pid_t pid;

	fill_region();
	if (pipe(fd) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		close(fd[1]);
		cow_child(fd[0]);
	}
	close(fd[0]);
	if (!keep_child) {
		write(fd[1], "x", 1);	/* its check passes: nothing stored */
		waitpid(pid, &status, 0);
	}
	wrong = store_round();
	if (keep_child) {
		write(fd[1], "x", 1);
		waitpid(pid, &status, 0);
	}
	close(fd[1]);
	*child_wrong += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	return wrong;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	int anon_wrong = 0, cow_wrong = 0, reuse_wrong = 0, child_wrong = 0;
	int r, anon_done = 0, cow_done = 0, reuse_done = 0;

	ps = sysconf(_SC_PAGESIZE);
	plan(4);
	fill = 0;
	for (r = 0; r < rounds && (region = map_region()); r++, anon_done++) {
		anon_wrong += store_round();
		munmap(region, PAGES * ps);
	}
	ok(anon_done == rounds && anon_wrong == 0,
	   "anonymous: %d rounds of %d threads storing into %d fresh pages "
	   "at once: each thread saw every store in every page (%d pages "
	   "seen wrong)", anon_done, THREADS, PAGES, anon_wrong);

	for (r = 0; r < rounds && (region = map_region()); r++, cow_done++) {
		int w = cow_round(1, &child_wrong);

		munmap(region, PAGES * ps);
		if (w < 0)
			break;
		cow_wrong += w;
	}
	ok(cow_done == rounds && cow_wrong == 0,
	   "copy-on-write: %d rounds of %d threads storing into %d pages "
	   "shared with a child: each thread saw every store in every page "
	   "(%d pages seen wrong)", cow_done, THREADS, PAGES, cow_wrong);
	ok(cow_done == rounds && child_wrong == 0,
	   "copy-on-write: the child's pages kept the fill and none of the "
	   "threads' stores (%d children saw a store)", child_wrong);

	for (r = 0; r < rounds && (region = map_region()); r++, reuse_done++) {
		int w = cow_round(0, &child_wrong);

		munmap(region, PAGES * ps);
		if (w < 0)
			break;
		reuse_wrong += w;
	}
	ok(reuse_done == rounds && reuse_wrong == 0,
	   "reuse: %d rounds of %d threads storing into %d pages whose "
	   "child has exited: each thread saw every store in every page "
	   "(%d pages seen wrong)", reuse_done, THREADS, PAGES, reuse_wrong);
	return done_testing();
}
