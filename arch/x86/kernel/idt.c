/*
 * arch/x86/kernel/idt.c: the interrupt descriptor table. Every vector goes to
 * its stub in entry.S; privilege and IST stack differ per vector.
 */
#include <asm/desc.h>
#include <kernel/compiler.h>

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __attribute__((packed));

#define GATE_INTERRUPT 0x8e	/* present, 64-bit interrupt gate (IF off) */

extern const unsigned long interrupt_stubs[256];
static struct idt_gate idt[256] __aligned(16);

void idt_set_gate(int vector, int dpl, int ist)
{
	unsigned long addr = interrupt_stubs[vector];
	struct idt_gate *g = &idt[vector];

	g->offset_low = addr & 0xffff;
	g->selector = __KERNEL_CS;
	g->ist = ist;
	g->type_attr = GATE_INTERRUPT | (dpl << 5);
	g->offset_mid = (addr >> 16) & 0xffff;
	g->offset_high = addr >> 32;
	g->reserved = 0;
}

void idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) desc = { sizeof(idt) - 1, (u64)idt };

	__asm__ volatile("lidt %0" : : "m"(desc));
}

void idt_init(void)
{
	int v;

	for (v = 0; v < 256; v++)
		idt_set_gate(v, 0, 0);
	idt_set_gate(2, 0, IST_NMI);
	idt_set_gate(3, 3, 0);	/* int3 allowed from user mode */
	idt_set_gate(8, 0, IST_DOUBLE_FAULT);
	idt_load();
}
