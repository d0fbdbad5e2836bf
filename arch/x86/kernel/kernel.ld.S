/*
 * arch/x86/kernel/kernel.ld.S: the kernel's memory layout (run through cpp).
 *
 * .boot is linked and loaded at physical 0x100000 (it runs before paging);
 * everything after it is linked at KERNEL_VMA + physical address. Each part is
 * page aligned so that arch/x86/mm/pgtable.c can give text, read-only data and
 * data their own permissions, and so the file image is contiguous for the
 * Multiboot 1 a.out kludge (load_addr .. load_end_addr read straight from the
 * file).
 */
#include <asm/boot.h>

OUTPUT_FORMAT("elf64-x86-64")
ENTRY(_start)

SECTIONS
{
	. = KERNEL_PHYS;
	__load_start = .;
	.boot : {
		KEEP(*(.multiboot))
		*(.boot.text)
		*(.boot.data)
	}
	. = ALIGN(4096);
	. += KERNEL_VMA;

	_text = .;
	.text : AT(ADDR(.text) - KERNEL_VMA) {
		*(.text .text.*)
		__sched_text_start = .;
		*(.sched.text)
		__sched_text_end = .;
	}
	. = ALIGN(4096);
	_etext = .;

	.rodata : AT(ADDR(.rodata) - KERNEL_VMA) {
		*(.rodata .rodata.*)
		. = ALIGN(8);
		__param_start = .;
		KEEP(*(.init.param))
		__param_end = .;
		__selftest_start = .;
		KEEP(*(.selftest))
		__selftest_end = .;
		__initcall_start = .;
		KEEP(*(.initcall.device))
		__initcall_end = .;
		__syscalls_start = .;
		KEEP(*(.syscalls))
		__syscalls_end = .;
		__ex_table_start = .;
		KEEP(*(__ex_table))
		__ex_table_end = .;
		/* last, so that the second link cannot move anything above */
		KEEP(*(.rodata.kallsyms))
	}
	. = ALIGN(4096);
	_erodata = .;

	.data : AT(ADDR(.data) - KERNEL_VMA) {
		*(.data .data.*)
	}
	. = ALIGN(4096);
	_edata = .;
	__load_end = . - KERNEL_VMA;

	.bss : AT(ADDR(.bss) - KERNEL_VMA) {
		__bss_start = .;
		*(.bss.page_aligned)
		/* Kernel stacks must be THREAD_SIZE aligned (backtraces find a
		 * stack's bounds that way). Aligning here, rather than with an
		 * alignment attribute, keeps every segment's p_align at 4 KiB,
		 * which keeps the file image contiguous for Multiboot 1. */
		. = ALIGN(16384);
		*(.bss.stack)
		*(.bss .bss.*)
		*(COMMON)
	}
	. = ALIGN(4096);
	_end = .;
	__bss_end_phys = . - KERNEL_VMA;

	/* __patchable_function_entries: where the nops of __traced functions
	 * are; kernel/trace.c finds them by name (kallsyms) instead. */
	/DISCARD/ : {
		*(.note*) *(.comment) *(.eh_frame*)
		*(__patchable_function_entries)
	}
}
