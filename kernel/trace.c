/*
 * kernel/trace.c: the lab's call-chain traces (include/kernel/trace.h).
 *
 * A trace set is a group of functions switched together through
 * /proc/trace/NAME ("1" on, "0" off). Lines go to the console, so the
 * graders' expect scripts and a student at the serial console see the
 * same thing.
 *
 * How a call is seen, as Linux's function_graph tracer sees it: each
 * function of the tables is declared __traced (<kernel/compiler.h>), so
 * the compiler starts it with five bytes of nops, and trace_init turns
 * them into `call __fentry__` (kernel/trace_entry.S) at boot, writing
 * through the direct map since the kernel's text is read-only. No other
 * function, and no other code generation, changes: the files stay as
 * the compiler makes them. With a set on, __fentry__ hands the function's
 * address and argument registers to trace_function_entry, which looks
 * the function up in the tables below. A traced one gets its "->" line,
 * and its return address on the stack is swapped for return_to_handler:
 * when it returns, trace_function_exit prints "<-" with its result and
 * sends the result on to the real caller. The calls in progress are kept
 * per task (struct trace_graph), so a task that sleeps mid-chain (disk
 * I/O) keeps its own indentation. The same entry serves the delay points
 * of kernel/fail_delay.c that are a function's entry (trace_entry_delay).
 *
 *   tables       the functions of each set, and how to print them
 *   entry/exit   trace_function_entry, trace_function_exit
 *   lines        the "->", "<-" and ".." lines
 *   /proc/trace  switching sets; resolving the tables and placing the
 *                calls at boot
 */
#include <kernel/trace.h>
#include <kernel/errno.h>
#include <kernel/fail_delay.h>
#include <kernel/init.h>
#include <kernel/kallsyms.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <fs/dcache.h>
#include <fs/fs.h>
#include <fs/proc_fs.h>
#include <mm/mm.h>
#include <asm/processor.h>

struct trace_point_set trace_set_truncate = { "truncate", false };

/* Some set is on: __fentry__ tests this one byte. */
bool trace_functions_on;

/* kernel/trace_entry.S */
void __fentry__(void);
void return_to_handler(void);

/* ---- tables ----------------------------------------------------------- */

/* What to make of an argument register. */
enum trace_value {
	V_NONE,
	V_LONG,		/* a number (long, loff_t, pointer-sized) */
	V_UINT,		/* an unsigned int: the upper half is garbage */
	V_STR,		/* a kernel string */
	V_INODE,	/* struct inode * */
	V_DENTRY,	/* struct dentry *: its inode */
	V_MAPPING,	/* struct address_space *: its host */
	V_IATTR,	/* struct iattr *: "size N", or "no size" */
	V_SEQUENCE,	/* struct dentry *: "old" or "new" truncate sequence */
};

struct trace_arg {
	u8 what;	/* enum trace_value */
	u8 reg;		/* the argument's position, 0 = rdi */
};

enum { RET_VOID, RET_INT, RET_LONG };

struct traced_fn {
	const char *name;
	struct trace_arg inode;	/* where the line's ino and i_size come from */
	u8 ret;
	bool nested;	/* shown only inside another traced call */
	const char *fmt;	/* the detail: one %ld or %s per argument */
	struct trace_arg args[3];
	/* Filled in at boot: */
	struct trace_point_set *set;
	unsigned long hook;	/* the address just after its call __fentry__ */
	u8 delay;	/* a fail_delay point held at its entry, plus 1; 0: none */
};

#define NO_INODE { V_NONE, 0 }
#define A(what, reg) { V_##what, reg }
#define FN(name, inode, ret, nested, fmt, ...) \
	{ name, inode, ret, nested, fmt, { __VA_ARGS__ } }

/*
 * truncate(2) and ftruncate(2) down to the blocks, both sequences. The
 * nested ones are called for more than truncation (chmod, every write):
 * inside a truncate they belong to it, outside they would be noise.
 */
static struct traced_fn truncate_fns[] = {
	FN("do_sys_truncate", NO_INODE, RET_LONG, false, "\"%s\", length %ld",
	   A(STR, 0), A(LONG, 1)),
	FN("do_sys_ftruncate", NO_INODE, RET_LONG, false, "fd %ld, length %ld",
	   A(UINT, 0), A(LONG, 1)),
	FN("do_truncate", A(DENTRY, 0), RET_INT, false, "length %ld",
	   A(LONG, 1)),
	FN("notify_change", A(DENTRY, 0), RET_INT, true, "%s", A(IATTR, 1)),
	FN("ext2_setattr", A(DENTRY, 0), RET_INT, true, "truncate=%s",
	   A(SEQUENCE, 0)),
	FN("simple_setattr", A(DENTRY, 0), RET_INT, true, "%s", A(IATTR, 1)),
	FN("inode_setattr", A(INODE, 0), RET_INT, true, "%s", A(IATTR, 1)),
	FN("inode_newsize_ok", A(INODE, 0), RET_INT, true, "size %ld",
	   A(LONG, 1)),
	/* the old sequence */
	FN("vmtruncate", A(INODE, 0), RET_INT, false, "size %ld", A(LONG, 1)),
	FN("ext2_truncate", A(INODE, 0), RET_VOID, false, "->truncate"),
	FN("truncate_blocks", A(INODE, 0), RET_INT, false,
	   "to %ld after a failed write", A(LONG, 1)),
	/* the new sequence */
	FN("ext2_setsize", A(INODE, 0), RET_INT, false, "size %ld", A(LONG, 1)),
	FN("simple_setsize", A(INODE, 0), RET_INT, false, "size %ld",
	   A(LONG, 1)),
	FN("ext2_write_failed", A(MAPPING, 0), RET_VOID, false,
	   "to %ld after a failed write", A(LONG, 1)),
	/* the commit step of both, then the page cache and the mappings */
	FN("truncate_setsize", A(INODE, 0), RET_VOID, false, "size %ld",
	   A(LONG, 1)),
	FN("truncate_pagecache", A(INODE, 0), RET_VOID, false, "%ld -> %ld",
	   A(LONG, 1), A(LONG, 2)),
	FN("pagecache_isize_extended", A(INODE, 0), RET_VOID, true,
	   "%ld -> %ld", A(LONG, 1), A(LONG, 2)),
	FN("unmap_mapping_range", A(MAPPING, 0), RET_VOID, true,
	   "from %ld, length %ld", A(LONG, 1), A(LONG, 2)),
	FN("truncate_inode_pages", A(MAPPING, 0), RET_VOID, true, "from %ld",
	   A(LONG, 1)),
	/* the blocks */
	FN("block_truncate_page", A(MAPPING, 0), RET_INT, true, "from %ld",
	   A(LONG, 1)),
	FN("ext2_truncate_blocks", A(INODE, 0), RET_INT, false, "from %ld",
	   A(LONG, 1)),
};

static const struct {
	struct trace_point_set *set;
	struct traced_fn *fns;
	size_t nr;
} tables[] = {
	{ &trace_set_truncate, truncate_fns, ARRAY_SIZE(truncate_fns) },
};

/* The argument registers, as kernel/trace_entry.S saved them. */
struct trace_args {
	unsigned long reg[6];	/* rdi, rsi, rdx, rcx, r8, r9 */
};

/* The table entry whose hook is ip, or whose name is name. */
static struct traced_fn *find_traced(unsigned long ip, const char *name)
{
	for (size_t t = 0; t < ARRAY_SIZE(tables); t++)
		for (size_t i = 0; i < tables[t].nr; i++)
			if (name ? !strcmp(tables[t].fns[i].name, name)
				 : tables[t].fns[i].hook == ip)
				return &tables[t].fns[i];
	return NULL;
}

static const struct inode *inode_of(struct trace_arg a,
				    const struct trace_args *args)
{
	unsigned long v = args->reg[a.reg];

	if (!v)
		return NULL;
	switch (a.what) {
	case V_INODE:
		return (const struct inode *)v;
	case V_DENTRY:
		return ((const struct dentry *)v)->d_inode;
	case V_MAPPING:
		return ((const struct address_space *)v)->host;
	}
	return NULL;
}

/* " (detail)" for an entry line; scratch holds what V_IATTR prints. */
static void format_detail(char *buf, size_t len, const struct traced_fn *tf,
			  const struct trace_args *args)
{
	unsigned long v[3] = { 0, 0, 0 };
	char scratch[32];
	size_t n;

	for (int i = 0; i < 3; i++) {
		unsigned long r = args->reg[tf->args[i].reg];
		const struct iattr *attr = (const struct iattr *)r;
		const struct inode *inode;

		switch (tf->args[i].what) {
		case V_LONG:
		case V_STR:
			v[i] = r;
			break;
		case V_UINT:
			v[i] = (unsigned int)r;
			break;
		case V_IATTR:
			if (attr->ia_valid & ATTR_SIZE)
				snprintf(scratch, sizeof(scratch), "size %ld",
					 (long)attr->ia_size);
			else
				strlcpy(scratch, "no size", sizeof(scratch));
			v[i] = (unsigned long)scratch;
			break;
		case V_SEQUENCE:
			inode = ((const struct dentry *)r)->d_inode;
			v[i] = (unsigned long)(inode && inode->i_op &&
					       inode->i_op->new_truncate
						       ? "new" : "old");
			break;
		}
	}
	buf[0] = ' ';
	buf[1] = '(';
	/* Each conversion takes one long or one pointer: v[] has both. */
	snprintf(buf + 2, len - 3, tf->fmt, v[0], v[1], v[2]);
	n = strlen(buf);
	buf[n] = ')';
	buf[n + 1] = 0;
}

/* ---- lines -------------------------------------------------------------- */

#define MAX_INDENT 40

static int indent_of(int depth)
{
	return min(2 * depth, MAX_INDENT);
}

/* "-> fn ino N i_size S (detail)" or ".. fn ...": where a call stands. */
static void trace_line(struct trace_point_set *set, int depth,
		       const char *arrow, const char *fn,
		       const struct inode *inode, const char *tail)
{
	if (inode)
		pr_info("trace: %s: %*s%s %s ino %lu i_size %ld%s\n", set->name,
			indent_of(depth), "", arrow, fn, inode->i_ino,
			(long)inode->i_size, tail);
	else
		pr_info("trace: %s: %*s%s %s%s\n", set->name, indent_of(depth),
			"", arrow, fn, tail);
}

/* "<- fn = ret ino N i_size S": the result first, it matters most. */
static void trace_exit_line(const struct trace_frame *f, int depth,
			    unsigned long rax)
{
	char result[32] = "";

	if (f->fn->ret == RET_INT)
		snprintf(result, sizeof(result), " = %d", (int)rax);
	else if (f->fn->ret == RET_LONG)
		snprintf(result, sizeof(result), " = %ld", (long)rax);
	if (f->inode)
		pr_info("trace: %s: %*s<- %s%s ino %lu i_size %ld\n",
			f->fn->set->name, indent_of(depth), "", f->fn->name,
			result, f->inode->i_ino, (long)f->inode->i_size);
	else
		trace_line(f->fn->set, depth, "<-", f->fn->name, NULL, result);
}

void __trace_note(struct trace_point_set *set, const char *fn,
		  const struct inode *inode, const char *fmt, ...)
{
	char tail[96];
	va_list ap;
	size_t n;

	tail[0] = ' ';
	tail[1] = '(';
	va_start(ap, fmt);
	vsnprintf(tail + 2, sizeof(tail) - 3, fmt, ap);
	va_end(ap);
	n = strlen(tail);
	tail[n] = ')';
	tail[n + 1] = 0;
	trace_line(set, current->trace.depth, "..", fn, inode, tail);
}

/* ---- entry/exit ------------------------------------------------------- */

/*
 * A fail_delay point at the entry of a traced function: the task that
 * calls it may be held there (kernel/fail_delay.c names the functions).
 * So a race window that opens as a function is entered needs no hook in
 * the function, nor in its callers, which labs may ask a student to
 * write. 0, or -ENOENT for a function not in the tables.
 */
int trace_entry_delay(const char *fn, unsigned int point)
{
	struct traced_fn *tf = find_traced(0, fn);

	if (!tf)
		return -ENOENT;
	tf->delay = point + 1;
	return 0;
}

/*
 * From __fentry__, with a set on or a delay point armed: ip is just after
 * the call in the function, *parent its return address. Preconditions:
 * process context (the traced functions all sleep).
 */
void trace_function_entry(unsigned long ip, unsigned long *parent,
			  const struct trace_args *args)
{
	struct trace_graph *g = &current->trace;
	struct traced_fn *tf = find_traced(ip, NULL);
	struct trace_frame *f;
	char detail[96];

	if (tf && tf->delay)
		fail_delay(tf->delay - 1);
	if (!tf || !tf->set->on || g->depth >= TRACE_MAX_DEPTH ||
	    (tf->nested && !g->depth))
		return;
	f = &g->frame[g->depth];
	f->ret = *parent;
	f->fn = tf;
	f->inode = inode_of(tf->inode, args);
	format_detail(detail, sizeof(detail), tf, args);
	trace_line(tf->set, g->depth, "->", tf->name, f->inode, detail);
	g->depth++;
	*parent = (unsigned long)return_to_handler;
}

/*
 * From return_to_handler: the traced function on top of this task's
 * trace_graph returned rax. Returns where it was to return to.
 */
unsigned long trace_function_exit(unsigned long rax)
{
	struct trace_graph *g = &current->trace;
	struct trace_frame *f;

	if (g->depth <= 0)	/* nowhere to return to: cannot go on */
		panic("trace: a traced function returned, but none was called");
	f = &g->frame[--g->depth];
	if (f->fn->set->on)	/* switched off mid-call: quietly unwind */
		trace_exit_line(f, g->depth, rax);
	/* A caller that had no inode in its arguments (a path, an fd)
	 * shows the one its callees worked on. */
	if (g->depth && !g->frame[g->depth - 1].inode)
		g->frame[g->depth - 1].inode = f->inode;
	return f->ret;
}

/* ---- /proc/trace -------------------------------------------------------- */

static int trace_show(struct seq_file *m, void *data)
{
	seq_printf(m, "%d\n", ((struct trace_point_set *)data)->on);
	return 0;
}

static int trace_write(const char *buf, size_t len, void *data)
{
	struct trace_point_set *set = data;
	bool any = false;

	if (len < 1 || (buf[0] != '0' && buf[0] != '1') ||
	    (len > 1 && buf[1] != '\n'))
		return -EINVAL;
	set->on = buf[0] == '1';
	for (size_t t = 0; t < ARRAY_SIZE(tables); t++)
		any |= tables[t].set->on;
	trace_functions_on = any;
	return 0;
}

/*
 * Make the five nops at the start of the function at addr (a __traced
 * one) a call to __fentry__; return where that call returns to, or 0
 * when the function has no such nops (not declared __traced). The nops
 * may follow an endbr64 (-fcf-protection). Text is mapped read-only, so
 * the bytes are written through the direct map's writable alias; once, at
 * boot, on the one CPU of a kernel that is not preemptible, so no task is
 * part way through the nops while they change.
 */
static unsigned long fentry_hook(unsigned long addr)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const u8 nops[5] = { 0x90, 0x90, 0x90, 0x90, 0x90 };
	u8 *p = (u8 *)addr, call[5] = { 0xe8 };	/* call rel32 */
	u32 a, b, c, d;
	s32 rel;

	if (!memcmp(p, endbr64, sizeof(endbr64)))
		p += sizeof(endbr64);
	if (memcmp(p, nops, sizeof(nops)))
		return 0;
	rel = (long)__fentry__ - (long)(p + sizeof(call));
	memcpy(call + 1, &rel, sizeof(rel));
	memcpy(phys_to_virt(virt_to_phys(p)), call, sizeof(call));
	cpuid(0, 0, &a, &b, &c, &d);	/* serializing: the nops are gone */
	return (unsigned long)(p + sizeof(call));
}

static int trace_init(void)
{
	char name[32];

	for (size_t t = 0; t < ARRAY_SIZE(tables); t++) {
		for (size_t i = 0; i < tables[t].nr; i++) {
			struct traced_fn *tf = &tables[t].fns[i];
			unsigned long addr = kallsyms_lookup_name(tf->name);

			tf->set = tables[t].set;
			tf->hook = addr ? fentry_hook(addr) : 0;
			if (!tf->hook)
				pr_warn("trace: %s: %s cannot be traced (%s)\n",
					tf->set->name, tf->name,
					addr ? "not declared __traced"
					     : "no such function");
		}
		snprintf(name, sizeof(name), "trace/%s", tables[t].set->name);
		if (t == 0)
			proc_mkdir("trace");
		proc_create_rw_data(name, 0644, trace_show, trace_write,
				    tables[t].set);
	}
	return 0;
}
device_initcall(trace_init);
