/*
 * Fatal errors. panic() is for broken kernel invariants: it prints the
 * message and a symbolised backtrace and halts. BUG_ON/WARN_ON check
 * invariants in place; WARN_ON only logs, with a backtrace.
 */
#ifndef _KERNEL_PANIC_H
#define _KERNEL_PANIC_H

#include <kernel/compiler.h>

struct pt_regs;

__noreturn __printf(1, 2) void panic(const char *fmt, ...);
extern bool oops_in_progress;
extern bool in_panic;

/* Print registers and the call trace of an exception frame. */
void show_regs(const struct pt_regs *regs);
/* Print the call trace starting at the caller. */
void dump_stack(void);
/* Print the call trace from a code address and a frame pointer. */
void show_trace(unsigned long rip, unsigned long rbp);
/* The same walk without the printing: fn(addr, ret, data) for rip (if
 * non-zero; ret false) and each return address (ret true) up the frame
 * chain from rbp, until the chain ends or fn returns false. */
void walk_stack(unsigned long rip, unsigned long rbp,
		bool (*fn)(unsigned long addr, bool ret, void *data), void *data);

#define BUG() panic("BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(cond)                                                    \
	do {                                                            \
		if (unlikely(cond))                                     \
			panic("BUG_ON(%s) at %s:%d", #cond, __FILE__,   \
			      __LINE__);                                \
	} while (0)

void warn_slowpath(const char *file, int line, const char *cond);
#define WARN_ON(cond)                                                   \
	({                                                              \
		bool __c = !!(cond);                                    \
		if (unlikely(__c))                                      \
			warn_slowpath(__FILE__, __LINE__, #cond);       \
		__c;                                                    \
	})

#endif
