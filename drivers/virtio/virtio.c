/*
 * drivers/virtio/virtio.c: the virtio bus. Transports (virtio_pci.c)
 * register devices, drivers (virtio_blk.c) register for a device type,
 * and whichever comes second triggers the probe, so initcall order does
 * not matter.
 *
 * The device status handshake (virtio 1.x spec 3.1.1) lives here because
 * it is the same for every device type:
 *   reset -> ACKNOWLEDGE (on registration)
 *   -> DRIVER -> read the device's features, keep those the driver knows
 *   (always VIRTIO_F_VERSION_1: pagelab speaks only virtio 1.x) -> write
 *   them -> FEATURES_OK, read back: a device that refuses the subset
 *   clears it -> driver->probe() sets up its queues -> DRIVER_OK.
 * A failure on the way sets FAILED and leaves the device alone.
 * Called at boot (initcall time); nothing is ever unregistered.
 */
#include <kernel/virtio.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>

static LIST_HEAD(virtio_devices);
static LIST_HEAD(virtio_drivers);
static int virtio_next_index;

static void virtio_add_status(struct virtio_device *vdev, u8 bits)
{
	vdev->config->set_status(vdev, vdev->config->get_status(vdev) | bits);
}

void virtio_device_ready(struct virtio_device *vdev)
{
	virtio_add_status(vdev, VIRTIO_CONFIG_S_DRIVER_OK);
}

void virtio_cread_bytes(struct virtio_device *vdev, unsigned int offset,
			void *buf, unsigned int len)
{
	u32 gen;

	/* The device bumps the generation while it changes its config (a
	 * capacity change): read until a whole pass saw one generation. A
	 * device that changes it for ever gets its last value. */
	for (int tries = 0; tries < 100; tries++) {
		gen = vdev->config->generation(vdev);
		vdev->config->get(vdev, offset, buf, len);
		if (vdev->config->generation(vdev) == gen)
			return;
	}
	pr_warn("virtio: %s: config generation keeps changing\n", vdev->name);
}

static u64 virtio_driver_features(const struct virtio_driver *drv)
{
	u64 f = 1UL << VIRTIO_F_VERSION_1;

	for (unsigned int i = 0; i < drv->feature_table_size; i++)
		f |= 1UL << drv->feature_table[i];
	return f;
}

static int virtio_dev_probe(struct virtio_device *vdev,
			    struct virtio_driver *drv)
{
	u64 offered;
	int err;

	virtio_add_status(vdev, VIRTIO_CONFIG_S_DRIVER);
	offered = vdev->config->get_features(vdev);
	if (!(offered & (1UL << VIRTIO_F_VERSION_1))) {
		pr_err("virtio: %s: no VIRTIO_F_VERSION_1 (a legacy-only "
		       "device), not supported\n", vdev->name);
		err = -ENODEV;
		goto fail;
	}
	vdev->features = offered & virtio_driver_features(drv);
	err = vdev->config->finalize_features(vdev);
	if (err)
		goto fail;
	virtio_add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
	if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_FEATURES_OK)) {
		pr_err("virtio: %s: device refused features %#lx\n",
		       vdev->name, vdev->features);
		err = -ENODEV;
		goto fail;
	}
	vdev->driver = drv;
	err = drv->probe(vdev);
	if (err) {
		vdev->driver = NULL;
		goto fail;
	}
	if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_DRIVER_OK))
		virtio_device_ready(vdev);
	return 0;
fail:
	/* FAILED tells the device we gave up; a reset first stops it
	 * touching any queue the driver set up before failing. */
	vdev->config->reset(vdev);
	vdev->config->set_status(vdev, VIRTIO_CONFIG_S_FAILED);
	pr_err("virtio: %s: %s probe failed (error %d)\n", vdev->name,
	       drv->name, err);
	return err;
}

int register_virtio_device(struct virtio_device *vdev)
{
	struct virtio_driver *drv;

	vdev->index = virtio_next_index++;
	snprintf(vdev->name, sizeof(vdev->name), "virtio%d", vdev->index);
	/* Whatever the firmware or an earlier kernel did, start from 0. */
	vdev->config->reset(vdev);
	virtio_add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	list_add_tail(&vdev->node, &virtio_devices);
	list_for_each_entry(drv, &virtio_drivers, node)
		if (drv->device_id == vdev->id)
			return virtio_dev_probe(vdev, drv);
	return 0;
}

int register_virtio_driver(struct virtio_driver *drv)
{
	struct virtio_device *vdev;

	list_add_tail(&drv->node, &virtio_drivers);
	list_for_each_entry(vdev, &virtio_devices, node)
		if (!vdev->driver && vdev->id == drv->device_id)
			virtio_dev_probe(vdev, drv);
	return 0;
}
