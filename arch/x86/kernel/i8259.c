/*
 * arch/x86/kernel/i8259.c: the two cascaded 8259 programmable interrupt
 * controllers, remapped so IRQs 0-15 land on vectors 32-47 (the BIOS leaves
 * them on top of CPU exceptions). All lines start masked; request_irq()
 * unmasks a line once it has a handler.
 */
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <asm/io.h>

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI 0x20

struct irq_action {
	irq_handler_t handler;
	void *data;
	const char *name;
	unsigned long count;
};

static struct irq_action irq_actions[NR_IRQS];
static u16 irq_mask = 0xffff & ~(1 << 2);	/* line 2 is the cascade */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

void pic_init(void)
{
	outb(PIC1_CMD, 0x11);	/* ICW1: init, ICW4 follows */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, IRQ_BASE);	/* ICW2: vector offsets */
	outb(PIC2_DATA, IRQ_BASE + 8);
	outb(PIC1_DATA, 1 << 2);	/* ICW3: slave on line 2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 0x01);	/* ICW4: 8086 mode */
	outb(PIC2_DATA, 0x01);
	pic_write_mask();
}

void pic_unmask(int irq)
{
	irq_mask &= ~(1 << irq);
	pic_write_mask();
}

void pic_eoi(int irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
}

int request_irq(int irq, irq_handler_t handler, void *data, const char *name)
{
	if (irq < 0 || irq >= NR_IRQS || irq == 2)
		return -EINVAL;
	if (irq_actions[irq].handler)
		return -EBUSY;
	irq_actions[irq] = (struct irq_action){ handler, data, name, 0 };
	pic_unmask(irq);
	return 0;
}

/* Is this IRQ 7/15 a spurious one (not in the PIC's in-service register)? */
static bool irq_is_spurious(int irq)
{
	u16 port = irq == 7 ? PIC1_CMD : PIC2_CMD;

	if (irq != 7 && irq != 15)
		return false;
	outb(port, 0x0b);	/* OCW3: read ISR */
	return !(inb(port) & 0x80);
}

void handle_irq(int irq, struct pt_regs *regs)
{
	struct irq_action *a = &irq_actions[irq];

	if (irq_is_spurious(irq)) {
		if (irq == 15)
			pic_eoi(0);	/* the master did see the cascade */
		return;
	}
	a->count++;
	/* EOI before the handler: a handler that switches tasks (the timer)
	 * must not leave the line blocked. Interrupts are still off. */
	pic_eoi(irq);
	if (a->handler)
		a->handler(irq, a->data);
}
