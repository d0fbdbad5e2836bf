/*
 * arch/x86/kernel/pit.c: the periodic tick. PIT channel 0 interrupts HZ times a
 * second on IRQ 0; each tick advances jiffies and gives the timers a look
 * at the clock. A tick the host was too busy to deliver is lost, so
 * jiffies may fall behind the clock, never run ahead of it. (SMP will want
 * the local APIC timer; one CPU is happy with the PIT.)
 */
#include <kernel/time.h>
#include <kernel/irq.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <asm/io.h>

#define PIT_CH0 0x40
#define PIT_CMD 0x43

volatile u64 jiffies;

void run_timers(void);
void run_itimers(void);
void scheduler_tick(void);

static void timer_interrupt(int irq, void *data)
{
	jiffies++;
	run_timers();
	run_itimers();
	printk_tick();
	scheduler_tick();
}

void timer_init(void)
{
	u16 divisor = LATCH;

	outb(PIT_CMD, 0x34);	/* channel 0, lo/hi byte, mode 2 (rate) */
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
	BUG_ON(request_irq(0, timer_interrupt, NULL, "timer"));
}
