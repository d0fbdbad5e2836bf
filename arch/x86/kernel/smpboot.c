/*
 * arch/x86/kernel/smpboot.c: starting the other CPUs.
 *
 * Roadmap:
 *   smp_prepare_boot_cpu  the CPUs the ACPI MADT lists, the boot CPU's
 *                     local APIC and the APIC timer's rate
 *   smp_init          the trampoline page and its page table, then each
 *                     other CPU in turn (do_boot_cpu)
 *   do_boot_cpu       an idle task, IST stacks, the trampoline's
 *                     parameters; INIT, then STARTUP twice (the MP
 *                     specification's sequence); wait for it to say so
 *   start_secondary   the new CPU's first C: the kernel's page table, its
 *                     per-CPU area, GDT and TSS, the shared IDT, syscall
 *                     MSRs, FPU, local APIC and timer; online; idle loop
 * maxcpus=N on the command line stops at N CPUs (maxcpus=1: the boot CPU
 * alone, as if QEMU had one).
 */
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <kernel/errno.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <mm/gfp.h>
#include <mm/kstack.h>
#include <mm/mm.h>
#include <mm/pgtable.h>

int nr_cpu_ids = 1;
volatile cpumask_t cpu_online_mask = 1;
static int max_cpus = NR_CPUS;

static int set_maxcpus(const char *val)
{
	char *end;
	unsigned long n = simple_strtoul(val, &end, 10);

	if (*end || n < 1)
		return -EINVAL;
	max_cpus = n < NR_CPUS ? n : NR_CPUS;
	return 0;
}
__setup("maxcpus", set_maxcpus);

__noreturn void smp_cpu_ready(void);	/* kernel/sched/core.c */

__noreturn void start_secondary(struct percpu *p)
{
	write_cr3(virt_to_phys(init_pgd));	/* the identity map goes */
	percpu_init(p);
	cpu_gdt_init(p->cpu, p->ist_df_top, p->ist_nmi_top);
	idt_load();
	syscall_cpu_init();
	__asm__ volatile("fninit");
	lapic_setup();
	__atomic_or_fetch(&cpu_online_mask, 1UL << p->cpu, __ATOMIC_SEQ_CST);
	smp_cpu_ready();	/* the idle loop; does not return */
}

/* The trampoline's page table: its own page at its own address (2 MiB
 * identity), and the kernel's half of init_pgd. Three pages, below 4 GiB
 * since real mode loads a 32-bit CR3. */
static pte_t *tramp_pgd, *tramp_pud, *tramp_pmd;

static bool trampoline_tables(void)
{
	tramp_pgd = (pte_t *)get_zeroed_page(GFP_KERNEL);
	tramp_pud = (pte_t *)get_zeroed_page(GFP_KERNEL);
	tramp_pmd = (pte_t *)get_zeroed_page(GFP_KERNEL);
	if (!tramp_pgd || !tramp_pud || !tramp_pmd ||
	    virt_to_phys(tramp_pgd) >= (1UL << 32))
		return false;
	memcpy(tramp_pgd + PTRS_PER_TABLE / 2, init_pgd + PTRS_PER_TABLE / 2,
	       PAGE_SIZE / 2);
	tramp_pgd[0] = virt_to_phys(tramp_pud) | _PAGE_PRESENT | _PAGE_RW;
	tramp_pud[0] = virt_to_phys(tramp_pmd) | _PAGE_PRESENT | _PAGE_RW;
	tramp_pmd[0] = 0 | _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE;
	return true;
}

static void free_trampoline_tables(void)
{
	free_page((unsigned long)tramp_pgd);
	free_page((unsigned long)tramp_pud);
	free_page((unsigned long)tramp_pmd);
}

static void fill_params(struct percpu *p)
{
	struct trampoline_params *tp = phys_to_virt(
		TRAMPOLINE_PHYS + (tr_params - trampoline_start));

	tp->cr0 = read_cr0();
	tp->cr3 = virt_to_phys(tramp_pgd);
	tp->cr4 = read_cr4();
	tp->efer = rdmsr(MSR_EFER);
	tp->stack = p->kernel_sp;
	tp->entry = (u64)start_secondary;
	tp->percpu = (u64)p;
}

static bool wait_online(int cpu, u64 ms)
{
	u64 start = ktime_get_ns();

	while (!(cpu_online_mask & (1UL << cpu)))
		if (ktime_get_ns() - start > ms * 1000000)
			return false;
	return true;
}

static bool do_boot_cpu(int cpu, u32 apic_id)
{
	struct percpu *p = &cpu_data[cpu];
	struct task_struct *idle = fork_idle(cpu);
	void *df = alloc_kernel_stack(), *nmi = alloc_kernel_stack();

	if (!idle || !df || !nmi) {
		pr_err("smp: no memory for CPU %d\n", cpu);
		return false;	/* a boot-time leak of a few pages */
	}
	*p = (struct percpu){ .self = p, .current_task = idle, .cpu = cpu,
			      .apic_id = apic_id, .idle = idle };
	p->kernel_sp = (unsigned long)idle->stack + THREAD_SIZE;
	p->ist_df_top = (unsigned long)df + THREAD_SIZE;
	p->ist_nmi_top = (unsigned long)nmi + THREAD_SIZE;
	fill_params(p);
	lapic_send_init(apic_id);
	ndelay_ns(10 * 1000 * 1000);
	for (int i = 0; i < 2 && !(cpu_online_mask & (1UL << cpu)); i++) {
		lapic_send_startup(apic_id, TRAMPOLINE_PHYS);
		ndelay_ns(200 * 1000);
	}
	if (!wait_online(cpu, 2000)) {
		pr_err("smp: CPU %d (APIC %u) did not start\n", cpu, apic_id);
		return false;
	}
	return true;
}

static u32 cpu_apic_ids[NR_CPUS];
static int nr_cpus_found;

/* start_kernel, on the boot CPU: its local APIC, and the CPUs there are. */
void smp_prepare_boot_cpu(void)
{
	nr_cpus_found = acpi_find_cpus(cpu_apic_ids, NR_CPUS);
	if (!lapic_map()) {
		nr_cpus_found = 0;
		return;
	}
	boot_cpu.apic_id = lapic_id();
	lapic_setup();
	if (nr_cpus_found > 1 && max_cpus > 1)
		lapic_timer_calibrate();
}

/*
 * From pid 1, once the initcalls and self-tests are done (Linux starts
 * them before: here drivers set up, and the self-tests that count on
 * one CPU run, as before SMP).
 */
void smp_init(void)
{
	int n = nr_cpus_found, cpu = 1;
	u32 *ids = cpu_apic_ids;
	static bool done;	/* a self-test may have started them */

	if (done)
		return;
	done = true;
	if (n <= 1 || max_cpus == 1) {
		pr_info("smp: one CPU\n");
		return;
	}
	if (!trampoline_tables()) {
		pr_err("smp: no memory for the trampoline; one CPU\n");
		return;
	}
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), trampoline_start,
	       trampoline_end - trampoline_start);
	for (int i = 0; i < n && cpu < max_cpus; i++) {
		if (ids[i] == boot_cpu.apic_id)
			continue;
		if (do_boot_cpu(cpu, ids[i]))
			cpu++;
	}
	free_trampoline_tables();
	nr_cpu_ids = cpu;
	pr_info("smp: brought up %d CPUs\n", num_online_cpus());
}
