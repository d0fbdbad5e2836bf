/*
 * mem_oom_kill - when memory runs out, the biggest task dies, not the one
 * that asked last (mm/oom_kill.c).
 *
 * A child takes 60% of the free memory and waits; then this process
 * asks for another 60%, a page at a time. Somewhere in there a page
 * fault finds no page: the child, now the biggest, must be killed
 * (SIGKILL) and this process must get all it asked for. pagelab only:
 * on Linux, with overcommit and swap and far more memory, the numbers
 * mean something else (skipped where more than 1 GiB is free).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096L

/* Free memory in KiB (sysinfo: no /proc needed, this may run as init). */
static long mem_free_kb(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -1;
	return (long)(si.freeram * si.mem_unit / 1024);
}

/* Touch len bytes of fresh anonymous memory, a page at a time. */
static char *take(long len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	for (long i = 0; p != MAP_FAILED && i < len; i += PAGE)
		p[i] = 1;
	return p;
}

int main(void)
{
	long free_kb = mem_free_kb(), each;
	int ready[2], status = 0;
	char c;
	pid_t hog;

	if (free_kb < 0 || free_kb > 1024 * 1024) {
		skip("not a small pagelab machine", "the biggest task is killed");
		skip("not a small pagelab machine", "the asker gets its memory");
		return done_testing();
	}
	each = free_kb * 1024 / 10 * 6;
	diag("MemFree %ld kB: the hog and this process take %ld kB each",
	     free_kb, each / 1024);
	if (pipe(ready))
		return 1;
	hog = fork();
	if (hog == 0) {
		take(each);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(ready[0], &c, 1) != 1)
		return 1;
	take(each);	/* runs out of memory half way */
	/* Killed, it still has to exit: up to 5 s. */
	for (int i = 0; i < 500 && waitpid(hog, &status, WNOHANG) != hog; i++)
		usleep(10000);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "the hog, the biggest task, was killed with SIGKILL (status %#x)",
	   status);
	ok(1, "this process, which asked last, got all %ld kB", each / 1024);
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	return done_testing();
}
