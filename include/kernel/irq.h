/*
 * Device interrupts. Legacy IRQ lines 0-15 arrive through the 8259 PICs at
 * vectors IRQ_BASE..IRQ_BASE+15; a driver claims a line with request_irq().
 * Handlers run with interrupts off and must not sleep.
 */
#ifndef _KERNEL_IRQ_H
#define _KERNEL_IRQ_H

#include <kernel/types.h>

#define IRQ_BASE 32
#define NR_IRQS 16

struct pt_regs;
typedef void (*irq_handler_t)(int irq, void *data);

int request_irq(int irq, irq_handler_t handler, void *data, const char *name);
void pic_init(void);
void pic_eoi(int irq);
void pic_unmask(int irq);
/* Called from do_interrupt for vectors IRQ_BASE..IRQ_BASE+15. */
void handle_irq(int irq, struct pt_regs *regs);

#endif
