/*
 * What execve knows about the program it is loading: kernel/exec.c
 * fills in the arguments and the stack, fs/binfmt_elf.c the mappings.
 */
#ifndef _KERNEL_BINFMTS_H
#define _KERNEL_BINFMTS_H

#include <kernel/elf.h>
#include <kernel/types.h>

struct file;
struct mm_struct;
struct vm_area_struct;

struct linux_binprm {
	bool kernel_args;	/* argv/envp are kernel pointers (init) */
	char *buf;	/* argv then envp strings, NUL-separated */
	size_t len;
	int argc, envc;
	const char *filename;
	struct file *file;	/* owned by mm once mm exists */
	Elf64_Ehdr eh;
	Elf64_Phdr *phdrs;
	struct mm_struct *mm;	/* the new address space, not yet live */
	unsigned long entry;	/* the program's (AT_ENTRY) */
	unsigned long start;	/* where it starts: the loader's entry, or
				 * the program's */
	unsigned long interp_base;	/* the loader's bias (AT_BASE), or 0 */
	unsigned long phdr_addr, sp;
};

/* fs/binfmt_elf.c: check bprm->file's ELF headers and map the program
 * and its loader into bprm->mm; sets entry, start, interp_base, phdr_addr
 * and the brk. 0 or -errno (-ENOEXEC: not a program pagelab can run). */
int load_elf_binary(struct linux_binprm *bprm);

/* kernel/exec.c: the kernel address of the page at user address addr of
 * vma (in an mm not yet live), faulted in as a store would fault it.
 * NULL when out of memory. */
void *get_arg_page(struct vm_area_struct *vma, unsigned long addr);

#endif
