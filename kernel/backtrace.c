/*
 * kernel/backtrace.c: symbolised call traces.
 *
 * The kernel is built with frame pointers: every function starts with
 * push %rbp; mov %rsp,%rbp, so rbp points at {caller's rbp, return address}.
 * Walking that chain gives the callers; kallsyms names them. The walk trusts
 * nothing: a frame must lie inside the stack it started on, be aligned and
 * move towards the stack's base, or the walk stops. Kernel stacks are
 * THREAD_SIZE bytes and THREAD_SIZE aligned, so the bounds come from rbp.
 * walk_stack does the walk for whoever needs the addresses: show_trace
 * prints them, get_wchan (kernel/sched/show.c) looks for the first one
 * outside the sleep primitives.
 */
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/kallsyms.h>
#include <asm/ptrace.h>
#include <asm/processor.h>
#include <mm/mm.h>

#define MAX_FRAMES 32

static void print_address(unsigned long addr, bool return_address)
{
	char buf[KSYM_NAME_LEN + 48];
	unsigned long size, off;
	/* A return address may sit just past the end of its caller (a call
	 * to a noreturn function): look up the call instruction instead. */
	const char *name = kallsyms_lookup(addr - return_address, &size, &off);

	if (!name) {
		printk(KERN_EMERG " ? 0x%lx\n", addr);
		return;
	}
	snprintf(buf, sizeof(buf), "%s+0x%lx/0x%lx", name, off + return_address,
		 size);
	printk(KERN_EMERG " %s\n", buf);
}

void walk_stack(unsigned long rip, unsigned long rbp,
		bool (*fn)(unsigned long addr, bool ret, void *data), void *data)
{
	unsigned long lo = ALIGN_DOWN(rbp, THREAD_SIZE), hi = lo + THREAD_SIZE;
	int n;

	if (rip && !fn(rip, false, data))
		return;
	for (n = 0; n < MAX_FRAMES; n++) {
		unsigned long *frame = (unsigned long *)rbp;
		unsigned long next;

		if (rbp < lo || rbp + 16 > hi || !IS_ALIGNED(rbp, 8) ||
		    rbp < KERNEL_SPACE_START)
			break;
		if (!frame[1] || !fn(frame[1], true, data))
			break;
		next = frame[0];
		if (next <= rbp)	/* must move towards the stack base */
			break;
		rbp = next;
	}
}

static bool print_frame(unsigned long addr, bool ret, void *data)
{
	print_address(addr, ret);
	return true;
}

void show_trace(unsigned long rip, unsigned long rbp)
{
	printk(KERN_EMERG "Call Trace:\n");
	walk_stack(rip, rbp, print_frame, NULL);
}

__noinline void dump_stack(void)
{
	show_trace(0, (unsigned long)__builtin_frame_address(0));
}

static void print_reg_line(const char *a, unsigned long va, const char *b,
			   unsigned long vb, const char *c, unsigned long vc)
{
	printk(KERN_EMERG "%s: %016lx %s: %016lx %s: %016lx\n", a, va, b, vb,
	       c, vc);
}

void show_regs(const struct pt_regs *r)
{
	printk(KERN_EMERG "RIP: %04lx:%pS\n", r->cs, (void *)r->rip);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n", r->ss, r->rsp,
	       r->rflags);
	print_reg_line("RAX", r->rax, "RBX", r->rbx, "RCX", r->rcx);
	print_reg_line("RDX", r->rdx, "RSI", r->rsi, "RDI", r->rdi);
	print_reg_line("RBP", r->rbp, "R08", r->r8, "R09", r->r9);
	print_reg_line("R10", r->r10, "R11", r->r11, "R12", r->r12);
	print_reg_line("R13", r->r13, "R14", r->r14, "R15", r->r15);
	printk(KERN_EMERG "CR0: 0x%016lx CR2: 0x%016lx\n", read_cr0(),
	       read_cr2());
	printk(KERN_EMERG "CR3: 0x%016lx CR4: 0x%016lx\n", read_cr3(),
	       read_cr4());
	if (!user_mode(r))
		show_trace(r->rip, r->rbp);
}
