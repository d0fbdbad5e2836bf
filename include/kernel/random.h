/*
 * Random bytes (drivers/char/random.c): one generator behind
 * getrandom(2), /dev/urandom and /dev/random. Not cryptographic: a
 * xorshift stirred with the TSC, enough for AT_RANDOM, hash seeds and
 * mktemp names, which is what pagelab's programs ask of it.
 */
#ifndef _KERNEL_RANDOM_H
#define _KERNEL_RANDOM_H

#include <kernel/syscalls.h>	/* __user */
#include <kernel/types.h>

struct file_operations;

void get_random_bytes(void *buf, size_t len);
/* Fill len user bytes: len, or -EFAULT when the first chunk faulted. */
long get_random_bytes_user(void __user *buf, size_t len);
/* /dev/random (1,8) and /dev/urandom (1,9): drivers/char/mem.c opens them. */
extern const struct file_operations random_fops, urandom_fops;

#endif
