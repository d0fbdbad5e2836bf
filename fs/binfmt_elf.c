/*
 * fs/binfmt_elf.c: map an ELF64 program, and its dynamic loader if it
 * names one, into a new address space.
 *
 * Nothing of the program is read here but its headers. Each PT_LOAD
 * segment becomes a private mapping of the file (Linux's elf_map): its
 * pages come from the page cache one fault at a time, text shared with
 * every other run of the same file, data copied on the first store. The
 * memory past the file's bytes (.bss) is anonymous, except the tail of
 * the last file page, which is zeroed here by hand: that page is part
 * file, part bss (Linux's padzero).
 *
 *   load_elf_binary      check the headers, map the program, set brk
 *     elf_read_headers   the ELF header and program headers
 *     elf_map_image      every PT_LOAD of one file, at a bias
 *       elf_map_segment  one PT_LOAD: file part, zeroed tail, bss
 *     open_interp        the PT_INTERP file (ld-linux, ld-musl), if any
 *     load_elf_interp    map it at a random base: AT_BASE, the start
 */
#include <kernel/binfmts.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/random.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <fs/file.h>
#include <fs/fs.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/slab.h>

#define ELF_ET_DYN_BASE 0x400000UL	/* where a PIE is placed (no ASLR) */

/* Read and check the ELF header and program headers of file. */
static int elf_read_headers(struct file *file, Elf64_Ehdr *eh,
			    Elf64_Phdr **phdrs)
{
	loff_t pos = 0;
	size_t size;

	if (kernel_read(file, eh, sizeof(*eh), &pos) != sizeof(*eh) ||
	    memcmp(eh->e_ident, ELFMAG, 4))
		return -ENOEXEC;
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 ||
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || !eh->e_phnum ||
	    eh->e_phnum > 64)
		return -ENOEXEC;
	size = eh->e_phnum * sizeof(Elf64_Phdr);
	*phdrs = kmalloc(size, GFP_KERNEL);
	if (!*phdrs)
		return -ENOMEM;
	pos = eh->e_phoff;
	if (kernel_read(file, *phdrs, size, &pos) != (ssize_t)size)
		return -ENOEXEC;
	return 0;
}

static unsigned long elf_vm_flags(const Elf64_Phdr *ph)
{
	return VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC |
	       (ph->p_flags & PF_R ? VM_READ : 0) |
	       (ph->p_flags & PF_W ? VM_WRITE : 0) |
	       (ph->p_flags & PF_X ? VM_EXEC : 0);
}

/* Zero [addr, end of its page) in vma: the bss that shares a page with
 * the file's last bytes. The store makes the page a private copy. */
static int padzero(struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long off = addr & ~PAGE_MASK;
	char *page;

	if (!off)
		return 0;
	page = get_arg_page(vma, addr);
	if (!page)
		return -ENOMEM;
	memset(page + off, 0, PAGE_SIZE - off);
	return 0;
}

/*
 * Map one PT_LOAD segment at its address plus bias: pages holding file
 * bytes map the file privately, the pages past them are anonymous. The
 * file offset and the address must agree within a page, as mmap needs.
 */
static int elf_map_segment(struct mm_struct *mm, struct file *file,
			   const Elf64_Phdr *ph, unsigned long bias)
{
	unsigned long start = ph->p_vaddr + bias, flags = elf_vm_flags(ph);
	unsigned long vstart = start & PAGE_MASK;
	unsigned long vend = PAGE_ALIGN(start + ph->p_memsz);
	unsigned long fend = ph->p_filesz ? PAGE_ALIGN(start + ph->p_filesz)
					  : vstart;
	struct vm_area_struct *vma;
	unsigned long ret;

	if (ph->p_filesz > ph->p_memsz || vend > TASK_SIZE || vend < vstart ||
	    ((ph->p_offset ^ ph->p_vaddr) & ~PAGE_MASK) ||
	    ph->p_offset + ph->p_filesz > (u64)i_size_read(file->f_inode))
		return -ENOEXEC;
	vma = find_vma(mm, vstart);
	if (vma && vma->vm_start < vend)
		return -ENOEXEC;	/* overlapping segments */
	if (fend > vstart) {
		ret = mmap_region(mm, file, vstart, fend - vstart, flags,
				  ph->p_offset >> PAGE_SHIFT);
		if (IS_ERR_VALUE(ret))
			return ret == (unsigned long)-ENODEV ? -ENOEXEC : ret;
		if ((ph->p_flags & PF_W) && ph->p_memsz > ph->p_filesz &&
		    padzero(find_vma(mm, vstart), start + ph->p_filesz))
			return -ENOMEM;
	}
	if (vend > fend) {
		ret = mmap_region(mm, NULL, fend, vend - fend, flags, 0);
		if (IS_ERR_VALUE(ret))
			return ret;
	}
	return 0;
}

/* Note where the program's code and data are, for /proc/PID/stat. */
static void note_segment(struct mm_struct *mm, const Elf64_Phdr *ph,
			 unsigned long bias)
{
	unsigned long start = ph->p_vaddr + bias, end = start + ph->p_filesz;

	if (ph->p_flags & PF_X) {
		if (!mm->start_code || start < mm->start_code)
			mm->start_code = start;
		mm->end_code = max(mm->end_code, end);
	} else {
		if (!mm->start_data || start < mm->start_data)
			mm->start_data = start;
		mm->end_data = max(mm->end_data, end);
	}
}

/*
 * Map every PT_LOAD of an image at bias; the highest address it uses.
 * (note: the program's own segments also set start_code and friends.)
 * Under mm's mmap_lock for write, as Linux's vm_mmap takes it: nobody
 * else knows the new mm yet, but the VMA helpers assert it. Only the
 * mapping is under it; reading the file's headers (which may take
 * locks that come before mmap_lock) is not.
 */
static long elf_map_image(struct mm_struct *mm, struct file *file,
			  const Elf64_Ehdr *eh, const Elf64_Phdr *phdrs,
			  unsigned long bias, bool note)
{
	unsigned long end = 0;
	int err = 0;

	mmap_write_lock(mm);
	for (int i = 0; i < eh->e_phnum && !err; i++) {
		const Elf64_Phdr *ph = &phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		err = elf_map_segment(mm, file, ph, bias);
		if (!err && note)
			note_segment(mm, ph, bias);
		end = max(end, ph->p_vaddr + bias + ph->p_memsz);
	}
	mmap_write_unlock(mm);
	return err ? err : (long)end;
}

/* The PT_INTERP's file, opened; NULL for a static program. */
static struct file *open_interp(struct linux_binprm *bprm)
{
	for (int i = 0; i < bprm->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &bprm->phdrs[i];
		struct file *file;
		loff_t pos = ph->p_offset;
		char *path;

		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_filesz < 2 || ph->p_filesz > PATH_MAX)
			return ERR_PTR(-ENOEXEC);
		path = kmalloc(ph->p_filesz, GFP_KERNEL);
		if (!path)
			return ERR_PTR(-ENOMEM);
		if (kernel_read(bprm->file, path, ph->p_filesz, &pos) !=
			    (ssize_t)ph->p_filesz ||
		    path[ph->p_filesz - 1]) {
			kfree(path);
			return ERR_PTR(-ENOEXEC);
		}
		file = open_exec(path);
		if (IS_ERR(file))
			pr_info("exec: %s: interpreter %s: error %ld\n",
				bprm->filename, path, PTR_ERR(file));
		kfree(path);
		return file;
	}
	return NULL;
}

/* The span of an image's PT_LOAD segments: [*lo, return value). */
static unsigned long elf_span(const Elf64_Ehdr *eh, const Elf64_Phdr *phdrs,
			      unsigned long *lo)
{
	unsigned long hi = 0;

	*lo = ~0UL;
	for (int i = 0; i < eh->e_phnum; i++)
		if (phdrs[i].p_type == PT_LOAD) {
			*lo = min(*lo, phdrs[i].p_vaddr & PAGE_MASK);
			hi = max(hi, PAGE_ALIGN(phdrs[i].p_vaddr +
						phdrs[i].p_memsz));
		}
	return hi;
}

/*
 * The dynamic loader: a position-independent image placed below the
 * mmap base, a random number of pages lower (Linux randomises it too:
 * a program must not depend on where it lands). The program starts in
 * the loader, which finds the program through AT_PHDR and AT_ENTRY and
 * its own image through AT_BASE.
 */
static int load_elf_interp(struct linux_binprm *bprm, struct file *interp)
{
	Elf64_Ehdr eh;
	Elf64_Phdr *phdrs = NULL;
	unsigned long lo, hi, base, rnd;
	long end;
	int err = elf_read_headers(interp, &eh, &phdrs);

	if (!err && eh.e_type != ET_DYN)
		err = -ENOEXEC;
	if (err)
		goto out;
	hi = elf_span(&eh, phdrs, &lo);
	get_random_bytes(&rnd, sizeof(rnd));
	base = bprm->mm->mmap_base - (hi - lo) - (rnd % 4096) * PAGE_SIZE;
	if (hi <= lo || hi - lo > (1UL << 30)) {
		err = -ENOEXEC;
		goto out;
	}
	end = elf_map_image(bprm->mm, interp, &eh, phdrs, base - lo, false);
	if (end < 0) {
		err = end;
		goto out;
	}
	bprm->interp_base = base - lo;
	bprm->start = eh.e_entry + base - lo;
out:
	kfree(phdrs);
	return err;
}

int load_elf_binary(struct linux_binprm *bprm)
{
	struct mm_struct *mm = bprm->mm;
	unsigned long bias;
	struct file *interp;
	long end;
	int err = elf_read_headers(bprm->file, &bprm->eh, &bprm->phdrs);

	if (err)
		return err;
	interp = open_interp(bprm);
	if (IS_ERR(interp))
		return PTR_ERR(interp);
	bias = bprm->eh.e_type == ET_DYN ? ELF_ET_DYN_BASE : 0;
	for (int i = 0; i < bprm->eh.e_phnum; i++) {
		Elf64_Phdr *ph = &bprm->phdrs[i];

		if (ph->p_type == PT_PHDR)
			bprm->phdr_addr = ph->p_vaddr + bias;
		else if (ph->p_type == PT_LOAD && ph->p_offset == 0 &&
			 !bprm->phdr_addr)
			bprm->phdr_addr = ph->p_vaddr + bias + bprm->eh.e_phoff;
	}
	end = elf_map_image(mm, bprm->file, &bprm->eh, bprm->phdrs, bias, true);
	err = end < 0 ? end : 0;
	if (!err) {
		mm->start_brk = mm->brk = PAGE_ALIGN(end);
		bprm->entry = bprm->start = bprm->eh.e_entry + bias;
	}
	if (!err && interp)
		err = load_elf_interp(bprm, interp);
	if (interp)
		fput(interp);	/* its mappings hold their own references */
	return err;
}
