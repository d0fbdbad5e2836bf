/*
 * fs/proc/base.c: the per-process part of /proc, as Linux's
 * fs/proc/base.c and fs/proc/array.c lay it out: a directory /proc/PID for
 * every task (zombies included, as on Linux), holding
 *
 *	stat      one line, Linux's 52 fields (ps and top parse it)
 *	status    "Name:\tsh" lines for people and busybox's ps -o
 *	cmdline   the argument strings, NUL-terminated, as exec left them
 *	maps      one line per VMA: range, rwxp, offset, dev, inode, path
 *	fd/       the open descriptors (fs/proc/fd.c)
 *	task/     a directory /proc/PID/task/TID per thread, the same as
 *	          /proc/TID (which a lookup finds, though /proc lists only
 *	          processes, as Linux does)
 *
 * and /proc/self, a symlink to the reader's own process's directory.
 *
 * Roadmap:
 *   proc_pid_lookup, proc_pid_readdir   /proc's root asks here for names
 *                                       that are not registered entries
 *   proc_pid_dir_*                      inside /proc/PID
 *   pid_*_show                          the four files, snapshot at open
 *   access_mm                           read another task's memory
 *
 * Nothing here keeps a task alive: an inode holds only the pid, and each
 * open looks the task up again (ESRCH once it is gone). The dentries are
 * never hashed (d_instantiate, not d_add), so every walk asks the lookup
 * again and a dead pid's directory cannot linger in the dcache: Linux
 * gets the same from pid_revalidate.
 * Tasks are walked without sleeping: each show function copies what it
 * needs into the seq_file in one go, under the tasklist lock (pid_show),
 * so that the task stays while it reads it; what it needs allocated
 * pid_show allocates first. The task's mm is pinned (get_task_mm) and
 * its mmap_lock held for read around that, so that another thread's
 * munmap cannot change the VMAs under maps, VmSize or VmLck. (A task
 * reference count, as Linux has, would let a show function sleep.)
 * The dentries being unhashed, getcwd in /proc/PID says ENOENT, as for
 * an unlinked directory (Linux's are hashed and revalidated).
 */
#include <fs/dcache.h>
#include <fs/file.h>
#include <fs/fs_struct.h>
#include <fs/namei.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/jiffies.h>
#include <kernel/printk.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/tty.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/mm_types.h>
#include <mm/pgtable.h>
#include <mm/slab.h>
#include "internal.h"

/* Inode numbers: /proc/PID/x is PID_INO_BASE + pid * 8 + x's index. */
#define PID_INO_BASE 0x10000000UL
#define SELF_INO (PID_INO_BASE - 1)

struct pid_entry {
	const char *name;
	int (*show)(struct seq_file *m, struct task_struct *t);
};

static int pid_stat_show(struct seq_file *m, struct task_struct *t);
static int pid_status_show(struct seq_file *m, struct task_struct *t);
static int pid_cmdline_show(struct seq_file *m, struct task_struct *t);
static int pid_maps_show(struct seq_file *m, struct task_struct *t);

/* Index 0 is the directory itself. */
static const struct pid_entry pid_entries[] = {
	{ "stat", pid_stat_show },
	{ "status", pid_status_show },
	{ "cmdline", pid_cmdline_show },
	{ "maps", pid_maps_show },
};

/* /proc/PID/fd (fs/proc/fd.c) and task/ come after the files. */
#define FD_INDEX (ARRAY_SIZE(pid_entries) + 1)
#define TASK_INDEX (FD_INDEX + 1)
_Static_assert(TASK_INDEX < 8, "PID_INO_BASE: 8 per pid");

static pid_t inode_pid(const struct inode *inode)
{
	return (inode->i_ino - PID_INO_BASE) / 8;
}

/* ---- reading another address space ---------------------------------------- */

/*
 * Copy up to len bytes at addr in mm into buf, a page at a time through
 * the page tables; stops at the first page that is not present (Linux's
 * access_remote_vm would fault it in: argument pages are always present,
 * exec wrote them). Returns the bytes copied. No sleeping.
 */
static size_t access_mm(struct mm_struct *mm, unsigned long addr, char *buf,
			size_t len)
{
	size_t done = 0;

	while (done < len) {
		size_t off = addr & ~PAGE_MASK, n = min(PAGE_SIZE - off,
							len - done);
		pte_t *pte = lookup_pte(mm->pgd, addr & PAGE_MASK, false);

		if (!pte || !(*pte & _PAGE_PRESENT))
			break;
		memcpy(buf + done, (char *)phys_to_virt(*pte & PTE_ADDR_MASK) + off,
		       n);
		done += n;
		addr += n;
	}
	return done;
}

/* ---- the files --------------------------------------------------------------- */

static const char *task_state_name(char c)
{
	switch (c) {
	case 'R': return "R (running)";
	case 'S': return "S (sleeping)";
	case 'D': return "D (disk sleep)";
	case 'T': return "T (stopped)";
	case 'Z': return "Z (zombie)";
	}
	return "X (dead)";
}

/* The signals t ignores and catches (SigIgn, SigCgt; stat fields 33-34). */
static void task_sig_actions(const struct task_struct *t, sigset_t *ign,
			     sigset_t *cgt)
{
	*ign = *cgt = 0;
	for (int i = 0; i < _NSIG; i++) {
		void *h = t->sighand->action[i].handler;

		if (h == SIG_IGN)
			*ign |= 1ULL << i;
		else if (h != SIG_DFL)
			*cgt |= 1ULL << i;
	}
}

/*
 * Linux's do_task_stat: 52 fields. Times are in clock ticks (HZ, the
 * AT_CLKTCK every program is told); all CPU time counts as user time (the
 * tick does not tell them apart, see getrusage). Fields pagelab does not
 * keep (faults per task, real-time policy, I/O delay) are 0; the comm is
 * in parentheses and may hold spaces, so parsers look for the last ')'.
 */
static int pid_stat_show(struct seq_file *m, struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	unsigned long rsslim = t->rlim[RLIMIT_RSS].rlim_cur;
	sigset_t ign, cgt;
	dev_t tty = 0;
	pid_t tpgid = -1;

	tty_of_session(t->sid, &tty, &tpgid);
	task_sig_actions(t, &ign, &cgt);
	seq_printf(m, "%d (%s) %c %d %d %d %u %d %u ", t->pid, t->comm,
		   task_state_to_char(t), t->parent ? t->parent->tgid : 0, t->pgid,
		   t->sid, (MAJOR(tty) << 8) | MINOR(tty), tpgid,
		   (t->flags & PF_KTHREAD) ? 0x00200000 : 0);
	seq_printf(m, "%lu %lu %lu %lu %llu 0 %llu 0 20 %d %d 0 %llu %lu %lu %lu ",
		   t->min_flt, t->cusage.min_flt, t->maj_flt, t->cusage.maj_flt,
		   (unsigned long long)t->utime_ticks,
		   (unsigned long long)t->cusage.utime_ticks, t->nice,
		   t->sig->nr_threads,
		   (unsigned long long)t->start_time,
		   mm_total_vm(mm) << PAGE_SHIFT,
		   mm ? get_mm_rss(mm) : 0, rsslim);
	/* ... exit_signal, processor (the CPU it runs or last ran on) */
	seq_printf(m, "%lu %lu %lu 0 0 %llu %llu %llu %llu 0 0 0 %d %d 0 0 0 0 0 ",
		   mm ? mm->start_code : 0, mm ? mm->end_code : 0,
		   mm ? mm->start_stack : 0,
		   (unsigned long long)((t->signal.pending |
					 t->sig->shared_pending) & 0xffffffff),
		   (unsigned long long)(t->signal.blocked & 0xffffffff),
		   (unsigned long long)(ign & 0xffffffff),
		   (unsigned long long)(cgt & 0xffffffff), SIGCHLD, t->cpu);
	seq_printf(m, "%lu %lu %lu %lu %lu %lu %lu %d\n",
		   mm ? mm->start_data : 0, mm ? mm->end_data : 0,
		   mm ? mm->start_brk : 0, mm ? mm->arg_start : 0,
		   mm ? mm->arg_end : 0, mm ? mm->env_start : 0,
		   mm ? mm->env_end : 0,
		   t->exit_state == EXIT_ZOMBIE ? (int)t->exit_code : 0);
	return 0;
}

static void status_kb(struct seq_file *m, const char *name, unsigned long kb)
{
	seq_printf(m, "%s:\t%8lu kB\n", name, kb);
}

/* Linux's proc_pid_status, the lines pagelab has something for. */
static int pid_status_show(struct seq_file *m, struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	const struct cred *c = &t->cred;
	char state = task_state_to_char(t);
	sigset_t ign, cgt;

	task_sig_actions(t, &ign, &cgt);
	seq_printf(m, "Name:\t%s\n", t->comm);
	if (t->fs)
		seq_printf(m, "Umask:\t%04o\n", t->fs->umask);
	seq_printf(m, "State:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n"
		      "TracerPid:\t0\n",
		   task_state_name(state), t->tgid, t->pid,
		   t->parent ? t->parent->tgid : 0);
	seq_printf(m, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n",
		   c->uid, c->euid, c->suid, c->fsuid, c->gid, c->egid,
		   c->sgid, c->fsgid);
	if (t->files)
		seq_printf(m, "FDSize:\t%u\n", t->files->max_fds);
	seq_printf(m, "Groups:\t\n");
	if (mm) {
		unsigned long rss = get_mm_rss(mm) << (PAGE_SHIFT - 10);

		status_kb(m, "VmSize", mm_total_vm(mm) << (PAGE_SHIFT - 10));
		status_kb(m, "VmLck", mm_locked_vm(mm) << (PAGE_SHIFT - 10));
		status_kb(m, "VmHWM", max(t->maxrss_kb, rss));
		status_kb(m, "VmRSS", rss);
		status_kb(m, "VmExe", (mm->end_code - mm->start_code) >> 10);
	}
	seq_printf(m, "Threads:\t%d\n", t->sig->nr_threads);
	seq_printf(m, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n"
		      "SigIgn:\t%016llx\nSigCgt:\t%016llx\n",
		   (unsigned long long)t->signal.pending,
		   (unsigned long long)t->sig->shared_pending,
		   (unsigned long long)t->signal.blocked,
		   (unsigned long long)ign, (unsigned long long)cgt);
	seq_printf(m, "voluntary_ctxt_switches:\t%lu\n"
		      "nonvoluntary_ctxt_switches:\t%lu\n", t->nvcsw, t->nivcsw);
	return 0;
}

/* The argument strings exec put on the stack; empty for kernel threads
 * and zombies (no mm), as on Linux. */
static int pid_cmdline_show(struct seq_file *m, struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	size_t len, room = m->size - m->count;

	if (!mm || mm->arg_end <= mm->arg_start)
		return 0;
	len = mm->arg_end - mm->arg_start;
	if (len > room) {
		m->overflow = true;	/* again, with a bigger buffer */
		return 0;
	}
	m->count += access_mm(mm, mm->arg_start, m->buf + m->count, len);
	return 0;
}

/* Linux's show_map_vma: the name starts in column 74 (the header padded
 * to 73 characters), after a space; an anonymous line ends in "0 ". */
static void show_map_vma(struct seq_file *m, struct vm_area_struct *vma,
			 const struct path *root, char *buf)
{
	struct file *file = vma->vm_file;
	struct mm_struct *mm = vma->vm_mm;
	struct inode *inode = file ? file->f_inode : NULL;
	unsigned long long pgoff = file ? (u64)vma->vm_pgoff << PAGE_SHIFT : 0;
	dev_t dev = inode ? inode->i_sb->s_dev : 0;
	const char *name = NULL;
	size_t start = m->count;

	seq_printf(m, "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ",
		   vma->vm_start, vma->vm_end,
		   vma->vm_flags & VM_READ ? 'r' : '-',
		   vma->vm_flags & VM_WRITE ? 'w' : '-',
		   vma->vm_flags & VM_EXEC ? 'x' : '-',
		   vma->vm_flags & VM_MAYSHARE ? 's' : 'p', pgoff, MAJOR(dev),
		   MINOR(dev), inode ? inode->i_ino : 0);
	if (file) {
		name = d_path(&file->f_path, root, buf, PAGE_SIZE);
		if (IS_ERR(name))
			name = "?";
	} else if (vma->vm_start < mm->brk && vma->vm_end > mm->start_brk) {
		name = "[heap]";
	} else if (vma->vm_flags & VM_GROWSDOWN) {
		name = "[stack]";
	}
	if (name) {
		size_t len = m->count - start;

		if (len < 72)
			seq_printf(m, "%*s", (int)(72 - len), "");
		seq_printf(m, " %s", name);
	}
	seq_putc(m, '\n');
}

/* What pid_show hands a show function, in m->private. */
struct pid_show_data {
	pid_t pid;
	const struct pid_entry *entry;
	char *scratch;	/* a page for the show function (maps: d_path) */
};

static int pid_maps_show(struct seq_file *m, struct task_struct *t)
{
	struct pid_show_data *d = m->private;
	struct vm_area_struct *vma;
	struct path root;

	if (!t->mm)
		return 0;
	mmap_assert_locked(t->mm);	/* pid_show took it */
	get_fs_root(current->fs, &root);	/* paths as the reader sees them */
	list_for_each_entry(vma, &t->mm->mmap, vm_list)
		show_map_vma(m, vma, &root, d->scratch);
	path_put(&root);
	return 0;
}

/* ---- open and read: a snapshot, as the registered files ---------------------- */

/* The mm of task pid, pinned and its mmap_lock held for read; NULL when
 * it has none (or is gone). A sleeping lock, so taken outside the
 * tasklist lock. */
static struct mm_struct *pid_mm_read_lock(pid_t pid)
{
	struct task_struct *t;
	struct mm_struct *mm = NULL;

	lock_tasklist();
	t = find_task_by_pid(pid);
	if (t)
		mm = get_task_mm(t);
	unlock_tasklist();
	if (mm)
		mmap_read_lock(mm);
	return mm;
}

static void pid_mm_read_unlock(struct mm_struct *mm)
{
	if (mm) {
		mmap_read_unlock(mm);
		mmput(mm);
	}
}

/*
 * proc_seq_fill's show: look the task up afresh each time it prints, and
 * print it under the tasklist lock, which keeps it from going while it
 * is read; its mm's VMAs are under mmap_lock, taken first (the order is
 * mmap_lock, then the tasklist lock). An exec between the two means
 * another mm: start again. A show function must not sleep: what it
 * needs allocated, it gets here.
 */
static int pid_show(struct seq_file *m, void *v)
{
	struct pid_show_data *d = v;
	struct task_struct *t;
	struct mm_struct *mm;
	int ret = -ESRCH;

	d->scratch = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!d->scratch)
		return -ENOMEM;
	for (;;) {
		mm = pid_mm_read_lock(d->pid);
		lock_tasklist();
		t = find_task_by_pid(d->pid);
		if (!t || t->mm == mm)
			break;
		unlock_tasklist();
		pid_mm_read_unlock(mm);
	}
	if (t)
		ret = d->entry->show(m, t);
	unlock_tasklist();
	pid_mm_read_unlock(mm);
	kfree(d->scratch);
	d->scratch = NULL;
	return ret;
}

static int proc_pid_file_open(struct inode *inode, struct file *file)
{
	struct pid_show_data d = { inode_pid(inode), inode->i_private };
	struct proc_dir_entry de = { .show = pid_show, .data = &d };
	struct seq_file *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int err;

	if (!m)
		return -ENOMEM;
	err = proc_seq_fill(m, &de);
	if (err) {
		kfree(m);
		return err;
	}
	file->private_data = m;
	return 0;
}

static const struct file_operations proc_pid_file_operations = {
	.open = proc_pid_file_open,
	.read_iter = proc_seq_read,
	.llseek = proc_seq_lseek,
	.release = proc_seq_release,
};

/* ---- /proc/PID and /proc/self -------------------------------------------------- */

static const struct inode_operations proc_pid_dir_inode_operations;
static const struct file_operations proc_pid_dir_operations;

static const struct inode_operations proc_self_inode_operations = {
	.get_link = simple_get_link,
};

bool get_task_ids(pid_t pid, struct task_ids *ids)
{
	struct task_struct *t;

	lock_tasklist();
	t = pid > 0 ? find_task_by_pid(pid) : NULL;
	if (t)
		*ids = (struct task_ids){ t->pid, t->tgid, t->cred.euid,
					  t->cred.egid };
	unlock_tasklist();
	return t != NULL;
}

static struct inode *proc_pid_inode(struct super_block *sb,
				    const struct task_ids *t, int index)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = PID_INO_BASE + (unsigned long)t->pid * 8 + index;
	inode->i_uid = t->uid;
	inode->i_gid = t->gid;
	if (index == 0) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &proc_pid_dir_inode_operations;
		inode->i_fop = &proc_pid_dir_operations;
	} else {
		inode->i_mode = S_IFREG | 0444;
		inode->i_nlink = 1;
		inode->i_private = (void *)&pid_entries[index - 1];
		inode->i_op = &proc_pid_file_inode_operations;
		inode->i_fop = &proc_pid_file_operations;
	}
	return inode;
}

/* An inode for an unhashed dentry: each walk looks it up again. */
static struct dentry *proc_instantiate(struct dentry *dentry,
				       struct inode *inode)
{
	if (!inode)
		return ERR_PTR(-ENOMEM);
	d_instantiate(dentry, inode);
	return NULL;
}

/* ---- /proc/PID/task: the threads ---------------------------------------------- */

/* A directory /proc/PID/task/TID has no task/ of its own: a tree walk
 * (nftw, find) must not go round task/TID/task/TID... for ever. */
#define TASK_TID_DIR ((void *)1)

static bool dir_is_thread(const struct inode *dir)
{
	return dir->i_private == TASK_TID_DIR;
}

static const struct inode_operations proc_task_dir_inode_operations;
static const struct file_operations proc_task_dir_operations;

/* The directory of t's threads (t: any of them). */
static struct inode *proc_task_dir_inode(struct super_block *sb,
					 const struct task_ids *t)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = PID_INO_BASE + (unsigned long)t->tgid * 8 + TASK_INDEX;
	inode->i_uid = t->uid;
	inode->i_gid = t->gid;
	inode->i_mode = S_IFDIR | 0555;
	inode->i_nlink = 2;
	inode->i_op = &proc_task_dir_inode_operations;
	inode->i_fop = &proc_task_dir_operations;
	return inode;
}

/* "TID": that thread's /proc/TID, if it is one of this process's. */
static struct dentry *proc_task_lookup(struct inode *dir, struct dentry *dentry,
				       unsigned int flags)
{
	long tid = proc_name_to_number(dentry->d_name.name, dentry->d_name.len);
	struct task_ids t;
	struct inode *inode;

	if (!get_task_ids(max(tid, 0L), &t) || t.tgid != inode_pid(dir))
		return ERR_PTR(-ENOENT);
	inode = proc_pid_inode(dir->i_sb, &t, 0);
	if (inode)
		inode->i_private = TASK_TID_DIR;
	return proc_instantiate(dentry, inode);
}

/* The smallest id >= from of a thread of process tgid, or with tgid 0 of
 * a process (its leader's); 0 if none. */
static pid_t next_id(pid_t tgid, pid_t from)
{
	struct task_struct *t;
	pid_t best = 0;

	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks)
		if ((tgid ? t->tgid == tgid : thread_group_leader(t)) &&
		    t->pid >= from && (!best || t->pid < best))
			best = t->pid;
	unlock_tasklist();
	return best;
}

/* ".", "..", then the thread ids in increasing order, tid at position
 * tid + 2, so that a reader coming back resumes at the next. */
static int proc_task_readdir(struct file *file, struct dir_context *ctx)
{
	pid_t tgid = inode_pid(file->f_inode), tid;
	char name[12];

	if (!find_task_by_pid(tgid))
		return -ENOENT;
	if (!dir_emit_dots(file, ctx))
		return 0;
	while ((tid = next_id(tgid, ctx->pos - 2))) {
		int len = snprintf(name, sizeof(name), "%d", tid);

		/* No task pointer across the actor: it may sleep. */
		if (!ctx->actor(ctx, name, len, tid + 3,
				PID_INO_BASE + (unsigned long)tid * 8, DT_DIR))
			return 0;
		ctx->pos = tid + 3;
	}
	return 0;
}

static const struct inode_operations proc_task_dir_inode_operations = {
	.lookup = proc_task_lookup,
};

static const struct file_operations proc_task_dir_operations = {
	.read_iter = generic_read_dir,
	.iterate = proc_task_readdir,
};

static struct dentry *proc_pid_dir_lookup(struct inode *dir,
					  struct dentry *dentry,
					  unsigned int flags)
{
	struct task_ids t;

	if (!get_task_ids(inode_pid(dir), &t))
		return ERR_PTR(-ENOENT);
	for (int i = 0; i < (int)ARRAY_SIZE(pid_entries); i++)
		if (strlen(pid_entries[i].name) == dentry->d_name.len &&
		    !memcmp(pid_entries[i].name, dentry->d_name.name,
			    dentry->d_name.len))
			return proc_instantiate(dentry,
				proc_pid_inode(dir->i_sb, &t, i + 1));
	if (dentry->d_name.len == 2 && !memcmp(dentry->d_name.name, "fd", 2))
		return proc_instantiate(dentry, proc_fd_dir_inode(dir->i_sb, &t,
							dir->i_ino + FD_INDEX));
	if (dentry->d_name.len == 4 && !memcmp(dentry->d_name.name, "task", 4) &&
	    !dir_is_thread(dir))
		return proc_instantiate(dentry, proc_task_dir_inode(dir->i_sb,
								    &t));
	return ERR_PTR(-ENOENT);
}

static int proc_pid_dir_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file->f_inode;

	if (!find_task_by_pid(inode_pid(dir)))
		return -ENOENT;
	if (!dir_emit_dots(file, ctx))
		return 0;
	while (ctx->pos - 2 < (loff_t)ARRAY_SIZE(pid_entries)) {
		const struct pid_entry *e = &pid_entries[ctx->pos - 2];

		if (!ctx->actor(ctx, e->name, strlen(e->name), ctx->pos + 1,
				dir->i_ino + ctx->pos - 1, DT_REG))
			return 0;
		ctx->pos++;
	}
	if (ctx->pos - 2 == ARRAY_SIZE(pid_entries)) {	/* then fd/ */
		if (!ctx->actor(ctx, "fd", 2, ctx->pos + 1,
				dir->i_ino + FD_INDEX, DT_DIR))
			return 0;
		ctx->pos++;
	}
	if (ctx->pos - 2 == ARRAY_SIZE(pid_entries) + 1 &&
	    !dir_is_thread(dir)) {	/* task/ */
		if (!ctx->actor(ctx, "task", 4, ctx->pos + 1,
				dir->i_ino + TASK_INDEX, DT_DIR))
			return 0;
		ctx->pos++;
	}
	return 0;
}

static const struct inode_operations proc_pid_dir_inode_operations = {
	.lookup = proc_pid_dir_lookup,
};

static const struct file_operations proc_pid_dir_operations = {
	.read_iter = generic_read_dir,
	.iterate = proc_pid_dir_readdir,
};

static struct inode *proc_self_inode(struct super_block *sb)
{
	struct inode *inode = new_inode(sb);
	char *link = kmalloc(12, GFP_KERNEL);

	if (!inode || !link) {
		kfree(link);
		if (inode)
			iput(inode);
		return NULL;
	}
	snprintf(link, 12, "%d", current->tgid);
	inode->i_ino = SELF_INO;
	inode->i_mode = S_IFLNK | 0777;
	inode->i_nlink = 1;
	inode->i_size = strlen(link);
	inode->i_link = link;	/* kfree'd with the inode */
	inode->i_op = &proc_self_inode_operations;
	return inode;
}

/* /proc's root: a name no registered entry has. NULL: not ours. */
struct dentry *proc_pid_lookup(struct inode *dir, struct dentry *dentry)
{
	const char *name = dentry->d_name.name;
	unsigned int len = dentry->d_name.len;
	struct task_ids t;

	if (len == 4 && !memcmp(name, "self", 4))
		return proc_instantiate(dentry, proc_self_inode(dir->i_sb));
	if (!get_task_ids(max(proc_name_to_number(name, len), 0L), &t))
		return NULL;
	return proc_instantiate(dentry, proc_pid_inode(dir->i_sb, &t, 0));
}

/*
 * /proc's root after its registered entries: "self" at position
 * PROC_SELF_POS, then the pids in increasing order, pid p at position
 * PROC_PID_POS + p, so that a reader that stops and comes back resumes at
 * the next pid, whatever was created or reaped in between.
 */
void proc_pid_readdir(struct dir_context *ctx)
{
	char name[12];
	pid_t pid;

	if (ctx->pos <= PROC_SELF_POS) {
		ctx->pos = PROC_SELF_POS;
		if (!ctx->actor(ctx, "self", 4, PROC_PID_POS, SELF_INO,
				DT_LNK))
			return;
		ctx->pos = PROC_PID_POS;
	}
	while ((pid = next_id(0, ctx->pos - PROC_PID_POS))) {
		int len = snprintf(name, sizeof(name), "%d", pid);

		/* The actor may fault on the user's buffer and sleep: no
		 * task pointer is held across it. */
		if (!ctx->actor(ctx, name, len, PROC_PID_POS + pid + 1,
				PID_INO_BASE + (unsigned long)pid * 8, DT_DIR))
			return;
		ctx->pos = PROC_PID_POS + pid + 1;
	}
}
