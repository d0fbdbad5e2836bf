/* Segment selectors, the GDT/TSS and the IDT (arch/x86/kernel/gdt.c, idt.c). */
#ifndef _ASM_DESC_H
#define _ASM_DESC_H

/*
 * GDT slots. The user selectors are ordered for sysret, which loads
 * SS = STAR[63:48] + 8 and CS = STAR[63:48] + 16.
 */
#define GDT_KERNEL_CS 1
#define GDT_KERNEL_DS 2
#define GDT_USER32_CS 3	/* unused; the base for sysret's arithmetic */
#define GDT_USER_DS 4
#define GDT_USER_CS 5
#define GDT_TSS 6	/* a 16-byte descriptor: slots 6 and 7 */
#define GDT_ENTRIES 8

#define __KERNEL_CS (GDT_KERNEL_CS * 8)
#define __KERNEL_DS (GDT_KERNEL_DS * 8)
#define __USER32_CS (GDT_USER32_CS * 8 + 3)
#define __USER_DS (GDT_USER_DS * 8 + 3)
#define __USER_CS (GDT_USER_CS * 8 + 3)
#define __TSS (GDT_TSS * 8)

/* Interrupt stack table slots (1-based, as the IDT encodes them). */
#define IST_DOUBLE_FAULT 1
#define IST_NMI 2
#define EXCEPTION_STACK_SIZE 16384

#ifndef __ASSEMBLY__
#include <kernel/types.h>

struct tss {
	u32 reserved0;
	u64 rsp0;	/* kernel stack for entries from user mode */
	u64 rsp1, rsp2;
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __attribute__((packed));

void gdt_init(void);	/* the boot CPU's */
void cpu_gdt_init(int cpu, unsigned long df_top, unsigned long nmi_top);
void idt_init(void);	/* fill the table, and load it here */
void idt_load(void);	/* another CPU: load the same table */
/* Route vector to the common entry with the given privilege and IST slot. */
void idt_set_gate(int vector, int dpl, int ist);
#endif

#endif
