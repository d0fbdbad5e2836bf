/*
 * kernel/sched/switch.S: the register half of a task switch.
 *
 * __switch_to_asm(&prev->thread_sp, next->thread_sp) pushes the registers
 * the C calling convention says a callee must preserve, parks prev's stack
 * pointer, takes next's, pops next's saved registers and returns on next's
 * stack: into the schedule() call next made when it was switched out, or,
 * for a new task, into ret_from_fork (copy_thread builds that frame).
 */
	.text
	.globl __switch_to_asm
__switch_to_asm:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

/*
 * A new task starts here. rbx = function for a kernel thread (or 0),
 * r12 = its argument. A kernel thread that returns, and every user task,
 * leave through the pt_regs at the top of the stack.
 */
	.globl ret_from_fork
ret_from_fork:
	call schedule_tail
	testq %rbx, %rbx
	jz 1f
	movq %r12, %rdi
	call *%rbx
1:	movq %rsp, %rdi
	call exit_to_user_mode
	jmp ret_from_interrupt
