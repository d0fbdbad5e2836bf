/*
 * drivers/virtio/virtio_ring.c: split virtqueues, the driver's half.
 *
 * Roadmap (see <kernel/virtio_ring.h> for the three shared areas):
 *   vring_create_virtqueue  one physically contiguous block of pages:
 *                           descriptor table, available ring, used ring
 *   virtqueue_add           take descriptors off the free list, fill them,
 *                           put the chain's head in the available ring,
 *                           then publish avail->idx
 *   virtqueue_kick          ring the doorbell (the transport's notify),
 *                           every time: see there
 *   virtqueue_get_buf       read the used ring, check what the device
 *                           says, give the chain's descriptors back
 *   vring_interrupt         the transport's interrupt handler calls this
 *
 * Trust: the descriptor table and the available ring are ours; the device
 * only reads them. The used ring is the device's word and is checked
 * before it is believed: a bad id or a used->idx that runs ahead of what
 * is in flight breaks the queue (log line, then NULL and -EIO for ever)
 * rather than the kernel.
 *
 * Ordering: the device may look at the ring at any moment, so every store
 * that describes a request lands before the avail->idx store that
 * publishes it; x86 keeps stores in order, the compiler is held by
 * barrier(). Loads of the used ring after the used->idx load are likewise
 * kept in order. No store-then-load order is relied on: the kick, which
 * would need one to be skipped safely, is never skipped.
 *
 * Linux differs: scatterlists, indirect descriptors, notification
 * suppression (the used flag and event indexes), packed rings, DMA API
 * address translation.
 * Callers serialise (one lock per queue); nothing here takes a lock.
 */
#include <kernel/virtio_ring.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/gfp.h>
#include <mm/slab.h>

static size_t vring_avail_offset(unsigned int num)
{
	return num * sizeof(struct vring_desc);	/* 16-byte aligned */
}

static size_t vring_used_offset(unsigned int num)
{
	/* avail: flags, idx, ring[num], used_event; used wants 4 bytes. */
	return ALIGN(vring_avail_offset(num) + 2 * (3 + num), 4);
}

static size_t vring_size(unsigned int num)
{
	return vring_used_offset(num) + 2 * 3 + 8 * num;
}

static unsigned int size_to_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* May sleep. */
struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num,
					 struct virtio_device *vdev,
					 bool (*notify)(struct virtqueue *),
					 vq_callback_t *callback,
					 const char *name)
{
	struct virtqueue *vq;
	char *base;

	if (!num || (num & (num - 1)) || num > 32768)
		return NULL;
	vq = kzalloc(sizeof(*vq), GFP_KERNEL);
	if (!vq)
		return NULL;
	vq->data = kzalloc(num * sizeof(void *), GFP_KERNEL);
	vq->order = size_to_order(vring_size(num));
	vq->pages = alloc_pages(__GFP_ZERO, vq->order);
	if (!vq->data || !vq->pages)
		goto fail;
	base = page_address(vq->pages);
	vq->desc = (struct vring_desc *)base;
	vq->avail = (struct vring_avail *)(base + vring_avail_offset(num));
	vq->used = (struct vring_used *)(base + vring_used_offset(num));
	vq->vdev = vdev;
	vq->index = index;
	vq->num = num;
	vq->name = name;
	vq->notify = notify;
	vq->callback = callback;
	INIT_LIST_HEAD(&vq->list);
	/* Every descriptor free, chained in order. */
	for (unsigned int i = 0; i < num - 1; i++)
		vq->desc[i].next = i + 1;
	vq->free_head = 0;
	vq->num_free = num;
	return vq;
fail:
	if (vq->pages)
		__free_pages(vq->pages, vq->order);
	kfree(vq->data);
	kfree(vq);
	return NULL;
}

/* The device must be reset (or never started) first: it may still read
 * or write the rings otherwise. */
void vring_del_virtqueue(struct virtqueue *vq)
{
	__free_pages(vq->pages, vq->order);
	kfree(vq->data);
	kfree(vq);
}

phys_addr_t virtqueue_get_desc_addr(struct virtqueue *vq)
{
	return virt_to_phys(vq->desc);
}

phys_addr_t virtqueue_get_avail_addr(struct virtqueue *vq)
{
	return virt_to_phys(vq->avail);
}

phys_addr_t virtqueue_get_used_addr(struct virtqueue *vq)
{
	return virt_to_phys(vq->used);
}

int virtqueue_add(struct virtqueue *vq, const struct virtqueue_buf *bufs,
		  unsigned int out, unsigned int in, void *data)
{
	unsigned int total = out + in, i, n;
	u16 head;

	if (vq->broken)
		return -EIO;
	if (!total || !data)
		return -EINVAL;
	if (total > vq->num_free)
		return -ENOSPC;
	head = i = vq->free_head;
	for (n = 0; n < total; n++) {
		struct vring_desc *d = &vq->desc[i];

		d->addr = bufs[n].addr;
		d->len = bufs[n].len;
		d->flags = (n >= out ? VRING_DESC_F_WRITE : 0) |
			   (n + 1 < total ? VRING_DESC_F_NEXT : 0);
		i = d->next;	/* free list order doubles as chain order */
	}
	vq->free_head = i;
	vq->num_free -= total;
	vq->data[head] = data;
	vq->in_flight++;

	vq->avail->ring[vq->avail_idx_shadow & (vq->num - 1)] = head;
	/* The descriptors and the ring slot must be visible before the
	 * index that hands them to the device. */
	barrier();
	vq->avail_idx_shadow++;
	WRITE_ONCE(vq->avail->idx, vq->avail_idx_shadow);
	vq->nr_added++;
	return 0;
}

/*
 * Ring the doorbell after every add, even when the device has set
 * VRING_USED_F_NO_NOTIFY ("I am looking at the ring, no need to kick").
 * Skipping the kick is safe only if the device's thread sees our
 * avail->idx store before we see its flag, which takes a full fence on
 * both sides (a store then a load: the one order x86 may swap). QEMU's
 * TCG with a single vCPU (Debian 12's QEMU 7.2) need not turn the guest's
 * fence into a host one, and then it happens: the device clears the flag,
 * finds the ring empty and goes idle, while we read its old flag and skip
 * the kick. The request sits on the ring unseen until some later kick,
 * and a task waiting for it (fsync, in wait_on_page_writeback) hangs. A
 * stopped fsx run showed exactly that: one request made available and
 * never used, QEMU idle. The device asks for no kick about once in 300
 * requests, so kicking anyway costs nothing. (Linux honours the flag, and
 * event indexes; it relies on the fence.)
 */
bool virtqueue_kick(struct virtqueue *vq)
{
	if (vq->broken)
		return false;
	if (READ_ONCE(vq->used->flags) & VRING_USED_F_NO_NOTIFY)
		vq->nr_kicks_unneeded++;
	vq->nr_kicks++;
	return vq->notify(vq);
}

/* Give the chain starting at head back to the free list. */
static void detach_buf(struct virtqueue *vq, u16 head)
{
	unsigned int i = head, n = 1;

	/* Our own table (the device never writes it), but bound the walk
	 * anyway: a loop here would hang an interrupt handler. */
	while ((vq->desc[i].flags & VRING_DESC_F_NEXT) && n < vq->num) {
		i = vq->desc[i].next;
		n++;
	}
	vq->desc[i].next = vq->free_head;
	vq->free_head = head;
	vq->num_free += n;
	vq->data[head] = NULL;
	vq->in_flight--;
}

static bool more_used(struct virtqueue *vq)
{
	return READ_ONCE(vq->used->idx) != vq->last_used_idx;
}

void *virtqueue_get_buf(struct virtqueue *vq, u32 *len)
{
	struct vring_used_elem *e;
	u16 used_idx, ahead;
	u32 id;
	void *data;

	if (vq->broken)
		return NULL;
	used_idx = READ_ONCE(vq->used->idx);
	if (used_idx == vq->last_used_idx)
		return NULL;
	ahead = used_idx - vq->last_used_idx;
	if (ahead > vq->in_flight) {
		pr_err("virtio_ring %s: used index jumped from %u to %u (%u "
		       "in flight); queue broken\n", vq->name,
		       vq->last_used_idx, used_idx, vq->in_flight);
		vq->broken = true;
		return NULL;
	}
	barrier();	/* the element after the index that covers it */
	e = &vq->used->ring[vq->last_used_idx & (vq->num - 1)];
	id = READ_ONCE(e->id);
	if (id >= vq->num || !vq->data[id]) {
		pr_err("virtio_ring %s: used ring gives id %u, never issued; "
		       "queue broken\n", vq->name, id);
		vq->broken = true;
		return NULL;
	}
	if (len)
		*len = READ_ONCE(e->len);
	data = vq->data[id];
	detach_buf(vq, id);
	vq->last_used_idx++;
	vq->nr_used++;
	return data;
}

void *virtqueue_detach_unused_buf(struct virtqueue *vq)
{
	for (unsigned int i = 0; i < vq->num; i++) {
		void *data = vq->data[i];

		if (data) {
			detach_buf(vq, i);
			return data;
		}
	}
	return NULL;
}

irqreturn_t vring_interrupt(struct virtqueue *vq)
{
	if (!more_used(vq) || vq->broken)
		return IRQ_NONE;
	if (vq->callback)
		vq->callback(vq);
	return IRQ_HANDLED;
}
