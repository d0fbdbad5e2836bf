/*
 * arch/x86/kernel/entry.S: the way into the kernel from an interrupt or
 * exception.
 *
 * Each of the 256 vectors has a tiny stub that makes the stack look the same
 * (an error code, real or a pushed 0, and the vector number) and jumps to
 * interrupt_common, which saves the general registers as a struct pt_regs
 * (<asm/ptrace.h>) and calls do_interrupt(regs). When the CPU came from user
 * mode, GS holds the user's base: swapgs on the way in and out.
 */
#include <asm/boot.h>
#include <asm/calling.h>

/* Vectors for which the CPU pushes an error code itself. */
#define HAS_ERROR_CODE(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || \
			   (n) == 17 || (n) == 21 || (n) == 29 || (n) == 30)

#define PT_CS 24	/* offset of cs above vector and error_code */

	.text
	.balign 16
interrupt_common:
	testb $3, PT_CS(%rsp)
	jz 1f
	swapgs
1:	PUSH_REGS
	cld
	movq %rsp, %rdi
	call do_interrupt
	.globl ret_from_interrupt
ret_from_interrupt:
	POP_REGS
	testb $3, PT_CS(%rsp)
	jz 2f
	swapgs
2:	addq $16, %rsp		/* vector and error code */
	iretq

	.altmacro
.macro vector_stub n
	.balign 16
vector_\n:
	.if HAS_ERROR_CODE(\n) == 0
	pushq $0
	.endif
	pushq $\n
	jmp interrupt_common
.endm

.macro stub_address n
	.quad vector_\n
.endm

	.set i, 0
	.rept 256
	vector_stub %i
	.set i, i + 1
	.endr

	.section .rodata
	.balign 8
	.globl interrupt_stubs
interrupt_stubs:
	.set i, 0
	.rept 256
	stub_address %i
	.set i, i + 1
	.endr
