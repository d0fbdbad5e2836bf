/* Compiler attributes and the small helper macros every file wants. */
#ifndef _KERNEL_COMPILER_H
#define _KERNEL_COMPILER_H

#include <kernel/types.h>

#define __noreturn __attribute__((noreturn))
#define __noinline __attribute__((noinline))
/* The address a function returns to: who called it, for lock reports. */
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
/* An address inside the function this is written in (inlined or not). */
#define _THIS_IP_ ({ __label__ __here; __here: (unsigned long)&&__here; })
/* A report's slow path: kept out of line and out of the hot code. */
#define __cold __attribute__((cold, noinline))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __section(s) __attribute__((section(s)))
/* A kernel stack: a multiple of THREAD_SIZE bytes, THREAD_SIZE aligned. */
#define __stack __attribute__((section(".bss.stack"), aligned(4096)))
#define __used __attribute__((used))
/* No warning when unused: a lab stub may not call it yet. */
#define __maybe_unused __attribute__((unused))
/* A sleep primitive (schedule() and what wraps it): a task's wait channel
 * is the first function on its stack outside these (get_wchan). */
#define __sched __attribute__((section(".sched.text")))
#define __unused __attribute__((unused))
/* A function /proc/trace can show (kernel/trace.c's tables), marked on its
 * declaration, so a lab solution written in its place is marked too. Its
 * first bytes are five nops that kernel/trace.c turns into a call to
 * __fentry__ at boot, as Linux's ftrace does with -pg's calls; and it
 * stays one real function: not inlined, not cloned (a copy would not be
 * seen). Nothing else in its file changes. */
#define __traced __attribute__((patchable_function_entry(5, 0), noipa))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ volatile("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#define offsetof(t, m) __builtin_offsetof(t, m)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define swap(a, b)                         \
	do {                               \
		__typeof__(a) __tmp = (a); \
		(a) = (b);                 \
		(b) = __tmp;               \
	} while (0)

typedef __builtin_va_list va_list;
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(d, s) __builtin_va_copy(d, s)

#endif
