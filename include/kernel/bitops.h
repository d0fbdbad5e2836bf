/*
 * Atomic bit operations (lock-prefixed, SMP-safe) on a bitmap: an array
 * of unsigned long words, bit nr in word nr / BITS_PER_LONG, as Linux's.
 * (They once read addr[0] only: x86 takes a shift count modulo 64, so
 * bit 64 was bit 0 again, and mm/kstack.c's 1024 stack slots were 64.)
 */
#ifndef _KERNEL_BITOPS_H
#define _KERNEL_BITOPS_H

#include <kernel/types.h>

#define BITS_PER_LONG 64
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return addr[BIT_WORD(nr)] & BIT_MASK(nr);
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

#endif
