/* The register frame saved on every interrupt, exception and (later) syscall. */
#ifndef _ASM_PTRACE_H
#define _ASM_PTRACE_H

#include <kernel/types.h>

/* Layout fixed by arch/x86/kernel/entry.S: lowest address first. */
struct pt_regs {
	unsigned long r15, r14, r13, r12, rbp, rbx, r11, r10;
	unsigned long r9, r8, rax, rcx, rdx, rsi, rdi;
	unsigned long vector;
	unsigned long error_code;
	/* pushed by the CPU */
	unsigned long rip, cs, rflags, rsp, ss;
};

static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

#endif
