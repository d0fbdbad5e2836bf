/*
 * sched_preempt: the scheduler takes the CPU away from a program that
 * never gives it up. A child spinning in user mode (no system calls) must
 * not stop its parent from waking up after a sleep; two spinners must both
 * make progress. Without preemption the test hangs until alarm() kills it.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static void spin(volatile unsigned long *counter)
{
	for (;;)
		(*counter)++;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

static pid_t spawn_spinner(volatile unsigned long *counter)
{
	pid_t pid = fork();

	if (pid == 0)
		spin(counter);
	return pid;
}

static int killed_by(pid_t pid, int sig)
{
	int st;

	kill(pid, sig);
	return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
	       WTERMSIG(st) == sig;
}

int main(void)
{
	volatile unsigned long *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t a, b;

	alarm(30);
	plan(4);
	a = spawn_spinner(&c[0]);
	nap_ms(50);
	ok(1, "the parent woke from a sleep while its child spun");
	ok(killed_by(a, SIGKILL), "the spinning child was killed");
	c[0] = c[1] = 0;
	a = spawn_spinner(&c[0]);
	b = spawn_spinner(&c[1]);
	nap_ms(300);
	ok(c[0] > 0 && c[1] > 0, "two spinners both ran (%lu and %lu loops)",
	   c[0], c[1]);
	ok(killed_by(a, SIGTERM) && killed_by(b, SIGTERM),
	   "both die of SIGTERM");
	return done_testing();
}
