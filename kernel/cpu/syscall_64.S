/*
 * kernel/cpu/syscall_64.S: the `syscall` instruction lands here (MSR_LSTAR).
 *
 * The CPU has put the user's rip in rcx and rflags in r11, masked IF, and
 * changed nothing else: not even the stack. So: swapgs to reach per-CPU
 * data, park the user rsp, load the task's kernel stack, and build the same
 * struct pt_regs an interrupt would (vector = VECTOR_SYSCALL, error_code =
 * the syscall number, Linux's orig_rax). The way out is the interrupt path's
 * iretq, which restores everything, including a changed rip (execve,
 * signals) or rax (the return value).
 */
#include <kernel/percpu.h>
#include <asm/desc.h>
#include <asm/calling.h>

#define VECTOR_SYSCALL 256

	.text
	.globl entry_SYSCALL_64
entry_SYSCALL_64:
	swapgs
	movq %rsp, %gs:PERCPU_USER_SP
	movq %gs:PERCPU_KERNEL_SP, %rsp
	pushq $__USER_DS		/* ss */
	pushq %gs:PERCPU_USER_SP	/* rsp */
	pushq %r11			/* rflags */
	pushq $__USER_CS		/* cs */
	pushq %rcx			/* rip */
	pushq %rax			/* error_code: the syscall number */
	pushq $VECTOR_SYSCALL		/* vector */
	PUSH_REGS
	xorl %ebp, %ebp			/* user rbp means nothing to a backtrace */
	movq %rsp, %rdi
	sti
	call do_syscall_64
	cli
	jmp ret_from_interrupt
