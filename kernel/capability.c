/*
 * kernel/capability.c: capget(2) and capset(2).
 *
 * pagelab has no capability sets: a task may do what root may do when its
 * effective uid is 0, and nothing more otherwise. capget reports that as
 * Linux would for such a task: root holds every capability Linux 6.1
 * knows (0 to CAP_LAST_CAP) in its effective and permitted sets, others
 * hold none; the inheritable set is empty.
 *
 * Roadmap:
 *   cap_validate_magic  the version handshake: an unknown version is
 *                       answered with the preferred one, written back
 *                       into the header, and EINVAL (libcap probes so)
 *   capset              accepts, for the caller itself, what Linux's
 *                       cap_capset would: sets no larger than what
 *                       capget reports, effective within permitted. Since
 *                       nothing here has capabilities, nothing is stored:
 *                       a root task that drops some keeps all of root's
 *                       powers, and capget still reports the full sets.
 */
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>

#define _LINUX_CAPABILITY_VERSION_1 0x19980330	/* one 32-bit word */
#define _LINUX_CAPABILITY_VERSION_2 0x20071026	/* two words, old */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522	/* two words */
#define CAP_LAST_CAP 40	/* CAP_CHECKPOINT_RESTORE, Linux 6.1's last */
#define CAP_WORDS 2

struct cap_user_header {
	u32 version;
	int pid;
};

struct cap_user_data {
	u32 effective, permitted, inheritable;
};

/* The capabilities of task t: every one for root, none for others. */
static void task_caps(struct task_struct *t, struct cap_user_data *d)
{
	bool root = t->cred.euid == 0;

	d[0].effective = d[0].permitted = root ? ~0U : 0;
	d[1].effective = d[1].permitted =
		root ? (1U << (CAP_LAST_CAP - 31)) - 1 : 0;
	d[0].inheritable = d[1].inheritable = 0;
}

/* Words the header's version carries, or -EINVAL having written back the
 * version we prefer; -EFAULT for a bad header. */
static int cap_validate_magic(struct cap_user_header __user *header,
			      unsigned int *words)
{
	u32 version;

	if (get_user(version, &header->version))
		return -EFAULT;
	switch (version) {
	case _LINUX_CAPABILITY_VERSION_1:
		*words = 1;
		return 0;
	case _LINUX_CAPABILITY_VERSION_2:
	case _LINUX_CAPABILITY_VERSION_3:
		*words = CAP_WORDS;
		return 0;
	}
	if (put_user((u32)_LINUX_CAPABILITY_VERSION_3, &header->version))
		return -EFAULT;
	return -EINVAL;
}

/*
 * A NULL data pointer with an unknown version is the probe for the
 * preferred version: it succeeds. pid 0 is the caller; another pid is
 * answered for that task (ESRCH if there is none).
 */
SYSCALL_DEFINE2(capget, struct cap_user_header __user *, header,
		struct cap_user_data __user *, dataptr)
{
	struct cap_user_data d[CAP_WORDS];
	struct task_struct *t = current;
	unsigned int words;
	int pid, err = cap_validate_magic(header, &words);

	if (!dataptr)
		return err == -EINVAL ? 0 : err;
	if (err)
		return err;
	if (get_user(pid, &header->pid))
		return -EFAULT;
	if (pid < 0)
		return -EINVAL;
	lock_tasklist();	/* read t before it can be reaped */
	if (pid && pid != current->pid)
		t = find_task_by_pid(pid);
	if (t)
		task_caps(t, d);
	unlock_tasklist();
	if (!t)
		return -ESRCH;
	if (copy_to_user(dataptr, d, words * sizeof(d[0])))
		return -EFAULT;
	return 0;
}

/* Is every bit of a also in b, in each word? */
static bool cap_issubset(const u32 *a, const u32 *b)
{
	for (int i = 0; i < CAP_WORDS; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

/*
 * Only the caller's own sets may change (EPERM for another pid, as on
 * Linux since 2.6.25), and only to what Linux's cap_capset allows a task
 * holding what capget reports: permitted within the old permitted,
 * effective within the new permitted, inheritable within the bounding set
 * (all of it) when the task holds CAP_SETPCAP (root), else within the old
 * permitted. Bits above CAP_LAST_CAP are ignored, as Linux masks them.
 */
SYSCALL_DEFINE2(capset, struct cap_user_header __user *, header,
		const struct cap_user_data __user *, data)
{
	struct cap_user_data d[CAP_WORDS] = { { 0 } }, old[CAP_WORDS];
	u32 eff[CAP_WORDS], perm[CAP_WORDS], inh[CAP_WORDS];
	u32 old_perm[CAP_WORDS], bset[CAP_WORDS];
	unsigned int words;
	int pid, err = cap_validate_magic(header, &words);

	if (err)
		return err;
	if (get_user(pid, &header->pid))
		return -EFAULT;
	if (pid && pid != current->pid)
		return -EPERM;
	if (copy_from_user(d, data, words * sizeof(d[0])))
		return -EFAULT;
	task_caps(current, old);
	for (int i = 0; i < CAP_WORDS; i++) {
		u32 valid = i ? (1U << (CAP_LAST_CAP - 31)) - 1 : ~0U;

		eff[i] = d[i].effective & valid;
		perm[i] = d[i].permitted & valid;
		inh[i] = d[i].inheritable & valid;
		old_perm[i] = old[i].permitted;
		bset[i] = valid;
	}
	if (!cap_issubset(inh, current->cred.euid == 0 ? bset : old_perm) ||
	    !cap_issubset(perm, old_perm) || !cap_issubset(eff, perm))
		return -EPERM;
	return 0;	/* accepted, not stored: see the top of the file */
}
