/*
 * arch/x86/kernel/syscall_64.S: the `syscall` instruction lands here
 * (MSR_LSTAR).
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
/* struct pt_regs offsets (<asm/ptrace.h>) */
#define PT_R11 48
#define PT_RCX 88
#define PT_RIP 136
#define PT_RFLAGS 152
#define TASK_SIZE_MAX 0x00007ffffffff000
#define X86_EFLAGS_TF 0x100
#define X86_EFLAGS_RF 0x10000

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
	/*
	 * Return with sysretq when it would restore exactly what iretq would:
	 * sysret takes rip from rcx and rflags from r11, so both must still
	 * hold them (execve, signals and sigreturn change rip; sigreturn may
	 * change anything), rip must be a user address (sysret with a
	 * non-canonical rcx faults in kernel mode, on the user's stack), and
	 * RF/TF must be clear. Anything else leaves through iretq.
	 */
	movq PT_RIP(%rsp), %rcx
	cmpq %rcx, PT_RCX(%rsp)
	jne ret_from_interrupt
	movq $TASK_SIZE_MAX, %r11
	cmpq %r11, %rcx
	jae ret_from_interrupt
	movq PT_RFLAGS(%rsp), %r11
	cmpq %r11, PT_R11(%rsp)
	jne ret_from_interrupt
	testq $(X86_EFLAGS_RF | X86_EFLAGS_TF), %r11
	jnz ret_from_interrupt
	POP_REGS
	movq 40(%rsp), %rsp	/* vector, error_code, rip, cs, rflags, then rsp */
	swapgs
	sysretq
