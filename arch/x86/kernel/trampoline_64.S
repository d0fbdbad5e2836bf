/*
 * arch/x86/kernel/trampoline_64.S: where another CPU starts.
 *
 * A STARTUP IPI starts a CPU in 16-bit real mode at a page below 1 MiB;
 * smpboot.c copies this code to TRAMPOLINE_PHYS and fills tr_params
 * first. The CPU goes straight from real mode to long mode: with CR4.PAE
 * and EFER.LME set, turning on CR0.PE and CR0.PG together enters long mode
 * (compatibility mode), and the far jump to a 64-bit code segment finishes
 * it. The page table it loads maps this page at its own address (the
 * instruction after the CR0 write is fetched there) and the kernel's half
 * as the kernel has it; the CPU then jumps to start_secondary(percpu) on
 * its idle task's stack. CR0, CR4 and EFER are the boot CPU's values, so
 * every CPU runs with the same protections (NX, WP, SMEP, SMAP).
 * The code is position dependent only through TRAMPOLINE_PHYS.
 */
#include <asm/smp.h>

	.section .rodata
	.balign 16
	.globl trampoline_start, trampoline_end, tr_params
	.code16
trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	movl tr_cr4 - trampoline_start, %eax
	movl %eax, %cr4
	movl tr_cr3 - trampoline_start, %eax
	movl %eax, %cr3
	movl $0xc0000080, %ecx		/* EFER */
	movl tr_efer - trampoline_start, %eax
	xorl %edx, %edx
	wrmsr
	lgdtl tr_gdt_desc - trampoline_start
	movl tr_cr0 - trampoline_start, %eax
	movl %eax, %cr0
	ljmpl $0x08, $(TRAMPOLINE_PHYS + tr_long - trampoline_start)

	.code64
tr_long:
	movl $0x10, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs
	movq tr_stack(%rip), %rsp
	movq tr_percpu(%rip), %rdi
	movq tr_entry(%rip), %rax
	xorl %ebp, %ebp			/* the backtrace stops here */
	pushq $0
	jmp *%rax

	.balign 8
tr_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit kernel code */
	.quad 0x00cf92000000ffff	/* 0x10: kernel data */
tr_gdt_desc:
	.short tr_gdt_desc - tr_gdt - 1
	.long TRAMPOLINE_PHYS + tr_gdt - trampoline_start

	/* struct trampoline_params (asm/smp.h), filled per CPU */
	.balign 8
tr_params:
tr_cr0:		.long 0
tr_cr3:		.long 0
tr_cr4:		.long 0
tr_efer:	.long 0
tr_stack:	.quad 0
tr_entry:	.quad 0
tr_percpu:	.quad 0
trampoline_end:
