/* CPU exceptions (arch/x86/kernel/traps.c) and page faults
 * (arch/x86/mm/fault.c). */
#ifndef _ASM_TRAPS_H
#define _ASM_TRAPS_H

#include <kernel/compiler.h>
#include <asm/ptrace.h>

#define X86_TRAP_DE 0	/* divide error */
#define X86_TRAP_DB 1
#define X86_TRAP_NMI 2
#define X86_TRAP_BP 3
#define X86_TRAP_OF 4
#define X86_TRAP_BR 5
#define X86_TRAP_UD 6	/* invalid opcode */
#define X86_TRAP_NM 7
#define X86_TRAP_DF 8	/* double fault */
#define X86_TRAP_TS 10
#define X86_TRAP_NP 11
#define X86_TRAP_SS 12
#define X86_TRAP_GP 13	/* general protection */
#define X86_TRAP_PF 14	/* page fault */
#define X86_TRAP_MF 16
#define X86_TRAP_AC 17
#define X86_TRAP_MC 18
#define X86_TRAP_XF 19

/* Page fault error code bits. */
#define X86_PF_PROT (1 << 0)	/* 0: not present, 1: protection */
#define X86_PF_WRITE (1 << 1)
#define X86_PF_USER (1 << 2)
#define X86_PF_RSVD (1 << 3)
#define X86_PF_INSTR (1 << 4)

/* Report a fatal kernel-mode exception and panic. */
__noreturn void die(const char *what, struct pt_regs *regs);

/* The page fault handler (arch/x86/mm/fault.c). */
void do_page_fault(struct pt_regs *regs, unsigned long address);

void do_interrupt(struct pt_regs *regs);

#endif
