/*
 * arch/x86/kernel/smp.c: messages between CPUs, and the vectors the local
 * APIC delivers.
 *
 *   LOCAL_TIMER_VECTOR   another CPU's tick (the boot CPU ticks with the
 *                        PIT): scheduler_tick
 *   RESCHEDULE_VECTOR    "look at the run queue": need_resched
 *   CALL_FUNCTION_VECTOR a TLB shoot-down (arch/x86/mm/tlb.c)
 *   PARK_VECTOR          spin until smp_unpark_others (an audit runs)
 *   STOP_VECTOR          panic on another CPU: halt for good
 *   SPURIOUS_APIC_VECTOR nothing to do, and no EOI (the APIC says so)
 *
 * And an NMI (not a vector: it gets through with interrupts off): show
 * this CPU's registers and backtrace, for a CPU that answers nothing else
 * (smp_nmi_backtrace, Linux's trigger_cpumask_backtrace).
 */
#include <asm/apic.h>
#include <asm/processor.h>
#include <asm/tlbflush.h>
#include <asm/ptrace.h>
#include <kernel/panic.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>

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

static DEFINE_SPINLOCK(park_lock);
static volatile unsigned int park_gen;	/* odd: a round of parking is on */
static volatile cpumask_t parked;

/* A CPU that does not answer in a second: say which and what it runs. */
void smp_report_late(cpumask_t want, cpumask_t got, const char *what)
{
	int cpu;

	for_each_online_cpu(cpu)
		if ((want & ~got) & (1UL << cpu))
			pr_err("smp: CPU %d does not answer %s: it runs %s[%d]%s\n",
			       cpu, what, cpu_data[cpu].current_task->comm,
			       cpu_data[cpu].current_task->pid,
			       cpu_data[cpu].idling ? " (idle)" : "");
}

/* One parker at a time; it waits for its lock with interrupts on, so a
 * parker already at work can park it meanwhile. The round number lets a
 * CPU still leaving the last round's handler tell it from this one. */
unsigned long smp_park_others(void)
{
	unsigned long flags;
	cpumask_t want;
	u64 start;
	int cpu;

	while (!spin_trylock(&park_lock))
		cpu_relax();
	flags = local_irq_save();
	want = cpu_online_mask & ~(1UL << smp_processor_id());
	if (!want)
		return flags;
	parked = 0;
	__atomic_add_fetch(&park_gen, 1, __ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu)
		if (want & (1UL << cpu))
			lapic_send_ipi(cpu_data[cpu].apic_id, PARK_VECTOR);
	start = ktime_get_ns();
	while ((__atomic_load_n(&parked, __ATOMIC_ACQUIRE) & want) != want)
		if (ktime_get_ns() - start > NSEC_PER_SEC) {
			smp_report_late(want, parked, "a park request");
			break;	/* an inexact audit rather than a hang */
		}
	return flags;
}

void smp_unpark_others(unsigned long flags)
{
	if (park_gen & 1)
		__atomic_add_fetch(&park_gen, 1, __ATOMIC_SEQ_CST);
	local_irq_restore(flags);
	spin_unlock(&park_lock);
}

static void park_this_cpu(void)
{
	unsigned int gen = __atomic_load_n(&park_gen, __ATOMIC_ACQUIRE);

	if (!(gen & 1))
		return;	/* late for a round that is over */
	__atomic_or_fetch(&parked, 1UL << smp_processor_id(), __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&park_gen, __ATOMIC_ACQUIRE) == gen)
		cpu_relax();
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
	if (vector == SPURIOUS_APIC_VECTOR)
		return;
	lapic_eoi();
	switch (vector) {
	case LOCAL_TIMER_VECTOR:
		scheduler_tick();
		break;
	case RESCHEDULE_VECTOR:
		set_need_resched(true);
		break;
	case CALL_FUNCTION_VECTOR:
		flush_tlb_ipi();
		break;
	case PARK_VECTOR:
		park_this_cpu();
		break;
	case STOP_VECTOR:
		stop_this_cpu();
	default:
		pr_warn("apic: unexpected vector %d on CPU %d\n", vector,
			smp_processor_id());
	}
}

static volatile cpumask_t nmi_backtrace_mask;	/* CPUs yet to show theirs */

void smp_nmi_backtrace(cpumask_t mask)
{
	u64 start = ktime_get_ns();
	int cpu;

	mask &= cpu_online_mask & ~(1UL << smp_processor_id());
	__atomic_store_n(&nmi_backtrace_mask, mask, __ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu)
		if (mask & (1UL << cpu))
			lapic_send_nmi(cpu_data[cpu].apic_id);
	while (__atomic_load_n(&nmi_backtrace_mask, __ATOMIC_ACQUIRE) &&
	       ktime_get_ns() - start < NSEC_PER_SEC)
		cpu_relax();
}

bool nmi_backtrace_handler(struct pt_regs *regs)
{
	int cpu = smp_processor_id();
	struct task_struct *t = cpu_data[cpu].current_task;

	if (!(nmi_backtrace_mask & (1UL << cpu)))
		return false;
	printk(KERN_EMERG "NMI backtrace for CPU %d: %s[%d], interrupts %s\n",
	       cpu, t->comm, t->pid,
	       (regs->rflags & X86_EFLAGS_IF) ? "on" : "off");
	show_regs(regs);
	__atomic_and_fetch(&nmi_backtrace_mask, ~(1UL << cpu),
			   __ATOMIC_SEQ_CST);
	return true;
}
