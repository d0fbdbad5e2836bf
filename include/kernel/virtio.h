/*
 * virtio (drivers/virtio/virtio.c): devices that a hypervisor offers in a
 * standard shape (the OASIS virtio 1.x specification). Three layers, as in
 * Linux:
 *
 *   virtio_blk.c   a device driver: speaks the block protocol over queues
 *   virtio.c       the virtio "bus": matches devices with drivers by device
 *                  type, runs the status handshake and feature negotiation
 *   virtio_ring.c  split virtqueues: the rings a driver and a device share
 *   virtio_pci.c   a transport: finds the device's registers through PCI
 *                  capabilities (virtio 1.x "modern" layout only)
 *
 * A driver sees only struct virtio_device and its config ops; the
 * transport behind them could be MMIO or channel I/O instead of PCI.
 */
#ifndef _KERNEL_VIRTIO_H
#define _KERNEL_VIRTIO_H

#include <kernel/list.h>
#include <kernel/types.h>

/* Device status bits (spec 2.1): the handshake, in this order. */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE 1	/* the guest noticed the device */
#define VIRTIO_CONFIG_S_DRIVER 2	/* and has a driver for it */
#define VIRTIO_CONFIG_S_DRIVER_OK 4	/* driver ready: I/O may start */
#define VIRTIO_CONFIG_S_FEATURES_OK 8	/* feature negotiation is over */
#define VIRTIO_CONFIG_S_NEEDS_RESET 0x40
#define VIRTIO_CONFIG_S_FAILED 0x80	/* the driver gave up on it */

/* Device-independent feature bits. */
#define VIRTIO_F_VERSION_1 32	/* virtio 1.x: little-endian, modern */

#define VIRTIO_ID_BLOCK 2

struct virtio_device;
struct virtqueue;
typedef void vq_callback_t(struct virtqueue *vq);

/* What a transport provides. All may sleep except where noted. */
struct virtio_config_ops {
	/* Read len (1, 2, 4 or 8) bytes of device config at offset. */
	void (*get)(struct virtio_device *vdev, unsigned int offset, void *buf,
		    unsigned int len);
	u32 (*generation)(struct virtio_device *vdev);
	u8 (*get_status)(struct virtio_device *vdev);
	void (*set_status)(struct virtio_device *vdev, u8 status);
	/* Back to status 0: the device forgets its queues and stops using
	 * guest memory. Safe with interrupts off. */
	void (*reset)(struct virtio_device *vdev);
	u64 (*get_features)(struct virtio_device *vdev);
	/* Tell the device vdev->features. 0 or -errno. */
	int (*finalize_features)(struct virtio_device *vdev);
	/* Create queue index; callback runs from the interrupt handler when
	 * the device has used buffers. ERR_PTR on failure. */
	struct virtqueue *(*setup_vq)(struct virtio_device *vdev,
				      unsigned int index,
				      vq_callback_t *callback,
				      const char *name);
};

struct virtio_device {
	int index;	/* virtio0, virtio1, ... in discovery order */
	char name[16];
	u32 id;		/* device type: VIRTIO_ID_BLOCK, ... */
	u64 features;	/* negotiated: offered by both sides */
	const struct virtio_config_ops *config;
	struct virtio_driver *driver;
	void *priv;	/* the driver's */
	struct list_head node;
	unsigned long nr_interrupts;	/* for the curious and the tests */
};

struct virtio_driver {
	const char *name;
	u32 device_id;
	const unsigned int *feature_table;	/* feature bits it knows */
	unsigned int feature_table_size;
	/* Called after feature negotiation; sets up the queues and calls
	 * virtio_device_ready(). 0 or -errno. */
	int (*probe)(struct virtio_device *vdev);
	struct list_head node;
};

/* Transports: a device was found. Resets it and acknowledges it; probes
 * it if a driver for its type is registered. */
int register_virtio_device(struct virtio_device *vdev);
/* Drivers: probes every device of drv->device_id found so far or later. */
int register_virtio_driver(struct virtio_driver *drv);

/* DRIVER_OK: the device may now use the queues and interrupt. */
void virtio_device_ready(struct virtio_device *vdev);

static inline bool virtio_has_feature(const struct virtio_device *vdev,
				      unsigned int fbit)
{
	return vdev->features & (1UL << fbit);
}

/* Read device config consistently (retried while config_generation
 * changes under us). */
void virtio_cread_bytes(struct virtio_device *vdev, unsigned int offset,
			void *buf, unsigned int len);

#define virtio_cread(vdev, structname, member, ptr)                        \
	virtio_cread_bytes(vdev, __builtin_offsetof(structname, member), \
			   ptr, sizeof(*(ptr)))

#endif
