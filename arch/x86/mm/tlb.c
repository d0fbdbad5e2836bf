/*
 * arch/x86/mm/tlb.c: flushing translations on every CPU that may hold them.
 *
 * Each mm keeps the set of CPUs that have its page table loaded
 * (mm->cpu_mask, kept by switch_mm_cpu: a CPU joins before it loads CR3
 * and leaves after it loaded another, so the set is never short). A flush
 * of mm's range is done here with invlpg, and on every other CPU in the
 * set by a shoot-down: the request goes in flush_req, the CPUs in
 * flush_pending, an IPI to each; each does the flush in its handler and
 * clears its bit; the sender waits for none left. One request at a time
 * (flush_lock). Kernel ranges (a freed kernel stack) go to every CPU.
 *
 * A page a PTE held is freed only after that flush: zap_pte hands its
 * reference to tlb_put_page, which keeps it on the task until the task's
 * next flush (every path that clears PTEs flushes after), so a thread
 * still storing through a stale TLB entry on another CPU never writes
 * into a freed page.
 *
 * Why waiting cannot deadlock: the sender waits with interrupts on
 * (checked), so a CPU that sends while another's request is out takes
 * that IPI while it spins on flush_lock; a CPU that never turns
 * interrupts on for that long would be a bug in itself.
 */
#include <asm/apic.h>
#include <asm/processor.h>
#include <asm/tlbflush.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <mm/mm_types.h>
#include <mm/pgtable.h>
#include <mm/gfp.h>
#include <mm/mm.h>

#define FLUSH_ALL_THRESHOLD 64	/* pages: past this, reload CR3 */

struct flush_request {
	struct mm_struct *mm;	/* NULL: a kernel range */
	unsigned long start, end;	/* end 0: the whole mm, or everything */
};

static DEFINE_SPINLOCK(flush_lock);
static struct flush_request flush_req;
static volatile cpumask_t flush_pending;

/* The mm whose tables this CPU has loaded (NULL: the kernel's). */
static struct mm_struct *loaded_mm[NR_CPUS];

static void local_flush(const struct flush_request *r)
{
	/* Kernel pages are global (CR4.PGE): a CR3 reload keeps them, a
	 * toggle of PGE drops them too. */
	if (!r->mm && !r->end) {
		unsigned long cr4 = read_cr4();

		write_cr4(cr4 & ~X86_CR4_PGE);
		write_cr4(cr4);
		return;
	}
	if (r->mm && (!r->end || r->end - r->start >
				 FLUSH_ALL_THRESHOLD * PAGE_SIZE)) {
		write_cr3(read_cr3());
		return;
	}
	for (unsigned long a = r->start; a < r->end; a += PAGE_SIZE)
		invlpg(a);
}

/* Does r concern cpu's TLB? A kernel range concerns every CPU; an mm's,
 * only a CPU that has it loaded (a switch away flushed the rest). */
static bool flush_here(const struct flush_request *r, int cpu)
{
	return !r->mm || loaded_mm[cpu] == r->mm;
}

/* From the IPI: do our part of the request out, if it is ours. */
void flush_tlb_ipi(void)
{
	int cpu = smp_processor_id();
	cpumask_t bit = 1UL << cpu;

	if (!(flush_pending & bit))
		return;
	if (flush_here(&flush_req, cpu))
		local_flush(&flush_req);
	__atomic_and_fetch(&flush_pending, ~bit, __ATOMIC_SEQ_CST);
}

static __cold __noreturn void flush_irqs_off_bug(void)
{
	panic("BUG: TLB shoot-down with interrupts off: another CPU waiting "
	      "for ours would wait forever (was a spinlock taken with "
	      "spin_lock_irqsave around this PTE change?)");
}

/*
 * A CPU that never answers a shoot-down has interrupts off for good: a
 * deadlock (it spins, interrupts off, for a lock whose holder waits here),
 * and nothing would ever say so (the boot CPU's tick stops with it, and
 * so does the console's sysrq). After a second the sender says which CPU
 * and what it runs; after tlb_stall_timeout= seconds (10) an NMI shows
 * that CPU's backtrace, and the kernel panics.
 */
static unsigned long stall_timeout = 10;

static int set_stall_timeout(const char *val)
{
	char *end;

	stall_timeout = simple_strtoul(val, &end, 10);
	return *end || !stall_timeout ? -EINVAL : 0;
}
__setup("tlb_stall_timeout", set_stall_timeout);

static void flush_late(cpumask_t want, u64 waited, bool *said)
{
	if (!*said) {
		pr_err("tlb: a shoot-down has waited a second for CPUs %#lx\n",
		       want);
		smp_report_late(want, 0, "a TLB shoot-down");
		*said = true;	/* said once; keep waiting */
	}
	if (waited < stall_timeout * NSEC_PER_SEC)
		return;
	oops_in_progress = true;	/* the console may be held there */
	smp_nmi_backtrace(want);
	panic("tlb: a shoot-down waited %lu s for CPUs %#lx, which do not "
	      "answer (their backtraces above say where they are, and "
	      "whether interrupts are off there)", stall_timeout, want);
}

static void flush_others(cpumask_t mask, const struct flush_request *r)
{
	bool late = false;
	u64 start, waited;
	int cpu;

	if (irqs_disabled())
		flush_irqs_off_bug();
	spin_lock(&flush_lock);
	flush_req = *r;
	__atomic_store_n(&flush_pending, mask, __ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu)
		if (mask & (1UL << cpu))
			lapic_send_ipi(cpu_data[cpu].apic_id,
				       CALL_FUNCTION_VECTOR);
	start = ktime_get_ns();
	while (__atomic_load_n(&flush_pending, __ATOMIC_ACQUIRE)) {
		waited = ktime_get_ns() - start;
		if (waited > NSEC_PER_SEC)
			flush_late(flush_pending, waited, &late);
		cpu_relax();
	}
	spin_unlock(&flush_lock);
}

/* The pages this task's cleared PTEs held: the flush is done. */
static void release_pending(void)
{
	struct task_struct *t = current;

	while (t->nr_tlb_pending)
		put_page(t->tlb_pending[--t->nr_tlb_pending]);
}

/* Flush r here and on every other CPU it concerns; then the pages this
 * task's cleared PTEs held may go. */
static void flush(const struct flush_request *r)
{
	cpumask_t others;
	int me;

	preempt_disable();	/* "this CPU" stays this CPU */
	me = smp_processor_id();
	if (flush_here(r, me))
		local_flush(r);
	/* The PTE change before the read of the set (a CPU joining after
	 * this loads CR3 after the change, and caches only the new PTE). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	others = (r->mm ? r->mm->cpu_mask : cpu_online_mask) & ~(1UL << me);
	if (others)
		flush_others(others, r);
	preempt_enable();
	current->nr_tlb_unflushed = 0;
	release_pending();
}

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
			   unsigned long end)
{
	flush(&(struct flush_request){ mm, start, end });
}

void tlb_put_page(struct page *page)
{
	struct task_struct *t = current;

	t->nr_tlb_unflushed++;
	/* One CPU: the caller's flush is the whole flush. Or the task
	 * unmaps its own memory and no other task uses the mm: no other
	 * thread can store through a stale entry, on any CPU, and the
	 * task itself reaches none before its flush, done before it
	 * returns to user space (a CPU it left still holding the mm runs
	 * nothing there). So the page may go now, as Linux frees a
	 * single-threaded exit's pages without a shoot-down. */
	if (num_online_cpus() == 1 || t->tlb_free_now) {
		put_page(page);
		return;
	}
	if (t->nr_tlb_pending == ARRAY_SIZE(t->tlb_pending))
		flush_tlb_kernel_all();	/* every TLB on every CPU; releases */
	t->tlb_pending[t->nr_tlb_pending++] = page;
}

bool tlb_batch_full(void)
{
	struct task_struct *t = current;

	return t->nr_tlb_pending == ARRAY_SIZE(t->tlb_pending);
}

void flush_tlb_page(struct vm_area_struct *vma, unsigned long address)
{
	flush_tlb_mm_range(vma->vm_mm, address, address + PAGE_SIZE);
}

void flush_tlb_range(struct vm_area_struct *vma, unsigned long start,
		     unsigned long end)
{
	flush_tlb_mm_range(vma->vm_mm, start, end);
}

void flush_tlb_mm(struct mm_struct *mm)
{
	flush_tlb_mm_range(mm, 0, 0);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	flush(&(struct flush_request){ NULL, start, end });
}

void flush_tlb_kernel_all(void)
{
	flush(&(struct flush_request){ NULL, 0, 0 });
}

/*
 * Load mm's page table here (NULL: the kernel's alone). The CPU joins
 * mm's set before it can cache a translation, and leaves the old mm's
 * only after CR3 no longer points at it.
 */
void switch_to_mm(struct mm_struct *mm)
{
	int cpu;
	struct mm_struct *prev;
	unsigned long pa = virt_to_phys(mm ? mm->pgd : init_pgd);

	preempt_disable();
	cpu = smp_processor_id();
	prev = loaded_mm[cpu];
	if (mm)
		__atomic_or_fetch(&mm->cpu_mask, 1UL << cpu, __ATOMIC_SEQ_CST);
	loaded_mm[cpu] = mm;
	if (read_cr3() != pa)
		write_cr3(pa);
	if (prev && prev != mm)
		__atomic_and_fetch(&prev->cpu_mask, ~(1UL << cpu),
				   __ATOMIC_SEQ_CST);
	preempt_enable_no_resched();
}
