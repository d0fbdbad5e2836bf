/* Fixed-width integer types and the few libc-ish types the kernel uses. */
#ifndef _KERNEL_TYPES_H
#define _KERNEL_TYPES_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long s64;

typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned long uintptr_t;
typedef long intptr_t;
typedef long off_t;
typedef long loff_t;
typedef u64 phys_addr_t;
typedef u64 sector_t;	/* a block number, in file system blocks */
typedef _Bool bool;

#define true 1
#define false 0
#define NULL ((void *)0)

#define U64_MAX (~0UL)
#define LONG_MAX ((long)(~0UL >> 1))
#define INT_MAX ((int)(~0U >> 1))
#define UINT_MAX (~0U)

#endif
