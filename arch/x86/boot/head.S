/*
 * arch/x86/boot/head.S: from the boot loader to C.
 *
 * Roadmap:
 *   1. Multiboot 1 and Multiboot 2 headers (QEMU's -kernel speaks 1, GRUB 2).
 *   2. _start, 32-bit protected mode, paging off, at physical 0x100000.
 *      Check the CPU can do long mode, zero .bss, build boot page tables
 *      that map the first 1 GiB three times (identity, the kernel's higher
 *      half, the direct map), enable PAE + long mode + NX, paging on.
 *   3. Far jump into 64-bit code, then jump to the higher half and call
 *      start_kernel(magic, info) on the boot stack.
 * arch/x86/mm/pgtable.c later replaces these tables with precise ones and
 * drops the identity map.
 */
#include <asm/boot.h>

#define PHYS(x) ((x) - KERNEL_VMA)
#define MB1_FLAGS ((1 << 0) | (1 << 1) | (1 << 16))	/* align, mem, a.out */

	.section .multiboot, "a"
	.balign 4
multiboot1_header:
	.long MULTIBOOT1_HEADER_MAGIC
	.long MB1_FLAGS
	.long -(MULTIBOOT1_HEADER_MAGIC + MB1_FLAGS)
	/* The "a.out kludge": QEMU refuses ELF64 otherwise, so say where the
	 * image goes ourselves; the file is laid out contiguously for this. */
	.long multiboot1_header		/* header_addr (physical) */
	.long __load_start		/* load_addr */
	.long __load_end		/* load_end_addr */
	.long __bss_end_phys		/* bss_end_addr */
	.long _start			/* entry_addr */

	.balign 8
multiboot2_header:
	.long MULTIBOOT2_HEADER_MAGIC
	.long 0				/* architecture: i386 protected mode */
	.long multiboot2_end - multiboot2_header
	.long -(MULTIBOOT2_HEADER_MAGIC + (multiboot2_end - multiboot2_header))
	.balign 8			/* end tag */
	.short 0, 0
	.long 8
multiboot2_end:

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	movl %eax, %ebp			/* boot loader magic */
	movl %ebx, %esi			/* boot information (physical) */
	movl $PHYS(boot_stack_top), %esp

	call check_long_mode

	/* Zero .bss: Multiboot loaders should, but nothing may be trusted
	 * this early. The stack is in .bss too, so nothing on it survives:
	 * the boot arguments stay in ebp and esi. */
	movl $PHYS(__bss_start), %edi
	movl $__bss_end_phys, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb

	call setup_boot_page_tables

	movl %cr4, %eax
	orl $(1 << 5), %eax		/* PAE */
	movl %eax, %cr4
	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl $0xC0000080, %ecx		/* EFER */
	rdmsr
	orl $((1 << 8) | (1 << 11)), %eax	/* LME, NXE */
	wrmsr
	movl %cr0, %eax
	orl $((1 << 31) | (1 << 16)), %eax	/* PG, WP */
	movl %eax, %cr0

	lgdt boot_gdt_desc
	ljmp $0x08, $start64_low

/* Halt with a message on the serial port and VGA when the CPU is 32-bit. */
check_long_mode:
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	btl $29, %edx			/* LM */
	jnc no_long_mode
	ret
no_long_mode:
	movl $no_lm_msg, %ebx
	movl $0xb8000, %ecx
1:	movb (%ebx), %al
	testb %al, %al
	jz 3f
	movw $0x3f8 + 5, %dx		/* wait for the UART */
2:	inb %dx, %al
	testb $0x20, %al
	jz 2b
	movb (%ebx), %al
	movw $0x3f8, %dx
	outb %al, %dx
	movb %al, (%ecx)
	movb $0x4f, 1(%ecx)
	addl $2, %ecx
	incl %ebx
	jmp 1b
3:	hlt
	jmp 3b

/*
 * One page directory of 2 MiB pages maps physical [0, 1 GiB); three PML4
 * slots point at it: 0 (identity, for the instructions right after paging
 * is enabled), 273 (the direct map at PAGE_OFFSET) and 511 (the kernel at
 * KERNEL_VMA, through PDPT slot 510).
 */
setup_boot_page_tables:
	movl $PHYS(boot_pd), %ebx
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $0x83, %eax			/* present, writable, 2 MiB page */
	movl %eax, (%ebx, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b

	movl $PHYS(boot_pd) + 0x3, %eax
	movl %eax, PHYS(boot_pdpt_low)
	movl %eax, PHYS(boot_pdpt_high) + 510 * 8
	movl $PHYS(boot_pdpt_low) + 0x3, %eax
	movl %eax, PHYS(boot_pml4)
	movl %eax, PHYS(boot_pml4) + 273 * 8
	movl $PHYS(boot_pdpt_high) + 0x3, %eax
	movl %eax, PHYS(boot_pml4) + 511 * 8
	ret

	.code64
start64_low:
	movabsq $start64, %rax
	jmp *%rax

	.section .boot.data, "a"
no_lm_msg:
	.asciz "pagelab: this CPU has no long mode (x86-64); cannot boot"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit kernel code */
	.quad 0x00cf92000000ffff	/* 0x10: kernel data */
boot_gdt_end:
boot_gdt_desc:
	.short boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	.text
start64:
	movl $0x10, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs
	movabsq $boot_stack_top, %rsp
	movl %ebp, %edi			/* start_kernel(magic, info) */
	xorl %ebp, %ebp			/* the backtrace stops here */
	call start_kernel
1:	cli
	hlt
	jmp 1b

	.section .bss.page_aligned, "aw", @nobits
	.balign 4096
	.globl boot_pml4
boot_pml4:	.skip 4096
boot_pdpt_low:	.skip 4096
boot_pdpt_high:	.skip 4096
boot_pd:	.skip 4096

	/* Stacks are THREAD_SIZE aligned by the linker script. */
	.section .bss.stack, "aw", @nobits
	.balign 4096
	.globl boot_stack, boot_stack_top
boot_stack:	.skip BOOT_STACK_SIZE
boot_stack_top:
