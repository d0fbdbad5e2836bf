/*
 * threads_signals: signals in a process of several threads, as on Linux.
 *
 *   kill() to the process is taken by a thread that does not block it
 *   (here the one worker that unblocks SIGUSR1; the main thread blocks
 *   it): the handler runs in that thread;
 *   tgkill() to one thread runs the handler in that thread, even when
 *   another would take it too;
 *   masks are per thread: pthread_sigmask in one does not change another's;
 *   a process signal that every thread blocks waits (sigpending shows it
 *   in each thread) until a thread unblocks it, and that thread takes it;
 *   sigwait in a thread takes a signal sent to the process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static volatile pid_t handled_by;
static volatile int handled;

static pid_t my_tid(void)
{
	return syscall(SYS_gettid);
}

static void on_signal(int sig)
{
	(void)sig;
	handled_by = my_tid();
	handled++;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Up to 2 s for the handler to have run n times. */
static int wait_handled(int n)
{
	for (int i = 0; i < 200 && handled < n; i++)
		sleep_ms(10);
	return handled >= n;
}

static sigset_t only(int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

/* A worker: its tid, and what it does with SIGUSR1 until told to stop. */
struct worker {
	pthread_t th;
	volatile pid_t tid;
	int unblock;	/* SIGUSR1 unblocked in this thread */
	volatile int stop;
	volatile int usr1_blocked;	/* as it sees its own mask */
	volatile int pending_seen;	/* SIGUSR2 pending, blocked */
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	sigset_t s = only(SIGUSR1), cur;

	pthread_sigmask(w->unblock ? SIG_UNBLOCK : SIG_BLOCK, &s, NULL);
	w->tid = my_tid();
	while (!w->stop) {
		pthread_sigmask(SIG_BLOCK, NULL, &cur);
		w->usr1_blocked = sigismember(&cur, SIGUSR1);
		sigpending(&cur);
		if (sigismember(&cur, SIGUSR2))
			w->pending_seen = 1;
		sleep_ms(5);
	}
	return NULL;
}

static void start(struct worker *w, int unblock)
{
	memset(w, 0, sizeof(*w));
	w->unblock = unblock;
	pthread_create(&w->th, NULL, worker_main, w);
	while (!w->tid)
		sleep_ms(1);
}

static void stop(struct worker *w)
{
	w->stop = 1;
	pthread_join(w->th, NULL);
}

static void *waiter(void *arg)
{
	sigset_t s = only(SIGUSR2);
	int sig = 0;

	(void)arg;
	sigwait(&s, &sig);
	return (void *)(long)sig;
}

int main(void)
{
	sigset_t usr1 = only(SIGUSR1), usr2 = only(SIGUSR2), cur;
	struct worker a, b;
	void *ret;
	pthread_t th;

	alarm(60);
	plan(9);
	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	start(&a, 0);
	start(&b, 1);

	kill(getpid(), SIGUSR1);
	ok(wait_handled(1) && handled_by == b.tid,
	   "kill() to the process ran the handler in the one thread that "
	   "does not block it");

	syscall(SYS_tgkill, getpid(), b.tid, SIGUSR1);
	ok(wait_handled(2) && handled_by == b.tid,
	   "tgkill() ran the handler in the thread named");
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	syscall(SYS_tgkill, getpid(), my_tid(), SIGUSR1);
	ok(wait_handled(3) && handled_by == my_tid(),
	   "tgkill() to the main thread ran it there, not in the worker");
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);

	sleep_ms(20);
	ok(a.usr1_blocked && !b.usr1_blocked,
	   "each thread keeps its own mask (a blocks SIGUSR1, b does not)");
	is_errno(syscall(SYS_tgkill, getpid() + 100000, b.tid, SIGUSR1), ESRCH,
		 "tgkill() with the wrong process id: ESRCH");
	stop(&a);
	stop(&b);

	/* Everyone blocks SIGUSR2: it waits, pending for the process. */
	pthread_sigmask(SIG_BLOCK, &usr2, NULL);
	start(&a, 0);
	kill(getpid(), SIGUSR2);
	sleep_ms(50);
	sigpending(&cur);
	ok(sigismember(&cur, SIGUSR2) && a.pending_seen && handled == 3,
	   "a process signal every thread blocks stays pending, seen by "
	   "sigpending in each thread");
	pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);
	ok(wait_handled(4) && handled_by == my_tid(),
	   "the thread that unblocks it takes it");
	stop(&a);

	pthread_sigmask(SIG_BLOCK, &usr2, NULL);
	pthread_create(&th, NULL, waiter, NULL);
	sleep_ms(50);
	kill(getpid(), SIGUSR2);
	pthread_join(th, &ret);
	is_long((long)ret, SIGUSR2, "sigwait in a thread took the process's "
		"signal");
	is_int(handled, 4, "and no handler ran for it");
	return done_testing();
}
