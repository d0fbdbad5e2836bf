/*
 * kernel/trace_entry.S: the two ways into the call-chain tracer
 * (kernel/trace.c).
 *
 * __fentry__: kernel/trace.c makes `call __fentry__` the first
 * instruction of every __traced function at boot (in the nops the
 * compiler left there, before the prologue), as gcc -pg -mfentry would.
 * The function's arguments are still in rdi, rsi, rdx, rcx, r8, r9, and
 * its return address sits just above ours. With no trace set
 * on and no delay point armed (kernel/fail_delay.c: some are a traced
 * function's entry), return at once. Otherwise save the argument
 * registers (a struct trace_args) and let trace_function_entry decide; it
 * may hold the task, and replace the function's return address by
 * return_to_handler.
 *
 * return_to_handler: a traced function "returns" here with its result in
 * rax (rdx for a 128-bit one). trace_function_exit prints it and gives
 * back the real return address, where we go with rax and rdx intact.
 *
 * The stack: a call site keeps rsp 16-byte aligned, so __fentry__ and
 * return_to_handler both start with rsp % 16 == 0; an even number of
 * pushes keeps it so for the calls into C.
 */
	.text
	.globl __fentry__
__fentry__:
	cmpb $0, trace_functions_on(%rip)
	jne 1f
	cmpq $0, fail_delay_armed(%rip)
	jne 1f
	ret
1:	pushq %rax		/* a varargs function's vector count */
	pushq %r10
	pushq %r9
	pushq %r8
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi		/* struct trace_args at rsp */
	movq 64(%rsp), %rdi	/* ip: just after the call __fentry__ */
	leaq 72(%rsp), %rsi	/* the function's return address */
	movq %rsp, %rdx
	call trace_function_entry
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %r8
	popq %r9
	popq %r10
	popq %rax
	ret

	.globl return_to_handler
return_to_handler:
	pushq %rax
	pushq %rdx
	movq %rax, %rdi
	call trace_function_exit
	movq %rax, %r11		/* scratch: no caller expects it kept */
	popq %rdx
	popq %rax
	jmp *%r11
