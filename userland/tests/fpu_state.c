/*
 * fpu_state: the FPU and SSE registers belong to the program, across
 * fork, signal handlers and being switched out.
 *
 * - fork: the child starts with the parent's registers as they are at the
 *   fork (MXCSR's rounding mode and an XMM register set just before it),
 *   not as they were at the parent's last task switch;
 * - a signal handler that changes MXCSR and XMM registers leaves them as
 *   they were once it returns (rt_sigreturn restores the frame's copy),
 *   a thousand times over, with a busy sibling process so that switches
 *   fall in between;
 * - two processes each spinning on their own XMM value never see the
 *   other's.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

#define RC_ZERO 0x6000	/* MXCSR rounding control: toward zero */

static unsigned int get_mxcsr(void)
{
	unsigned int m;

	__asm__ volatile("stmxcsr %0" : "=m"(m));
	return m;
}

static void set_mxcsr(unsigned int m)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(m));
}

static void set_xmm7(uint64_t v)
{
	__asm__ volatile("movq %0, %%xmm7" : : "r"(v) : "xmm7");
}

static uint64_t get_xmm7(void)
{
	uint64_t v;

	__asm__ volatile("movq %%xmm7, %0" : "=r"(v));
	return v;
}

static void clobber(int sig)
{
	(void)sig;
	set_mxcsr(0x1f80);	/* the default */
	set_xmm7(0xdeadbeefdeadbeefULL);
}

static pid_t spinner(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		set_xmm7(0x5151515151515151ULL);
		for (;;)
			if (get_xmm7() != 0x5151515151515151ULL)
				_exit(3);
	}
	return pid;
}

int main(void)
{
	unsigned int saved = get_mxcsr();
	int status, bad = 0, i;
	pid_t pid, spin;

	plan(4);
	set_mxcsr(saved | RC_ZERO);
	set_xmm7(0x1234567890abcdefULL);
	pid = fork();
	if (pid == 0)
		_exit((get_mxcsr() & RC_ZERO) == RC_ZERO &&
		      get_xmm7() == 0x1234567890abcdefULL ? 0 : 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fork: the child has MXCSR and xmm7 as set just before the fork "
	   "(status 0x%x)", status);

	spin = spinner();
	signal(SIGUSR1, clobber);
	for (i = 0; i < 1000; i++) {
		set_xmm7(0x1000 + i);
		raise(SIGUSR1);
		if (get_xmm7() != 0x1000ULL + i ||
		    (get_mxcsr() & RC_ZERO) != RC_ZERO)
			bad++;
	}
	ok(bad == 0, "after 1000 handlers that clobber them, MXCSR and xmm7 "
	   "are the program's again (%d wrong)", bad);
	ok(waitpid(spin, &status, WNOHANG) == 0,
	   "a busy process with its own xmm7 never saw ours (still running)");
	kill(spin, SIGKILL);
	waitpid(spin, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "... and it was killed, not failed (status 0x%x)", status);
	set_mxcsr(saved);
	return done_testing();
}
