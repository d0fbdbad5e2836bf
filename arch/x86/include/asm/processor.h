/* Control registers, MSRs, CPUID and interrupt-flag helpers. */
#ifndef _ASM_PROCESSOR_H
#define _ASM_PROCESSOR_H

#include <kernel/types.h>

#define X86_CR0_WP (1UL << 16)
#define X86_CR0_PG (1UL << 31)
#define X86_CR4_PAE (1UL << 5)
#define X86_CR4_PGE (1UL << 7)
#define X86_CR4_OSFXSR (1UL << 9)
#define X86_CR4_SMEP (1UL << 20)
#define X86_CR4_SMAP (1UL << 21)

#define MSR_EFER 0xc0000080
#define EFER_SCE (1UL << 0)
#define EFER_NX (1UL << 11)
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_SYSCALL_MASK 0xc0000084
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

#define X86_EFLAGS_IF (1UL << 9)
#define X86_EFLAGS_AC (1UL << 18)

/*
 * SMAP: with CR4.SMAP on, the kernel faults on user pages unless RFLAGS.AC is
 * set. user_access_begin/end set and clear it around the deliberate accesses
 * (arch/x86/lib/usercopy.c), so a stray dereference of a user pointer anywhere
 * else oopses instead of silently working.
 */
extern bool smap_enabled;

static inline void user_access_begin(void)
{
	if (smap_enabled)
		__asm__ volatile("stac" ::: "memory");
}

static inline void user_access_end(void)
{
	if (smap_enabled)
		__asm__ volatile("clac" ::: "memory");
}

#define DEFINE_READ_CR(n)                                              \
	static inline unsigned long read_cr##n(void)                   \
	{                                                              \
		unsigned long v;                                       \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));      \
		return v;                                              \
	}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)

static inline void write_cr3(unsigned long v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void write_cr4(unsigned long v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid"
			 : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			 : "a"(leaf), "c"(sub));
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline void local_irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline void local_irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline unsigned long local_save_flags(void)
{
	unsigned long f;

	__asm__ volatile("pushf; pop %0" : "=r"(f) : : "memory");
	return f;
}

static inline bool irqs_disabled(void)
{
	return !(local_save_flags() & X86_EFLAGS_IF);
}

/* Disable interrupts, returning whether they were on (for restore). */
static inline unsigned long local_irq_save(void)
{
	unsigned long f = local_save_flags();

	local_irq_disable();
	return f;
}

static inline void local_irq_restore(unsigned long f)
{
	if (f & X86_EFLAGS_IF)
		local_irq_enable();
}

static inline void halt(void)
{
	__asm__ volatile("hlt" ::: "memory");
}

static inline void invlpg(unsigned long addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

#endif
