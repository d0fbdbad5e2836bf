/*
 * Resource limits (getrlimit/setrlimit/prlimit64) and usage (getrusage,
 * wait4): Linux's numbering and layouts.
 */
#ifndef _KERNEL_RESOURCE_H
#define _KERNEL_RESOURCE_H

#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_RSS 5
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS 9
#define RLIMIT_LOCKS 10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE 12
#define RLIMIT_NICE 13	/* 20 - the lowest nice allowed; 0 by default */
#define RLIMIT_RTPRIO 14
#define RLIMIT_RTTIME 15
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0UL)

struct rlimit {
	unsigned long rlim_cur, rlim_max;
};

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_BOTH (-2)	/* kernel only: wait4's, self and children */
#define RUSAGE_THREAD 1

struct rusage_timeval {
	long tv_sec, tv_usec;
};

/* struct rusage, 144 bytes; pagelab fills the times, ru_maxrss (KiB)
 * and ru_nvcsw, and leaves the rest 0. */
struct rusage {
	struct rusage_timeval ru_utime, ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt;
	long ru_nswap, ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv;
	long ru_nsignals, ru_nvcsw, ru_nivcsw;
};

struct task_struct;
/* The usage of t (RUSAGE_SELF), of its reaped children, or both
 * (kernel/sys.c). */
void getrusage(struct task_struct *t, int who, struct rusage *r);
/* What some tasks used: a thread, a process (every thread, those gone
 * included: thread_group_usage), or a task's reaped children. */
struct group_usage {
	u64 utime_ticks, stime_ticks;
	unsigned long nvcsw, nivcsw, min_flt, maj_flt, maxrss_kb;
};
void thread_group_usage(struct task_struct *t, struct group_usage *u);
/* Add u to *sum: times, switches and faults add up, maxrss is the larger. */
void usage_add(struct group_usage *sum, const struct group_usage *u);
/* t's own usage (one thread, no children). */
void task_usage(const struct task_struct *t, struct group_usage *u);
/* Note t's resident size now in its maxrss (getrusage, exit). */
void sample_maxrss(struct task_struct *t);
struct mm_struct;
/* Resident pages of mm (present PTEs): getrusage, /proc/PID/stat. */
unsigned long get_mm_rss(struct mm_struct *mm);

#endif
