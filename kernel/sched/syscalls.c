/*
 * kernel/sched/syscalls.c: CPU affinity (sched_getaffinity,
 * sched_setaffinity).
 *
 * A task runs only on the CPUs of its mask (task->cpus_allowed, inherited
 * over fork, all CPUs at first; kernel/sched/core.c picks by it). Masks
 * are arrays of longs; pagelab's (cpumask_size()) is one long, so
 * getaffinity returns 8. As on Linux, a mask must name an online CPU
 * (EINVAL), a buffer must hold the mask in whole longs (EINVAL), and only
 * the owner or root may set another task's (EPERM). The task is looked up
 * and used under the tasklist lock, so it cannot go meanwhile.
 */
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>

static struct task_struct *find_process(pid_t pid)
{
	return pid ? find_task_by_pid(pid) : current;
}

SYSCALL_DEFINE3(sched_getaffinity, pid_t, pid, unsigned int, len,
		unsigned long __user *, user_mask_ptr)
{
	struct task_struct *t;
	unsigned long mask;

	if ((unsigned long)len * 8 < (unsigned long)nr_cpu_ids ||
	    (len & (sizeof(long) - 1)))
		return -EINVAL;
	lock_tasklist();
	t = find_process(pid);
	mask = t ? t->cpus_allowed & cpu_online_mask : 0;
	unlock_tasklist();
	if (!t)
		return -ESRCH;
	if (copy_to_user(user_mask_ptr, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

SYSCALL_DEFINE3(sched_setaffinity, pid_t, pid, unsigned int, len,
		unsigned long __user *, user_mask_ptr)
{
	const struct cred *c = &current->cred;
	unsigned long mask = 0;
	struct task_struct *t;
	long err = 0;

	if (copy_from_user(&mask, user_mask_ptr,
			   min((size_t)len, sizeof(mask))))
		return -EFAULT;
	mask &= cpu_online_mask;
	lock_tasklist();
	t = find_process(pid);
	if (!t)
		err = -ESRCH;
	else if (c->euid && c->euid != t->cred.uid && c->euid != t->cred.euid)
		err = -EPERM;
	else if (!mask)
		err = -EINVAL;
	else
		set_cpus_allowed(t, mask);
	unlock_tasklist();
	return err;
}
