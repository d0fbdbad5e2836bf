/*
 * Call-chain tracing for the lab (kernel/trace.c). A traced function says
 * where it starts and ends; when its trace is switched on (echo 1 >
 * /proc/trace/truncate) each becomes one console line, indented by call
 * depth, with the inode's i_size at that moment:
 *
 *	trace: truncate: -> notify_change ino 12 i_size 4096 (size 1000)
 *	trace: truncate:   -> ext2_setattr ino 12 i_size 4096
 *	...
 *	trace: truncate:   <- ext2_setattr = 0 i_size 1000
 *
 *	trace_enter(truncate, inode, "size %ld", (long)size);
 *	...
 *	trace_exit(truncate, inode, err);
 *
 * Switched off, a trace point costs one test of a flag.
 */
#ifndef _KERNEL_TRACE_H
#define _KERNEL_TRACE_H

#include <kernel/compiler.h>
#include <kernel/types.h>

struct inode;

struct trace_point_set {
	const char *name;	/* /proc/trace/NAME */
	bool on;
};

extern struct trace_point_set trace_set_truncate;

__printf(4, 5) void __trace_enter(struct trace_point_set *set, const char *fn,
				  const struct inode *inode, const char *fmt,
				  ...);
void __trace_exit(struct trace_point_set *set, const char *fn,
		  const struct inode *inode, long ret);
__printf(4, 5) void __trace_note(struct trace_point_set *set, const char *fn,
				 const struct inode *inode, const char *fmt, ...);

#define trace_enter(set, inode, fmt, ...)                                 \
	do {                                                              \
		if (trace_set_##set.on)                                   \
			__trace_enter(&trace_set_##set, __func__, inode,  \
				      fmt, ##__VA_ARGS__);                \
	} while (0)
#define trace_exit(set, inode, ret)                                       \
	do {                                                              \
		if (trace_set_##set.on)                                   \
			__trace_exit(&trace_set_##set, __func__, inode,   \
				     (long)(ret));                        \
	} while (0)
/* A line inside the current function: a step worth seeing. */
#define trace_note(set, inode, fmt, ...)                                  \
	do {                                                              \
		if (trace_set_##set.on)                                   \
			__trace_note(&trace_set_##set, __func__, inode,   \
				     fmt, ##__VA_ARGS__);                 \
	} while (0)

#endif
