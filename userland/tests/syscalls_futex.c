/*
 * syscalls_futex: futex(2) between processes of one thread each, and the
 * robust list calls.
 *
 *   FUTEX_WAIT: EAGAIN when the word differs, ETIMEDOUT after a relative
 *   timeout, FUTEX_WAIT_BITSET's absolute one (CLOCK_MONOTONIC and
 *   CLOCK_REALTIME), EINTR from a handled signal, the EINVAL/EFAULT/ENOSYS
 *   cases. FUTEX_WAKE from another process on a MAP_SHARED page (anonymous,
 *   and a file mapped at two different addresses), and not for a private
 *   futex. FUTEX_CMP_REQUEUE moves waiters to another word.
 *   set_robust_list/get_robust_list store and return the head.
 *
 * Waits for another process never rely on timing: the parent repeats
 * its wake (or requeue) until the children are found. Same verdict on
 * Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

/* <linux/futex.h>: musl-gcc has no kernel headers. */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_WAIT_PRIVATE (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_BITSET_MATCH_ANY 0xffffffffU

static volatile int signals;

static void on_signal(int sig)
{
	(void)sig;
	signals++;
}

static long futex(uint32_t *uaddr, int op, uint32_t val,
		  const struct timespec *ts, uint32_t *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

/* Time in 10 ms units of CLOCK_MONOTONIC, the clock the kernel's
 * timeouts run on (schedule_timeout counts ktime, not interrupts), so a
 * badly calibrated clock moves both alike. Not times(): it counts timer
 * interrupts, and a host too busy to deliver some made a 100 ms wait
 * look like 8 ticks. */
static long ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 100 + ts.tv_nsec / 10000000;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int reap(pid_t pid)
{
	int status = -1;

	waitpid(pid, &status, 0);
	return status;
}

/* A child that waits on *word (expected 0) and exits 0 if woken. */
static pid_t waiter(uint32_t *word, int op)
{
	pid_t pid = fork();

	if (pid == 0) {
		long r;

		do
			r = futex(word, op, 0, NULL, NULL, 0);
		while (r == -1 && errno == EINTR);
		_exit(r == 0 ? 0 : 10 + errno);
	}
	return pid;
}

/* Wake *word until someone was there (at most ~10 s): the count. */
static long wake_until_found(uint32_t *word, int op)
{
	for (int i = 0; i < 1000; i++) {
		long n = futex(word, op, 1, NULL, NULL, 0);

		if (n != 0)
			return n;
		usleep(10000);
	}
	return 0;
}

static void test_wait_errors(void)
{
	uint32_t word = 5, *page;
	struct timespec ts = { 0, 100000000 };
	double t0;
	long t;

	is_errno(futex(&word, FUTEX_WAIT, 4, NULL, NULL, 0), EAGAIN,
		 "FUTEX_WAIT on a word that differs: EAGAIN");
	is_errno(futex(&word, FUTEX_WAIT_PRIVATE, 4, NULL, NULL, 0), EAGAIN,
		 "the private form too");
	t = ticks();
	is_errno(futex(&word, FUTEX_WAIT_PRIVATE, 5, &ts, NULL, 0), ETIMEDOUT,
		 "FUTEX_WAIT with a 100 ms timeout: ETIMEDOUT");
	ok(ticks() - t >= 9, "after at least 100 ms (%ld ticks)", ticks() - t);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 100000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	is_errno(futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 5, &ts, NULL,
		       FUTEX_BITSET_MATCH_ANY), ETIMEDOUT,
		 "FUTEX_WAIT_BITSET until an absolute CLOCK_MONOTONIC time");
	t0 = now();
	ok(t0 >= ts.tv_sec + ts.tv_nsec / 1e9,
	   "not before that time on that clock (%.3f s after it)",
	   t0 - (ts.tv_sec + ts.tv_nsec / 1e9));
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec -= 1;
	is_errno(futex(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 5, &ts,
		       NULL, FUTEX_BITSET_MATCH_ANY), ETIMEDOUT,
		 "a CLOCK_REALTIME deadline in the past: ETIMEDOUT at once");

	signals = 0;
	setitimer(ITIMER_REAL,
		  &(struct itimerval){ { 0, 0 }, { 0, 50000 } }, NULL);
	is_errno(futex(&word, FUTEX_WAIT_PRIVATE, 5, NULL, NULL, 0), EINTR,
		 "a handled signal interrupts FUTEX_WAIT: EINTR");
	is_int(signals, 1, "the handler ran");

	is_errno(futex((uint32_t *)((char *)&word + 1), FUTEX_WAIT, 5, NULL,
		       NULL, 0), EINVAL, "a misaligned word: EINVAL");
	is_errno(futex(NULL, FUTEX_WAIT, 0, NULL, NULL, 0), EFAULT,
		 "a NULL word: EFAULT");
	ts = (struct timespec){ 0, 1000000000 };
	is_errno(futex(&word, FUTEX_WAIT, 5, &ts, NULL, 0), EINVAL,
		 "tv_nsec of 1e9: EINVAL");
	is_errno(futex(&word, FUTEX_WAIT_BITSET, 5, NULL, NULL, 0), EINVAL,
		 "an empty bitset: EINVAL");
	is_errno(futex(&word, 99, 0, NULL, NULL, 0), ENOSYS,
		 "an unknown operation: ENOSYS");
	is_errno(futex(&word, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL,
		       0), ENOSYS, "FUTEX_CLOCK_REALTIME on a wake: ENOSYS");
	is_int(futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0), 0,
	       "FUTEX_WAKE with nobody waiting: 0");
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(page, 4096);
	is_errno(futex(page, FUTEX_WAKE, 1, NULL, NULL, 0), EFAULT,
		 "a shared futex on unmapped memory: EFAULT");
}

static void test_shared_anon(void)
{
	uint32_t *word = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	*word = 0;
	pid = waiter(word, FUTEX_WAIT);
	is_long(wake_until_found(word, FUTEX_WAKE), 1,
		"FUTEX_WAKE finds the other process's waiter on a MAP_SHARED page");
	is_int(reap(pid), 0, "whose FUTEX_WAIT returned 0");

	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 300000000 };
		long r = futex(word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);

		_exit(r == -1 && errno == ETIMEDOUT ? 0 : 1);
	}
	usleep(100000);
	is_int(futex(word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0), 0,
	       "a private futex is not woken from another process");
	is_int(reap(pid), 0, "the private waiter timed out instead");

	pid = waiter(word, FUTEX_WAIT_BITSET);
	usleep(100000);
	is_int(futex(word, FUTEX_WAKE_BITSET, 1, NULL, NULL, 2), 0,
	       "FUTEX_WAKE_BITSET with a disjoint bitset wakes nobody");
	is_errno(futex(word, FUTEX_WAKE_BITSET, 1, NULL, NULL, 0), EINVAL,
		 "FUTEX_WAKE_BITSET with an empty bitset: EINVAL");
	kill(pid, SIGKILL);
	reap(pid);
	munmap(word, 4096);
}

static void test_shared_file(void)
{
	int fd = open("syscalls_futex.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	uint32_t *a, *b;
	pid_t pid;

	ftruncate(fd, 8192);
	a = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pid = fork();
	if (pid == 0) {
		/* The same file page, mapped again elsewhere. */
		b = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
		_exit(b == MAP_FAILED || b == a + 1024 ? 2 :
		      futex(b + 3, FUTEX_WAIT, 0, NULL, NULL, 0) ? 1 : 0);
	}
	is_long(wake_until_found(a + 1024 + 3, FUTEX_WAKE), 1,
		"a file page mapped at two addresses is one futex");
	is_int(reap(pid), 0, "the waiter on the other mapping was woken");
	munmap(a, 8192);
	close(fd);
	unlink("syscalls_futex.tmp");
}

static void test_requeue(void)
{
	uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long moved = 0, n;
	pid_t p1, p2;

	w[0] = w[1] = 0;
	p1 = waiter(&w[0], FUTEX_WAIT);
	p2 = waiter(&w[0], FUTEX_WAIT);
	is_errno(futex(&w[0], FUTEX_CMP_REQUEUE, 0, (void *)(long)INT_MAX,
		       &w[1], 7), EAGAIN,
		 "FUTEX_CMP_REQUEUE when the word is not cmpval: EAGAIN");
	for (int i = 0; i < 1000 && moved < 2; i++) {
		n = futex(&w[0], FUTEX_CMP_REQUEUE, 0, (void *)(long)INT_MAX,
			  &w[1], 0);
		moved += n > 0 ? n : 0;
		if (moved < 2)
			usleep(10000);
	}
	is_long(moved, 2, "FUTEX_CMP_REQUEUE moves both waiters, waking none");
	is_int(futex(&w[1], FUTEX_WAKE, INT_MAX, NULL, NULL, 0), 2,
	       "FUTEX_WAKE on the second word wakes both");
	ok(reap(p1) == 0 && reap(p2) == 0, "both waits returned 0");
	munmap(w, 4096);
}

static void test_robust_list(void)
{
	long head[3] = { 0, 0, 0 };
	void *got = NULL;
	size_t len = 0;

	head[0] = (long)head;	/* an empty list points at itself */
	is_errno(syscall(SYS_set_robust_list, head, 23), EINVAL,
		 "set_robust_list with a wrong size: EINVAL");
	is_int(syscall(SYS_set_robust_list, head, 24), 0, "set_robust_list");
	is_int(syscall(SYS_get_robust_list, 0, &got, &len), 0,
	       "get_robust_list of myself");
	ok(got == head && len == 24, "returns the head and its size");
	is_errno(syscall(SYS_get_robust_list, 999999, &got, &len), ESRCH,
		 "get_robust_list of no such process: ESRCH");
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	plan(34);
	test_wait_errors();
	test_shared_anon();
	test_shared_file();
	test_requeue();
	test_robust_list();
	return done_testing();
}
