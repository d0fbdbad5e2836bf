/* A task's identity for permission checks (Linux's struct cred, inline). */
#ifndef _KERNEL_CRED_H
#define _KERNEL_CRED_H

#include <kernel/types.h>

typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef int pid_t;
typedef unsigned int mode_t;
typedef unsigned short umode_t;

struct cred {
	uid_t uid, euid, suid, fsuid;
	gid_t gid, egid, sgid, fsgid;
};

#endif
