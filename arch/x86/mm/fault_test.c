/*
 * arch/x86/mm/fault_test.c: self-test "fault", the page fault handler's
 * decisions (arch/x86/mm/fault.c, the boot-traps lab).
 *
 * It needs no user program (the boot-traps tree has the page cache and
 * paging still stubbed), so it plays both sides itself:
 *   - user faults: a made-up register frame from user mode with an error
 *     code and an address goes to do_page_fault(), and the test reads the
 *     signal that the handler queued for the task (signal, si_code,
 *     si_addr) and whether it called handle_mm_fault (with which flags);
 *   - kernel faults: copy_from_user/copy_to_user on bad user addresses
 *     take real page faults in kernel mode, which must end in the uaccess
 *     fixup (the copy fails, nothing is queued), not in an oops.
 * The borrowed address space's VMAs use test_vm_ops, whose fault records
 * its flags and fails with VM_FAULT_SIGBUS: a fault that reaches it was
 * judged allowed, and no page is ever mapped (nor is paging's code used).
 * The fault of OOM_VMA fails with VM_FAULT_OOM instead, SEGV_VMA's with
 * VM_FAULT_SIGSEGV.
 *
 * One line per case: "fault_test: ok - GROUP: what" or "fault_test: not
 * ok - GROUP: what (got ..., want ...)"; lab/boot-traps/tests.list
 * grades the groups maperr, accerr, handled and kernel.
 */
#include <kernel/selftest.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <asm/traps.h>
#include <kernel/uaccess.h>
#include <asm/boot.h>
#include <asm/desc.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>

#define RO_VMA 0x400000UL	/* VM_READ */
#define RW_VMA 0x410000UL	/* VM_READ | VM_WRITE */
#define RX_VMA 0x420000UL	/* VM_READ | VM_EXEC */
#define NONE_VMA 0x430000UL	/* PROT_NONE */
#define OOM_VMA 0x440000UL	/* VM_READ | VM_WRITE; ->fault runs out of memory */
#define SEGV_VMA 0x450000UL	/* VM_READ; ->fault says VM_FAULT_SIGSEGV */
#define STACK_VMA 0x40000000UL	/* VM_GROWSDOWN, one page */
#define UNMAPPED 0x600000UL

#define U X86_PF_USER
#define W X86_PF_WRITE
#define P X86_PF_PROT
#define I X86_PF_INSTR
#define R X86_PF_RSVD

static int fault_calls, fault_flags;

/* Records the call; fails as the VMA says: the OOM and SEGV VMAs with
 * their error, every other with VM_FAULT_SIGBUS. */
static int test_fault(struct vm_fault *vmf)
{
	fault_calls++;
	fault_flags = vmf->flags;
	if (vmf->vma->vm_start == OOM_VMA)
		return VM_FAULT_OOM;
	if (vmf->vma->vm_start == SEGV_VMA)
		return VM_FAULT_SIGSEGV;
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct test_vm_ops = {
	.fault = test_fault,
};

struct fault_case {
	const char *what;
	unsigned long addr, err;
	int sig, code;	/* what the program gets; 0: nothing; code -1:
			 * any si_code and si_addr */
	int flags;	/* handle_mm_fault's flags; -1: must not be called */
};

static const struct fault_case user_cases[] = {
	{ "maperr: user read where no VMA is", UNMAPPED + 0x10, U,
	  SIGSEGV, SEGV_MAPERR, -1 },
	{ "maperr: user write to a kernel address", KERNEL_VMA + 0x1008,
	  U | W | P, SIGSEGV, SEGV_MAPERR, -1 },
	{ "maperr: user read of a PTE with a reserved bit", RO_VMA + 0x18,
	  U | R | P, SIGSEGV, SEGV_MAPERR, -1 },
	{ "maperr: user write far below the stack", STACK_VMA -
	  STACK_MAX_SIZE - 0x10000 + 0x28, U | W, SIGSEGV, SEGV_MAPERR, -1 },
	{ "accerr: user write to a read-only VMA", RO_VMA + 0x30, U | W,
	  SIGSEGV, SEGV_ACCERR, -1 },
	{ "accerr: user write to a present read-only page", RO_VMA + 0x38,
	  U | W | P, SIGSEGV, SEGV_ACCERR, -1 },
	{ "accerr: user instruction fetch from a VMA without VM_EXEC",
	  RW_VMA + 0x40, U | I, SIGSEGV, SEGV_ACCERR, -1 },
	{ "accerr: user read of a PROT_NONE VMA", NONE_VMA + 0x48, U,
	  SIGSEGV, SEGV_ACCERR, -1 },
	/* Present pages are readable: a read that still faults on one is
	 * refused, not handed to the VMA (Linux's access_error too). */
	{ "accerr: user read of a present page of a readable VMA",
	  RO_VMA + 0xa0, U | P, SIGSEGV, SEGV_ACCERR, -1 },
	{ "handled: user read of a read-only VMA", RO_VMA + 0x50, U,
	  SIGBUS, BUS_ADRERR, FAULT_FLAG_USER },
	{ "handled: user write to a writable VMA", RW_VMA + 0x58, U | W,
	  SIGBUS, BUS_ADRERR, FAULT_FLAG_USER | FAULT_FLAG_WRITE },
	{ "handled: user instruction fetch from a VM_EXEC VMA", RX_VMA + 0x60,
	  U | I, SIGBUS, BUS_ADRERR, FAULT_FLAG_USER },
	{ "handled: user write just below the stack grows it",
	  STACK_VMA - 0x1000 + 0x68, U | W, SIGBUS, BUS_ADRERR,
	  FAULT_FLAG_USER | FAULT_FLAG_WRITE },
	/* The error code, not the VMA, says whether the access writes. */
	{ "handled: user write to a present page of a writable VMA "
	  "(copy-on-write)", RW_VMA + 0x88, U | W | P, SIGBUS, BUS_ADRERR,
	  FAULT_FLAG_USER | FAULT_FLAG_WRITE },
	{ "handled: user read of a writable VMA", RW_VMA + 0x90, U,
	  SIGBUS, BUS_ADRERR, FAULT_FLAG_USER },
	{ "handled: a fault that runs out of memory kills the task (SIGKILL)",
	  OOM_VMA + 0x98, U | W, SIGKILL, -1,
	  FAULT_FLAG_USER | FAULT_FLAG_WRITE },
	/* VM_FAULT_SIGSEGV is neither SIGBUS nor OOM: SEGV_MAPERR. */
	{ "handled: a fault that says VM_FAULT_SIGSEGV is SIGSEGV (maperr)",
	  SEGV_VMA + 0xa8, U, SIGSEGV, SEGV_MAPERR, FAULT_FLAG_USER },
};

/* The signal do_page_fault queued for us, taken off the queue. */
static int take_signal(int *code, unsigned long *addr)
{
	struct signal_state *s = &current->signal;
	int sig = s->pending ? __builtin_ctzl(s->pending) + 1 : 0;

	if (sig) {
		*code = s->info[sig - 1].si_code;
		*addr = s->info[sig - 1].fault.addr;
	}
	s->pending = 0;
	return sig;
}

static bool report(const char *what, bool ok, const char *fmt, ...)
{
	char why[120] = "";
	va_list ap;

	if (!ok) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	pr_info("fault_test: %sok - %s%s%s%s\n", ok ? "" : "not ", what,
		ok ? "" : " (", why, ok ? "" : ")");
	return ok;
}

static bool run_user_case(const struct fault_case *c)
{
	struct pt_regs regs = {
		.cs = __USER_CS, .ss = __USER_DS, .error_code = c->err,
		.vector = X86_TRAP_PF, .rip = RX_VMA,
	};
	unsigned long addr = 0;
	int sig, code = 0, flags;

	fault_calls = 0;
	fault_flags = -1;
	do_page_fault(&regs, c->addr);
	sig = take_signal(&code, &addr);
	flags = fault_calls ? fault_flags : -1;
	/* The handout asks for FAULT_FLAG_USER and FAULT_FLAG_WRITE; a
	 * solution that also says FAULT_FLAG_INSTRUCTION for a fetch, as
	 * Linux does, is as right. */
	if (flags != -1 && (c->err & X86_PF_INSTR))
		flags &= ~FAULT_FLAG_INSTRUCTION;
	if (c->code == -1) {
		code = -1;
		addr = c->addr;
	}
	return report(c->what, sig == c->sig && code == c->code &&
		      addr == c->addr && flags == c->flags,
		      "got signal %d si_code %d si_addr %#lx, fault flags %d; "
		      "want %d %d %#lx, %d", sig, code, addr, flags, c->sig,
		      c->code, c->addr, c->flags);
}

/* Real faults in kernel mode, through the uaccess functions. */
static int run_kernel_cases(void)
{
	char buf[8] = "pagelab";
	unsigned long addr;
	int failed = 0, code, sig, calls;
	unsigned long left;

	fault_calls = 0;
	left = copy_from_user(buf, (void __user *)(UNMAPPED + 0x70), 8);
	sig = take_signal(&code, &addr);
	failed += !report("kernel: copy_from_user where no VMA is fails",
			  left == 8 && !sig && !fault_calls,
			  "%lu bytes not copied, signal %d, fault calls %d; "
			  "want 8, 0, 0", left, sig, fault_calls);
	/* A kernel thread (no mm) touching a user address: the fault has
	 * no VMA to look in, and must not go looking. */
	{
		struct mm_struct *mm = current->mm;

		current->mm = NULL;
		left = copy_from_user(buf, (void __user *)(UNMAPPED + 0x70), 8);
		current->mm = mm;
	}
	sig = take_signal(&code, &addr);
	failed += !report("kernel: a fault with no mm (a kernel thread) fails "
			  "the copy", left == 8 && !sig && !fault_calls,
			  "%lu bytes not copied, signal %d, fault calls %d; "
			  "want 8, 0, 0", left, sig, fault_calls);
	left = copy_to_user((void __user *)(RO_VMA + 0x78), buf, 8);
	sig = take_signal(&code, &addr);
	failed += !report("kernel: copy_to_user into a read-only VMA fails",
			  left == 8 && !sig && !fault_calls,
			  "%lu bytes not copied, signal %d, fault calls %d; "
			  "want 8, 0, 0", left, sig, fault_calls);
	fault_flags = -1;
	left = copy_to_user((void __user *)(RW_VMA + 0x80), buf, 8);
	sig = take_signal(&code, &addr);
	calls = fault_calls;
	/* At least one call: a copy that faults in its word-at-a-time loop
	 * goes over the rest again a byte at a time to count exactly what
	 * was not copied (as Linux's copy_user_handle_tail does), and may
	 * fault a second time. */
	failed += !report("kernel: copy_to_user whose fault fails (SIGBUS) "
			  "fails", left == 8 && !sig && calls >= 1 &&
			  fault_flags == FAULT_FLAG_WRITE,
			  "%lu bytes not copied, signal %d, fault calls %d "
			  "flags %d; want 8, 0, >= 1, %d", left, sig, calls,
			  fault_flags, FAULT_FLAG_WRITE);
	return failed;
}

static struct mm_struct *borrow_mm(void)
{
	static const struct { unsigned long start, flags; } vmas[] = {
		{ RO_VMA, VM_READ | VM_MAYREAD },
		{ RW_VMA, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE },
		{ RX_VMA, VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC },
		{ NONE_VMA, 0 },
		{ STACK_VMA, VM_READ | VM_WRITE | VM_GROWSDOWN },
		{ OOM_VMA, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE },
		{ SEGV_VMA, VM_READ | VM_MAYREAD },
	};
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma;

	if (!mm)
		return NULL;
	mmap_write_lock(mm);	/* vma_create asserts it */
	for (unsigned int i = 0; i < sizeof(vmas) / sizeof(vmas[0]); i++) {
		vma = vma_create(mm, vmas[i].start, vmas[i].start + PAGE_SIZE,
				 vmas[i].flags);
		if (!vma) {
			mmap_write_unlock(mm);
			mmput(mm);
			return NULL;
		}
		vma->vm_ops = &test_vm_ops;
	}
	mmap_write_unlock(mm);
	current->mm = mm;
	switch_to_mm(mm);
	return mm;
}

static void return_mm(struct mm_struct *mm)
{
	current->mm = NULL;
	switch_to_mm(NULL);
	mmput(mm);
}

static int test_page_faults(void)
{
	struct mm_struct *mm = borrow_mm();
	struct vm_area_struct *stack;
	int failed = 0;

	if (!mm)
		return selftest_fail("no memory for a test address space");
	for (unsigned int i = 0;
	     i < sizeof(user_cases) / sizeof(user_cases[0]); i++)
		failed += !run_user_case(&user_cases[i]);
	mmap_read_lock(mm);
	stack = find_vma(mm, STACK_VMA);
	mmap_read_unlock(mm);
	failed += !report("handled: the stack VMA grew by one page",
			  stack && stack->vm_start == STACK_VMA - PAGE_SIZE,
			  "stack starts at %#lx, want %#lx",
			  stack ? stack->vm_start : 0, STACK_VMA - PAGE_SIZE);
	failed += run_kernel_cases();
	return_mm(mm);
	if (failed)
		return selftest_fail("%d case(s) not ok", failed);
	return 0;
}
DEFINE_SELFTEST(fault, test_page_faults);
