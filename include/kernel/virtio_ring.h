/*
 * Split virtqueues (drivers/virtio/virtio_ring.c; virtio 1.x spec 2.7).
 *
 * Three areas in guest memory, shared with the device:
 *   descriptor table  num entries {addr, len, flags, next}: the buffers.
 *                     A request is a chain linked by `next`; the device
 *                     reads the first ones and writes the VRING_DESC_F_WRITE
 *                     ones, which all come after.
 *   available ring    written by the driver: heads of chains to process,
 *                     and avail->idx, the number ever made available
 *   used ring         written by the device: {id = head, len = bytes
 *                     written} per finished chain, and used->idx
 * Indices are free-running 16-bit counters; slot = idx & (num - 1).
 *
 * Driver side: virtqueue_add() a request, virtqueue_kick() to tell the
 * device, and from the interrupt handler vring_interrupt() -> the queue's
 * callback, which calls virtqueue_get_buf() until it returns NULL.
 * The caller serialises all calls on one queue (virtio_blk: its lock).
 */
#ifndef _KERNEL_VIRTIO_RING_H
#define _KERNEL_VIRTIO_RING_H

#include <kernel/list.h>
#include <kernel/pci.h>
#include <kernel/virtio.h>

#define VRING_DESC_F_NEXT 1	/* the chain continues at `next` */
#define VRING_DESC_F_WRITE 2	/* the device writes this buffer */
#define VRING_USED_F_NO_NOTIFY 1	/* device: don't kick me, I'm polling */

struct vring_desc {
	u64 addr;	/* guest physical */
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail {
	u16 flags;
	u16 idx;
	u16 ring[];
};

struct vring_used_elem {
	u32 id;		/* head of the chain */
	u32 len;	/* bytes the device wrote into it */
};

struct vring_used {
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[];
};

/* One buffer of a request: guest physical address and length. Linux
 * passes scatterlists; pagelab's requests are a handful of pieces. */
struct virtqueue_buf {
	phys_addr_t addr;
	u32 len;
};

struct virtqueue {
	struct virtio_device *vdev;
	unsigned int index;	/* queue number within the device */
	unsigned int num;	/* ring size, a power of two */
	const char *name;	/* for log lines: the disk's name */
	vq_callback_t *callback;
	bool (*notify)(struct virtqueue *vq);	/* transport's doorbell */
	void *priv;	/* the transport's (its notify address) */
	struct list_head list;	/* the transport's list of its queues */

	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	struct page *pages;	/* all three areas, 2^order pages */
	unsigned int order;

	u16 free_head;	/* free descriptors, chained through `next` */
	u16 num_free;
	u16 avail_idx_shadow;	/* our copy of avail->idx */
	u16 last_used_idx;	/* next used->idx slot to look at */
	u16 in_flight;	/* chains made available, not yet used */
	bool broken;	/* the device misbehaved: no more I/O */
	void **data;	/* per head descriptor: the caller's token */

	unsigned long nr_added, nr_used, nr_kicks;
	unsigned long nr_kicks_unneeded;	/* kicked though NO_NOTIFY was set */
};

/* Allocate and initialise a queue of num entries (a power of two). NULL
 * when memory is short. */
struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num,
					 struct virtio_device *vdev,
					 bool (*notify)(struct virtqueue *),
					 vq_callback_t *callback,
					 const char *name);
void vring_del_virtqueue(struct virtqueue *vq);

/* Guest physical addresses of the three areas, for the transport. */
phys_addr_t virtqueue_get_desc_addr(struct virtqueue *vq);
phys_addr_t virtqueue_get_avail_addr(struct virtqueue *vq);
phys_addr_t virtqueue_get_used_addr(struct virtqueue *vq);

/*
 * Make a request available: bufs[0..out-1] are read by the device,
 * bufs[out..out+in-1] written by it. data (not NULL) comes back from
 * virtqueue_get_buf when the device is done. Returns 0, -ENOSPC when
 * fewer than out + in descriptors are free (try again after some
 * complete), -EIO on a broken queue. Does not notify: see virtqueue_kick.
 */
int virtqueue_add(struct virtqueue *vq, const struct virtqueue_buf *bufs,
		  unsigned int out, unsigned int in, void *data);
/* Tell the device there is new work (unless it asked not to be told). */
bool virtqueue_kick(struct virtqueue *vq);
/*
 * The next finished request's token, or NULL when there is none. *len is
 * what the device says it wrote. A device that breaks the protocol (an id
 * that is not in flight, used->idx running ahead of what was issued) gets
 * a log line and the queue is marked broken: NULL from then on.
 */
void *virtqueue_get_buf(struct virtqueue *vq, u32 *len);
/* After the device is reset: the tokens of requests it never finished,
 * one per call, then NULL. */
void *virtqueue_detach_unused_buf(struct virtqueue *vq);
/* From the transport's interrupt handler: run the callback if the device
 * used buffers. Called with interrupts off. */
irqreturn_t vring_interrupt(struct virtqueue *vq);

static inline bool virtqueue_is_broken(const struct virtqueue *vq)
{
	return vq->broken;
}

static inline unsigned int virtqueue_get_vring_size(const struct virtqueue *vq)
{
	return vq->num;
}

#endif
