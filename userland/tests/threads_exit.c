/*
 * threads_exit: how a process of several threads ends, and what its
 * parent sees. Each case runs in a child process C of the test:
 *
 *   exit_group (the C library's exit) from a thread that is not the
 *   leader, while the leader sleeps in read(): every thread ends, and
 *   wait4 reports C's status once;
 *   the leader leaves first (pthread_exit): C is not reported while its
 *   other thread runs, then once with that thread's exit status;
 *   SIGKILL and a fatal SIGTERM to the process end all its threads;
 *   fork in a thread: the child process has that one thread;
 *   a thread waits for a child the main thread forked (the children are
 *   the process's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

static int pipefd[2];

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The wait status of child pid, waited for once; then a second wait must
 * find nothing (ECHILD): the group was reported once. */
static int reap_once(pid_t pid, int *again)
{
	int st = -1, st2;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	*again = waitpid(pid, &st2, WNOHANG) < 0 && errno == ECHILD;
	return st;
}

/* ---- exit_group from a thread that is not the leader -------------------- */

static void *exit_from_thread(void *arg)
{
	(void)arg;
	sleep_ms(50);
	exit(42);
}

static void exit_group_from_thread(void)
{
	pid_t pid;
	int st, once = 0;

	if ((pid = fork()) == 0) {
		pthread_t th;
		char c;

		pthread_create(&th, NULL, exit_from_thread, NULL);
		read(pipefd[0], &c, 1);	/* the leader blocks: nobody writes */
		_exit(1);
	}
	st = reap_once(pid, &once);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	   "exit(42) in a thread ended the process, its blocked leader too "
	   "(status %#x)", st);
	ok(once, "wait4 reported the process once");
}

/* ---- the leader goes first ------------------------------------------------- */

static void *outlive_leader(void *arg)
{
	(void)arg;
	sleep_ms(300);
	exit(7);
}

static void leader_exits_first(void)
{
	pid_t pid;
	int st = 0, once = 0;

	if ((pid = fork()) == 0) {
		pthread_t th;

		pthread_create(&th, NULL, outlive_leader, NULL);
		pthread_exit(NULL);
	}
	sleep_ms(100);
	is_int(waitpid(pid, &st, WNOHANG), 0,
	       "a process whose leader left is not reported while a thread "
	       "runs");
	st = reap_once(pid, &once);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 7,
	   "then its last thread's exit status is (status %#x)", st);
	ok(once, "and once");
}

/* ---- fatal signals ---------------------------------------------------------- */

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void fatal_signal(int sig)
{
	pid_t pid;
	int st, once = 0, p[2];
	char c;

	pipe(p);
	if ((pid = fork()) == 0) {
		pthread_t th[3];

		for (int i = 0; i < 3; i++)
			pthread_create(&th[i], NULL, sleeper, NULL);
		write(p[1], "r", 1);
		for (;;)
			pause();
	}
	read(p[0], &c, 1);
	close(p[0]);
	close(p[1]);
	kill(pid, sig);
	st = reap_once(pid, &once);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == sig && once,
	   "kill(%s) ended all four threads, reported once (status %#x)",
	   strsignal(sig), st);
}

/* ---- fork in a thread ------------------------------------------------------- */

static void *fork_in_thread(void *arg)
{
	pid_t parent = getpid(), pid;
	int st = -1;

	(void)arg;
	if ((pid = fork()) == 0) {
		int ok = status_threads() == 1 &&
			 getpid() == syscall(SYS_gettid) &&
			 getppid() == parent;

		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	return (void *)(long)st;
}

static void fork_from_thread(void)
{
	pthread_t th, idle;
	void *st = (void *)-1L;

	pthread_create(&idle, NULL, sleeper, NULL);
	pthread_create(&th, NULL, fork_in_thread, NULL);
	pthread_join(th, &st);
	ok(WIFEXITED((long)st) && WEXITSTATUS((long)st) == 0,
	   "fork in a thread: the child has one thread, its pid as tid, "
	   "the process as parent; the thread waited for it");
	/* idle sleeps on: exit() at the end ends it with the rest. */
}

/* ---- a thread waits for the process's child --------------------------------- */

static pid_t main_child;

static void *wait_for_main_child(void *arg)
{
	int st = -1;

	(void)arg;
	if (waitpid(main_child, &st, 0) != main_child)
		return (void *)-1L;
	return (void *)(long)st;
}

static void wait_in_thread(void)
{
	pthread_t th;
	void *st = (void *)-1L;

	if ((main_child = fork()) == 0) {
		sleep_ms(50);
		_exit(5);
	}
	pthread_create(&th, NULL, wait_for_main_child, NULL);
	pthread_join(th, &st);
	ok(WIFEXITED((long)st) && WEXITSTATUS((long)st) == 5,
	   "a thread reaped the child the main thread forked (status %#lx)",
	   (long)st);
}

int main(void)
{
	alarm(60);
	plan(9);
	pipe(pipefd);
	exit_group_from_thread();
	leader_exits_first();
	fatal_signal(SIGKILL);
	fatal_signal(SIGTERM);
	fork_from_thread();
	wait_in_thread();
	return done_testing();
}
