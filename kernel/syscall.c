/*
 * kernel/syscall.c: dispatch a system call.
 *
 * sys_call_table is filled at boot from the entries SYSCALL_DEFINEn leaves
 * in the .syscalls section. A number without an entry returns -ENOSYS and
 * is counted (and logged once per number), never more.
 */
#include <kernel/syscalls.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/vmstat.h>
#include <asm/desc.h>
#include <asm/processor.h>

extern const struct syscall_entry __syscalls_start[], __syscalls_end[];
void entry_SYSCALL_64(void);

/* syscall_64.S hard-codes these offsets for its sysret path. */
_Static_assert(offsetof(struct pt_regs, r11) == 48, "PT_R11");
_Static_assert(offsetof(struct pt_regs, rcx) == 88, "PT_RCX");
_Static_assert(offsetof(struct pt_regs, rip) == 136, "PT_RIP");
_Static_assert(offsetof(struct pt_regs, rflags) == 152, "PT_RFLAGS");
_Static_assert(offsetof(struct pt_regs, rsp) == 160, "PT_RSP");

static const struct syscall_entry *sys_call_table[NR_syscalls];
static unsigned char enosys_logged[NR_syscalls];

void syscall_init(void)
{
	const struct syscall_entry *e;
	int n = 0;

	for (e = __syscalls_start; e < __syscalls_end; e++, n++) {
		if (e->nr >= NR_syscalls)
			panic("syscall %s: number %u out of range", e->name,
			      e->nr);
		if (sys_call_table[e->nr])
			panic("syscall %u defined twice: %s and %s", e->nr,
			      sys_call_table[e->nr]->name, e->name);
		sys_call_table[e->nr] = e;
	}
	syscall_cpu_init();
	pr_info("syscall: %d system calls\n", n);
}

/* This CPU's syscall MSRs (every CPU has its own). */
void syscall_cpu_init(void)
{
	/* sysret/syscall selectors: see <asm/desc.h> */
	wrmsr(MSR_STAR, ((u64)(__USER32_CS & ~3) << 48) |
				((u64)__KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (unsigned long)entry_SYSCALL_64);
	/* Enter with interrupts, direction, trap and AC (SMAP) flags off. */
	wrmsr(MSR_SYSCALL_MASK,
	      X86_EFLAGS_IF | X86_EFLAGS_AC | (1 << 10) | (1 << 8));
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}

static long unknown_syscall(unsigned long nr)
{
	count_vm_event(NR_SYSCALLS_UNKNOWN);
	if (nr < NR_syscalls && !enosys_logged[nr]++)
		pr_info("syscall: %s[%d] called unimplemented syscall %lu\n",
			current->comm, current->pid, nr);
	return -ENOSYS;
}

void do_syscall_64(struct pt_regs *regs)
{
	unsigned long nr = regs->error_code;

	if (nr < NR_syscalls && sys_call_table[nr])
		regs->rax = sys_call_table[nr]->fn(regs);
	else
		regs->rax = unknown_syscall(nr);
	exit_to_user_mode(regs);
}

/* The name of a syscall number, for traces. */
const char *syscall_name(unsigned long nr)
{
	return nr < NR_syscalls && sys_call_table[nr] ?
		       sys_call_table[nr]->name : "?";
}
