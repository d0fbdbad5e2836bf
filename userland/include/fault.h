/*
 * fault.h - provoke one synchronous fault and catch it, for tests.
 *
 * Roadmap:
 *   fault_install()      SA_SIGINFO handler for SIGSEGV, SIGBUS, SIGFPE,
 *                        SIGILL that records signo, si_code, si_addr and
 *                        the faulting rip, then siglongjmp()s back
 *   probe_load(addr, &f) read one byte at addr; returns 1 if it faulted
 *   probe_load_byte(addr, &f, &byte)
 *                        the same, and the byte it read: one access, where
 *                        a probe and then a read would be two (a truncate
 *                        in between makes the second one die of SIGBUS)
 *   probe_store(addr, &f) store one byte at addr; returns 1 if it faulted
 *   probe_div0(&f)       integer divide by zero (idiv)
 *   probe_ud2(&f)        execute ud2
 *   fault_*_insn         address of the instruction each probe faults on,
 *                        so a test can check si_addr / rip exactly
 *   unmapped_page()      address of a page that was mapped and then
 *                        munmapped: guaranteed not mapped right now
 *
 * The faulting instructions are written in assembly so the compiler can
 * neither drop a "useless" load nor move it, and so their addresses are
 * known. The handler only jumps back when a probe is armed; an unexpected
 * fault resets the signal to its default and returns, so the instruction
 * faults again and the process dies of the real signal (a crash a harness
 * sees, not a wrong verdict).
 */
#ifndef PAGELAB_FAULT_H
#define PAGELAB_FAULT_H

#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

struct fault {
	int signo; /* 0 if no fault happened */
	int code; /* si_code */
	void *addr; /* si_addr */
	void *ip; /* rip at the fault */
};

/* The probe instructions (defined in the asm block below). */
extern char fault_load_insn[], fault_store_insn[];
extern char fault_div0_insn[], fault_ud2_insn[];
int fault_load(const volatile void *addr);
void fault_store(volatile void *addr);
int fault_div0(void);
void fault_ud2(void);

__asm__(".pushsection .text\n"
	".globl fault_load, fault_load_insn\n"
	"fault_load:\n"
	"fault_load_insn: movzbl (%rdi), %eax\n"
	"	ret\n"
	".globl fault_store, fault_store_insn\n"
	"fault_store:\n"
	"fault_store_insn: movb $0x5a, (%rdi)\n"
	"	ret\n"
	".globl fault_div0, fault_div0_insn\n"
	"fault_div0:\n"
	"	xorl %ecx, %ecx\n"
	"	movl $1, %eax\n"
	"	cltd\n"
	"fault_div0_insn: idivl %ecx\n"
	"	ret\n"
	".globl fault_ud2, fault_ud2_insn\n"
	"fault_ud2:\n"
	"fault_ud2_insn: ud2\n"
	"	ret\n"
	".popsection\n");

static sigjmp_buf fault_env;
static volatile sig_atomic_t fault_armed;
static struct fault fault_last;
static volatile int fault_loaded;	/* what the last FAULT_LOAD read */

static inline void fault_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	if (!fault_armed) {
		signal(sig, SIG_DFL);
		return;
	}
	fault_armed = 0;
	fault_last.signo = sig;
	fault_last.code = si->si_code;
	fault_last.addr = si->si_addr;
	fault_last.ip = (void *)uc->uc_mcontext.gregs[REG_RIP];
	/* savemask=1 at sigsetjmp: this also unblocks sig again. */
	siglongjmp(fault_env, 1);
}

static inline void fault_install(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

enum fault_op { FAULT_LOAD, FAULT_STORE, FAULT_DIV0, FAULT_UD2 };

/* Run one probe; returns 1 and fills *f if it faulted, else 0. */
static inline int fault_probe(enum fault_op op, void *addr, struct fault *f)
{
	memset(&fault_last, 0, sizeof(fault_last));
	if (sigsetjmp(fault_env, 1) == 0) {
		fault_armed = 1;
		switch (op) {
		case FAULT_LOAD:
			fault_loaded = fault_load(addr);
			break;
		case FAULT_STORE:
			fault_store(addr);
			break;
		case FAULT_DIV0:
			fault_div0();
			break;
		case FAULT_UD2:
			fault_ud2();
			break;
		}
		fault_armed = 0;
	}
	*f = fault_last;
	return f->signo != 0;
}

static inline int probe_load(const void *addr, struct fault *f)
{
	return fault_probe(FAULT_LOAD, (void *)addr, f);
}

static inline int probe_load_byte(const void *addr, struct fault *f,
				  int *byte)
{
	int faulted = fault_probe(FAULT_LOAD, (void *)addr, f);

	*byte = faulted ? -1 : fault_loaded;
	return faulted;
}

static inline int probe_store(void *addr, struct fault *f)
{
	return fault_probe(FAULT_STORE, addr, f);
}

static inline int probe_div0(struct fault *f)
{
	return fault_probe(FAULT_DIV0, NULL, f);
}

static inline int probe_ud2(struct fault *f)
{
	return fault_probe(FAULT_UD2, NULL, f);
}

/* A page-aligned address with nothing mapped at it (NULL if mmap failed). */
static inline void *unmapped_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, 4096);
	return p;
}

#endif /* PAGELAB_FAULT_H */
