/*
 * procbench: process and system-call costs, in ops/s.
 *   getppid        CALLS getppid() calls: the bare system-call round trip
 *   fork+exit+wait FORKS times fork(), the child _exit(0)s at once, the
 *                  parent waitpid()s it: address-space copy, exit, reap
 *   clock check    a loop of two instructions (dec, jnz) 10^8 times, in
 *                  million instructions per second: under -icount
 *                  shift=0 one instruction is one guest nanosecond, so
 *                  both kernels must say 1000 (ratio 1.00); anything else
 *                  means a kernel's clock does not run at guest time and
 *                  none of the figures compare
 * Usage: procbench [CALLS [FORKS]]  (default 1000000, 2000)
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000000;
	long forks = argc > 2 ? atol(argv[2]) : 2000;
	long sum = 0;
	double t;

	must(calls > 0 && forks > 0, "procbench: usage: procbench [CALLS [FORKS]]");
	t = bench_now();
	{
		unsigned long n = 100000000;

		__asm__ volatile("1:\tdec %0\n\tjnz 1b" : "+r"(n));
	}
	t = bench_now() - t;
	figure("clock check: dec+jnz loop (icount: 1000)", 2e8 / t / 1e6,
	       "Minsn/s");
	t = bench_now();
	/* syscall(): musl's getppid() is one too, but say so. */
	for (long i = 0; i < calls; i++)
		sum += syscall(SYS_getppid);
	t = bench_now() - t;
	must(sum == calls * getppid(), "procbench: getppid");
	figure("getppid()", calls / t, "calls/s");

	t = bench_now();
	for (long i = 0; i < forks; i++) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		must(pid > 0, "procbench: fork");
		must(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		     WEXITSTATUS(status) == 0, "procbench: waitpid");
	}
	t = bench_now() - t;
	figure("fork+exit+wait", forks / t, "ops/s");
	return 0;
}
