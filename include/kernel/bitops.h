/* Atomic bit operations on unsigned long words (lock-prefixed, SMP-safe). */
#ifndef _KERNEL_BITOPS_H
#define _KERNEL_BITOPS_H

#include <kernel/types.h>

static inline void set_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST);
}

static inline void clear_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST);
}

static inline bool test_bit(int nr, const volatile unsigned long *addr)
{
	return (*addr >> nr) & 1;
}

static inline bool test_and_set_bit(int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST) >> nr) & 1;
}

static inline bool test_and_clear_bit(int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST) >> nr) &
	       1;
}

#endif
