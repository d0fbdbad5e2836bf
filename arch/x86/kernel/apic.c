/*
 * arch/x86/kernel/apic.c: the local APIC, one per CPU.
 *
 * Roadmap:
 *   lapic_map             the registers, at the address the MADT gave
 *   lapic_setup           a CPU's APIC on (spurious vector), LVTs set:
 *                         the boot CPU's LINT0 ExtINT (the 8259s'
 *                         interrupts come in there), the others' masked
 *   lapic_timer_*         a periodic HZ tick per CPU, its rate timed
 *                         against the TSC once
 *   lapic_send_*          IPIs: fixed vectors, and INIT and STARTUP for
 *                         smpboot.c
 *   handle_apic_interrupt the vectors the APIC delivers
 * The boot CPU's tick stays the PIT's (it keeps jiffies); the others tick
 * with their APIC timers.
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <kernel/irq.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <mm/mm.h>

#define APIC_ID 0x20
#define APIC_TPR 0x80
#define APIC_EOI 0xb0
#define APIC_SVR 0xf0
#define APIC_SVR_ENABLE (1 << 8)
#define APIC_ESR 0x280
#define APIC_ICR_LOW 0x300
#define APIC_ICR_HIGH 0x310
#define APIC_ICR_BUSY (1 << 12)	/* delivery status: still sending */
#define APIC_DM_FIXED 0x000
#define APIC_DM_NMI 0x400
#define APIC_DM_INIT 0x500
#define APIC_DM_STARTUP 0x600
#define APIC_DM_EXTINT 0x700
#define APIC_LEVEL_ASSERT (1 << 14)
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370
#define APIC_LVT_MASKED (1 << 16)
#define APIC_TIMER_PERIODIC (1 << 17)
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR 0x390
#define APIC_TIMER_DIV 0x3e0
#define APIC_DIV_16 0x3

phys_addr_t lapic_phys = 0xfee00000;	/* the architectural default */
static volatile u32 *lapic;
static u32 timer_count;	/* APIC timer counts per tick (divide by 16) */

static u32 apic_read(u32 reg)
{
	return lapic[reg / 4];
}

static void apic_write(u32 reg, u32 v)
{
	lapic[reg / 4] = v;
}

bool lapic_map(void)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(d & (1 << 9))) {
		pr_info("apic: this CPU has no local APIC\n");
		return false;
	}
	lapic = ioremap(lapic_phys, PAGE_SIZE);
	return lapic != NULL;
}

u32 lapic_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

void lapic_setup(void)
{
	apic_write(APIC_TPR, 0);	/* accept every priority */
	apic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_APIC_VECTOR);
	/* The 8259s' output is wired to every CPU's LINT0; one CPU takes it
	 * (ExtINT: the 8259 supplies the vector), the others mask it.
	 * SeaBIOS leaves the boot CPU's set so; qboot leaves it masked, as
	 * a reset does, and then no PIC interrupt would come in. */
	if (smp_processor_id() == 0) {
		apic_write(APIC_LVT_LINT0, APIC_DM_EXTINT);
		apic_write(APIC_LVT_LINT1, APIC_DM_NMI);
	} else {
		apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	}
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_ESR, 0);
	lapic_eoi();	/* anything the BIOS left in service */
}

void lapic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

/* Count the APIC timer down for 10 ms of TSC time. */
void lapic_timer_calibrate(void)
{
	u64 start;
	u32 left;

	apic_write(APIC_TIMER_DIV, APIC_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TIMER_INIT, 0xffffffff);
	start = ktime_get_ns();
	while (ktime_get_ns() - start < 10 * 1000 * 1000)
		cpu_relax();
	left = apic_read(APIC_TIMER_CUR);
	apic_write(APIC_TIMER_INIT, 0);
	timer_count = (u32)((0xffffffffULL - left) * 100 / HZ);
	pr_info("apic: timer %u.%03u MHz (divided by 16)\n",
		timer_count * HZ / 1000000,
		(timer_count * HZ / 1000) % 1000);
}

void lapic_timer_start(void)
{
	apic_write(APIC_TIMER_DIV, APIC_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, timer_count ? timer_count : 1000000);
}

static void icr_wait(void)
{
	while (apic_read(APIC_ICR_LOW) & APIC_ICR_BUSY)
		cpu_relax();
}

/* The ICR is one register pair per CPU: send with interrupts off, so an
 * interrupt handler's IPI does not land between our two writes. */
static void send_icr(u32 apic_id, u32 low)
{
	unsigned long flags = local_irq_save();

	icr_wait();
	apic_write(APIC_ICR_HIGH, apic_id << 24);
	apic_write(APIC_ICR_LOW, low);
	icr_wait();
	local_irq_restore(flags);
}

void lapic_send_ipi(u32 apic_id, int vector)
{
	send_icr(apic_id, APIC_DM_FIXED | vector);
}

/* An NMI: it gets through to a CPU with interrupts off. */
void lapic_send_nmi(u32 apic_id)
{
	send_icr(apic_id, APIC_DM_NMI);
}

void lapic_send_init(u32 apic_id)
{
	send_icr(apic_id, APIC_DM_INIT | APIC_LEVEL_ASSERT);
}

/* STARTUP: the CPU starts in real mode at phys (page aligned, below 1 MiB). */
void lapic_send_startup(u32 apic_id, u32 phys)
{
	send_icr(apic_id, APIC_DM_STARTUP | (phys >> 12));
}
