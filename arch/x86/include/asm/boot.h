/* Addresses fixed by the boot layout; included by C, assembly and ld. */
#ifndef _ASM_BOOT_H
#define _ASM_BOOT_H

/* The kernel image is linked here and loaded at physical KERNEL_PHYS. */
#define KERNEL_VMA 0xffffffff80000000
#define KERNEL_PHYS 0x100000
/* All of RAM is mapped here (Linux's __PAGE_OFFSET for 4-level paging). */
#define PAGE_OFFSET 0xffff888000000000

#define BOOT_STACK_SIZE 16384

#define MULTIBOOT1_HEADER_MAGIC 0x1BADB002
#define MULTIBOOT1_BOOTLOADER_MAGIC 0x2BADB002
#define MULTIBOOT2_HEADER_MAGIC 0xe85250d6
#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289

#endif
