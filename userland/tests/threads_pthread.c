/*
 * threads_pthread: the C library's threads on top of clone(CLONE_THREAD):
 * N threads created and joined, sharing memory; a counter that they all
 * increment under a mutex, and a condition variable they wait on until
 * the main thread releases them (both are futexes the threads of one
 * process must meet on: the same mm and address); return values through
 * pthread_join (which waits on CLONE_CHILD_CLEARTID); one getpid() and
 * N + 1 distinct gettid()s; /proc/self/status and /proc/self/task count
 * the threads (and /proc/self/task/TID has no task/ to loop through); getrusage(RUSAGE_SELF) counts them all, RUSAGE_THREAD one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define N 8
#define ROUNDS 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int go, ready;
static long counter;
static pid_t pids[N], tids[N];

static pid_t my_tid(void)
{
	return syscall(SYS_gettid);
}

static void *worker(void *arg)
{
	long i = (long)arg;

	pids[i] = getpid();
	tids[i] = my_tid();
	pthread_mutex_lock(&lock);
	ready++;
	pthread_cond_signal(&ready_cond);
	while (!go)
		pthread_cond_wait(&go_cond, &lock);
	pthread_mutex_unlock(&lock);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_mutex_lock(&lock);
		counter++;
		if (r % 1000 == 0)
			sched_yield();	/* let another thread want the lock */
		pthread_mutex_unlock(&lock);
	}
	return (void *)(i * 10);
}

/* Entries of /proc/self/task that are thread ids, or -1. */
static int task_entries(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			n++;
	closedir(d);
	return n;
}

int main(void)
{
	pthread_t th[N];
	int created = 0, joined_ok = 0, distinct = 1, same_pid = 1;
	struct rusage self, thread;
	volatile unsigned long spin = 0;
	char path[64];

	alarm(60);
	plan(12);
	for (long i = 0; i < N; i++)
		created += pthread_create(&th[i], NULL, worker, (void *)i) == 0;
	is_int(created, N, "pthread_create made %d threads", N);
	pthread_mutex_lock(&lock);
	while (ready < N)
		pthread_cond_wait(&ready_cond, &lock);
	pthread_mutex_unlock(&lock);
	is_int(status_threads(), N + 1, "/proc/self/status says Threads: %d",
	       N + 1);
	is_int(task_entries(), N + 1, "/proc/self/task lists %d thread ids",
	       N + 1);
	snprintf(path, sizeof(path), "/proc/self/task/%d/task", tids[0]);
	ok(access(path, F_OK) != 0,
	   "a thread's directory has no task/ (a tree walk ends)");
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&go_cond);
	pthread_mutex_unlock(&lock);
	for (long i = 0; i < N; i++) {
		void *ret = NULL;

		if (pthread_join(th[i], &ret) == 0 && ret == (void *)(i * 10))
			joined_ok++;
	}
	is_int(joined_ok, N, "pthread_join returned each thread's value");
	is_long(counter, (long)N * ROUNDS,
		"the mutex kept every increment (%d threads x %d)", N, ROUNDS);
	for (int i = 0; i < N; i++) {
		same_pid &= pids[i] == getpid();
		distinct &= tids[i] != getpid() && tids[i] > 0;
		for (int j = 0; j < i; j++)
			distinct &= tids[i] != tids[j];
	}
	ok(same_pid, "every thread's getpid() is the process's");
	ok(distinct, "every thread has a gettid() of its own");
	is_int(my_tid(), getpid(), "the main thread's tid is the pid");
	/* join returns when the kernel clears the thread's tid, a step of
	 * its exit before it leaves the thread group (Linux too): wait a
	 * little for the count (a CI run saw 2). */
	for (int i = 0; i < 100 && status_threads() != 1; i++)
		usleep(10000);
	is_int(status_threads(), 1, "joined, the threads are gone: Threads: 1");
	for (int i = 0; i < 20000000; i++)
		spin++;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_THREAD, &thread);
	ok(self.ru_nvcsw >= thread.ru_nvcsw &&
		   self.ru_utime.tv_sec * 1000000 + self.ru_utime.tv_usec +
				   self.ru_stime.tv_sec * 1000000 +
				   self.ru_stime.tv_usec >=
			   thread.ru_utime.tv_sec * 1000000 +
				   thread.ru_utime.tv_usec +
				   thread.ru_stime.tv_sec * 1000000 +
				   thread.ru_stime.tv_usec,
	   "RUSAGE_SELF counts at least what RUSAGE_THREAD does");
	ok(self.ru_nvcsw > thread.ru_nvcsw,
	   "RUSAGE_SELF counts the joined threads' switches too (%ld > %ld)",
	   self.ru_nvcsw, thread.ru_nvcsw);
	return done_testing();
}
