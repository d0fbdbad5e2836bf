/* Shared anonymous memory backed by an unlinked file (mm/shmem.c). */
#ifndef _MM_SHMEM_H
#define _MM_SHMEM_H

#include <kernel/types.h>

struct file;

/* An unlinked file of size bytes, open for reading and writing, to back
 * a MAP_SHARED|MAP_ANONYMOUS mapping; ERR_PTR(-ENOMEM) on failure. */
struct file *shmem_file_setup(loff_t size);

#endif
