/*
 * mm/memory.c: page faults and page-table maintenance for user memory.
 *
 * handle_mm_fault() is called by do_page_fault() once it knows the access
 * is allowed by the VMA, with mm->mmap_lock held for read (so the VMA
 * stays, though other threads may fault beside it: each handler looks at
 * the PTE again under page_table_lock before it sets it). It finds
 * (allocating) the PTE and then:
 *   - PTE empty, anonymous VMA:  do_anonymous_page(): a zeroed page;
 *   - PTE empty, file VMA:       do_fault(): __do_fault() asks
 *                                vm_ops->fault for the page-cache page,
 *                                then do_read_fault() maps it read-only,
 *                                do_cow_fault() maps a private copy (a
 *                                write to a private mapping), or
 *                                do_shared_fault() goes through
 *                                page_mkwrite (a write to a shared one);
 *   - PTE present but read-only, write allowed by the VMA:
 *                                do_wp_page(): wp_page_copy() (private:
 *                                copy-on-write), or wp_page_shared()
 *                                (shared: page_mkwrite, then writable;
 *                                the page was clean until now).
 * Shared file pages are mapped read-only until the first store, and
 * page_mkclean (mm/rmap.c) makes them read-only again when writeback
 * cleans them: so every clean-to-dirty transition calls page_mkwrite,
 * where the file system can allocate blocks, or say no (SIGBUS).
 *
 * Reference counts: each PTE that maps a page holds one reference (and one
 * _mapcount); the last put_page() frees it. A page-cache page also holds
 * the cache's reference. do_set_pte() is the one place a PTE gets a page,
 * zap_pte() the place it loses it, so the two counts move together.
 *
 * unmap_mapping_range() removes the PTEs of a file range from every
 * process that maps it (truncation).
 *
 * Not part of any lab: a read fault also maps the cached pages around it
 * (do_fault_around, mm/fault_around.c), an optimisation the benchmarks
 * brought; the labs' tests pass with it or without it.
 *
 * Linux's names (mm/memory.c, 6.x) except where a comment says otherwise.
 */
#include <kernel/fail_delay.h>
#include <kernel/explore.h>
#include <kernel/lockdep.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/fault_around.h>
#include <mm/filemap.h>
#include <mm/gfp.h>
#include <mm/rmap.h>
#include <mm/writeback.h>
#include <fs/fs.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/sched.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/vmstat.h>
#include <asm/processor.h>

pte_t vm_page_prot(unsigned long vm_flags)
{
	/* Accessed from the start (nothing here asks it; Linux sets it
	 * too): else the MMU writes it into the page table at the first
	 * touch of every page, a slow store under QEMU. */
	pte_t prot = _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED;

	/* PROT_NONE: x86 cannot forbid a user read of a present page but
	 * by making it a supervisor page. It stays present for fork, zap,
	 * rmap and the RSS; a user access faults (P=1: SEGV_ACCERR).
	 * (Linux keeps it not-present to the MMU, _PAGE_PROTNONE; here the
	 * kernel's own copy_to_user to it is not refused, as Linux's is.) */
	if (!(vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return _PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_NX;
	if (vm_flags & VM_WRITE)
		prot |= _PAGE_RW;
	if (!(vm_flags & VM_EXEC))
		prot |= _PAGE_NX;
	return prot;
}

static struct page *pte_page(pte_t pte)
{
	return pfn_to_page((pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
}

/* do_set_pte was handed a page nobody wrote since it was allocated. */
static __cold __noreturn void unwritten_page_bug(struct page *page,
						 void *caller)
{
	printk(KERN_EMERG "BUG: %ps maps pfn %#lx, a new anonymous page "
	       "that nobody has written since alloc_page: every byte still "
	       "holds the poison of a page handed out unzeroed. A "
	       "demand-zero page must be allocated zeroed (__GFP_ZERO); a "
	       "copy-on-write copy must be filled from the old page before "
	       "it is mapped\n", caller,
	       page_to_pfn(page));
	dump_page(page, "mapped unwritten");
	dump_stack();
	panic("%ps maps a page it never wrote", caller);
}

/*
 * Map page at the empty PTE pte of mm with protection bits prot, under
 * mm->page_table_lock (checked). Every PTE that maps a page is set here,
 * so that one invariant lives in one place: one PTE, one page reference,
 * one map count. The caller hands over the reference (it becomes the
 * PTE's); the map count rises here; zap_pte takes both back. Linux
 * writes the PTE with set_pte_at and counts the mapping with
 * page_add_new_anon_rmap or page_add_file_rmap, and for a fault wraps the
 * two in do_set_pte (set_pte_range since 6.3).
 */
/* The caller maps a page where one is mapped: it did not look at the PTE
 * again under the lock, or did not unmap the old page first (a COW's
 * zap_pte). Name it. */
static __cold __noreturn void set_pte_over_present(pte_t *pte,
						   struct page *page,
						   void *caller)
{
	printk(KERN_EMERG "BUG: do_set_pte, called from %pS: the PTE is "
	       "present already (0x%lx, pfn 0x%lx): set by another fault "
	       "since the caller looked (look again under page_table_lock: "
	       "pte_none, pte_same), or the old page not unmapped first "
	       "(zap_pte)\n", caller, (unsigned long)*pte,
	       (unsigned long)(*pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
	dump_page(page, "mapping it would leak the page mapped now");
	panic("do_set_pte over a present PTE, called from %pS", caller);
}

void do_set_pte(struct mm_struct *mm, pte_t *pte, struct page *page,
		pte_t prot)
{
	/* Whoever looked at the PTE must still hold the lock that keeps
	 * it as seen: threads of mm fault beside each other. */
	lockdep_assert_held(&mm->page_table_lock);
	if (unlikely(*pte & _PAGE_PRESENT))	/* would leak the old page */
		set_pte_over_present(pte, page, __builtin_return_address(0));
	/* A new anonymous page, mapped for the first time (demand-zero, or
	 * a copy-on-write copy), was written since alloc_page: zeroed or
	 * copied into. Two words say it was not; then the whole page. */
	if (!page->mapping && page->_mapcount < 0 &&
	    unlikely(page_never_written(page)))
		unwritten_page_bug(page, __builtin_return_address(0));
	/* Atomic: a file page is mapped in many mm's, each under its own
	 * page_table_lock, on several CPUs at once. */
	__atomic_add_fetch(&page->_mapcount, 1, __ATOMIC_SEQ_CST);
	/* An anonymous page mapped writable is dirty from the start (it is
	 * never written back, so its dirty bit tells nothing): the first
	 * store then needs no write of the bit into the PTE by the MMU. A
	 * file page's dirty bit is its writeback's business: left alone. */
	if ((prot & _PAGE_RW) && !page->mapping)
		prot |= _PAGE_DIRTY;
	*pte = page_to_phys(page) | prot;
}

/*
 * A fault zapped its own PTE, which maps another page than the one the
 * fault found there: a page mapped meanwhile, by another thread's fault
 * while the page-table lock was dropped. The paging lab's wp_page_copy
 * does this when it maps its copy without looking at the PTE again under
 * the lock; the other thread's page goes, with the stores made to it.
 */
static __cold __noreturn void zap_other_page_in_fault_bug(pte_t old,
						unsigned long caller)
{
	console_loglevel = 15;
	printk(KERN_EMERG "BUG: a fault (zap_pte called from %pS) replaced a "
	       "PTE that maps pfn %#lx, not pfn %#lx, the page it found there "
	       "when it began, and holds no reference to it (count 1: the "
	       "PTE's): another thread mapped that page while the page-table "
	       "lock was dropped, and its stores are lost. Under the lock, "
	       "check the PTE is still the one read before the copy "
	       "(pte_same), and give the copy back if not\n",
	       (void *)caller, (old & PTE_ADDR_MASK) >> PAGE_SHIFT,
	       (current->fault_entry & _PAGE_PRESENT) ?
	       (current->fault_entry & PTE_ADDR_MASK) >> PAGE_SHIFT : 0UL);
	dump_page(pte_page(old), "replaced by a fault that never saw it");
	panic("a fault replaced a page it never saw");
}

/*
 * Unmap one PTE, dropping its page reference and map count. A store the
 * hardware saw through a shared file mapping dirties the page
 * (page_mkwrite did so already; this keeps it true whatever path made
 * the PTE writable). The caller flushes the TLB; the PTE's reference is
 * dropped only then, with several CPUs (tlb_put_page). Never inlined:
 * a report names its caller.
 */
static __noinline void zap_pte(pte_t *pte)
{
	struct page *page;
	pte_t old;

	if (!(*pte & _PAGE_PRESENT))
		return;
	/* Cleared in one exchange: a store on another CPU may set the
	 * dirty bit between a read and a write of 0, and be lost; and
	 * truncate's unmap (the truncate-old lab's zap_file_range: a
	 * student's may take no page_table_lock) may clear the same PTE on
	 * another CPU at the same moment: only the one whose exchange found
	 * the page drops it. */
	old = __atomic_exchange_n(pte, 0, __ATOMIC_SEQ_CST);
	if (!(old & _PAGE_PRESENT))
		return;
	page = pte_page(old);
	/* Another page than the fault found, and held by nobody but the
	 * PTE (a page the fault copied from has the fault's reference:
	 * mapped again since, say after reclaim, it may differ). */
	if (unlikely(current->fault_pte == pte) && page_count(page) == 1 &&
	    ((old ^ current->fault_entry) & PTE_ADDR_MASK ||
	     !(current->fault_entry & _PAGE_PRESENT)))
		zap_other_page_in_fault_bug(old, _RET_IP_);
	if ((old & _PAGE_DIRTY) && page->mapping)
		set_page_dirty(page);
	__atomic_sub_fetch(&page->_mapcount, 1, __ATOMIC_SEQ_CST);
	tlb_put_page(page);	/* after the caller's flush, with SMP */
}

/*
 * A first touch of an anonymous page: map a zeroed page. Called with
 * mmap_lock held for read and no other lock: threads of the mm may fault
 * on the same page at once, on several CPUs, so the PTE is set under
 * page_table_lock, and only if it is still empty. (Never inlined, here
 * and in wp_page_copy: a report names the lab's function, not its caller.)
 */
static __noinline int do_anonymous_page(struct vm_area_struct *vma,
					pte_t *pte, unsigned long address)
{
	/*
	 * LAB paging: do_anonymous_page starts from this.
	 *	return VM_FAULT_OOM;
	 */
	/* LAB paging: BEGIN */
	spinlock_t *ptl = &vma->vm_mm->page_table_lock;
	struct page *page;

	/* Allocated before the lock: alloc_page may sleep in reclaim. */
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!page)
		return VM_FAULT_OOM;
	spin_lock(ptl);
	if (!pte_none(*pte)) {
		/* Another thread mapped it while we allocated: its page
		 * is the page, and ours goes back. */
		spin_unlock(ptl);
		put_page(page);
		return 0;
	}
	do_set_pte(vma->vm_mm, pte, page, vm_page_prot(vma->vm_flags));
	spin_unlock(ptl);
	count_vm_event(PGFAULT_ANON);
	return 0;
	/* LAB paging: END */
}

/*
 * A write to a present, write-protected page in a writable private VMA:
 * the page is shared with another address space since fork, or is the
 * file's page-cache page. If we hold the only reference to an anonymous
 * page, just make it writable again; otherwise copy it and map the copy.
 * (Linux makes the reuse decision in do_wp_page and calls wp_page_reuse;
 * pagelab keeps it here, so the paging lab writes all of copy-on-write in
 * one function. The lab's first handouts called it do_cow_page.)
 */
static __noinline int wp_page_copy(struct vm_area_struct *vma, pte_t *pte,
				   unsigned long address)
{
	/*
	 * LAB paging: wp_page_copy starts from this.
	 *	return VM_FAULT_OOM;
	 */
	/* LAB paging: BEGIN */
	spinlock_t *ptl = &vma->vm_mm->page_table_lock;
	struct page *old, *new;
	pte_t orig;

	spin_lock(ptl);
	orig = *pte;
	/* Since __handle_mm_fault looked, another thread of the mm may
	 * have copied or reused the page, or reclaim unmapped it: then
	 * the store simply faults again. */
	if (pte_none(orig) || (orig & _PAGE_RW)) {
		spin_unlock(ptl);
		return 0;
	}
	old = pte_page(orig);
	if (!old->mapping && page_count(old) == 1) {
		*pte |= _PAGE_RW;	/* ours alone: no copy needed */
		spin_unlock(ptl);
		invlpg(address);
		return 0;
	}
	/* alloc_page may sleep in reclaim, which unmaps file pages (and a
	 * truncation may run): hold old while the lock is dropped. */
	get_page(old);
	spin_unlock(ptl);
	new = alloc_page(GFP_KERNEL);
	if (!new) {
		put_page(old);
		return VM_FAULT_OOM;
	}
	memcpy(page_address(new), page_address(old), PAGE_SIZE);
	spin_lock(ptl);
	if (pte_same(*pte, orig)) {
		/* The old page loses this PTE (its reference and map
		 * count), then the copy takes the PTE, writable. */
		zap_pte(pte);
		do_set_pte(vma->vm_mm, pte, new, vm_page_prot(vma->vm_flags));
		count_vm_event(COW_FAULT);
		new = NULL;
	}
	spin_unlock(ptl);
	if (new)
		put_page(new);	/* another thread's copy won */
	invlpg(address);
	put_page(old);
	return 0;
	/* LAB paging: END */
}

static __cold __noreturn void mkwrite_page_bug(struct vm_area_struct *vma,
					       struct page *page)
{
	printk(KERN_EMERG "BUG: ->page_mkwrite %ps returned VM_FAULT_LOCKED "
	       "with the page unlocked\n", vma->vm_ops->page_mkwrite);
	dump_page(page, "->page_mkwrite returned it");
	panic("->page_mkwrite %ps returned the page unlocked",
	      vma->vm_ops->page_mkwrite);
}

/*
 * ->page_mkwrite said the page is locked and ready, and it is no longer
 * the file's: a truncate removed it while the handler waited for the
 * page lock. Blocks it allocated belong to no page now (past EOF, or
 * under a new page the file grew into), and the store would go to a
 * page nobody writes back.
 */
static __cold __noreturn void mkwrite_truncated_bug(struct vm_area_struct *vma,
						    struct page *page)
{
	printk(KERN_EMERG "BUG: ->page_mkwrite %ps returned VM_FAULT_LOCKED "
	       "with page index %lu truncated meanwhile (its mapping is %s): "
	       "under the page lock it must check page->mapping, not only "
	       "i_size, and return VM_FAULT_NOPAGE when the page is gone\n",
	       vma->vm_ops->page_mkwrite, page->index,
	       page->mapping ? "another file's" : "NULL");
	dump_page(page, "->page_mkwrite returned it");
	panic("->page_mkwrite %ps returned a truncated page",
	      vma->vm_ops->page_mkwrite);
}

/*
 * Tell the file system that page is about to become writable through a
 * shared mapping: ->page_mkwrite may allocate its blocks, or refuse.
 * Called with the page unlocked and referenced; returns with it locked
 * (VM_FAULT_LOCKED), or with an error / VM_FAULT_NOPAGE (truncated
 * meanwhile: the fault is retried) and the page unlocked.
 */
static int do_page_mkwrite(struct vm_area_struct *vma, struct page *page,
			   unsigned long address)
{
	struct vm_fault vmf = {
		.vma = vma,
		.address = address,
		.flags = FAULT_FLAG_WRITE,
		.pgoff = page->index,
		.page = page,
	};
	int ret = 0;

	if (vma->vm_ops && vma->vm_ops->page_mkwrite) {
		count_vm_event(MKWRITE);
		fail_delay(FD_MKWRITE_BEFORE_LOCK);
		ret = vma->vm_ops->page_mkwrite(&vmf);
		if (ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE))
			return ret;
		if ((ret & VM_FAULT_LOCKED) && unlikely(!PageLocked(page)))
			mkwrite_page_bug(vma, page);
		if ((ret & VM_FAULT_LOCKED) &&
		    unlikely(page->mapping != vma->vm_file->f_inode->i_mapping))
			mkwrite_truncated_bug(vma, page);
	}
	if (!(ret & VM_FAULT_LOCKED)) {
		lock_page(page);
		if (!page->mapping) {
			unlock_page(page);
			return VM_FAULT_NOPAGE;
		}
	}
	return VM_FAULT_LOCKED;
}

/*
 * A store through a shared mapping dirtied a page without write(2)'s
 * throttle: take part in it here (Linux: fault_dirty_shared_page), or such
 * stores fill memory with dirty pages that reclaim must then write one by
 * one. Called with no page locked.
 */
static void fault_dirty_shared_page(struct vm_area_struct *vma)
{
	balance_dirty_pages_ratelimited(vma->vm_file->f_inode->i_mapping);
}

/* Does pte still map page? (It may have been zapped while we slept.) */
static bool pte_maps(pte_t *pte, struct page *page)
{
	return (*pte & _PAGE_PRESENT) && pte_page(*pte) == page;
}

/*
 * page_mkwrite found the page gone from the file (truncated), yet our PTE
 * maps it. As in Linux the fault is simply retried: truncation unmaps a
 * page before it drops it and again afterwards, so the second unmap will
 * take the PTE away, and the retry finds SIGBUS or the new page. That
 * holds while the truncate is running (AS_RESIZING, set by do_truncate
 * until it is done): yield to it. Once none is, nothing will ever remove
 * the PTE and the retry would fault the same way forever: a kernel bug (a
 * truncate that did not unmap, or a fault that mapped the page after it
 * left the file), said at once instead of livelocking the process.
 */
static void check_stale_pte(struct vm_area_struct *vma, pte_t *pte,
			    struct page *page, unsigned long address)
{
	struct inode *inode = vma->vm_file->f_inode;

	if (page->mapping)
		return;
	if (mapping_resizing(inode->i_mapping)) {
		schedule_timeout_interruptible(1);
		return;
	}
	/* The flag first, then the PTE: truncate clears the PTE (its second
	 * unmap) before the flag, so a PTE seen after the flag was seen
	 * clear is one no truncate will take away. The other order judged
	 * a PTE read just before the second unmap, with the flag read just
	 * after the truncate ended: a false report, seen once in 100 runs
	 * of the race stress on four CPUs (mapcount already 0 in it). x86
	 * keeps loads in order; the barrier keeps the compiler from
	 * swapping them. */
	barrier();
	if (!pte_maps(pte, page))
		return;
	pr_emerg("BUG: page fault on a page truncated from the file is still "
		 "mapped: did truncate unmap it?\n");
	pr_emerg("BUG: %s[%d] stores at %#lx: file page %lu of inode %lu "
		 "(i_size %ld) left the page cache, but this PTE still maps "
		 "it (mapcount %d)\n", current->comm, current->pid, address,
		 page->index, inode->i_ino, (long)i_size_read(inode),
		 page->_mapcount + 1);
	panic("stale PTE of a truncated page at %#lx", address);
}

/*
 * A store to a clean shared file page mapped read-only: page_mkwrite,
 * then the PTE becomes writable and the page dirty, under the page lock
 * so that writeback (which write-protects under it) cannot slip between.
 * (The handouts of labs mkwrite and race called it do_shared_wp_page.)
 */
static int wp_page_shared(struct vm_area_struct *vma, pte_t *pte,
			  unsigned long address)
{
	pte_t entry = READ_ONCE(*pte);
	struct page *page = pte_page(entry);
	int ret;

	/* Truncate's unmap takes no page_table_lock: on another CPU it may
	 * have cleared this PTE since __handle_mm_fault looked (pte_page
	 * of 0 is pfn 0) and dropped the page's last reference. Take one
	 * only if the page still has one and this PTE still maps it; else
	 * the store faults again and finds what is there now. */
	if (!(entry & _PAGE_PRESENT) || !get_page_unless_zero(page))
		return 0;
	if (!pte_maps(pte, page)) {
		put_page(page);
		return 0;
	}
	ret = do_page_mkwrite(vma, page, address);
	if (ret & VM_FAULT_LOCKED) {
		spin_lock(&vma->vm_mm->page_table_lock);
		if (pte_maps(pte, page)) {
			*pte |= _PAGE_RW | _PAGE_DIRTY;
			invlpg(address);
			set_page_dirty(page);
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
		unlock_page(page);
		put_page(page);
		fault_dirty_shared_page(vma);
		return 0;
	}
	if (ret & VM_FAULT_NOPAGE)
		check_stale_pte(vma, pte, page, address);
	put_page(page);
	return ret & ~VM_FAULT_NOPAGE;
}

static int do_wp_page(struct vm_area_struct *vma, pte_t *pte,
		      unsigned long address)
{
	int ret;

	if ((vma->vm_flags & VM_SHARED) && vma->vm_file)
		return wp_page_shared(vma, pte, address);
	ret = wp_page_copy(vma, pte, address);
	/* The copy flushed this CPU's TLB; a thread of this mm on another
	 * CPU may still read the old page through its own until this
	 * flush. The old page cannot be freed before it: zap_pte handed
	 * the PTE's reference to tlb_put_page, which drops it only after
	 * this task's flush. (Linux: ptep_clear_flush, under the lock.) */
	flush_tlb_page(vma, address);
	return ret;
}

/* The file page index of address in vma. */
static unsigned long linear_page_index(struct vm_area_struct *vma,
				       unsigned long address)
{
	return vma->vm_pgoff + ((address - vma->vm_start) >> PAGE_SHIFT);
}

static __cold __noreturn void fault_page_bug(struct vm_fault *vmf,
					     const char *bad)
{
	int (*fault)(struct vm_fault *) = vmf->vma->vm_ops->fault;
	struct page *page = vmf->page;

	printk(KERN_EMERG "BUG: ->fault %ps returned %s (page %p, pgoff %lu): "
	       "it must return the page of pgoff locked, with "
	       "VM_FAULT_LOCKED\n", fault, bad, page, vmf->pgoff);
	if (page)
		dump_page(page, "->fault returned it");
	panic("->fault %ps returned %s", fault, bad);
}

/*
 * What ->fault handed back must be what __do_fault's callers rely on: a
 * page, locked (so truncation cannot take it before the PTE is set), of
 * this file at this index. A ->fault that breaks this is stopped here,
 * named, rather than found later as a hang or a page of the wrong file.
 */
static void check_fault_page(struct vm_fault *vmf, int ret)
{
	struct address_space *mapping = vmf->vma->vm_file ?
		vmf->vma->vm_file->f_inode->i_mapping : NULL;
	struct page *page = vmf->page;
	const char *bad = NULL;

	if (!(ret & VM_FAULT_LOCKED))
		bad = "without VM_FAULT_LOCKED";
	else if (!page)
		bad = "VM_FAULT_LOCKED and no page";
	else if (!PageLocked(page))
		bad = "VM_FAULT_LOCKED with the page unlocked";
	else if (page->mapping != mapping)
		bad = page->mapping ? "a page of another file"
				    : "a page truncated from the file";
	else if (page->index != vmf->pgoff)
		bad = "a page at the wrong index";
	if (likely(!bad))
		return;
	fault_page_bug(vmf, bad);
}

/*
 * Under the explorer, what ->fault decided is checked against i_size too
 * (<kernel/explore.h>). Between two points of the faulting task no other
 * explored task runs, so i_size_changes, unchanged since ->fault last
 * locked a page, says that the size ->fault could see under that lock is
 * the size now. Then a page it returns must be inside i_size, and a
 * SIGBUS must be for an offset outside it. (Outside the explorer a size
 * may change at any moment, and nothing can be concluded.)
 */
static __cold __noreturn void explore_fault_bug(struct vm_fault *vmf,
						bool page)
{
	struct inode *inode = vmf->vma->vm_file->f_inode;
	const char *what = page ? "returned a locked page" : "returned SIGBUS";

	printk(KERN_EMERG "BUG: explore: ->fault %ps %s for page %lu, %s "
	       "i_size %lld, which has not changed since it last locked a "
	       "page\n", vmf->vma->vm_ops->fault, what, vmf->pgoff,
	       page ? "past" : "inside", (long long)i_size_read(inode));
	if (page) {
		printk(KERN_EMERG "(it must look at i_size again once it holds "
		       "the page lock, and refuse a page past it)\n");
		dump_page(vmf->page, "->fault returned it");
	} else {
		printk(KERN_EMERG "(a page truncated meanwhile must be looked "
		       "up again: the file may have grown back)\n");
	}
	panic("->fault %s past what i_size says", what);
}

static void explore_check_fault(struct vm_fault *vmf, int ret)
{
	struct inode *inode = vmf->vma->vm_file->f_inode;
	bool past = vmf->pgoff >=
		    (i_size_read(inode) + PAGE_SIZE - 1) >> PAGE_SHIFT;

	if (current->explore_lock_gen != i_size_changes)
		return;
	if ((ret & VM_FAULT_LOCKED) && vmf->page && past)
		explore_fault_bug(vmf, true);
	if ((ret & VM_FAULT_SIGBUS) && !past)
		explore_fault_bug(vmf, false);
}

/*
 * vm_ops->fault for vmf->pgoff: VM_FAULT_LOCKED (maybe | VM_FAULT_MAJOR)
 * with the page locked and referenced in vmf->page, inside i_size; or
 * VM_FAULT_* error bits, no page. The reference becomes the PTE's, or the
 * caller drops it.
 */
static int __do_fault(struct vm_fault *vmf)
{
	int ret;

	vmf->page = NULL;
	ret = vmf->vma->vm_ops->fault(vmf);
	if (!(ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY)))
		check_fault_page(vmf, ret);
	if (unlikely(explore_active) && vmf->vma->vm_file &&
	    explore_current())
		explore_check_fault(vmf, ret);
	if (!(ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY)))
		fail_delay(FD_FAULT_PAGE_LOCKED); /* truncate waits on our lock */
	return ret;
}

/*
 * Map the locked page vmf->page at vmf->pte with prot, then unlock it. The
 * PTE is set before the unlock: truncation locks every page it drops and
 * unmaps again afterwards, so it either finds this PTE or has made
 * ->fault fail. Returns 0, or VM_FAULT_NOPAGE (the page released) when
 * the PTE is no longer empty (another thread of the mm faulted it in).
 */
static int finish_fault(struct vm_fault *vmf, pte_t prot)
{
	spinlock_t *ptl = &vmf->vma->vm_mm->page_table_lock;
	struct page *page = vmf->page;

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	spin_lock(ptl);
	if (*vmf->pte & _PAGE_PRESENT) {
		spin_unlock(ptl);
		unlock_page(page);
		put_page(page);
		return VM_FAULT_NOPAGE;
	}
	do_set_pte(vmf->vma->vm_mm, vmf->pte, page, prot);
	spin_unlock(ptl);
	unlock_page(page);
	return 0;
}

/*
 * A read fault on a file page: map it read-only, so that the first store
 * faults again (private mappings copy then, shared ones call
 * page_mkwrite).
 */
static int do_read_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	int ret = __do_fault(vmf);

	if (ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY))
		return ret;
	if (finish_fault(vmf, vm_page_prot(vma->vm_flags) & ~_PAGE_RW))
		return 0;
	if (vma->vm_ops->map_pages)
		do_fault_around(vmf);	/* not part of any lab */
	return ret & VM_FAULT_MAJOR;
}

/*
 * A write fault on a private file mapping: the store must never reach
 * the file, so the PTE gets a private copy of the file's page at once.
 * (Linux allocates the copy before __do_fault; the handouts called this
 * map_private_copy.)
 */
static int do_cow_fault(struct vm_fault *vmf)
{
	struct page *page, *new;
	int ret = __do_fault(vmf);

	if (ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY))
		return ret;
	page = vmf->page;
	new = alloc_page(GFP_KERNEL);
	if (!new) {
		unlock_page(page);
		put_page(page);
		return VM_FAULT_OOM | (ret & VM_FAULT_MAJOR);
	}
	memcpy(page_address(new), page_address(page), PAGE_SIZE);
	/* The copy is mapped while the file's page is still locked, as
	 * finish_fault maps a page: a truncate waits for this lock before
	 * it drops the page, and unmaps again (private copies too) after.
	 * Mapped after the unlock, the copy could miss that unmap and keep
	 * data from past the new end of the file. */
	spin_lock(&vmf->vma->vm_mm->page_table_lock);
	if (*vmf->pte & _PAGE_PRESENT) {	/* another thread's fault */
		put_page(new);
	} else {
		do_set_pte(vmf->vma->vm_mm, vmf->pte, new,
			   vm_page_prot(vmf->vma->vm_flags));
		count_vm_event(COW_FAULT);
	}
	spin_unlock(&vmf->vma->vm_mm->page_table_lock);
	unlock_page(page);
	put_page(page);
	return ret & VM_FAULT_MAJOR;
}

/*
 * A write fault on a shared file mapping: page_mkwrite first (the file
 * system may allocate blocks, or refuse), then the PTE is set writable
 * and dirty under the page lock page_mkwrite returned.
 */
static int do_shared_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct page *page;
	int ret = __do_fault(vmf), mk;

	if (ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY))
		return ret;
	page = vmf->page;
	unlock_page(page);
	mk = do_page_mkwrite(vma, page, vmf->address);
	if (!(mk & VM_FAULT_LOCKED)) {
		put_page(page);
		return mk;
	}
	set_page_dirty(page);
	if (finish_fault(vmf, vm_page_prot(vma->vm_flags) | _PAGE_DIRTY))
		return 0;
	fault_dirty_shared_page(vma);
	return ret & VM_FAULT_MAJOR;
}

/*
 * A fault on an empty PTE of a file mapping (the handouts called it
 * do_file_fault): a read, a write to a private mapping, or a write to a
 * shared one. VM_FAULT_NOPAGE and VM_FAULT_RETRY stay here: either way
 * the access is simply retried.
 */
static int do_fault(struct vm_area_struct *vma, pte_t *pte,
		    unsigned long address, unsigned int flags)
{
	struct vm_fault vmf = {
		.vma = vma,
		.address = address,
		.flags = flags,
		.pgoff = linear_page_index(vma, address),
		.pte = pte,
	};
	int ret;

	if (!(flags & FAULT_FLAG_WRITE))
		ret = do_read_fault(&vmf);
	else if (!(vma->vm_flags & VM_SHARED))
		ret = do_cow_fault(&vmf);
	else
		ret = do_shared_fault(&vmf);
	return ret & ~(VM_FAULT_NOPAGE | VM_FAULT_RETRY);
}

static int wp_fault(struct vm_area_struct *vma, pte_t *pte,
		    unsigned long address, unsigned int flags)
{
	return do_wp_page(vma, pte, address);
}

/* A fault on a file mapping: where the explorer numbers its points.
 * Inlined, so that fn is a direct call. */
static inline __attribute__((always_inline)) int
explored_fault(struct vm_area_struct *vma, pte_t *pte, unsigned long address,
	       unsigned int flags,
	       int (*fn)(struct vm_area_struct *, pte_t *, unsigned long,
			 unsigned int))
{
	int ret;

	explore_enter();
	ret = fn(vma, pte, address, flags);
	explore_exit();
	return ret;
}

static int __handle_mm_fault(struct vm_area_struct *vma,
			     unsigned long address, unsigned int flags)
{
	pte_t *pte = lookup_pte(vma->vm_mm->pgd, address & PAGE_MASK, true);
	pte_t entry;

	address &= PAGE_MASK;
	if (!pte)
		return VM_FAULT_OOM;
	/* One look, without the lock: the handlers look again under it
	 * (reclaim or truncate may zap the entry at any moment). */
	entry = READ_ONCE(*pte);
	current->fault_pte = pte;	/* what zap_pte may replace */
	current->fault_entry = entry;
	if (!(entry & _PAGE_PRESENT)) {
		if (vma->vm_ops && vma->vm_ops->fault)
			return explored_fault(vma, pte, address, flags,
					      do_fault);
		return do_anonymous_page(vma, pte, address);
	}
	if ((flags & FAULT_FLAG_WRITE) && !(entry & _PAGE_RW))
		return vma->vm_file ? explored_fault(vma, pte, address, flags,
						     wp_fault)
				    : do_wp_page(vma, pte, address);
	/* Present and allowed: another path fixed it first, or a stale TLB. */
	invlpg(address);
	return 0;
}

int handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
		    unsigned int flags)
{
	unsigned long fault_entry;
	void *fault_pte;
	int ret;

	mmap_assert_locked(vma->vm_mm);
	count_vm_event(PGFAULT);
	fault_pte = current->fault_pte;	/* a fault within a fault */
	fault_entry = current->fault_entry;
	ret = __handle_mm_fault(vma, address, flags);
	current->fault_pte = fault_pte;
	current->fault_entry = fault_entry;
	/* Out of memory in a program's access: the biggest task dies
	 * instead (mm/oom_kill.c), and the access faults again. */
	if ((ret & VM_FAULT_OOM) && (flags & FAULT_FLAG_USER) &&
	    out_of_memory())
		return 0;
	/* The faulting task's counts (getrusage, /proc/PID/stat), as
	 * Linux's mm_account_fault: a fault that had to wait for the disk
	 * is major (->fault said VM_FAULT_MAJOR); a failed one counts not
	 * at all. */
	if (!(ret & VM_FAULT_ERROR)) {
		if (ret & VM_FAULT_MAJOR)
			current->maj_flt++;
		else
			current->min_flt++;
	}
	return ret;
}

void zap_page_range(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end)
{
	unsigned long flushed = start;	/* [start, flushed): flushed */
	struct mm_struct *mm = vma->vm_mm;

	mmap_assert_write_locked(mm);
	current->tlb_free_now = mm == current->mm &&
				READ_ONCE(mm->mm_users) == 1;
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		pte_t *pte;

		a = next_pte_table(vma->vm_mm->pgd, a, end);
		if (a >= end)
			break;
		/* The pages held for the flush are many: flush what this
		 * range cleared so far (only the CPUs that have this mm
		 * loaded), which lets them go, rather than have
		 * tlb_put_page flush every TLB on every CPU. */
		if (tlb_batch_full()) {
			flush_tlb_range(vma, flushed, a);
			flushed = a;
		}
		spin_lock(&vma->vm_mm->page_table_lock);
		pte = lookup_pte(vma->vm_mm->pgd, a, false);
		if (pte)
			zap_pte(pte);
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	current->tlb_free_now = false;
	flush_tlb_range(vma, flushed, end);
}

/*
 * LAB truncate-old: unmap_mapping_range starts from this.
 * void unmap_mapping_range(struct address_space *mapping, loff_t holebegin,
 *			    loff_t holelen, bool even_cows)
 * {
 * }
 */
/* LAB truncate-old: BEGIN */
/* Zap the PTEs of file pages [first, last] in vma (its part of them).
 * Unless even_cows, private anonymous copies stay. The page-table lock
 * keeps out a fault of the same mm that changes a PTE in two steps (a
 * read, then a write: it would put back what we cleared). */
static void zap_file_range(struct vm_area_struct *vma, pgoff_t first,
			   pgoff_t last, bool even_cows)
{
	pgoff_t vfirst = vma->vm_pgoff;
	pgoff_t vlast = vfirst + ((vma->vm_end - vma->vm_start) >> PAGE_SHIFT) - 1;

	if (last < vfirst || first > vlast)
		return;
	first = first > vfirst ? first : vfirst;
	last = last < vlast ? last : vlast;
	spin_lock(&vma->vm_mm->page_table_lock);
	for (pgoff_t i = first; i <= last; i++) {
		unsigned long a = vma_address(vma, i);
		pte_t *pte = lookup_pte(vma->vm_mm->pgd, a, false);

		if (!pte || !(*pte & _PAGE_PRESENT))
			continue;
		if (!even_cows && !pte_page(*pte)->mapping)
			continue;	/* a private copy: not the file's page */
		zap_pte(pte);
		flush_tlb_page(vma, a);
	}
	spin_unlock(&vma->vm_mm->page_table_lock);
}

void unmap_mapping_range(struct address_space *mapping, loff_t holebegin,
			 loff_t holelen, bool even_cows)
{
	pgoff_t first = holebegin >> PAGE_SHIFT;
	pgoff_t last = holelen ? first + ((holelen + PAGE_SIZE - 1) >> PAGE_SHIFT) - 1
			       : ~0UL;
	struct vm_area_struct *vma;

	spin_lock(&mapping->i_mmap_lock);
	list_for_each_entry(vma, &mapping->i_mmap, shared)
		zap_file_range(vma, first, last, even_cows);
	spin_unlock(&mapping->i_mmap_lock);
}
/* LAB truncate-old: END */

/*
 * fork: the child maps the same pages. Private writable pages become
 * read-only in both, so the first write by either copies (do_wp_page).
 */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src,
		    struct vm_area_struct *vma)
{
	bool cow = (vma->vm_flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE;

	mmap_assert_write_locked(src);	/* no fault undoes the COW bits */
	for (unsigned long a = vma->vm_start; a < vma->vm_end; a += PAGE_SIZE) {
		pte_t *spte, *dpte;
		struct page *page;

		a = next_pte_table(src->pgd, a, vma->vm_end);
		if (a >= vma->vm_end)
			break;
		spte = lookup_pte(src->pgd, a, false);
		if (!spte || !(*spte & _PAGE_PRESENT))
			continue;
		dpte = lookup_pte(dst->pgd, a, true);
		if (!dpte)
			return -ENOMEM;
		/* Allocating the child's table may have slept in reclaim,
		 * which unmaps file pages: look at the PTE again. (Found by
		 * stress-ng: a zapped text PTE copied as page frame 0.) */
		spin_lock(&src->page_table_lock);
		spin_lock(&dst->page_table_lock);
		if (*spte & _PAGE_PRESENT) {
			if (cow)
				*spte &= ~_PAGE_RW;
			page = pte_page(*spte);
			get_page(page);	/* the child's PTE's reference */
			do_set_pte(dst, dpte, page, *spte & ~PTE_ADDR_MASK);
		}
		spin_unlock(&dst->page_table_lock);
		spin_unlock(&src->page_table_lock);
	}
	return 0;
}

/* Free the tables below one entry at `level` (3: a PUD table, 1: a PT). */
static void free_table(pte_t *table, int level)
{
	for (int i = 0; level > 1 && i < PTRS_PER_TABLE; i++)
		if (table[i] & _PAGE_PRESENT)
			free_table(pte_table(table[i]), level - 1);
	free_page((unsigned long)table);
}

void free_pgtables(struct mm_struct *mm)
{
	for (int i = 0; i < PTRS_PER_TABLE / 2; i++) {
		if (mm->pgd[i] & _PAGE_PRESENT)
			free_table(pte_table(mm->pgd[i]), 3);
		mm->pgd[i] = 0;
	}
}
