/*
 * kernel/sys.c: the small system calls: identity, process groups, limits,
 * uname, clocks and sleeping, arch_prctl, rseq (ENOSYS), reboot; and what a process can
 * ask about itself and the machine: sysinfo, times, getrusage, getcpu,
 * its nice value (getpriority/setpriority), prctl (name, parent-death
 * signal, dumpable).
 */
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <fs/blkdev.h>
#include <fs/file.h>
#include <kernel/errno.h>
#include <kernel/power.h>
#include <kernel/printk.h>
#include <kernel/random.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <kernel/version.h>
#include <asm/processor.h>
#include <mm/gfp.h>
#include <mm/mmap.h>

SYSCALL_DEFINE0(getpid) { return current->tgid; }
SYSCALL_DEFINE0(gettid) { return current->pid; }
SYSCALL_DEFINE0(getppid) { return current->parent ? current->parent->tgid : 0; }
SYSCALL_DEFINE0(getuid) { return current->cred.uid; }
SYSCALL_DEFINE0(geteuid) { return current->cred.euid; }
SYSCALL_DEFINE0(getgid) { return current->cred.gid; }
SYSCALL_DEFINE0(getegid) { return current->cred.egid; }
SYSCALL_DEFINE0(getpgrp) { return current->pgid; }
SYSCALL_DEFINE0(sched_yield)
{
	schedule();
	return 0;
}

/* Root may become anyone; others may only pick among their own ids. */
SYSCALL_DEFINE1(setuid, uid_t, uid)
{
	struct cred *c = &current->cred;

	if (c->euid == 0)
		c->uid = c->suid = uid;
	else if (uid != c->uid && uid != c->suid)
		return -EPERM;
	c->euid = c->fsuid = uid;
	return 0;
}

SYSCALL_DEFINE1(setgid, gid_t, gid)
{
	struct cred *c = &current->cred;

	if (c->euid == 0)
		c->gid = c->sgid = gid;
	else if (gid != c->gid && gid != c->sgid)
		return -EPERM;
	c->egid = c->fsgid = gid;
	return 0;
}

SYSCALL_DEFINE3(getresuid, uid_t __user *, r, uid_t __user *, e,
		uid_t __user *, s)
{
	struct cred *c = &current->cred;

	if (put_user(c->uid, r) || put_user(c->euid, e) || put_user(c->suid, s))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE3(getresgid, gid_t __user *, r, gid_t __user *, e,
		gid_t __user *, s)
{
	struct cred *c = &current->cred;

	if (put_user(c->gid, r) || put_user(c->egid, e) || put_user(c->sgid, s))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(getgroups, int, size, gid_t __user *, list)
{
	return 0;	/* no supplementary groups */
}

/*
 * Linux's rules: pid is me or my child (ESRCH), in my session and not a
 * session leader (EPERM); the group joined is its own (pgid 0 or its pid)
 * or one that already exists in my session (EPERM). A zombie is still a
 * member of its group until it is reaped: in `ls | cat`, cat joins the
 * group of an ls that may have exited already.
 */
/* Process group and session are the process's: every thread of t's
 * gets them (Linux keeps them in the signal_struct). */
static void set_process_ids(struct task_struct *t, pid_t pgid, pid_t sid)
{
	struct task_struct *th;
	unsigned long flags;

	lock_task_sighand(t, &flags);
	list_for_each_entry(th, &t->sig->thread_head, thread_node) {
		th->pgid = pgid;
		th->sid = sid;
	}
	unlock_task_sighand(t, flags);
}

static long do_setpgid(pid_t pid, pid_t pgid)
{
	struct task_struct *t = pid ? find_task_by_pid(pid) : current, *g;
	struct task_struct *me = current->group_leader;
	bool found = false;

	if (t)
		t = t->group_leader;
	if (!t || (t != me && t->parent != me))
		return -ESRCH;
	if (t->sid != current->sid || t->sid == t->pid)
		return -EPERM;
	if (!pgid)
		pgid = t->pid;
	if (pgid != t->pid) {
		list_for_each_entry(g, &task_list, tasks)
			if (g->pgid == pgid && g->sid == current->sid)
				found = true;
		if (!found)
			return -EPERM;
	}
	set_process_ids(t, pgid, t->sid);
	return 0;
}

SYSCALL_DEFINE2(setpgid, pid_t, pid, pid_t, pgid)
{
	long ret;

	if (pgid < 0)
		return -EINVAL;
	lock_tasklist();
	ret = do_setpgid(pid, pgid);
	unlock_tasklist();
	return ret;
}

SYSCALL_DEFINE1(getpgid, pid_t, pid)
{
	struct task_struct *t;
	long ret;

	lock_tasklist();
	t = pid ? find_task_by_pid(pid) : current;
	ret = t ? t->pgid : -ESRCH;
	unlock_tasklist();
	return ret;
}

SYSCALL_DEFINE0(setsid)
{
	if (current->pgid == current->tgid)
		return -EPERM;	/* already a group leader */
	set_process_ids(current, current->tgid, current->tgid);
	return current->sid;
}

SYSCALL_DEFINE1(getsid, pid_t, pid)
{
	struct task_struct *t;
	pid_t sid;

	lock_tasklist();	/* t cannot be reaped on another CPU meanwhile */
	t = pid ? find_task_by_pid(pid) : current;
	sid = t ? t->sid : -ESRCH;
	unlock_tasklist();
	return sid;
}

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65],
		domainname[65];
};

SYSCALL_DEFINE1(uname, struct new_utsname __user *, name)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "pagelab", sizeof(u.sysname));
	strlcpy(u.nodename, "pagelab", sizeof(u.nodename));
	strlcpy(u.release, PAGELAB_VERSION, sizeof(u.release));
	strlcpy(u.version, "#1 " PAGELAB_COMPILER, sizeof(u.version));
	strlcpy(u.machine, "x86_64", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}

static int do_prlimit(struct task_struct *t, unsigned int res,
		      const struct rlimit *new, struct rlimit *old)
{
	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	if (old)
		*old = t->rlim[res];
	if (!new)
		return 0;
	if (new->rlim_cur > new->rlim_max)
		return -EINVAL;
	if (new->rlim_max > t->rlim[res].rlim_max && current->cred.euid)
		return -EPERM;
	/* Even root cannot have more fds than a table can hold (Linux:
	 * fs.nr_open). */
	if (res == RLIMIT_NOFILE && new->rlim_max > NR_OPEN)
		return -EPERM;
	t->rlim[res] = *new;
	return 0;
}

SYSCALL_DEFINE2(getrlimit, unsigned int, res, struct rlimit __user *, rlim)
{
	struct rlimit old;
	int err = do_prlimit(current, res, NULL, &old);

	if (!err && copy_to_user(rlim, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

SYSCALL_DEFINE2(setrlimit, unsigned int, res, const struct rlimit __user *,
		rlim)
{
	struct rlimit new;

	if (copy_from_user(&new, rlim, sizeof(new)))
		return -EFAULT;
	return do_prlimit(current, res, &new, NULL);
}

SYSCALL_DEFINE4(prlimit64, pid_t, pid, unsigned int, res,
		const struct rlimit __user *, nrl, struct rlimit __user *, orl)
{
	struct task_struct *t;
	struct rlimit new, old;
	int err;

	/* The copy first: t is found and changed under the tasklist lock,
	 * where nothing may fault. */
	if (nrl && copy_from_user(&new, nrl, sizeof(new)))
		return -EFAULT;
	lock_tasklist();
	t = pid ? find_task_by_pid(pid) : current;
	err = t ? do_prlimit(t, res, nrl ? &new : NULL, &old) : -ESRCH;
	unlock_tasklist();
	if (!err && orl && copy_to_user(orl, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/*
 * Restartable sequences (Linux 4.18) are not implemented: the answer is
 * Linux's when built without CONFIG_RSEQ, which C libraries expect and
 * step past. glibc asks at every program start (busybox's applets), so
 * it is answered here rather than logged as an unknown system call.
 */
SYSCALL_DEFINE4(rseq, void __user *, area, u32, len, int, flags, u32, sig)
{
	return -ENOSYS;
}

#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003

SYSCALL_DEFINE2(arch_prctl, int, code, unsigned long, addr)
{
	if (code == ARCH_SET_FS) {
		if (addr >= TASK_SIZE)
			return -EPERM;
		current->fs_base = addr;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	}
	if (code == ARCH_GET_FS)
		return put_user(current->fs_base, (unsigned long __user *)addr);
	return -EINVAL;
}

/*
 * The CPU the caller runs on (it may be elsewhere by the time the caller
 * reads it) and its NUMA node (one here). Either
 * pointer may be NULL; the third argument (a cache) is unused since Linux
 * 2.6.24. musl's sched_getcpu comes here when there is no vDSO.
 */
SYSCALL_DEFINE3(getcpu, unsigned int __user *, cpup,
		unsigned int __user *, nodep, void __user *, unused)
{
	unsigned int cpu = smp_processor_id();
	int err = 0;

	/* Both are written even if the first faults, as Linux does. */
	if (cpup)
		err |= put_user(cpu, cpup);
	if (nodep)
		err |= put_user(0U, nodep);
	return err ? -EFAULT : 0;
}

SYSCALL_DEFINE1(set_tid_address, int __user *, tidptr)
{
	current->clear_child_tid = (unsigned long)tidptr;
	return current->pid;
}

struct kernel_timespec {
	long tv_sec, tv_nsec;
};

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7

SYSCALL_DEFINE2(clock_gettime, int, which, struct kernel_timespec __user *, tp)
{
	u64 ns = ktime_get_ns();
	struct kernel_timespec ts;

	if (which < 0 || which > CLOCK_BOOTTIME)
		return -EINVAL;
	if (which == CLOCK_PROCESS_CPUTIME_ID || which == CLOCK_THREAD_CPUTIME_ID)
		ns = current->utime_ticks * (NSEC_PER_SEC / HZ);
	if (which == CLOCK_REALTIME || which == CLOCK_REALTIME_COARSE)
		ns = ktime_get_real_ns();
	ts.tv_sec = ns / NSEC_PER_SEC;
	ts.tv_nsec = ns % NSEC_PER_SEC;
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * The resolution: 1 ns for the clocks read from the TSC, a tick for the
 * CPU-time clocks (they count ticks).
 */
SYSCALL_DEFINE2(clock_getres, int, which, struct kernel_timespec __user *, tp)
{
	struct kernel_timespec ts = { 0, 1 };

	if (which < 0 || which > CLOCK_BOOTTIME)
		return -EINVAL;
	if (which == CLOCK_PROCESS_CPUTIME_ID || which == CLOCK_THREAD_CPUTIME_ID)
		ts.tv_nsec = NSEC_PER_SEC / HZ;
	if (tp && copy_to_user(tp, &ts, sizeof(ts)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE1(time, long __user *, tloc)
{
	long t = ktime_get_real_ns() / NSEC_PER_SEC;

	if (tloc && put_user(t, tloc))
		return -EFAULT;
	return t;
}

SYSCALL_DEFINE2(gettimeofday, struct kernel_timespec __user *, tv, void __user *,
		tz)
{
	u64 ns = ktime_get_real_ns();
	struct kernel_timespec t = { ns / NSEC_PER_SEC,
				     (ns % NSEC_PER_SEC) / 1000 };

	if (tv && copy_to_user(tv, &t, sizeof(t)))
		return -EFAULT;
	return 0;
}

#define TIMER_ABSTIME 1

/* ns from a valid timespec, saturating: a far deadline is no deadline. */
static u64 timespec_ns(const struct kernel_timespec *ts)
{
	if ((u64)ts->tv_sec >= U64_MAX / NSEC_PER_SEC - 1)
		return U64_MAX;
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static int put_timespec_ns(u64 ns, struct kernel_timespec __user *uts)
{
	struct kernel_timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * Which clocks a sleep may be measured on, as Linux 6.1 answers: the
 * real-time and monotonic ones (boot time is monotonic time here: no
 * suspend); the process's CPU-time clock (posix_cpu_nsleep); -EOPNOTSUPP
 * for the clocks that exist but cannot time a sleep (the thread's CPU
 * time, the raw and coarse clocks); -EINVAL for the rest.
 */
static int nsleep_clock_ok(int which)
{
	switch (which) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_PROCESS_CPUTIME_ID:
		return 0;
	case CLOCK_THREAD_CPUTIME_ID:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

/*
 * The process's CPU time does not advance while its only thread sleeps:
 * a deadline not yet reached is never reached, and only a signal ends the
 * sleep (Linux does the same for a one-thread process).
 */
static long cpu_clock_nanosleep(u64 ns, bool abs,
				struct kernel_timespec __user *rem)
{
	u64 now = current->utime_ticks * (NSEC_PER_SEC / HZ);

	if (abs ? ns <= now : !ns)
		return 0;
	while (!signal_pending(current))
		schedule_hrtimeout(U64_MAX);
	if (abs)
		return -ERESTARTNOHAND;
	if (rem && put_timespec_ns(ns, rem))
		return -EFAULT;
	return -EINTR;
}

/*
 * The monotonic time at which the real-time clock reads real. The clocks
 * are read real first: the offset then errs low, the deadline late.
 */
static u64 realtime_to_monotonic(u64 real)
{
	u64 now_real = ktime_get_real_ns();
	u64 offset = now_real - ktime_get_ns();

	return real - min(real, offset);
}

/*
 * Sleep on clock which until *req (TIMER_ABSTIME) or for *req. Every
 * sleep becomes a deadline on the monotonic clock (kernel/time/timer.c):
 * the real-time clock is the monotonic one plus the boot's epoch and is
 * never set, so an absolute real-time deadline converts once.
 * Interrupted by a signal, an absolute sleep leaves rem alone and is
 * restarted unless a handler ran (its deadline still holds); a relative
 * one writes the time left to rem and fails with EINTR (TODO: Linux
 * restarts it for the time left when no handler ran: restart_block).
 */
static long do_clock_nanosleep(int which, int flags,
			       const struct kernel_timespec __user *req,
			       struct kernel_timespec __user *rem)
{
	bool abs = flags & TIMER_ABSTIME;
	struct kernel_timespec ts;
	u64 ns, now = ktime_get_ns(), expires;
	int err = nsleep_clock_ok(which);

	if (err)
		return err;
	if (copy_from_user(&ts, req, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long)NSEC_PER_SEC)
		return -EINVAL;
	ns = timespec_ns(&ts);
	if (which == CLOCK_PROCESS_CPUTIME_ID)
		return cpu_clock_nanosleep(ns, abs, rem);
	if (!abs)
		expires = ns > U64_MAX - now ? U64_MAX : now + ns;
	else if (which != CLOCK_REALTIME || ns == U64_MAX)
		expires = ns;
	else
		expires = realtime_to_monotonic(ns);
	while (schedule_hrtimeout(expires))
		if (signal_pending(current))
			break;
	now = ktime_get_ns();
	if (now >= expires)
		return 0;
	if (abs)
		return -ERESTARTNOHAND;
	if (rem && put_timespec_ns(expires - now, rem))
		return -EFAULT;
	return -EINTR;
}

SYSCALL_DEFINE2(nanosleep, const struct kernel_timespec __user *, req,
		struct kernel_timespec __user *, rem)
{
	return do_clock_nanosleep(CLOCK_MONOTONIC, 0, req, rem);
}

/* Returns -errno; musl's clock_nanosleep() returns the errno itself. */
SYSCALL_DEFINE4(clock_nanosleep, int, which, int, flags,
		const struct kernel_timespec __user *, req,
		struct kernel_timespec __user *, rem)
{
	return do_clock_nanosleep(which, flags, req, rem);
}

SYSCALL_DEFINE3(getrandom, void __user *, buf, size_t, len, unsigned int,
		flags)
{
	return get_random_bytes_user(buf, len);	/* /dev/urandom's bytes */
}

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_MAGIC2 672274793
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321FEDC
#define LINUX_REBOOT_CMD_RESTART 0x01234567
#define LINUX_REBOOT_CMD_HALT 0xCDEF0123

/* Power off (status 0 for the host), restart (a reset) or halt the
 * machine: busybox's init asks for each (RB_POWER_OFF, RB_AUTOBOOT,
 * RB_HALT_SYSTEM); file systems are the caller's to sync and unmount. */
SYSCALL_DEFINE4(reboot, int, magic1, int, magic2, unsigned int, cmd,
		void __user *, arg)
{
	if ((unsigned int)magic1 != LINUX_REBOOT_MAGIC1 ||
	    magic2 != LINUX_REBOOT_MAGIC2)
		return -EINVAL;
	if (current->cred.euid != 0)
		return -EPERM;
	switch (cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
		kernel_power_off(0);
	case LINUX_REBOOT_CMD_RESTART:
		kernel_restart();
	case LINUX_REBOOT_CMD_HALT:
		kernel_halt();
	}
	return -EINVAL;
}

/* ---- sysinfo, times, getrusage ------------------------------------------ */

struct sysinfo {
	long uptime;	/* seconds since boot */
	unsigned long loads[3];	/* 1, 5, 15 minute load averages << 16 */
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	unsigned short procs;
	unsigned short pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;	/* the sizes above are in these units */
};
_Static_assert(sizeof(struct sysinfo) == 112, "struct sysinfo is 112 bytes");

/*
 * Sizes in bytes (mem_unit 1), as 64-bit Linux gives them. No swap, no
 * high memory; load averages are not kept (0); bufferram is
 * /proc/meminfo's Buffers (the disks' own page caches). procs counts
 * every task, kernel threads included, as Linux's nr_threads.
 */
SYSCALL_DEFINE1(sysinfo, struct sysinfo __user *, info)
{
	struct task_struct *t;
	struct sysinfo si;
	u64 ns = ktime_get_ns();

	memset(&si, 0, sizeof(si));
	si.uptime = ns / NSEC_PER_SEC + (ns % NSEC_PER_SEC ? 1 : 0);
	si.totalram = totalram_pages * PAGE_SIZE;
	si.freeram = nr_free_pages() * PAGE_SIZE;
	si.bufferram = nr_blockdev_pages() * PAGE_SIZE;
	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks)
		si.procs++;
	unlock_tasklist();
	si.mem_unit = 1;
	return copy_to_user(info, &si, sizeof(si)) ? -EFAULT : 0;
}

/* Resident pages of mm: present PTEs in its user half. The page tables
 * are walked, not the VMAs, so that no mmap_lock is needed: the OOM
 * killer asks under the tasklist lock, where nothing may sleep. (Tables
 * are freed only by the last mmput; an entry read as it changes is a
 * count off by one, as Linux's per-mm counters may be.) */
unsigned long get_mm_rss(struct mm_struct *mm)
{
	unsigned long n = 0;

	for (unsigned long a = 0; a < TASK_SIZE; a += PAGE_SIZE) {
		pte_t *pte;

		a = next_pte_table(mm->pgd, a, TASK_SIZE);
		if (a >= TASK_SIZE)
			break;
		pte = lookup_pte(mm->pgd, a, false);
		if (pte && (*pte & _PAGE_PRESENT))
			n++;
	}
	return n;
}

void sample_maxrss(struct task_struct *t)
{
	if (t->mm)
		t->maxrss_kb = max(t->maxrss_kb,
				   get_mm_rss(t->mm) << (PAGE_SHIFT - 10));
}

static struct rusage_timeval ticks_to_timeval(u64 ticks)
{
	struct rusage_timeval tv = { ticks / HZ,
				     (ticks % HZ) * (1000000 / HZ) };

	return tv;
}

void usage_add(struct group_usage *sum, const struct group_usage *u)
{
	sum->utime_ticks += u->utime_ticks;
	sum->stime_ticks += u->stime_ticks;
	sum->nvcsw += u->nvcsw;
	sum->nivcsw += u->nivcsw;
	sum->min_flt += u->min_flt;
	sum->maj_flt += u->maj_flt;
	sum->maxrss_kb = max(sum->maxrss_kb, u->maxrss_kb);
}

void task_usage(const struct task_struct *t, struct group_usage *u)
{
	*u = (struct group_usage){ t->utime_ticks, t->stime_ticks, t->nvcsw,
				   t->nivcsw, t->min_flt, t->maj_flt,
				   t->maxrss_kb };
}

void thread_group_usage(struct task_struct *t, struct group_usage *u)
{
	struct signal_struct *s = t->sig;
	struct task_struct *th;
	struct group_usage one;
	unsigned long flags;

	lock_task_sighand(t, &flags);
	*u = s->dead;
	list_for_each_entry(th, &s->thread_head, thread_node) {
		task_usage(th, &one);
		usage_add(u, &one);
	}
	unlock_task_sighand(t, flags);
}

/*
 * The tick does not tell user from system time, so all CPU time is
 * counted as user time. ru_nvcsw counts the switches where the task went to
 * sleep, ru_nivcsw those where it was switched out still runnable.
 * RUSAGE_SELF is the whole process (every thread, those gone too),
 * RUSAGE_THREAD the thread alone; children are the process's.
 */
void getrusage(struct task_struct *t, int who, struct rusage *r)
{
	struct group_usage u = { 0 }, g;

	memset(r, 0, sizeof(*r));
	if (who == RUSAGE_CHILDREN || who == RUSAGE_BOTH)
		u = t->group_leader->cusage;
	if (t == current)
		sample_maxrss(t);
	if (who == RUSAGE_THREAD) {
		task_usage(t, &u);
	} else if (who != RUSAGE_CHILDREN) {
		thread_group_usage(t, &g);
		usage_add(&u, &g);
	}
	r->ru_utime = ticks_to_timeval(u.utime_ticks);
	r->ru_stime = ticks_to_timeval(u.stime_ticks);
	r->ru_nvcsw = u.nvcsw;
	r->ru_nivcsw = u.nivcsw;
	r->ru_minflt = u.min_flt;
	r->ru_majflt = u.maj_flt;
	r->ru_maxrss = u.maxrss_kb;
}

SYSCALL_DEFINE2(getrusage, int, who, struct rusage __user *, ru)
{
	struct rusage r;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN &&
	    who != RUSAGE_THREAD)
		return -EINVAL;
	getrusage(current, who, &r);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/* Clock ticks (USER_HZ, which is HZ here) since boot; the CPU times of
 * the whole process and of its reaped children, in the same unit. */
SYSCALL_DEFINE1(times, struct tms __user *, tbuf)
{
	struct task_struct *leader = current->group_leader;
	struct group_usage u;
	struct tms tms;

	thread_group_usage(current, &u);
	tms = (struct tms){ u.utime_ticks, u.stime_ticks,
			    leader->cusage.utime_ticks,
			    leader->cusage.stime_ticks };
	if (tbuf && copy_to_user(tbuf, &tms, sizeof(tms)))
		return -EFAULT;
	return jiffies;
}

/* ---- getpriority, setpriority ------------------------------------------- */

#define PRIO_PROCESS 0
#define PRIO_PGRP 1
#define PRIO_USER 2
#define MIN_NICE (-20)
#define MAX_NICE 19

/* Is t one of the tasks (which, who) names? who 0 means mine. */
static bool prio_match(struct task_struct *t, int which, int who)
{
	switch (which) {
	case PRIO_PROCESS:
		return t->pid == (who ? who : current->pid);
	case PRIO_PGRP:
		return t->pgid == (who ? who : current->pgid);
	}
	return t->cred.uid == (who ? (uid_t)who : current->cred.uid);
}

/* Linux's set_one_prio: the caller must own t (or be root), and only
 * RLIMIT_NICE (or root) allows a lower nice value. Errors stick. */
static int set_one_prio(struct task_struct *t, int niceval, int error)
{
	const struct cred *c = &current->cred;

	if (c->euid && c->euid != t->cred.uid && c->euid != t->cred.euid)
		return -EPERM;
	if (niceval < t->nice && c->euid &&
	    (unsigned long)(20 - niceval) > t->rlim[RLIMIT_NICE].rlim_cur)
		return -EACCES;
	t->nice = niceval;
	return error == -ESRCH ? 0 : error;
}

SYSCALL_DEFINE3(setpriority, int, which, int, who, int, niceval)
{
	struct task_struct *t;
	int error = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	niceval = min(max(niceval, MIN_NICE), MAX_NICE);
	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which, who))
			error = set_one_prio(t, niceval, error);
	unlock_tasklist();
	return error;
}

/* 20 - nice of the highest-priority task named (1..40), as Linux's raw
 * system call returns it; C libraries turn it back into a nice value. */
SYSCALL_DEFINE2(getpriority, int, which, int, who)
{
	struct task_struct *t;
	long ret = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which, who))
			ret = max(ret, (long)(20 - t->nice));
	unlock_tasklist();
	return ret;
}

/* ---- prctl -------------------------------------------------------------- */

#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16

static int prctl_set_name(const char __user *uname)
{
	char comm[TASK_COMM_LEN];

	memset(comm, 0, sizeof(comm));
	if (strncpy_from_user(comm, uname, sizeof(comm) - 1) < 0)
		return -EFAULT;
	comm[sizeof(comm) - 1] = '\0';
	memcpy(current->comm, comm, sizeof(comm));
	return 0;
}

/* The few options programs commonly use; EINVAL for the rest. */
SYSCALL_DEFINE5(prctl, int, option, unsigned long, arg2, unsigned long, arg3,
		unsigned long, arg4, unsigned long, arg5)
{
	switch (option) {
	case PR_SET_PDEATHSIG:
		if (arg2 > _NSIG)
			return -EINVAL;
		current->pdeath_signal = arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return put_user(current->pdeath_signal, (int __user *)arg2);
	case PR_GET_DUMPABLE:
		return !current->undumpable;
	case PR_SET_DUMPABLE:
		if (arg2 > 1)
			return -EINVAL;
		current->undumpable = !arg2;
		return 0;
	case PR_SET_NAME:
		return prctl_set_name((const char __user *)arg2);
	case PR_GET_NAME:
		return copy_to_user((char __user *)arg2, current->comm,
				    TASK_COMM_LEN) ? -EFAULT : 0;
	}
	return -EINVAL;
}
