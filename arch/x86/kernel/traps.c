/*
 * arch/x86/kernel/traps.c: what happens on a CPU exception.
 *
 * do_interrupt() is the one C entry from entry.S: vectors 0-31 are
 * exceptions, 32-47 device IRQs, the rest unexpected. An exception in kernel
 * mode is a kernel bug (until copy_from_user and friends arrive with their
 * fixup table): die() prints the exception, the registers and a symbolised
 * call trace, then panics. A page fault goes to do_page_fault
 * (arch/x86/mm/fault.c), which ends a kernel-mode fault it cannot resolve
 * with a uaccess fixup or, through die(), an oops.
 */
#include <kernel/preempt.h>
#include <mm/kstack.h>
#include <mm/mmdebug.h>
#include <mm/pgtable.h>
#include <asm/traps.h>
#include <kernel/irq.h>
#include <kernel/kallsyms.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/smp.h>
#include <kernel/uaccess.h>
#include <asm/apic.h>
#include <asm/processor.h>

static const char *const exception_names[32] = {
	[X86_TRAP_DE] = "divide error",
	[X86_TRAP_DB] = "debug",
	[X86_TRAP_NMI] = "non-maskable interrupt",
	[X86_TRAP_BP] = "int3",
	[X86_TRAP_OF] = "overflow",
	[X86_TRAP_BR] = "bounds",
	[X86_TRAP_UD] = "invalid opcode",
	[X86_TRAP_NM] = "device not available",
	[X86_TRAP_DF] = "double fault",
	[X86_TRAP_TS] = "invalid TSS",
	[X86_TRAP_NP] = "segment not present",
	[X86_TRAP_SS] = "stack segment",
	[X86_TRAP_GP] = "general protection fault",
	[X86_TRAP_PF] = "page fault",
	[X86_TRAP_MF] = "coprocessor error",
	[X86_TRAP_AC] = "alignment check",
	[X86_TRAP_MC] = "machine check",
	[X86_TRAP_XF] = "SIMD exception",
};

static int die_count;

__noreturn void die(const char *what, struct pt_regs *regs)
{
	oops_in_progress = true;
	printk(KERN_EMERG "Oops: %s (vector %lu), error_code 0x%lx [#%d]\n",
	       what, regs->vector, regs->error_code, ++die_count);
	show_regs(regs);
	printk(KERN_EMERG "---[ end trace ]---\n");
	panic("Fatal exception");
}

/* A CPU exception in user mode becomes a signal to the task. */
static void user_exception(struct pt_regs *regs)
{
	switch (regs->vector) {
	case X86_TRAP_DE:
		force_sig_fault(SIGFPE, FPE_INTDIV, regs->rip);
		break;
	case X86_TRAP_MF:
	case X86_TRAP_XF:
		force_sig_fault(SIGFPE, 0, regs->rip);
		break;
	case X86_TRAP_UD:
		force_sig_fault(SIGILL, ILL_ILLOPN, regs->rip);
		break;
	case X86_TRAP_BP:
	case X86_TRAP_DB:
		force_sig_fault(SIGTRAP, SI_KERNEL, regs->rip);
		break;
	case X86_TRAP_AC:
		force_sig_fault(SIGBUS, BUS_ADRALN, 0);
		break;
	default:	/* #GP and friends: Linux says SIGSEGV, SI_KERNEL */
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	}
}

/*
 * A kernel access to a page that is free: debug_pagealloc took it out of
 * the direct map when it was freed (arch/x86/mm/pgtable.c). Said here,
 * before the fault handler (a lab's do_page_fault), with the page's
 * history: where it was allocated and freed, its last references.
 */
static bool first_return_address(unsigned long addr, bool ret, void *data)
{
	*(unsigned long *)data = addr;
	return false;
}

/*
 * Who called the function that faulted: a function without a frame of
 * its own (memcpy and memset, which are rep string instructions, do not
 * start with push %rbp) has its return address on top of the stack; one
 * with a frame, at rbp + 8 (the first return address up the chain).
 */
static unsigned long caller_of(struct pt_regs *regs)
{
	unsigned long size, off, caller = 0;
	unsigned long lo = ALIGN_DOWN(regs->rsp, THREAD_SIZE);

	if (!kallsyms_lookup(regs->rip, &size, &off))
		return 0;
	if (*(unsigned char *)(regs->rip - off) != 0x55) {	/* push %rbp */
		if (regs->rsp >= KERNEL_SPACE_START &&
		    regs->rsp + 8 <= lo + THREAD_SIZE)
			caller = *(unsigned long *)regs->rsp;
		return caller;
	}
	walk_stack(0, regs->rbp, first_return_address, &caller);
	return caller;
}

static void report_freed_page_access(struct pt_regs *regs, unsigned long cr2)
{
	unsigned long pfn, caller = 0;

	if (user_mode(regs) || !kernel_page_unmapped(cr2, &pfn))
		return;
	oops_in_progress = true;
	console_loglevel = 15;
	/* The access is often in memcpy or memset: the function that called
	 * it is the one that used the page. */
	caller = caller_of(regs);
	printk(KERN_EMERG "BUG: use of a freed page: %s at 0x%lx (pfn 0x%lx, "
	       "offset %lu) by %pS, called from %pS\n",
	       regs->error_code & X86_PF_WRITE ? "write" : "read", cr2, pfn,
	       cr2 & (PAGE_SIZE - 1), (void *)regs->rip, (void *)caller);
	dump_page(pfn_to_page(pfn), "use after free (debug_pagealloc)");
	die("use of a freed page", regs);
}

static void do_exception(struct pt_regs *regs, unsigned long cr2)
{
	const char *name = exception_names[regs->vector];

	if (regs->vector == X86_TRAP_PF) {
		report_freed_page_access(regs, cr2);
		do_page_fault(regs, cr2);
		return;
	}
	if (user_mode(regs) && regs->vector != X86_TRAP_DF &&
	    regs->vector != X86_TRAP_MC && regs->vector != X86_TRAP_NMI) {
		user_exception(regs);
		return;
	}
	/* A push into the guard below a kernel stack faulted, and so did
	 * pushing that fault's frame: say what it was (mm/kstack.c). */
	if (regs->vector == X86_TRAP_DF && in_kstack_guard(read_cr2()))
		printk(KERN_EMERG "BUG: kernel stack overflow: %s[%d] ran off "
		       "its stack 0x%lx-0x%lx (fault at 0x%lx, rsp 0x%lx)\n",
		       current->comm, current->pid,
		       (unsigned long)current->stack,
		       (unsigned long)current->stack + THREAD_SIZE, read_cr2(),
		       regs->rsp);
	die(name ? name : "reserved exception", regs);
}


void do_interrupt(struct pt_regs *regs)
{
	/* An interrupted uaccess had AC set: not for the handler (iretq
	 * restores it). */
	user_access_end();
	/* Another CPU asked where this one is (smp_nmi_backtrace). */
	if (regs->vector == X86_TRAP_NMI && nmi_backtrace_handler(regs))
		return;
	if (regs->vector < 32) {
		/* CR2 first, while interrupts are still off: once they are
		 * on, a tick may preempt us, and the next task's page fault
		 * would overwrite it. */
		unsigned long cr2 = read_cr2();

		/* Exceptions may sleep (a fault reading a page): allow
		 * interrupts again if the interrupted code had them. */
		if (regs->rflags & X86_EFLAGS_IF)
			local_irq_enable();
		do_exception(regs, cr2);
		local_irq_disable();
	} else if (regs->vector < IRQ_BASE + NR_IRQS) {
		irq_enter();	/* no sleeping in a handler */
		handle_irq(regs->vector - IRQ_BASE, regs);
		irq_exit();
	} else if (regs->vector >= LOCAL_TIMER_VECTOR) {
		irq_enter();
		handle_apic_interrupt(regs->vector);
		irq_exit();
	} else {
		pr_warn("irq: unexpected interrupt on vector %lu\n",
			regs->vector);
	}
	if (user_mode(regs))
		exit_to_user_mode(regs);
	else if ((regs->rflags & X86_EFLAGS_IF) &&
		 regs->vector != X86_TRAP_NMI && regs->vector != X86_TRAP_MC)
		preempt_schedule_irq();	/* never from an NMI or #MC */
}
