/*
 * kernel/exec.c: execve() of an ELF64 program.
 *
 * The point of no return is in the middle. Before it, everything that can
 * fail: copy argv and envp into the kernel, open and check the file, build
 * the new address space (the program's segments mapped from the file by
 * fs/binfmt_elf.c, the stack with arguments and auxiliary vector) while
 * the old one is still in use. Then the other threads of the process are
 * killed (de_thread): from here the exec cannot be undone. After it:
 * switch to the new mm, drop the old, reset signal handlers, close
 * close-on-exec files, and point the saved user registers at the entry
 * (the loader's, if there is one).
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/task_fs.h>
#include <fs/fs.h>
#include <kernel/uaccess.h>
#include <kernel/binfmts.h>
#include <mm/gfp.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/slab.h>
#include <asm/desc.h>
#include <asm/processor.h>

#define MAX_ARG_BYTES (128 * 1024)
#define MAX_ARG_COUNT 4096


#define PATH_MAX_LEN 4096

/* Append the user's string vector to bprm->buf; count or -errno. */
static int copy_strings(struct linux_binprm *bprm,
			const char __user *const __user *argv)
{
	int n;

	for (n = 0; argv; n++) {
		const char __user *p;
		long len;

		if (bprm->kernel_args)
			p = ((const char *const *)argv)[n];
		else if (get_user(p, argv + n))
			return -EFAULT;
		if (!p)
			break;
		if (n >= MAX_ARG_COUNT)
			return -E2BIG;
		if (bprm->kernel_args)
			len = strlcpy(bprm->buf + bprm->len, (const char *)p,
				      MAX_ARG_BYTES - bprm->len);
		else
			len = strncpy_from_user(bprm->buf + bprm->len, p,
						MAX_ARG_BYTES - bprm->len);
		if (len < 0)
			return len;
		if (bprm->len + len >= MAX_ARG_BYTES)
			return -E2BIG;
		bprm->len += len + 1;
	}
	return n;
}

/*
 * The kernel address of the page at user address a of vma, in the new mm
 * (not yet the current one). A page not there yet is faulted in as the
 * program's own first store would be, by handle_mm_fault: a zeroed page
 * from do_anonymous_page (Linux's execve gets its argument pages with
 * get_user_pages, which faults the same way). NULL when out of memory.
 */
void *get_arg_page(struct vm_area_struct *vma, unsigned long a)
{
	pte_t *pte;

	mmap_assert_locked(vma->vm_mm);	/* the new mm's */
	pte = lookup_pte(vma->vm_mm->pgd, a & PAGE_MASK, false);

	if (!pte || !(*pte & _PAGE_PRESENT)) {
		if (handle_mm_fault(vma, a, FAULT_FLAG_WRITE) & VM_FAULT_ERROR)
			return NULL;
		pte = lookup_pte(vma->vm_mm->pgd, a & PAGE_MASK, false);
	}
	if (!pte || !(*pte & _PAGE_PRESENT)) {
		pr_err("exec: handle_mm_fault returned 0 but mapped nothing "
		       "at %#lx: see do_anonymous_page\n", a);
		return NULL;
	}
	return phys_to_virt(*pte & PTE_ADDR_MASK);
}

/* Write to the new stack through its pages (the new mm is not live yet). */
static int stack_write(struct linux_binprm *bprm, struct vm_area_struct *vma,
		       unsigned long addr, const void *src, size_t len)
{
	while (len) {
		size_t off = addr & ~PAGE_MASK, n = min(PAGE_SIZE - off, len);
		char *page = get_arg_page(vma, addr);

		if (!page)
			return -ENOMEM;
		memcpy(page + off, src, n);
		addr += n;
		src = (const char *)src + n;
		len -= n;
	}
	return 0;
}

static int push(struct linux_binprm *bprm, struct vm_area_struct *vma,
		unsigned long *sp, const void *src, size_t len)
{
	*sp -= len;
	return stack_write(bprm, vma, *sp, src, len);
}

/* AT_HWCAP: CPUID leaf 1's EDX, the feature bits, as Linux gives them. */
static unsigned long elf_hwcap(void)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	return d;
}

/*
 * The initial stack, top down: 16 random bytes, the strings, then at a
 * 16-byte aligned rsp: argc, argv[], NULL, envp[], NULL, auxv pairs.
 */
static int setup_stack(struct linux_binprm *bprm)
{
	unsigned long sp = STACK_TOP, strings, random, execfn, *vec, size;
	int n = bprm->argc + bprm->envc, nv = 0, err;
	struct vm_area_struct *vma;
	unsigned long aux[] = {
		AT_HWCAP, elf_hwcap(), AT_PAGESZ, PAGE_SIZE, AT_CLKTCK, 100,
		AT_PHDR, bprm->phdr_addr, AT_PHENT, sizeof(Elf64_Phdr),
		AT_PHNUM, bprm->eh.e_phnum, AT_BASE, bprm->interp_base,
		AT_FLAGS, 0, AT_ENTRY, bprm->entry, AT_UID, current->cred.uid,
		AT_EUID, current->cred.euid, AT_GID, current->cred.gid,
		AT_EGID, current->cred.egid, AT_SECURE, 0,
		AT_RANDOM, 0, AT_EXECFN, 0, AT_NULL, 0,
	};
	size_t vbytes = (1 + n + 2) * 8 + sizeof(aux);
	u64 rnd[2] = { rdtsc(), rdtsc() * 0x9e3779b97f4a7c15UL };
	char *cursor = bprm->buf;

	/* Everything below must land inside the stack VMA: pages mapped
	 * outside any VMA would never be freed. */
	size = sizeof(rnd) + strlen(bprm->filename) + 1 + bprm->len + vbytes;
	size = max(32 * PAGE_SIZE, PAGE_ALIGN(size + 64) + PAGE_SIZE);
	vma = vma_create(bprm->mm, STACK_TOP - size, STACK_TOP,
			 VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE |
				 VM_GROWSDOWN);
	if (!vma)
		return -ENOMEM;
	if ((err = push(bprm, vma, &sp, rnd, sizeof(rnd))))
		return err;
	random = sp;
	if ((err = push(bprm, vma, &sp, bprm->filename,
			strlen(bprm->filename) + 1)))
		return err;
	execfn = sp;
	if ((err = push(bprm, vma, &sp, bprm->buf, bprm->len)))
		return err;
	strings = sp;
	/* Where the strings are, for /proc/PID/cmdline (and environ). */
	bprm->mm->arg_start = strings;
	for (int i = 0; i < bprm->argc; i++)
		cursor += strlen(cursor) + 1;
	bprm->mm->arg_end = bprm->mm->env_start = strings + (cursor - bprm->buf);
	bprm->mm->env_end = strings + bprm->len;
	cursor = bprm->buf;
	vec = kmalloc(vbytes, GFP_KERNEL);
	if (!vec)
		return -ENOMEM;
	vec[nv++] = bprm->argc;
	for (int list = 0; list < 2; list++) {	/* argv, then envp */
		int count = list ? bprm->envc : bprm->argc;

		for (int i = 0; i < count; i++) {
			vec[nv++] = strings + (cursor - bprm->buf);
			cursor += strlen(cursor) + 1;
		}
		vec[nv++] = 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(aux); i += 2)
		if (aux[i] == AT_RANDOM)
			aux[i + 1] = random;
		else if (aux[i] == AT_EXECFN)
			aux[i + 1] = execfn;	/* the path given to execve */
	memcpy(&vec[nv], aux, sizeof(aux));
	nv += ARRAY_SIZE(aux);
	sp = ALIGN_DOWN(sp - nv * 8, 16);
	err = stack_write(bprm, vma, sp, vec, nv * 8);
	kfree(vec);
	bprm->mm->start_stack = sp;
	bprm->sp = sp;
	return err;
}

/* Every other thread of the group is gone, and a leader that was not
 * current is a zombie: current may take its place. */
static bool others_gone(struct task_struct *t)
{
	struct task_struct *leader = t->group_leader;

	if (leader == t)
		return t->sig->nr_threads == 1;
	return t->sig->nr_threads == 2 && leader->exit_state;
}

/*
 * current, a thread that is not the leader, becomes the process: it takes
 * the leader's pid (the process id everyone knows), family and place,
 * and the old leader, a zombie now, is freed (Linux's exchange_tids and
 * the rest of de_thread). Its CPU time stays the process's.
 */
static void become_leader(struct task_struct *t)
{
	struct task_struct *leader = t->group_leader, *c;
	pid_t tid = t->pid;

	lock_tasklist();	/* the pids and links change in one step */
	t->pid = leader->pid;
	leader->pid = tid;
	t->start_time = leader->start_time;
	t->parent = leader->parent;
	list_add(&t->sibling, &leader->sibling);
	list_del(&leader->sibling);
	list_splice_init(&leader->children, &t->children);
	list_for_each_entry(c, &t->children, sibling)
		c->parent = t;
	t->cusage = leader->cusage;
	t->group_leader = t;
	leader->group_leader = t;
	release_task(leader);
	unlock_tasklist();
}

/*
 * exec in a process of several threads (Linux's de_thread, in its
 * simplest form): the others get SIGKILL and current waits until they
 * are gone, then takes the leader's place if it is not the leader. 0, or
 * -EAGAIN when the process is exiting already, -EINTR when it was killed
 * while we waited (the caller then dies of it on its way out).
 */
int de_thread(void)
{
	struct task_struct *t = current;
	struct signal_struct *s = t->sig;
	struct wait_queue_entry w = { 0 };
	unsigned long flags;
	int err = 0;

	lock_task_sighand(t, &flags);
	if (thread_group_empty(t)) {
		unlock_task_sighand(t, flags);
		return 0;
	}
	if ((s->flags & SIGNAL_GROUP_EXIT) || s->group_exec_task) {
		unlock_task_sighand(t, flags);
		return -EAGAIN;
	}
	s->group_exec_task = t;
	zap_other_threads(t);
	unlock_task_sighand(t, flags);
	for (;;) {
		prepare_to_wait(&s->exec_wait, &w, TASK_INTERRUPTIBLE);
		if (others_gone(t) || fatal_signal_pending(t))
			break;
		schedule();
	}
	finish_wait(&s->exec_wait, &w);
	lock_task_sighand(t, &flags);
	if (!others_gone(t))
		err = -EINTR;
	s->group_exec_task = NULL;
	unlock_task_sighand(t, flags);
	if (!err && !thread_group_leader(t))
		become_leader(t);
	return err;
}

/*
 * Handlers go back to the default (ignored ones stay ignored). If another
 * process shares the handlers (CLONE_SIGHAND without CLONE_THREAD),
 * current takes a copy of its own first (newsh, allocated before the
 * point of no return; NULL: keep sharing, out of memory).
 */
static void flush_signal_handlers(struct task_struct *t,
				  struct sighand_struct *newsh)
{
	struct sighand_struct *old = t->sighand;
	unsigned long flags;

	if (newsh && __atomic_load_n(&old->count, __ATOMIC_RELAXED) > 1) {
		newsh->count = 1;
		spin_lock_init(&newsh->siglock);
		lock_task_sighand(t, &flags);
		memcpy(newsh->action, old->action, sizeof(old->action));
		t->sighand = newsh;
		spin_unlock_irqrestore(&old->siglock, flags);
		put_sighand(old);
	} else {
		kfree(newsh);
	}
	lock_task_sighand(t, &flags);
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->sighand->action[i];

		if (ka->handler != SIG_IGN)
			memset(ka, 0, sizeof(*ka));
	}
	unlock_task_sighand(t, flags);
}

/* After the point of no return: nothing here may fail. */
static void commit_exec(struct linux_binprm *bprm, struct pt_regs *regs,
			struct sighand_struct *newsh)
{
	struct task_struct *t = current;
	struct mm_struct *old = t->mm;
	const char *name = bprm->filename;

	for (const char *p = name; *p; p++)	/* basename */
		if (*p == '/' && p[1])
			name = p + 1;

	exec_mm_release(t);	/* CLONE_CHILD_CLEARTID, a vfork parent */
	lock_tasklist();	/* get_task_mm sees the old mm or the new */
	t->mm = bprm->mm;
	unlock_tasklist();
	bprm->mm = NULL;
	switch_to_mm(t->mm);
	if (old)
		mmput(old);
	strlcpy(t->comm, name, sizeof(t->comm));
	t->flags &= ~PF_KTHREAD;	/* pid 1 starts as a kernel thread */
	t->undumpable = false;	/* a new program is dumpable again */
	t->robust_list = 0;	/* it pointed into the old program */
	/* So did the alternate stack (Linux keeps its SS_AUTODISARM). */
	t->signal.sas_ss_sp = t->signal.sas_ss_size = 0;
	flush_signal_handlers(t, newsh);
	if (t->files)
		do_close_on_exec(t->files);
	t->fs_base = 0;
	fpu_reset_current();
	memset(regs, 0, sizeof(*regs));
	regs->rip = bprm->start;	/* the loader first, if there is one */
	regs->rsp = bprm->sp;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	regs->rflags = X86_EFLAGS_IF;
}

static void free_bprm(struct linux_binprm *bprm)
{
	if (bprm->mm)
		mmput(bprm->mm);
	kfree(bprm->phdrs);
	free_pages((unsigned long)bprm->buf, 5);
}

/* filename is a kernel string; argv/envp are user vectors (may be NULL). */
static int __do_execve(struct linux_binprm *bprm_in,
		       const char __user *const __user *argv,
		       const char __user *const __user *envp,
		       struct pt_regs *regs)
{
	struct linux_binprm bprm = *bprm_in;
	struct sighand_struct *newsh = NULL;
	int err;

	bprm.buf = (char *)__get_free_pages(GFP_KERNEL, 5);	/* 128 KiB */
	if (!bprm.buf)
		return -ENOMEM;
	err = bprm.argc = copy_strings(&bprm, argv);
	if (err >= 0)
		err = bprm.envc = copy_strings(&bprm, envp);
	if (err < 0)
		goto out;
	bprm.file = open_exec(bprm.filename);
	if (IS_ERR(bprm.file)) {
		err = PTR_ERR(bprm.file);
		bprm.file = NULL;
		goto out;
	}
	err = deny_write_access(bprm.file);	/* ETXTBSY if open for write */
	if (err) {
		fput(bprm.file);
		bprm.file = NULL;
		goto out;
	}
	bprm.mm = mm_alloc();
	if (!bprm.mm) {
		err = -ENOMEM;
		goto out;
	}
	/* From here the new mm owns the file and its write denial;
	 * bprm.file only borrows it. */
	set_mm_exe_file(bprm.mm, bprm.file);
	err = load_elf_binary(&bprm);
	if (!err) {
		/* The new mm is nobody else's yet; the lock is for the
		 * assertions of vma_create and handle_mm_fault. */
		mmap_write_lock(bprm.mm);
		err = setup_stack(&bprm);
		mmap_write_unlock(bprm.mm);
	}
	/* Our own copies of what we may share with another process, so
	 * that closing close-on-exec files and resetting handlers touch
	 * only us. */
	if (!err)
		err = unshare_files();
	if (!err && __atomic_load_n(&current->sighand->count,
				    __ATOMIC_RELAXED) > 1) {
		newsh = kzalloc(sizeof(*newsh), GFP_KERNEL);
		if (!newsh)
			err = -ENOMEM;
	}
	if (!err)
		err = de_thread();
	if (!err) {
		commit_exec(&bprm, regs, newsh);	/* the point of no return */
		newsh = NULL;
	}
out:
	kfree(newsh);
	free_bprm(&bprm);
	return err;
}

int do_execve(const char *filename, const char __user *const __user *argv,
	      const char __user *const __user *envp, struct pt_regs *regs)
{
	struct linux_binprm bprm = { .filename = filename };

	return __do_execve(&bprm, argv, envp, regs);
}

/* For kernel_init: argv and envp in kernel memory. */
int do_execve_kernel(const char *filename, const char *const *argv,
		     const char *const *envp)
{
	struct linux_binprm bprm = { .filename = filename,
				     .kernel_args = true };

	return __do_execve(&bprm, (const char __user *const __user *)argv,
			   (const char __user *const __user *)envp,
			   task_pt_regs(current));
}

SYSCALL_DEFINE3(execve, const char __user *, path,
		const char __user *const __user *, argv,
		const char __user *const __user *, envp)
{
	char *name = kmalloc(PATH_MAX_LEN, GFP_KERNEL);
	long len, err;

	if (!name)
		return -ENOMEM;
	len = strncpy_from_user(name, path, PATH_MAX_LEN);
	if (len < 0 || len == PATH_MAX_LEN)
		err = len < 0 ? len : -ENAMETOOLONG;
	else
		err = do_execve(name, argv, envp, task_pt_regs(current));
	kfree(name);
	return err;
}
