/*
 * PAGELAB_IOC_PAGEMAP: what the page cache holds of a file, page by page
 * and block by block (fs/pagemap.c; /bin/pagemap draws it). A pagelab
 * ioctl, not Linux's: Linux shows some of this in /proc/PID/pagemap and
 * /sys/kernel/mm/page_idle, none of it per buffer.
 *
 * Shared by the kernel and userland: plain C types only.
 */
#ifndef _PAGELAB_PAGEMAP_H
#define _PAGELAB_PAGEMAP_H

#define PAGEMAP_MAX_BUFFERS 8	/* 512-byte blocks on a 4 KiB page */

/* page flags */
#define PM_CACHED 0x01	/* in the page cache (else nothing below is set) */
#define PM_UPTODATE 0x02
#define PM_DIRTY 0x04
#define PM_WRITEBACK 0x08
#define PM_LOCKED 0x10
#define PM_BUFFERS 0x20	/* has buffer heads */
#define PM_BMAP 0x40	/* no buffer heads, but the file system said where
			 * each block is (->bmap): nr_buffers entries, each
			 * PMB_ON_DISK or a hole */

/* buffer flags */
#define PMB_MAPPED 0x01	/* the buffer maps its disk block (block is
			 * valid); else see PMB_ON_DISK */
#define PMB_UPTODATE 0x02
#define PMB_DIRTY 0x04
#define PMB_NEW 0x08	/* just allocated, not yet written */
#define PMB_LOCKED 0x10
#define PMB_ON_DISK 0x20	/* not mapped by a buffer, yet on disk: the
				 * file system's ->bmap gave block. Neither
				 * this nor PMB_MAPPED: a hole */

struct pagemap_page {
	unsigned long long index;	/* page number in the file */
	unsigned int flags;	/* PM_* */
	int mapcount;	/* PTEs mapping it */
	int refcount;
	unsigned int nr_buffers;	/* entries below: the buffers, or
					 * with PM_BMAP the page's blocks */
	unsigned int buf_flags[PAGEMAP_MAX_BUFFERS];	/* PMB_* */
	unsigned long long block[PAGEMAP_MAX_BUFFERS];	/* disk block */
};

struct pagemap_request {
	unsigned long long first;	/* in: first page index */
	unsigned int count;	/* in: room in pages[]; out: filled */
	unsigned int blocksize;	/* out: the file system's block size */
	long long i_size;	/* out */
	unsigned long long pages;	/* in: user pointer to pagemap_page[] */
};

/* _IOWR('P', 0x01, struct pagemap_request), spelled out for the kernel,
 * which has no <sys/ioctl.h> macros. */
#define PAGELAB_IOC_PAGEMAP 0xc0205001u

#endif
