/*
 * dyn_threads: pthreads through the dynamic C library (built twice:
 * gcc against the host's glibc, musl-gcc without -static). glibc's
 * pthread_create tries clone3 first and uses clone when the kernel says
 * ENOSYS; its threads get their TLS from CLONE_SETTLS and its
 * pthread_join waits on CLONE_CHILD_CLEARTID. Four threads add to a
 * counter under a mutex, meet at a condition variable and keep a
 * thread-local variable each. Prints TAP (a plan, ok lines, a summary).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 4
#define ROUNDS 10000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long counter;
static int arrived;
static __thread long mine;
static int tests, failed;

static void check(int cond_ok, const char *what)
{
	tests++;
	failed += !cond_ok;
	printf("%sok %d - %s\n", cond_ok ? "" : "not ", tests, what);
}

static void *worker(void *arg)
{
	long id = (long)arg;

	mine = id;
	pthread_mutex_lock(&lock);
	if (++arrived == N)
		pthread_cond_broadcast(&cond);
	while (arrived < N)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return (void *)(mine == id ? getpid() : 0L);
}

int main(void)
{
	pthread_t th[N];
	int created = 0, joined = 0;

	printf("1..4\n");
	mine = -1;
	for (long i = 0; i < N; i++)
		created += pthread_create(&th[i], NULL, worker, (void *)i) == 0;
	check(created == N, "pthread_create made 4 threads");
	for (int i = 0; i < N; i++) {
		void *ret = NULL;

		joined += pthread_join(th[i], &ret) == 0 &&
			  (long)ret == (long)getpid();
	}
	check(joined == N,
	      "each joined with its own thread-local value and our pid");
	check(counter == (long)N * ROUNDS, "the mutex kept every increment");
	check(mine == -1, "the main thread's thread-local value is untouched");
	printf("# %d tests, %d passed, %d failed\n", tests, tests - failed,
	       failed);
	return failed != 0;
}
