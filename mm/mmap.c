/*
 * mm/mmap.c: address spaces and their regions.
 *
 * An mm_struct owns a PML4 whose upper half is copied from the kernel's
 * (init_pgd), so the kernel is mapped in every address space; the kernel
 * never adds PML4 entries after boot, so the copies never go stale. The
 * lower half holds the user's regions (VMAs) and their pages.
 *
 * This file: creating, copying and destroying mm_structs; finding,
 * inserting, splitting and removing VMAs; mmap, munmap, mprotect, brk.
 * The threads of a process share its mm (clone(CLONE_VM)); mm_users
 * counts them, atomically, and the last mmput frees it. Its VMAs are
 * under mm->mmap_lock (<mm/mmap_lock.h>): the system calls here take it
 * for write (msync for read), and every helper that reads the VMAs
 * asserts it is held (for write, those that change them), so a caller
 * that forgot it is named at once.
 */
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/overcommit.h>
#include <mm/shmem.h>
#include <mm/gfp.h>
#include <mm/filemap.h>
#include <mm/rmap.h>
#include <mm/writeback.h>
#include <mm/slab.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>
#include <asm/processor.h>
#include <fs/fs.h>
#include <fs/file.h>

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->pgd = (pte_t *)get_zeroed_page(GFP_KERNEL);
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	memcpy(mm->pgd + PTRS_PER_TABLE / 2, init_pgd + PTRS_PER_TABLE / 2,
	       PAGE_SIZE / 2);
	INIT_LIST_HEAD(&mm->mmap);
	mmap_init_lock(mm);
	spin_lock_init(&mm->page_table_lock);
	mm->mm_users = 1;
	mm->mmap_base = MMAP_BASE;
	return mm;
}

/* Give vma a reference to file and put it on the file's i_mmap. */
void vma_set_file(struct vm_area_struct *vma, struct file *file)
{
	vma->vm_file = get_file(file);
	vma_link_file(vma);
}

static void vma_free(struct vm_area_struct *vma)
{
	mmap_assert_write_locked(vma->vm_mm);
	if (vma->vm_flags & VM_ACCOUNT)
		vm_unacct_memory((vma->vm_end - vma->vm_start) >> PAGE_SHIFT);
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	if (vma->vm_file) {
		vma_unlink_file(vma);
		fput(vma->vm_file);
	}
	list_del(&vma->vm_list);
	vma->vm_mm->map_count--;
	kfree(vma);
}

void mmget(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->mm_users, 1, __ATOMIC_SEQ_CST);
}

struct mm_struct *get_task_mm(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (mm)
		mmget(mm);
	return mm;
}

int mm_users(struct mm_struct *mm)
{
	return __atomic_load_n(&mm->mm_users, __ATOMIC_RELAXED);
}

/* The last user tears mm down. Nobody else can reach it any more, but
 * the helpers assert the lock all the same (an uncontended write lock:
 * Linux's exit_mmap takes it too). */
void mmput(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *tmp;

	if (__atomic_sub_fetch(&mm->mm_users, 1, __ATOMIC_SEQ_CST))
		return;
	mmap_write_lock(mm);
	list_for_each_entry_safe(vma, tmp, &mm->mmap, vm_list) {
		zap_page_range(vma, vma->vm_start, vma->vm_end);
		vma_free(vma);
	}
	free_pgtables(mm);
	mmap_write_unlock(mm);
	free_page((unsigned long)mm->pgd);
	set_mm_exe_file(mm, NULL);
	kfree(mm);
}

/* Replace mm's executable; takes over the caller's reference to file and
 * its write denial. */
void set_mm_exe_file(struct mm_struct *mm, struct file *file)
{
	if (mm->exe_file) {
		allow_write_access(mm->exe_file);
		fput(mm->exe_file);
	}
	mm->exe_file = file;
}

/* Called by schedule(). */
void switch_mm(struct task_struct *prev, struct task_struct *next)
{
	if (next->mm != prev->mm)
		switch_to_mm(next->mm);
}

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (vma->vm_end > addr)
			return vma;
	return NULL;
}

static void vma_link(struct mm_struct *mm, struct vm_area_struct *new)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (vma->vm_start > new->vm_start)
			break;
	list_add_tail(&new->vm_list, &vma->vm_list);	/* before vma */
	mm->map_count++;
}

struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long flags)
{
	struct vm_area_struct *vma;

	mmap_assert_write_locked(mm);
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return NULL;
	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_flags = flags;
	vma->vm_mm = mm;
	INIT_LIST_HEAD(&vma->shared);
	vma_link(mm, vma);
	return vma;
}

/* Split vma at addr: vma keeps [start, addr), a new VMA gets the rest. */
static int split_vma(struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *tail;

	mmap_assert_write_locked(vma->vm_mm);
	tail = kmalloc(sizeof(*tail), GFP_KERNEL);
	if (!tail)
		return -ENOMEM;
	*tail = *vma;
	tail->vm_start = addr;
	tail->vm_pgoff += (addr - vma->vm_start) >> PAGE_SHIFT;
	INIT_LIST_HEAD(&tail->shared);
	if (vma->vm_file)
		vma_set_file(tail, vma->vm_file);
	vma->vm_end = addr;
	list_add(&tail->vm_list, &vma->vm_list);
	vma->vm_mm->map_count++;
	if (tail->vm_ops && tail->vm_ops->open)
		tail->vm_ops->open(tail);
	return 0;
}

/* Make VMA edges fall on start and end, so whole VMAs cover the range. */
int split_range(struct mm_struct *mm, unsigned long start,
		       unsigned long end)
{
	struct vm_area_struct *vma;
	int err = 0;

	mmap_assert_write_locked(mm);
	vma = find_vma(mm, start);
	if (vma && vma->vm_start < start)
		err = split_vma(vma, start);
	vma = find_vma(mm, end);
	if (!err && vma && vma->vm_start < end)
		err = split_vma(vma, end);
	return err;
}

int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + PAGE_ALIGN(len);
	struct vm_area_struct *vma, *tmp;
	int err;

	mmap_assert_write_locked(mm);
	if (!IS_ALIGNED(start, PAGE_SIZE) || !len || end > TASK_SIZE ||
	    end < start)
		return -EINVAL;
	err = split_range(mm, start, end);
	if (err)
		return err;
	list_for_each_entry_safe(vma, tmp, &mm->mmap, vm_list) {
		if (vma->vm_start >= end)
			break;
		if (vma->vm_end <= start)
			continue;
		zap_page_range(vma, vma->vm_start, vma->vm_end);
		vma_free(vma);
	}
	return 0;
}

/* Highest free gap of len bytes below mm->mmap_base, or 0. */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len)
{
	unsigned long top = mm->mmap_base;
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	/* Walk from the highest VMA down, looking for room under top. */
	for (vma = list_entry(mm->mmap.prev, struct vm_area_struct, vm_list);
	     &vma->vm_list != &mm->mmap;
	     vma = list_entry(vma->vm_list.prev, struct vm_area_struct,
			      vm_list)) {
		if (vma->vm_start >= top)
			continue;
		if (vma->vm_end + len <= top)
			return top - len;
		top = vma->vm_start;
	}
	return top >= len + PAGE_SIZE * 16 ? top - len : 0;
}

static unsigned long prot_to_vm_flags(unsigned long prot, unsigned long flags,
				      struct file *file)
{
	unsigned long vm = VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;

	if (prot & PROT_READ)
		vm |= VM_READ;
	if (prot & PROT_WRITE)
		vm |= VM_WRITE;
	if (prot & PROT_EXEC)
		vm |= VM_EXEC;
	if ((flags & MAP_TYPE) != MAP_PRIVATE)
		vm |= VM_SHARED | VM_MAYSHARE;
	/* A shared mapping of a file not open for writing can never write
	 * it (mprotect included), so it is shared in name only, as Linux. */
	if (file && (vm & VM_SHARED) && !(file->f_mode & FMODE_WRITE))
		vm &= ~(VM_SHARED | VM_MAYWRITE);
	return vm;
}

/* What Linux refuses before mapping a file: 0 or -errno. */
static int mmap_file_checks(struct file *file, unsigned long prot,
			    unsigned long flags, unsigned long pgoff,
			    unsigned long len)
{
	if (!file->f_op || !file->f_op->mmap)
		return -ENODEV;
	if (!(file->f_mode & FMODE_READ))
		return -EACCES;
	if ((flags & MAP_TYPE) != MAP_PRIVATE && (prot & PROT_WRITE) &&
	    (!(file->f_mode & FMODE_WRITE) || IS_APPEND(file->f_inode)))
		return -EACCES;	/* stores could land anywhere, not appended */
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	return 0;
}

/*
 * Does a new mapping commit memory? Private writable ones may need a copy
 * of every page, shared anonymous ones a page each; shared file pages
 * belong to the file. MAP_NORESERVE opts out unless overcommit is 2.
 */
static bool needs_account(unsigned long vm_flags, struct file *file,
			  unsigned long flags)
{
	if ((flags & MAP_NORESERVE) &&
	    sysctl_overcommit_memory != OVERCOMMIT_NEVER)
		return false;
	if (vm_flags & VM_SHARED)
		return !file;
	return vm_flags & VM_WRITE;
}

/* The VMA maps file from page pgoff: the file system's ->mmap decides
 * how (vm_ops). Returns its address, or an error with the VMA gone. */
static unsigned long mmap_file(struct vm_area_struct *vma, struct file *file,
			       unsigned long pgoff)
{
	int err;

	vma->vm_pgoff = pgoff;
	vma_set_file(vma, file);
	err = file->f_op->mmap(file, vma);
	if (err) {
		vma_free(vma);
		return err;
	}
	return vma->vm_start;
}

/*
 * Shared anonymous memory must stay shared across fork, so its pages
 * cannot be private anonymous pages: like Linux, map an unlinked file
 * instead (mm/shmem.c), whose pages come one fault at a time.
 */
static unsigned long mmap_shared_anon(struct vm_area_struct *vma)
{
	struct file *file = shmem_file_setup(vma->vm_end - vma->vm_start);
	unsigned long ret;

	if (IS_ERR(file)) {
		vma_free(vma);
		return PTR_ERR(file);
	}
	ret = mmap_file(vma, file, 0);
	fput(file);	/* the VMA holds its own reference */
	return ret;
}

/* Pages mm maps, all VMAs together (Linux's mm->total_vm); 0 with no mm:
 * VmSize, /proc/PID/stat's vsize, mlockall's limit. mmap_lock held. */
unsigned long mm_total_vm(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

	if (!mm)
		return 0;
	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list)
		pages += (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
	return pages;
}

/* Map the free range [addr, addr + len) of mm with vm_flags: file from
 * page pgoff, or anonymous memory. Returns addr, or -errno with nothing
 * mapped (and VM_ACCOUNT's charge returned). exec maps a program with it
 * into an mm that is not yet current. */
unsigned long mmap_region(struct mm_struct *mm, struct file *file,
			  unsigned long addr, unsigned long len,
			  unsigned long vm_flags, unsigned long pgoff)
{
	struct vm_area_struct *vma = vma_create(mm, addr, addr + len, vm_flags);

	if (!vma) {	/* (vma_create asserted mmap_lock held for write) */
		if (vm_flags & VM_ACCOUNT)
			vm_unacct_memory(len >> PAGE_SHIFT);
		return -ENOMEM;
	}
	if (file)
		return mmap_file(vma, file, pgoff);
	if (vm_flags & VM_SHARED)
		return mmap_shared_anon(vma);
	return addr;
}

/*
 * The lowest address a mapping may have (Linux's vm.mmap_min_addr, 65536
 * in Debian's kernels): a NULL pointer, or one a small offset from it,
 * must fault, so that a kernel bug that follows one cannot be steered
 * into memory the user chose. Root (CAP_SYS_RAWIO) is exempt, as on
 * Linux. 0 or -EPERM.
 */
int mmap_addr_allowed(unsigned long addr)
{
	if (addr < MMAP_MIN_ADDR && current->cred.euid != 0)
		return -EPERM;
	return 0;
}

unsigned long do_mmap(struct file *file, unsigned long addr,
		      unsigned long len, unsigned long prot,
		      unsigned long flags, unsigned long pgoff)
{
	struct mm_struct *mm = current->mm;
	unsigned long type = flags & MAP_TYPE, vm_flags;

	mmap_assert_write_locked(mm);
	if (!len || (type != MAP_PRIVATE && type != MAP_SHARED &&
		     type != MAP_SHARED_VALIDATE))
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len || len > TASK_SIZE)
		return -ENOMEM;
	if (file) {
		int err = mmap_file_checks(file, prot, flags, pgoff, len);

		if (err)
			return err;
	}
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (!IS_ALIGNED(addr, PAGE_SIZE) || addr + len > TASK_SIZE ||
		    addr + len < addr)
			return -EINVAL;
		if (mmap_addr_allowed(addr))
			return -EPERM;
		if ((flags & MAP_FIXED_NOREPLACE) && find_vma(mm, addr) &&
		    find_vma(mm, addr)->vm_start < addr + len)
			return -EEXIST;
		if (do_munmap(mm, addr, len))
			return -ENOMEM;
	} else {
		addr = get_unmapped_area(mm, len);
		if (!addr)
			return -ENOMEM;
	}
	vm_flags = prot_to_vm_flags(prot, flags, file);
	if (needs_account(vm_flags, file, flags)) {
		if (vm_enough_memory(len >> PAGE_SHIFT))
			return -ENOMEM;
		vm_flags |= VM_ACCOUNT;
	}
	return mmap_region(mm, file, addr, len, vm_flags, pgoff);
}

SYSCALL_DEFINE6(mmap, unsigned long, addr, unsigned long, len,
		unsigned long, prot, unsigned long, flags, int, fd,
		unsigned long, off)
{
	struct file *file = NULL;
	unsigned long ret;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		file = fget(fd);
		if (!file)
			return -EBADF;
	}
	mmap_write_lock(current->mm);
	ret = do_mmap(file, addr, len, prot, flags, off >> PAGE_SHIFT);
	mmap_write_unlock(current->mm);
	if (file)
		fput(file);	/* the VMA holds its own reference */
	return ret;
}

SYSCALL_DEFINE2(munmap, unsigned long, addr, size_t, len)
{
	struct mm_struct *mm = current->mm;
	int err;

	mmap_write_lock(mm);
	err = do_munmap(mm, addr, len);
	mmap_write_unlock(mm);
	return err;
}

/*
 * Rewrite the PTEs of vma for its new flags. COW pages stay read-only, and
 * so do shared file pages: their first store must reach page_mkwrite.
 */
static void change_protection(struct vm_area_struct *vma)
{
	bool cow = !(vma->vm_flags & VM_SHARED);

	mmap_assert_write_locked(vma->vm_mm);
	for (unsigned long a = vma->vm_start; a < vma->vm_end; a += PAGE_SIZE) {
		pte_t *pte;
		pte_t prot = vm_page_prot(vma->vm_flags);
		struct page *page;

		a = next_pte_table(vma->vm_mm->pgd, a, vma->vm_end);
		if (a >= vma->vm_end)
			break;
		spin_lock(&vma->vm_mm->page_table_lock);
		pte = lookup_pte(vma->vm_mm->pgd, a, false);
		if (pte && (*pte & _PAGE_PRESENT)) {
			page = pfn_to_page((*pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
			if ((*pte & _PAGE_DIRTY) && page->mapping)
				set_page_dirty(page);
			if ((cow && (page_count(page) > 1 || page->mapping)) ||
			    (!cow && vma->vm_file))
				prot &= ~_PAGE_RW;
			*pte = (*pte & PTE_ADDR_MASK) | prot;
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	flush_tlb_range(vma, vma->vm_start, vma->vm_end);
}

/* mprotect with mmap_lock held for write; [start, end) checked. */
static int do_mprotect(struct mm_struct *mm, unsigned long start,
		       unsigned long end, unsigned long prot)
{
	struct vm_area_struct *vma;
	unsigned long a;
	int err;

	for (a = start; a < end; a = vma->vm_end) {	/* all mapped? */
		vma = find_vma(mm, a);
		if (!vma || vma->vm_start > a)
			return -ENOMEM;
		/* A file opened read-only, mapped shared, stays read-only. */
		if ((prot & PROT_WRITE) && !(vma->vm_flags & VM_MAYWRITE))
			return -EACCES;
	}
	err = split_range(mm, start, end);
	if (err)
		return err;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_start >= end || vma->vm_end <= start)
			continue;
		/* Writable now, so it may need copies of its pages. */
		if ((prot & PROT_WRITE) &&
		    !(vma->vm_flags & (VM_SHARED | VM_ACCOUNT))) {
			if (vm_enough_memory((vma->vm_end - vma->vm_start) >>
					     PAGE_SHIFT))
				return -ENOMEM;
			vma->vm_flags |= VM_ACCOUNT;
		}
		vma->vm_flags = (vma->vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC)) |
				(prot_to_vm_flags(prot, MAP_PRIVATE, NULL) &
				 (VM_READ | VM_WRITE | VM_EXEC));
		change_protection(vma);
	}
	return 0;
}

SYSCALL_DEFINE3(mprotect, unsigned long, start, size_t, len,
		unsigned long, prot)
{
	struct mm_struct *mm = current->mm;
	unsigned long end = start + PAGE_ALIGN(len);
	int err;

	if (!IS_ALIGNED(start, PAGE_SIZE) || end < start || end > TASK_SIZE ||
	    (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)))
		return -EINVAL;
	mmap_write_lock(mm);
	err = do_mprotect(mm, start, end, prot);
	mmap_write_unlock(mm);
	return err;
}

/*
 * brk: the heap is one VMA from start_brk up to the page-aligned break.
 * Like Linux, a failed or too-low request just returns the current break.
 */
static unsigned long do_brk(struct mm_struct *mm, unsigned long newbrk)
{
	unsigned long old_end = PAGE_ALIGN(mm->brk), new_end;
	struct vm_area_struct *next;

	if (newbrk < mm->start_brk || newbrk > mm->mmap_base)
		return mm->brk;
	new_end = PAGE_ALIGN(newbrk);
	if (new_end < old_end) {
		if (do_munmap(mm, new_end, old_end - new_end))
			return mm->brk;
	} else if (new_end > old_end) {
		next = find_vma(mm, old_end);
		if (next && next->vm_start < new_end)
			return mm->brk;	/* would run into a mapping */
		if (vm_enough_memory((new_end - old_end) >> PAGE_SHIFT))
			return mm->brk;
		if (!vma_create(mm, old_end, new_end,
				VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE |
					VM_MAYEXEC | VM_ACCOUNT)) {
			vm_unacct_memory((new_end - old_end) >> PAGE_SHIFT);
			return mm->brk;
		}
	}
	mm->brk = newbrk;
	return newbrk;
}

SYSCALL_DEFINE1(brk, unsigned long, newbrk)
{
	struct mm_struct *mm = current->mm;
	unsigned long ret;

	mmap_write_lock(mm);
	ret = do_brk(mm, newbrk);
	mmap_write_unlock(mm);
	return ret;
}

#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4

/* Write back what a shared file mapping dirtied: MS_SYNC waits for it
 * (and the file's metadata, as fsync), MS_ASYNC only starts it. */
static int msync_file(struct file *file, int flags)
{
	if (flags & MS_ASYNC)
		return filemap_fdatawrite(file->f_inode->i_mapping);
	if (file->f_op->fsync)
		return file->f_op->fsync(file, 1);
	return filemap_write_and_wait(file->f_inode->i_mapping);
}

/* Is every page of [start, end) mapped? mmap_lock held. */
static bool range_mapped(struct mm_struct *mm, unsigned long start,
			 unsigned long end)
{
	struct vm_area_struct *vma;

	for (unsigned long a = start; a < end; a = vma->vm_end) {
		vma = find_vma(mm, a);
		if (!vma || vma->vm_start > a)
			return false;
	}
	return true;
}

/*
 * msync: check the request like Linux (flags, alignment, every page
 * mapped), then write back the shared file mappings in the range.
 * Anonymous memory has nothing to write back. As in Linux, the write-back
 * runs with mmap_lock released (holding a reference to the file): it
 * waits for the disk, and fsync may take i_mutex, which comes before
 * mmap_lock. The VMAs are looked up again after it.
 */
SYSCALL_DEFINE3(msync, unsigned long, start, size_t, len, int, flags)
{
	struct mm_struct *mm = current->mm;
	unsigned long end = start + PAGE_ALIGN(len), a;
	struct vm_area_struct *vma;
	struct file *file;
	int err = 0;

	if ((flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) ||
	    ((flags & MS_ASYNC) && (flags & MS_SYNC)) ||
	    !IS_ALIGNED(start, PAGE_SIZE) || end < start)
		return -EINVAL;
	mmap_read_lock(mm);
	if (!range_mapped(mm, start, end))
		err = -ENOMEM;
	for (a = start; a < end && !err && (flags & (MS_SYNC | MS_ASYNC));) {
		vma = find_vma(mm, a);
		if (!vma || vma->vm_start > a) {
			err = -ENOMEM;	/* unmapped while we wrote */
			break;
		}
		a = vma->vm_end;
		file = vma->vm_file;
		if (!file || !(vma->vm_flags & VM_SHARED))
			continue;
		get_file(file);
		mmap_read_unlock(mm);
		err = msync_file(file, flags);
		fput(file);
		mmap_read_lock(mm);
	}
	mmap_read_unlock(mm);
	return err;
}

/* No advice is acted on, so no VMA is looked at: no mmap_lock. (Linux
 * takes it for read for most advice, for write for the kinds that split
 * VMAs.) */
SYSCALL_DEFINE3(madvise, unsigned long, start, size_t, len, int, advice)
{
	return 0;	/* advice is only advice */
}

/*
 * Copy old's VMAs and share their pages with mm (fork). Both mmap_locks
 * held for write, as Linux's dup_mmap: old's because the copy
 * write-protects its PTEs, which a fault of another of its threads must
 * not undo half-way; mm's for the helpers' assertions (nobody else knows
 * mm yet). Two locks of one class, taken parent first.
 */
static int dup_mmap(struct mm_struct *mm, struct mm_struct *old)
{
	struct vm_area_struct *vma, *new;

	list_for_each_entry(vma, &old->mmap, vm_list) {
		unsigned long flags = vma->vm_flags & ~VM_ACCOUNT;

		/* The child's copy commits as much again. */
		if ((vma->vm_flags & VM_ACCOUNT) &&
		    !vm_enough_memory((vma->vm_end - vma->vm_start) >>
				      PAGE_SHIFT))
			flags |= VM_ACCOUNT;
		else if (vma->vm_flags & VM_ACCOUNT)
			return -ENOMEM;
		new = vma_create(mm, vma->vm_start, vma->vm_end, flags);
		if (!new) {
			if (flags & VM_ACCOUNT)
				vm_unacct_memory((vma->vm_end - vma->vm_start)
						 >> PAGE_SHIFT);
			return -ENOMEM;
		}
		if (vma->vm_file)
			vma_set_file(new, vma->vm_file);
		new->vm_pgoff = vma->vm_pgoff;
		new->vm_ops = vma->vm_ops;
		if (new->vm_ops && new->vm_ops->open)
			new->vm_ops->open(new);
		if (copy_page_range(mm, old, vma))
			return -ENOMEM;
	}
	return 0;
}

struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();
	int err;

	if (!mm)
		return NULL;
	mmap_write_lock(old);
	mmap_write_lock(mm);
	memcpy(&mm->start_code, &old->start_code,
	       offsetof(struct mm_struct, exe_file) -
		       offsetof(struct mm_struct, start_code));
	/* The child runs the same program: one more reference and denial
	 * (which cannot fail: writes are already denied). */
	if (old->exe_file && !deny_write_access(old->exe_file))
		mm->exe_file = get_file(old->exe_file);
	err = dup_mmap(mm, old);
	flush_tlb_mm(old);	/* the parent's PTEs lost their write bits */
	mmap_write_unlock(mm);
	mmap_write_unlock(old);
	if (err) {
		mmput(mm);
		return NULL;
	}
	return mm;
}
