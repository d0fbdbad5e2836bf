/* Address-space and fault interfaces (mm/mmap.c, mm/memory.c,
 * arch/x86/mm/fault.c). "mmap_lock held": for read or write, "for
 * write": for write (<mm/mmap_lock.h>); each such function asserts it. */
#ifndef _MM_MMAP_H
#define _MM_MMAP_H

#include <mm/mm_types.h>
#include <asm/tlbflush.h>

#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE 0x0f
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_GROWSDOWN 0x0100
#define MAP_DENYWRITE 0x0800
#define MAP_EXECUTABLE 0x1000
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MAP_FIXED_NOREPLACE 0x100000
#define MAP_FAILED ((unsigned long)-1)

struct mm_struct *mm_alloc(void);
/* Drop a user of mm; the last one frees every page and table. */
void mmput(struct mm_struct *mm);
/* clone(CLONE_VM): one more task uses mm. */
void mmget(struct mm_struct *mm);
/* The tasks using mm, a snapshot (another may come or go). */
int mm_users(struct mm_struct *mm);
struct task_struct;
/* t's mm with a user reference that keeps it (mmput it after), or NULL.
 * lock_tasklist held: exec and exit change t->mm under it. */
struct mm_struct *get_task_mm(struct task_struct *t);
/* fork: a copy-on-write duplicate of mm. NULL when out of memory. */
struct mm_struct *dup_mm(struct mm_struct *old);
struct task_struct;
/* schedule(): load next's address space if it differs from prev's. */
void switch_mm(struct task_struct *prev, struct task_struct *next);
void set_mm_exe_file(struct mm_struct *mm, struct file *file);

/* The first VMA with vm_end > addr (it may start above addr), or NULL.
 * mmap_lock held. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
/* find_vma()'s vma, grown down to cover addr if it is the stack and the
 * stack limit allows; NULL if nothing covers addr (arch/x86/mm/fault.c). */
struct vm_area_struct *expand_stack(struct vm_area_struct *vma,
				    unsigned long addr);
/* Insert a new VMA [start, end); the range must be free. For write. */
struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long flags);
/* Split VMAs so that start and end fall on VMA edges. 0 or -ENOMEM.
 * For write. */
int split_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Map vma's file (a reference, and a place on the file's i_mmap). */
void vma_set_file(struct vm_area_struct *vma, struct file *file);
/* The highest free range of len bytes below mm->mmap_base, or 0.
 * mmap_lock held. */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len);
/* Unmap [start, start+len): splits VMAs at the edges. 0 or -errno.
 * For write. */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
/* Pages mapped by all of mm's VMAs (0 for NULL): Linux's total_vm.
 * mmap_lock held. */
unsigned long mm_total_vm(struct mm_struct *mm);
/* Map [addr, addr + len), free, of mm: file from page pgoff or anonymous.
 * addr, or -errno with nothing mapped. For write. */
unsigned long mmap_region(struct mm_struct *mm, struct file *file,
			  unsigned long addr, unsigned long len,
			  unsigned long vm_flags, unsigned long pgoff);
#define MMAP_MIN_ADDR 65536UL
/* Below MMAP_MIN_ADDR only root may map: 0 or -EPERM. */
int mmap_addr_allowed(unsigned long addr);
/* mmap(2) in current->mm, its lock held for write. */
unsigned long do_mmap(struct file *file, unsigned long addr,
		      unsigned long len, unsigned long prot,
		      unsigned long flags, unsigned long pgoff);

/* mm/mlock.c: pages of mm in VM_LOCKED VMAs (/proc/PID/status VmLck;
 * mmap_lock held); fork: clear VM_LOCKED in the child's copy (locks are
 * not inherited; takes the child's lock). */
unsigned long mm_locked_vm(struct mm_struct *mm);
void mm_clear_locked(struct mm_struct *mm);

/* mm/oom_kill.c: a user fault is out of memory: true when another task
 * was killed for it (retry the access), false when current is to die. */
bool out_of_memory(void);
/* Resolve a fault at address in vma: VM_FAULT_* bits, 0 when fixed.
 * mmap_lock held (for read is enough). */
int handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
		    unsigned int flags);
/* Remove the pages mapped in [start, end) of vma's mm. For write. */
void zap_page_range(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end);
/*
 * Remove the PTEs of file bytes [holebegin, holebegin + holelen) (holelen
 * 0: to the end) from every VMA mapping it. even_cows: private copies of
 * those pages go too (truncation); otherwise only the file's own pages.
 */
struct address_space;
__traced void unmap_mapping_range(struct address_space *mapping,
				  loff_t holebegin, loff_t holelen,
				  bool even_cows);
/* fork: share vma's pages with the child's tables, copy-on-write. src's
 * lock held for write. */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src,
		    struct vm_area_struct *vma);
/* Free the page-table pages of the user half. */
void free_pgtables(struct mm_struct *mm);
/* The PTE protection bits for a VMA's flags (write bit as given). */
pte_t vm_page_prot(unsigned long vm_flags);
/*
 * Map page at the empty pte of mm with protection bits prot: the one
 * place a PTE gets a page, under mm->page_table_lock (it panics without).
 * The caller's page reference becomes the PTE's, and the map count rises
 * with it (zap_pte in mm/memory.c undoes both).
 */
void do_set_pte(struct mm_struct *mm, pte_t *pte, struct page *page,
		pte_t prot);

#endif
