/*
 * Declaring system calls. A file that implements a call declares it where
 * it lives, Linux-style:
 *
 *	SYSCALL_DEFINE3(read, int, fd, char __user *, buf, size_t, count)
 *	{
 *		...return bytes or a negative errno...
 *	}
 *
 * The macro emits the function and an entry in the .syscalls section;
 * syscall_init() builds sys_call_table from those entries, so there is no
 * central table to edit (and two definitions of one number are caught at
 * boot). Arguments come from the saved registers in the x86-64 order:
 * rdi, rsi, rdx, r10, r8, r9.
 */
#ifndef _KERNEL_SYSCALLS_H
#define _KERNEL_SYSCALLS_H

#include <kernel/compiler.h>
#include <uapi/unistd.h>
#include <asm/ptrace.h>

#define __user	/* marks user-space pointers; see <kernel/uaccess.h> */

typedef long (*syscall_fn_t)(struct pt_regs *regs);

struct syscall_entry {
	unsigned int nr;
	const char *name;
	syscall_fn_t fn;
};

#define __SYSCALL_ENTRY(name)                                              \
	static const struct syscall_entry __sysent_##name __used             \
		__section(".syscalls") __aligned(8) = { __NR_##name, #name,  \
							__se_sys_##name }

#define SYSCALL_DEFINE0(name)                                              \
	static long __do_sys_##name(void);                                 \
	static long __se_sys_##name(struct pt_regs *regs)                  \
	{                                                                  \
		return __do_sys_##name();                                  \
	}                                                                  \
	__SYSCALL_ENTRY(name);                                             \
	static long __do_sys_##name(void)

#define SYSCALL_DEFINE1(name, t1, a1)                                      \
	static long __do_sys_##name(t1 a1);                                \
	static long __se_sys_##name(struct pt_regs *regs)                  \
	{                                                                  \
		return __do_sys_##name((t1)regs->rdi);                     \
	}                                                                  \
	__SYSCALL_ENTRY(name);                                             \
	static long __do_sys_##name(t1 a1)

#define SYSCALL_DEFINE2(name, t1, a1, t2, a2)                              \
	static long __do_sys_##name(t1 a1, t2 a2);                         \
	static long __se_sys_##name(struct pt_regs *regs)                  \
	{                                                                  \
		return __do_sys_##name((t1)regs->rdi, (t2)regs->rsi);      \
	}                                                                  \
	__SYSCALL_ENTRY(name);                                             \
	static long __do_sys_##name(t1 a1, t2 a2)

#define SYSCALL_DEFINE3(name, t1, a1, t2, a2, t3, a3)                      \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3);                  \
	static long __se_sys_##name(struct pt_regs *regs)                  \
	{                                                                  \
		return __do_sys_##name((t1)regs->rdi, (t2)regs->rsi,       \
				       (t3)regs->rdx);                     \
	}                                                                  \
	__SYSCALL_ENTRY(name);                                             \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3)

#define SYSCALL_DEFINE4(name, t1, a1, t2, a2, t3, a3, t4, a4)              \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4);           \
	static long __se_sys_##name(struct pt_regs *regs)                  \
	{                                                                  \
		return __do_sys_##name((t1)regs->rdi, (t2)regs->rsi,       \
				       (t3)regs->rdx, (t4)regs->r10);      \
	}                                                                  \
	__SYSCALL_ENTRY(name);                                             \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4)

#define SYSCALL_DEFINE5(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)      \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5);    \
	static long __se_sys_##name(struct pt_regs *regs)                  \
	{                                                                  \
		return __do_sys_##name((t1)regs->rdi, (t2)regs->rsi,       \
				       (t3)regs->rdx, (t4)regs->r10,       \
				       (t5)regs->r8);                      \
	}                                                                  \
	__SYSCALL_ENTRY(name);                                             \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5)

#define SYSCALL_DEFINE6(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5,      \
				    t6 a6);                                 \
	static long __se_sys_##name(struct pt_regs *regs)                   \
	{                                                                   \
		return __do_sys_##name((t1)regs->rdi, (t2)regs->rsi,        \
				       (t3)regs->rdx, (t4)regs->r10,        \
				       (t5)regs->r8, (t6)regs->r9);         \
	}                                                                   \
	__SYSCALL_ENTRY(name);                                              \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6)

void syscall_init(void);
void syscall_cpu_init(void);	/* this CPU's MSRs */

#endif
