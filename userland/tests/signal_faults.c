/*
 * signal_faults - hardware faults become signals with a correct siginfo,
 * and ordinary signals are delivered, blocked and defaulted as on Linux.
 *
 * Roadmap:
 *   1. page faults: NULL+0x10 read (SEGV_MAPERR), user store to a kernel
 *      address, store to a PROT_READ page (SEGV_ACCERR); each is caught
 *      by a SA_SIGINFO handler and the process goes on (siglongjmp)
 *   2. traps: integer divide by zero (FPE_INTDIV), ud2 (ILL_ILLOPN), with
 *      si_addr pointing at the faulting instruction
 *   3. kill(getpid(), SIGUSR1) runs its handler before kill() returns
 *   4. sigprocmask: a blocked signal stays pending, runs on unblock
 *   5. a child with default dispositions dies of SIGTERM
 * The probes live in include/fault.h.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fault.h"
#include "tap.h"

#define KERNEL_ADDR ((void *)0xffffffff80000000UL)

static void test_null_read(void)
{
	struct fault f;

	ok(probe_load((void *)0x10, &f), "reading NULL+0x10 raises a signal");
	is_int(f.signo, SIGSEGV, "the signal for a NULL+0x10 read is SIGSEGV");
	is_int(f.code, SEGV_MAPERR, "its si_code is SEGV_MAPERR");
	is_ptr(f.addr, (void *)0x10, "its si_addr is the faulting address");
	is_ptr(f.ip, fault_load_insn, "its rip is the load instruction");
}

/*
 * On x86-64 Linux a user access to a canonical kernel address is a page
 * fault with no VMA behind it: SIGSEGV, SEGV_MAPERR, si_addr = address.
 * (A non-canonical address would be a #GP instead: SI_KERNEL, si_addr 0.)
 */
static void test_kernel_store(void)
{
	struct fault f;

	ok(probe_store(KERNEL_ADDR, &f),
	   "a user store to a kernel address raises a signal");
	is_int(f.signo, SIGSEGV, "the signal for it is SIGSEGV");
	is_int(f.code, SEGV_MAPERR, "its si_code is SEGV_MAPERR, as on Linux");
	is_ptr(f.addr, KERNEL_ADDR, "its si_addr is the kernel address");
}

static void test_readonly_store(void)
{
	char *p =
	    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct fault f;

	if (!ok(p != MAP_FAILED, "a PROT_READ page can be mapped"))
		return;
	ok(!probe_load(p + 100, &f) && p[100] == 0,
	   "reading a PROT_READ page works and gives zero");
	ok(probe_store(p + 100, &f), "storing to a PROT_READ page faults");
	is_int(f.signo, SIGSEGV, "the signal for it is SIGSEGV");
	is_int(f.code, SEGV_ACCERR, "its si_code is SEGV_ACCERR");
	is_ptr(f.addr, p + 100, "its si_addr is the byte stored to");
	munmap(p, 4096);
}

static void test_traps(void)
{
	struct fault f;

	ok(probe_div0(&f), "an integer divide by zero raises a signal");
	is_int(f.signo, SIGFPE, "the signal for it is SIGFPE");
	is_int(f.code, FPE_INTDIV, "its si_code is FPE_INTDIV");
	is_ptr(f.addr, fault_div0_insn, "its si_addr is the idiv instruction");

	ok(probe_ud2(&f), "ud2 raises a signal");
	is_int(f.signo, SIGILL, "the signal for ud2 is SIGILL");
	is_int(f.code, ILL_ILLOPN, "its si_code is ILL_ILLOPN");
	is_ptr(f.addr, fault_ud2_insn, "its si_addr is the ud2 instruction");
}

static volatile sig_atomic_t usr1_count, usr2_count;
static volatile int usr1_signo, usr1_code;
static volatile pid_t usr1_pid;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	usr1_count++;
	usr1_signo = sig;
	usr1_code = si->si_code;
	usr1_pid = si->si_pid;
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2_count++;
}

static void test_kill_self(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	ok(sigaction(SIGUSR1, &sa, NULL) == 0, "SIGUSR1 handler installs");
	ok(kill(getpid(), SIGUSR1) == 0, "kill(getpid(), SIGUSR1) succeeds");
	is_int(usr1_count, 1, "the handler ran once before kill() returned");
	is_int(usr1_signo, SIGUSR1, "the handler got signo SIGUSR1");
	is_int(usr1_code, SI_USER, "its si_code is SI_USER");
	is_int(usr1_pid, getpid(), "its si_pid is the sender (us)");
}

static void test_block_unblock(void)
{
	sigset_t set, pending;

	signal(SIGUSR2, on_usr2);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	ok(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "SIGUSR2 can be blocked");
	kill(getpid(), SIGUSR2);
	is_int(usr2_count, 0, "a blocked SIGUSR2 is not delivered");
	sigemptyset(&pending);
	sigpending(&pending);
	ok(sigismember(&pending, SIGUSR2), "it shows in sigpending()");
	kill(getpid(), SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	is_int(usr2_count, 1,
	       "unblocking delivers it, once for two sends (not queued)");
}

static void test_default_term(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		kill(getpid(), SIGTERM);
		_exit(0);
	}
	if (!ok(pid > 0, "fork for the SIGTERM child works"))
		return;
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	   "a child with default dispositions dies of SIGTERM (status %#x)",
	   status);
}

int main(void)
{
	alarm(30);
	plan(36);
	fault_install();
	test_null_read();
	test_kernel_store();
	test_readonly_store();
	test_traps();
	test_kill_self();
	test_block_unblock();
	test_default_term();
	ok(1, "the process is still alive after all the faults");
	return done_testing();
}
