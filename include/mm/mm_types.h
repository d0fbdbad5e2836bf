/*
 * Address spaces: struct mm_struct (one per process) and its regions,
 * struct vm_area_struct, sorted by address on mm->mmap. A region says what
 * may be there and with which rights; the page tables say what is there now.
 * Page faults fill the gap between the two (mm/memory.c).
 */
#ifndef _MM_MM_TYPES_H
#define _MM_MM_TYPES_H

#include <kernel/spinlock.h>
#include <kernel/rwsem.h>
#include <kernel/list.h>
#include <mm/pgtable.h>

struct file;
struct vm_area_struct;

/* vm_flags */
#define VM_READ 0x1UL
#define VM_WRITE 0x2UL
#define VM_EXEC 0x4UL
#define VM_SHARED 0x8UL
#define VM_MAYREAD 0x10UL
#define VM_MAYWRITE 0x20UL
#define VM_MAYEXEC 0x40UL
#define VM_MAYSHARE 0x80UL
#define VM_GROWSDOWN 0x100UL	/* the stack */
#define VM_LOCKED 0x2000UL	/* mlock: reclaim leaves its pages mapped */
#define VM_LOCKONFAULT 0x80000UL	/* MLOCK_ONFAULT: not populated */
#define VM_ACCOUNT 0x100000UL	/* its pages are committed (overcommit.h) */

/* What a fault handler returns (Linux's VM_FAULT_* codes). */
#define VM_FAULT_OOM 0x0001
#define VM_FAULT_SIGBUS 0x0002
#define VM_FAULT_MAJOR 0x0004
#define VM_FAULT_SIGSEGV 0x0040
#define VM_FAULT_NOPAGE 0x0100	/* handler installed the PTE itself */
#define VM_FAULT_LOCKED 0x0200	/* handler returns the page locked */
#define VM_FAULT_RETRY 0x0400
#define VM_FAULT_ERROR (VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV)

#define FAULT_FLAG_WRITE 0x01
#define FAULT_FLAG_USER 0x02
#define FAULT_FLAG_INSTRUCTION 0x04

struct vm_fault {
	struct vm_area_struct *vma;
	unsigned long address;	/* page aligned */
	unsigned int flags;	/* FAULT_FLAG_* */
	unsigned long pgoff;	/* page index in the file */
	struct page *page;	/* out: the page for ->fault */
	pte_t *pte;		/* the PTE of address (do_fault, ->map_pages) */
};

struct vm_operations_struct {
	void (*open)(struct vm_area_struct *vma);
	void (*close)(struct vm_area_struct *vma);
	int (*fault)(struct vm_fault *vmf);
	int (*page_mkwrite)(struct vm_fault *vmf);
	/* Fault-around: map the cached pages [start, end) of the file
	 * that are ready, read-only, without waiting for anything. */
	void (*map_pages)(struct vm_fault *vmf, unsigned long start,
			  unsigned long end);
};

struct vm_area_struct {
	unsigned long vm_start, vm_end;	/* [start, end), page aligned */
	unsigned long vm_flags;
	struct mm_struct *vm_mm;
	struct list_head vm_list;	/* mm->mmap, by address */
	struct file *vm_file;	/* NULL: anonymous memory */
	unsigned long vm_pgoff;	/* file offset of vm_start, in pages */
	const struct vm_operations_struct *vm_ops;
	struct list_head shared;	/* mapping->i_mmap (file mappings) */
};

struct mm_struct {
	pte_t *pgd;
	/* The VMAs: the list and every VMA's fields, map_count, the brk
	 * and the code/data/stack/argument addresses. Read to look at
	 * them or fault, write to change them (<mm/mmap_lock.h>: who takes
	 * it how, and its place in the lock order). Linux's mmap_lock
	 * (mmap_sem before 5.8). */
	struct rw_semaphore mmap_lock;
	/* Held to read-check-change a PTE of this mm: the owner's fault,
	 * munmap, mprotect, mremap and fork, and other tasks' reverse-map
	 * walks (truncate, reclaim, writeback), which take it inside the
	 * file's i_mmap_lock. Linux 2.6's mm->page_table_lock (split into a
	 * lock per PTE table since 2.6.15); nothing that sleeps under it. */
	spinlock_t page_table_lock;
	struct list_head mmap;	/* VMAs sorted by vm_start */
	int map_count;
	int mm_users;	/* tasks using it, and readers that pinned it
			 * (get_task_mm); atomic: threads share it */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk, start_stack;
	unsigned long mmap_base;	/* top of the mmap area; grows down */
	unsigned long arg_start, arg_end, env_start, env_end;
	/* The program this mm runs; writes to it are denied (ETXTBSY) while
	 * any mm holds it. */
	struct file *exe_file;
	/* CPUs whose CR3 holds this mm's page table, and whose TLBs may
	 * hold its translations: a PTE change is flushed there
	 * (arch/x86/mm/tlb.c). Linux's mm_cpumask. */
	volatile unsigned long cpu_mask;
};

#define STACK_TOP 0x00007ffffffff000UL
#define STACK_MAX_SIZE (8UL << 20)	/* RLIMIT_STACK default */
#define MMAP_BASE (STACK_TOP - STACK_MAX_SIZE - (1UL << 30))

#endif
