/*
 * arch/x86/kernel/smp.c: messages between CPUs, and the vectors the local
 * APIC delivers.
 *
 *   LOCAL_TIMER_VECTOR   another CPU's tick (the boot CPU ticks with the
 *                        PIT): scheduler_tick
 *   RESCHEDULE_VECTOR    "look at the run queue": need_resched
 *   STOP_VECTOR          panic on another CPU: halt for good
 *   SPURIOUS_APIC_VECTOR nothing to do, and no EOI (the APIC says so)
 */
#include <asm/apic.h>
#include <asm/processor.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>

void scheduler_tick(void);

void smp_send_reschedule(int cpu)
{
	if (cpu != smp_processor_id() && (cpu_online_mask & (1UL << cpu)))
		lapic_send_ipi(cpu_data[cpu].apic_id, RESCHEDULE_VECTOR);
}

/* Every other CPU stops where it is (interrupts off, halted), so a panic's
 * report is the only output and nothing changes under it. A CPU with
 * interrupts off at the time stops when it turns them on. */
void smp_send_stop(void)
{
	int cpu;

	if (num_online_cpus() <= 1)
		return;
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			lapic_send_ipi(cpu_data[cpu].apic_id, STOP_VECTOR);
}

static __noreturn void stop_this_cpu(void)
{
	__atomic_and_fetch(&cpu_online_mask, ~(1UL << smp_processor_id()),
			   __ATOMIC_SEQ_CST);
	for (;;)
		__asm__ volatile("cli; hlt" ::: "memory");
}

void handle_apic_interrupt(int vector)
{
	struct percpu *cpu = this_cpu();

	if (vector == SPURIOUS_APIC_VECTOR)
		return;
	cpu->irq_count++;
	lapic_eoi();
	switch (vector) {
	case LOCAL_TIMER_VECTOR:
		scheduler_tick();
		break;
	case RESCHEDULE_VECTOR:
		cpu->ipi_count++;
		set_need_resched(true);
		break;
	case STOP_VECTOR:
		stop_this_cpu();
	default:
		cpu->ipi_count++;
		pr_warn("apic: unexpected vector %d on CPU %d\n", vector,
			cpu->cpu);
	}
}
