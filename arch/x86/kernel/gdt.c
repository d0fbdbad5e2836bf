/*
 * arch/x86/kernel/gdt.c: the final GDT and the TSS.
 *
 * Long mode ignores segment bases and limits (except FS/GS bases, set by
 * MSR), so the GDT only says which code runs in 64-bit mode at which
 * privilege. The TSS matters for two stack pointers: rsp0, the kernel stack
 * loaded on an interrupt from user mode, and the IST stacks, loaded for
 * double faults and NMIs whatever the current stack is, so a kernel stack
 * overflow still ends in a readable report instead of a triple fault.
 * Each CPU has its own GDT and TSS (a TSS descriptor is marked busy once
 * loaded, and rsp0 changes with the task running there) and its own IST
 * stacks; the boot CPU's stacks are static, the others' come from
 * smpboot.c.
 */
#include <asm/desc.h>
#include <kernel/compiler.h>
#include <kernel/percpu.h>
#include <kernel/string.h>

#define SEG_CODE64(dpl) (0x00209a0000000000UL | ((u64)(dpl) << 45))
#define SEG_DATA(dpl) (0x0000920000000000UL | ((u64)(dpl) << 45))

static u64 gdt_table[NR_CPUS][GDT_ENTRIES] __aligned(16);
static struct tss tss_table[NR_CPUS] __aligned(16);
static u8 double_fault_stack[EXCEPTION_STACK_SIZE] __stack;
static u8 nmi_stack[EXCEPTION_STACK_SIZE] __stack;

static void set_tss_descriptor(u64 *gdt, struct tss *tss)
{
	u64 base = (u64)tss, limit = sizeof(*tss) - 1;

	gdt[GDT_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		       (0x89UL << 40) |	/* present, 64-bit available TSS */
		       (((limit >> 16) & 0xf) << 48) |
		       (((base >> 24) & 0xff) << 56);
	gdt[GDT_TSS + 1] = base >> 32;
}

/* Load the new GDT, reload every segment register, then the task register. */
static void load_gdt(u64 *gdt)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) desc = { GDT_ENTRIES * 8 - 1, (u64)gdt };

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

/* This CPU's GDT and TSS, with IST stacks ending at df_top and nmi_top. */
void cpu_gdt_init(int cpu, unsigned long df_top, unsigned long nmi_top)
{
	u64 *gdt = gdt_table[cpu];
	struct tss *tss = &tss_table[cpu];

	gdt[GDT_KERNEL_CS] = SEG_CODE64(0);
	gdt[GDT_KERNEL_DS] = SEG_DATA(0);
	gdt[GDT_USER32_CS] = 0;
	gdt[GDT_USER_DS] = SEG_DATA(3);
	gdt[GDT_USER_CS] = SEG_CODE64(3);
	memset(tss, 0, sizeof(*tss));
	tss->ist[IST_DOUBLE_FAULT - 1] = df_top;
	tss->ist[IST_NMI - 1] = nmi_top;
	tss->iomap_base = sizeof(*tss);	/* no I/O bitmap */
	tss->rsp0 = this_cpu()->kernel_sp;
	this_cpu()->tss = tss;
	set_tss_descriptor(gdt, tss);
	load_gdt(gdt);
}

void gdt_init(void)
{
	cpu_gdt_init(0, (u64)double_fault_stack + sizeof(double_fault_stack),
		     (u64)nmi_stack + sizeof(nmi_stack));
}
