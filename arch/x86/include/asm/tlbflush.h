/*
 * TLB flushes (arch/x86/mm/tlb.c). A CPU caches translations; after a PTE
 * loses its page or a permission, every CPU that may have cached it must
 * forget it before the page is freed or reused, or a thread there goes on
 * using the old page. This CPU's TLB is flushed with invlpg; another CPU's
 * only by asking it, with an IPI, and waiting until it has (a
 * "shoot-down"). Those flushes must be asked with interrupts on: two CPUs
 * each waiting for the other's answer with interrupts off would wait
 * forever.
 *
 * Giving a PTE more rights (read-only to writable, not-present to present)
 * needs no flush: a CPU holding the old entry faults and finds the new one.
 */
#ifndef _ASM_TLBFLUSH_H
#define _ASM_TLBFLUSH_H

#include <kernel/types.h>

struct mm_struct;
struct vm_area_struct;

void flush_tlb_page(struct vm_area_struct *vma, unsigned long address);
void flush_tlb_range(struct vm_area_struct *vma, unsigned long start,
		     unsigned long end);
void flush_tlb_mm(struct mm_struct *mm);	/* all of mm's translations */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
			unsigned long end);
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
void flush_tlb_kernel_all(void);	/* global pages too, every CPU */
/* Load mm's page table on this CPU (NULL: the kernel's alone). */
void switch_to_mm(struct mm_struct *mm);
/*
 * Drop the reference a PTE just cleared held on page, once the TLBs that
 * may still map it are flushed: at this task's next flush_tlb_* call
 * (with one CPU, at once). Linux's mmu_gather does the same for a range.
 */
struct page;
void tlb_put_page(struct page *page);
/* Would the next tlb_put_page have to flush every TLB to make room? A
 * caller clearing many PTEs of one mm flushes its own range first. */
bool tlb_batch_full(void);
/* The CALL_FUNCTION_VECTOR IPI, and a wait for one (tlb.c). */
void flush_tlb_ipi(void);

#endif
