/*
 * arch/x86/kernel/gdt.c: the final GDT and the TSS.
 *
 * Long mode ignores segment bases and limits (except FS/GS bases, set by
 * MSR), so the GDT only says which code runs in 64-bit mode at which
 * privilege. The TSS matters for two stack pointers: rsp0, the kernel stack
 * loaded on an interrupt from user mode, and the IST stacks, loaded for
 * double faults and NMIs whatever the current stack is, so a kernel stack
 * overflow still ends in a readable report instead of a triple fault.
 */
#include <asm/desc.h>
#include <kernel/compiler.h>
#include <kernel/string.h>

#define SEG_CODE64(dpl) (0x00209a0000000000UL | ((u64)(dpl) << 45))
#define SEG_DATA(dpl) (0x0000920000000000UL | ((u64)(dpl) << 45))

static u64 gdt[GDT_ENTRIES] __aligned(16);
struct tss cpu_tss __aligned(16);
static u8 double_fault_stack[EXCEPTION_STACK_SIZE] __stack;
static u8 nmi_stack[EXCEPTION_STACK_SIZE] __stack;

static void set_tss_descriptor(void)
{
	u64 base = (u64)&cpu_tss, limit = sizeof(cpu_tss) - 1;

	gdt[GDT_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		       (0x89UL << 40) |	/* present, 64-bit available TSS */
		       (((limit >> 16) & 0xf) << 48) |
		       (((base >> 24) & 0xff) << 56);
	gdt[GDT_TSS + 1] = base >> 32;
}

/* Load the new GDT, reload every segment register, then the task register. */
static void load_gdt(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) desc = { sizeof(gdt) - 1, (u64)gdt };

	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movl %2, %%eax\n\t"
			 "movl %%eax, %%ds\n\t"
			 "movl %%eax, %%es\n\t"
			 "movl %%eax, %%ss\n\t"
			 "ltr %w3"
			 :
			 : "m"(desc), "i"(__KERNEL_CS), "i"(__KERNEL_DS),
			   "r"(__TSS)
			 : "rax", "memory");
}

void gdt_init(void)
{
	gdt[GDT_KERNEL_CS] = SEG_CODE64(0);
	gdt[GDT_KERNEL_DS] = SEG_DATA(0);
	gdt[GDT_USER32_CS] = 0;
	gdt[GDT_USER_DS] = SEG_DATA(3);
	gdt[GDT_USER_CS] = SEG_CODE64(3);
	memset(&cpu_tss, 0, sizeof(cpu_tss));
	cpu_tss.ist[IST_DOUBLE_FAULT - 1] =
		(u64)double_fault_stack + sizeof(double_fault_stack);
	cpu_tss.ist[IST_NMI - 1] = (u64)nmi_stack + sizeof(nmi_stack);
	cpu_tss.iomap_base = sizeof(cpu_tss);	/* no I/O bitmap */
	set_tss_descriptor();
	load_gdt();
}
