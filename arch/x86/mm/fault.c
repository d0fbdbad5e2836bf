/*
 * arch/x86/mm/fault.c: the page fault handler.
 *
 * A fault is either something the kernel can fix (demand paging, copy-on-
 * write, a growing stack: handle_mm_fault) or a bad access: a signal for a
 * user program, a uaccess fixup or an oops for the kernel. The order of the
 * checks is the lesson:
 *   1. Kernel address: user mode -> SIGSEGV; kernel mode -> oops.
 *   2. No VMA covers the address (allowing the stack to grow down): bad.
 *   3. The VMA forbids this access (write to read-only, exec of NX): bad.
 *   4. handle_mm_fault(); OOM or SIGBUS from it are reported.
 * "Bad" is SIGSEGV with si_code SEGV_MAPERR (1) or SEGV_ACCERR (2) in user
 * mode, and the fixup or oops path in kernel mode (a bad user pointer
 * passed to a system call).
 *
 * The error code is x86's (X86_PF_*, asm/traps.h), which is why this file
 * is under arch/: it turns the CPU's report into the generic question
 * handle_mm_fault (mm/memory.c) answers.
 *
 * Roadmap: expand_stack (given); the kernel-mode end, the oops's first
 * lines (show_fault_oops, the boot-traps lab's) and
 * kernelmode_fixup_or_oops (given); then the boot-traps lab's user-side
 * code: bad_area, access_error, fault_error and do_page_fault. Tested by
 * the "fault" self-test (arch/x86/mm/fault_test.c). Linux's
 * do_user_addr_fault is this file's do_page_fault.
 */
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <asm/traps.h>
#include <kernel/uaccess.h>

/*
 * Grow the stack VMA down to cover address, within the stack limit: vma is
 * find_vma()'s answer for address. Returns the VMA that now covers
 * address, or NULL (too far below the stack: a bad access). mmap_lock is
 * held only for read, so two threads may grow it at once: vm_start only
 * ever goes down, under page_table_lock (as Linux 6.1's expand_downwards).
 */
struct vm_area_struct *expand_stack(struct vm_area_struct *vma,
				    unsigned long address)
{
	unsigned long start = address & PAGE_MASK;

	if (!vma || vma->vm_start <= address)
		return vma;
	if (!(vma->vm_flags & VM_GROWSDOWN))
		return NULL;
	if (vma->vm_end - start > current->rlim[RLIMIT_STACK].rlim_cur)
		return NULL;
	spin_lock(&vma->vm_mm->page_table_lock);
	if (start < vma->vm_start)
		vma->vm_start = start;
	spin_unlock(&vma->vm_mm->page_table_lock);
	return vma;
}

/*
 * LAB boot-traps: show_fault_oops starts from this.
 * static void show_fault_oops(struct pt_regs *regs, unsigned long addr)
 * {
 *	printk(KERN_EMERG "BUG: unable to handle page fault for address: "
 *	       "0x%016lx\n", addr);
 * }
 */
/* LAB boot-traps: BEGIN */
/* The oops's first lines: where, and what the error code says. (The
 * handout's first version called this report_kernel_page_fault.) */
static void show_fault_oops(struct pt_regs *regs, unsigned long addr)
{
	unsigned long e = regs->error_code;

	printk(KERN_EMERG "BUG: unable to handle page fault for address: "
	       "0x%016lx\n", addr);
	printk(KERN_EMERG "#PF: %s %s access in %s mode\n",
	       e & X86_PF_USER ? "user" : "supervisor",
	       e & X86_PF_INSTR ? "instruction fetch" :
	       e & X86_PF_WRITE ? "write" : "read",
	       user_mode(regs) ? "user" : "kernel");
	printk(KERN_EMERG "#PF: error_code(0x%04lx) - %s\n", e,
	       e & X86_PF_RSVD ? "reserved bit violation" :
	       e & X86_PF_PROT ? "permissions violation" : "not-present page");
}
/* LAB boot-traps: END */

/* A kernel-mode fault nothing could resolve: a bad user pointer in a
 * uaccess (the exception table sends it to -EFAULT), or a kernel bug.
 * (The boot-traps stub of do_page_fault does not call it yet.) */
static void __maybe_unused kernelmode_fixup_or_oops(struct pt_regs *regs,
				     unsigned long address)
{
	if (fixup_exception(regs))
		return;
	show_fault_oops(regs, address);
	die("page fault", regs);
}

/*
 * LAB boot-traps: do_page_fault starts from this.
 * void do_page_fault(struct pt_regs *regs, unsigned long address)
 * {
 *	die("page fault (do_page_fault is not written yet)", regs);
 * }
 */
/* LAB boot-traps: BEGIN */
/* A bad access: the program's fault (a signal) or the kernel's (a uaccess
 * fixup, or an oops). */
static void bad_area(struct pt_regs *regs, unsigned long address, int code)
{
	if (user_mode(regs))
		force_sig_fault(SIGSEGV, code, address);
	else
		kernelmode_fixup_or_oops(regs, address);
}

/* Does vma forbid the access the error code describes? (Earlier
 * versions had the opposite sense, as access_allowed.) */
static bool access_error(struct vm_area_struct *vma, unsigned long err)
{
	if (err & X86_PF_WRITE)
		return !(vma->vm_flags & VM_WRITE);
	if (err & X86_PF_INSTR)
		return !(vma->vm_flags & VM_EXEC);
	if (err & X86_PF_PROT)	/* a present page we may not read */
		return true;
	return !(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC));
}

/* handle_mm_fault could not resolve an allowed access. */
static void fault_error(struct pt_regs *regs, unsigned long address,
			int fault)
{
	if (!user_mode(regs)) {
		kernelmode_fixup_or_oops(regs, address);
	} else if (fault & VM_FAULT_OOM) {
		pr_err("mm: out of memory: killing %s[%d]\n", current->comm,
		       current->pid);
		force_sig_fault(SIGKILL, SI_KERNEL, address);
	} else if (fault & VM_FAULT_SIGBUS) {
		force_sig_fault(SIGBUS, BUS_ADRERR, address);
	} else {
		force_sig_fault(SIGSEGV, SEGV_MAPERR, address);
	}
}

void do_page_fault(struct pt_regs *regs, unsigned long address)
{
	unsigned long err = regs->error_code;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned int flags = 0;
	int fault;

	/* The kernel half is never a program's, and a reserved bit set in a
	 * page table entry is a corrupt table, not an access to fix. */
	if (address >= TASK_SIZE || !mm || (err & X86_PF_RSVD)) {
		bad_area(regs, address, SEGV_MAPERR);
		return;
	}
	/* Another thread may munmap or mprotect meanwhile: the VMA must
	 * stay as found until handle_mm_fault is done with it. */
	mmap_read_lock(mm);
	vma = expand_stack(find_vma(mm, address), address);
	if (!vma) {
		mmap_read_unlock(mm);
		bad_area(regs, address, SEGV_MAPERR);
		return;
	}
	/* Mapped, but not for this access: "access error". */
	if (access_error(vma, err)) {
		mmap_read_unlock(mm);
		bad_area(regs, address, SEGV_ACCERR);
		return;
	}
	if (err & X86_PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (err & X86_PF_USER)
		flags |= FAULT_FLAG_USER;
	fault = handle_mm_fault(vma, address, flags);
	mmap_read_unlock(mm);
	if (fault & VM_FAULT_ERROR)
		fault_error(regs, address, fault);
}
/* LAB boot-traps: END */
