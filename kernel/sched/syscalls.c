/*
 * kernel/sched/syscalls.c: CPU affinity (sched_getaffinity,
 * sched_setaffinity).
 *
 * Every task may run on every online CPU (a mask set is checked, not yet
 * kept). Masks are arrays of longs; pagelab's (cpumask_size()) is one long, so
 * getaffinity returns 8. As on Linux, a mask must name a CPU that exists
 * (EINVAL), a buffer must hold the mask in whole longs (EINVAL), and only
 * the owner or root may set another task's (EPERM).
 */
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>

#define CPU_MASK_ALL cpu_online_mask

static struct task_struct *find_process(pid_t pid)
{
	return pid ? find_task_by_pid(pid) : current;
}

SYSCALL_DEFINE3(sched_getaffinity, pid_t, pid, unsigned int, len,
		unsigned long __user *, user_mask_ptr)
{
	unsigned long mask = CPU_MASK_ALL;

	if ((unsigned long)len * 8 < (unsigned long)nr_cpu_ids ||
	    (len & (sizeof(long) - 1)))
		return -EINVAL;
	if (!find_process(pid))
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

	if (copy_from_user(&mask, user_mask_ptr,
			   min((size_t)len, sizeof(mask))))
		return -EFAULT;
	t = find_process(pid);
	if (!t)
		return -ESRCH;
	if (c->euid && c->euid != t->cred.uid && c->euid != t->cred.euid)
		return -EPERM;
	return mask & CPU_MASK_ALL ? 0 : -EINVAL;
}
