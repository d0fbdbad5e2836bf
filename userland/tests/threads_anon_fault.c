/*
 * threads_anon_fault: threads of one process that touch the same fresh
 * anonymous pages at the same moment each see every page once, zeroed,
 * and the kernel maps each page once.
 *
 * A first touch of an anonymous page allocates and maps it (the paging
 * lab's do_anonymous_page). Two threads faulting on one page at once
 * must not both map one: the second must find the first's page. Each
 * round maps a fresh region, releases four threads at a barrier, and
 * has each add 1 to one counter of its own in every page; at the end
 * every page must hold 1 in each thread's counter, and nothing else.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"

#define THREADS 4
#define PAGES 16
#define ROUNDS 200

static pthread_barrier_t start;
static unsigned char *region;
static long ps;

static void *toucher(void *arg)
{
	long id = (long)arg;

	pthread_barrier_wait(&start);
	for (int p = 0; p < PAGES; p++)
		__atomic_add_fetch(&region[p * ps + id], 1, __ATOMIC_RELAXED);
	return NULL;
}

/* Every page holds 1 at each thread's byte and 0 elsewhere. */
static int region_right(void)
{
	for (int p = 0; p < PAGES; p++)
		for (long i = 0; i < ps; i++)
			if (region[p * ps + i] != (i < THREADS))
				return 0;
	return 1;
}

int main(void)
{
	pthread_t t[THREADS];
	int bad = 0, round;

	ps = sysconf(_SC_PAGESIZE);
	plan(1);
	for (round = 0; round < ROUNDS; round++) {
		region = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			break;
		pthread_barrier_init(&start, NULL, THREADS);
		for (long i = 0; i < THREADS; i++)
			pthread_create(&t[i], NULL, toucher, (void *)i);
		for (int i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&start);
		bad += !region_right();
		munmap(region, PAGES * ps);
	}
	ok(round == ROUNDS && bad == 0,
	   "%d rounds of %d threads touching %d fresh pages at once: every "
	   "page mapped once, each thread's store in it (%d rounds wrong)",
	   round, THREADS, PAGES, bad);
	return done_testing();
}
