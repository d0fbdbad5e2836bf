/*
 * cmpxchg(ptr, old, new): if *ptr is old, make it new, atomically (lock
 * cmpxchg); returns what *ptr was, so the exchange happened exactly when
 * that equals old. For "install unless someone else already did".
 */
#ifndef _ASM_X86_CMPXCHG_H
#define _ASM_X86_CMPXCHG_H

#define cmpxchg(ptr, old, new)                                           \
	({                                                               \
		__typeof__(*(ptr)) __seen = (old);                       \
		__atomic_compare_exchange_n((ptr), &__seen, (new), false, \
					    __ATOMIC_SEQ_CST,            \
					    __ATOMIC_SEQ_CST);           \
		__seen;                                                  \
	})

#endif
