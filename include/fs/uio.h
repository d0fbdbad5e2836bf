/*
 * I/O vectors (fs/iov_iter.c): where the bytes of a read or write go to or
 * come from. A struct iov_iter walks either user memory (read(2), readv(2):
 * struct iovec with __user bases, copied with copy_to_user and friends) or
 * kernel memory (kernel_read, exec, the self-tests: struct kvec). File
 * systems copy through copy_to_iter/copy_from_iter and never ask which.
 *
 * Linux's iov_iter (lib/iov_iter.c) knows more kinds (pipes, bvecs) and a
 * direction; pagelab keeps the two that matter here.
 */
#ifndef _FS_UIO_H
#define _FS_UIO_H

#include <kernel/syscalls.h>
#include <kernel/types.h>
#include <mm/mm.h>

struct iovec {
	void __user *iov_base;
	size_t iov_len;
};

struct kvec {
	void *iov_base;
	size_t iov_len;
};

enum iter_type { ITER_IOVEC, ITER_KVEC };

struct iov_iter {
	enum iter_type type;
	size_t iov_offset;	/* bytes already used of the current segment */
	size_t count;	/* bytes left in all segments */
	union {
		const struct iovec *iov;
		const struct kvec *kvec;
	};
	unsigned long nr_segs;
};

#define UIO_FASTIOV 8
#define UIO_MAXIOV 1024
/* Linux caps one read or write at this many bytes (2 GiB minus a page). */
#define MAX_RW_COUNT ((size_t)(INT_MAX & PAGE_MASK))

void iov_iter_init(struct iov_iter *i, const struct iovec *iov,
		   unsigned long nr_segs, size_t count);
void iov_iter_kvec(struct iov_iter *i, const struct kvec *kvec,
		   unsigned long nr_segs, size_t count);

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

/* Copy up to bytes into/out of the iterator and advance it; return the
 * number of bytes copied (short only when user memory faulted). */
size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i);
size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i);
/* Store zeros instead of data (reads of /dev/zero). */
size_t iov_iter_zero(size_t bytes, struct iov_iter *i);
/* Skip bytes without copying (writes to /dev/null). */
void iov_iter_advance(struct iov_iter *i, size_t bytes);

/*
 * Copy a user iovec array in and set up an iterator over it. *iovp points
 * at fast_iov when nr_segs <= UIO_FASTIOV, else at a kmalloc'ed array the
 * caller kfree()s (kfree(NULL) is fine: set *iovp = NULL on fast use).
 * Returns the total byte count (capped to MAX_RW_COUNT) or -EINVAL/-EFAULT.
 */
ssize_t import_iovec(const struct iovec __user *uvec, unsigned long nr_segs,
		     struct iovec *fast_iov, struct iovec **iovp,
		     struct iov_iter *i);

#endif
