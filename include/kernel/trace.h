/*
 * Call-chain tracing for the lab (kernel/trace.c), a small cousin of
 * Linux's function_graph tracer. When a trace set is on (echo 1 >
 * /proc/trace/truncate), every call of one of the set's functions becomes
 * a console line on the way in and one on the way out, indented by call
 * depth, with the inode's i_size at that moment:
 *
 *	trace: truncate:     -> notify_change ino 12 i_size 4096 (size 1000)
 *	trace: truncate:       -> ext2_setattr ino 12 i_size 4096 (truncate=old)
 *	...
 *	trace: truncate:       <- ext2_setattr = 0 ino 12 i_size 1000
 *
 * The traced functions contain no trace code: each is declared __traced
 * (<kernel/compiler.h>), which gives it room for a call to __fentry__
 * (kernel/trace_entry.S) that kernel/trace.c writes in at boot, and
 * kernel/trace.c knows from its table which functions to show and how to
 * print their arguments. The mark sits on the declaration, so a function
 * a student writes in a lab traces exactly as the reference one does.
 * Switched off, __fentry__ costs one test of a flag.
 *
 * trace_note() adds a line of detail inside the current function.
 */
#ifndef _KERNEL_TRACE_H
#define _KERNEL_TRACE_H

#include <kernel/compiler.h>
#include <kernel/types.h>

struct inode;
struct traced_fn;

struct trace_point_set {
	const char *name;	/* /proc/trace/NAME */
	bool on;
};

extern struct trace_point_set trace_set_truncate;

/* One traced call in progress: where it returns to, what it is. */
struct trace_frame {
	unsigned long ret;	/* the caller's return address */
	const struct traced_fn *fn;
	const struct inode *inode;	/* NULL until a callee names one */
};

#define TRACE_MAX_DEPTH 16	/* deeper calls run untraced */

/* Per task (a task sleeping mid-chain keeps its calls and indentation). */
struct trace_graph {
	int depth;
	struct trace_frame frame[TRACE_MAX_DEPTH];
};

/* kernel/fail_delay.c: hold a task at the entry of fn, a traced one. */
int trace_entry_delay(const char *fn, unsigned int point);

__printf(4, 5) void __trace_note(struct trace_point_set *set, const char *fn,
				 const struct inode *inode, const char *fmt, ...);

/* A line inside the current function: a step worth seeing. */
#define trace_note(set, inode, fmt, ...)                                  \
	do {                                                              \
		if (trace_set_##set.on)                                   \
			__trace_note(&trace_set_##set, __func__, inode,   \
				     fmt, ##__VA_ARGS__);                 \
	} while (0)

#endif
