/* Resource limits (getrlimit/setrlimit/prlimit64): Linux's numbering. */
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
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0UL)

struct rlimit {
	unsigned long rlim_cur, rlim_max;
};

#endif
