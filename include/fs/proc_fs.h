/*
 * procfs (fs/proc/): files whose contents a kernel function prints when
 * they are opened. A subsystem adds one with
 *
 *	static int meminfo_show(struct seq_file *m, void *v)
 *	{
 *		seq_printf(m, "MemTotal: %8lu kB\n", total);
 *		return 0;
 *	}
 *	proc_create_single("meminfo", meminfo_show);
 *
 * The show function runs once per open(2) into a buffer that grows until
 * the text fits; read(2) and lseek(2) then work on that snapshot, as
 * Linux's single_open() files do.
 */
#ifndef _FS_PROC_FS_H
#define _FS_PROC_FS_H

#include <kernel/compiler.h>
#include <kernel/cred.h>
#include <kernel/types.h>

struct seq_file {
	char *buf;
	size_t size;	/* of buf */
	size_t count;	/* bytes printed */
	bool overflow;	/* ran out of room: print again, bigger */
	void *private;	/* the entry's data pointer */
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);

struct proc_dir_entry;

/* A read-only file /proc/NAME (NAME may be "dir/name" once dir exists).
 * Returns the entry, or NULL (out of memory, exists, no such dir). */
struct proc_dir_entry *proc_create_single(const char *name,
					  int (*show)(struct seq_file *,
						      void *));
struct proc_dir_entry *proc_create_single_data(const char *name,
					       umode_t mode,
					       int (*show)(struct seq_file *,
							   void *),
					       void *data);
/* A directory /proc/NAME. */
struct proc_dir_entry *proc_mkdir(const char *name);
/* A file that can also be written (e.g. sys/vm/drop_caches): write gets
 * what was written, as a NUL-terminated string of at most 64 bytes. */
#define PROC_WRITE_MAX 64
struct proc_dir_entry *proc_create_rw(const char *name, umode_t mode,
				      int (*show)(struct seq_file *, void *),
				      int (*write)(const char *, size_t,
						   void *));
/* The same with data handed to show (as v) and to write. */
struct proc_dir_entry *proc_create_rw_data(const char *name, umode_t mode,
					   int (*show)(struct seq_file *,
						       void *),
					   int (*write)(const char *, size_t,
							void *),
					   void *data);
/* Register the "proc" file system type and the built-in files. */
void proc_init(void);

#endif
