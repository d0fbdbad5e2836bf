/*
 * drivers/virtio/virtio_pci.c: the virtio 1.x PCI transport ("modern").
 *
 * A virtio PCI device (vendor 0x1af4) describes where its registers are
 * with vendor-specific PCI capabilities (spec 4.1.4), each naming a BAR,
 * an offset and a length:
 *   COMMON  features, status, queue setup (struct virtio_pci_common_cfg)
 *   NOTIFY  the doorbells: queue q's is at offset + queue_notify_off(q) *
 *           notify_off_multiplier; writing the queue's number rings it
 *   ISR     one byte; reading it returns why the device interrupted (bit 0:
 *           used buffers, bit 1: config change) and lowers the INTx line
 *   DEVICE  the device-type config (virtio_blk: capacity, ...)
 * Each region is ioremap()ed uncached. QEMU's "if=virtio" disk is a
 * transitional device (1af4:1001, with a legacy I/O BAR as well); the
 * capabilities are there too and are all pagelab uses. Legacy-only
 * devices are refused.
 *
 * Interrupts: legacy INTx through the 8259 (no MSI-X), so the line may be
 * shared with other disks; vp_interrupt reads ISR to learn whether it was
 * this device. Linux's virtio_pci_modern.c also does MSI-X, one vector per
 * queue, and virtio_pci_legacy.c the pre-1.0 register layout.
 */
#include <kernel/virtio_ring.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <mm/slab.h>

#define PCI_VENDOR_ID_REDHAT_QUMRANET 0x1af4

/* A virtio capability in PCI configuration space. */
struct virtio_pci_cap {
	u8 cap_vndr;	/* PCI_CAP_ID_VNDR */
	u8 cap_next, cap_len;
	u8 cfg_type;	/* VIRTIO_PCI_CAP_*_CFG */
	u8 bar, id, padding[2];
	u32 offset, length;	/* the region, within the BAR */
};

struct virtio_pci_notify_cap {
	struct virtio_pci_cap cap;
	u32 notify_off_multiplier;
};

#define cap_field(pos, f) ((pos) + offsetof(struct virtio_pci_cap, f))

#define VIRTIO_PCI_CAP_COMMON_CFG 1
#define VIRTIO_PCI_CAP_NOTIFY_CFG 2
#define VIRTIO_PCI_CAP_ISR_CFG 3
#define VIRTIO_PCI_CAP_DEVICE_CFG 4

/* struct virtio_pci_common_cfg, little-endian like everything in 1.x. */
#define VIRTIO_PCI_COMMON_DFSELECT 0x00
#define VIRTIO_PCI_COMMON_DF 0x04
#define VIRTIO_PCI_COMMON_GFSELECT 0x08
#define VIRTIO_PCI_COMMON_GF 0x0c
#define VIRTIO_PCI_COMMON_STATUS 0x14
#define VIRTIO_PCI_COMMON_CFGGENERATION 0x15
#define VIRTIO_PCI_COMMON_Q_SELECT 0x16
#define VIRTIO_PCI_COMMON_Q_SIZE 0x18
#define VIRTIO_PCI_COMMON_Q_ENABLE 0x1c
#define VIRTIO_PCI_COMMON_Q_NOFF 0x1e
#define VIRTIO_PCI_COMMON_Q_DESCLO 0x20
#define VIRTIO_PCI_COMMON_Q_AVAILLO 0x28
#define VIRTIO_PCI_COMMON_Q_USEDLO 0x30
#define VIRTIO_PCI_COMMON_SIZE 0x38

#define VIRTIO_PCI_ISR_QUEUE 1
#define VIRTIO_PCI_ISR_CONFIG 2

/* pagelab's rings: 256 entries are 18 bios of 16 pieces at once. */
#define VP_MAX_QUEUE_SIZE 256

struct virtio_pci_device {
	struct virtio_device vdev;
	struct pci_dev *pci;
	void *common, *isr, *device, *notify_base;
	u32 device_len, notify_len, notify_off_multiplier;
	struct list_head virtqueues;
};

#define to_vp_device(v) container_of(v, struct virtio_pci_device, vdev)

/* ---- config ops --------------------------------------------------------- */

static void vp_get(struct virtio_device *vdev, unsigned int offset, void *buf,
		   unsigned int len)
{
	struct virtio_pci_device *vp = to_vp_device(vdev);
	void *p = (char *)vp->device + offset;
	u32 lo, hi;

	if (offset + len > vp->device_len) {	/* a field it lacks */
		memset(buf, 0, len);
		return;
	}
	/* The spec asks for accesses of the field's own width; 64-bit
	 * fields are read as two 32-bit halves. */
	switch (len) {
	case 1:
		*(u8 *)buf = readb(p);
		break;
	case 2:
		*(u16 *)buf = readw(p);
		break;
	case 4:
		*(u32 *)buf = readl(p);
		break;
	case 8:
		lo = readl(p);
		hi = readl((char *)p + 4);
		*(u64 *)buf = (u64)hi << 32 | lo;
		break;
	default:
		for (unsigned int i = 0; i < len; i++)
			((u8 *)buf)[i] = readb((char *)p + i);
	}
}

static u32 vp_generation(struct virtio_device *vdev)
{
	return readb((char *)to_vp_device(vdev)->common +
		     VIRTIO_PCI_COMMON_CFGGENERATION);
}

static u8 vp_get_status(struct virtio_device *vdev)
{
	return readb((char *)to_vp_device(vdev)->common +
		     VIRTIO_PCI_COMMON_STATUS);
}

static void vp_set_status(struct virtio_device *vdev, u8 status)
{
	writeb(status, (char *)to_vp_device(vdev)->common +
			       VIRTIO_PCI_COMMON_STATUS);
}

/* Safe with interrupts off: QEMU resets at once; the wait is bounded. */
static void vp_reset(struct virtio_device *vdev)
{
	vp_set_status(vdev, 0);
	/* The reset is over only when status reads back 0 (spec 4.1.4.3.2). */
	for (int i = 0; i < 1000000 && vp_get_status(vdev); i++)
		cpu_relax();
}

static u64 vp_get_features(struct virtio_device *vdev)
{
	char *c = to_vp_device(vdev)->common;
	u64 f;

	writel(0, c + VIRTIO_PCI_COMMON_DFSELECT);
	f = readl(c + VIRTIO_PCI_COMMON_DF);
	writel(1, c + VIRTIO_PCI_COMMON_DFSELECT);
	return f | (u64)readl(c + VIRTIO_PCI_COMMON_DF) << 32;
}

static int vp_finalize_features(struct virtio_device *vdev)
{
	char *c = to_vp_device(vdev)->common;

	writel(0, c + VIRTIO_PCI_COMMON_GFSELECT);
	writel(vdev->features, c + VIRTIO_PCI_COMMON_GF);
	writel(1, c + VIRTIO_PCI_COMMON_GFSELECT);
	writel(vdev->features >> 32, c + VIRTIO_PCI_COMMON_GF);
	return 0;
}

static bool vp_notify(struct virtqueue *vq)
{
	writew(vq->index, vq->priv);
	return true;
}

static void vp_write64(char *c, int off, u64 v)
{
	writel(v, c + off);	/* two halves: not every device takes 64 */
	writel(v >> 32, c + off + 4);
}

static struct virtqueue *vp_setup_vq(struct virtio_device *vdev,
				     unsigned int index,
				     vq_callback_t *callback, const char *name)
{
	struct virtio_pci_device *vp = to_vp_device(vdev);
	char *c = vp->common;
	struct virtqueue *vq;
	unsigned int num, off;
	unsigned long flags;

	writew(index, c + VIRTIO_PCI_COMMON_Q_SELECT);
	num = readw(c + VIRTIO_PCI_COMMON_Q_SIZE);
	if (!num || readw(c + VIRTIO_PCI_COMMON_Q_ENABLE))
		return ERR_PTR(-ENOENT);
	/* Split rings are a power of two; the driver may ask for fewer. */
	while (num & (num - 1))
		num &= num - 1;
	num = min(num, VP_MAX_QUEUE_SIZE);
	off = readw(c + VIRTIO_PCI_COMMON_Q_NOFF) * vp->notify_off_multiplier;
	if (off + 2 > vp->notify_len) {
		pr_err("virtio-pci %s: queue %u doorbell outside its region\n",
		       vdev->name, index);
		return ERR_PTR(-EINVAL);
	}
	vq = vring_create_virtqueue(index, num, vdev, vp_notify, callback,
				    name);
	if (!vq)
		return ERR_PTR(-ENOMEM);
	vq->priv = (char *)vp->notify_base + off;

	writew(num, c + VIRTIO_PCI_COMMON_Q_SIZE);
	vp_write64(c, VIRTIO_PCI_COMMON_Q_DESCLO,
		   virtqueue_get_desc_addr(vq));
	vp_write64(c, VIRTIO_PCI_COMMON_Q_AVAILLO,
		   virtqueue_get_avail_addr(vq));
	vp_write64(c, VIRTIO_PCI_COMMON_Q_USEDLO,
		   virtqueue_get_used_addr(vq));
	writew(1, c + VIRTIO_PCI_COMMON_Q_ENABLE);

	flags = local_irq_save();	/* vp_interrupt walks this list */
	list_add_tail(&vq->list, &vp->virtqueues);
	local_irq_restore(flags);
	return vq;
}

static const struct virtio_config_ops virtio_pci_config_ops = {
	.get = vp_get,
	.generation = vp_generation,
	.get_status = vp_get_status,
	.set_status = vp_set_status,
	.reset = vp_reset,
	.get_features = vp_get_features,
	.finalize_features = vp_finalize_features,
	.setup_vq = vp_setup_vq,
};

/* ---- interrupt ---------------------------------------------------------- */

/* Called with interrupts off, for every interrupt on the (shared) line. */
static irqreturn_t vp_interrupt(void *data)
{
	struct virtio_pci_device *vp = data;
	struct virtqueue *vq;
	u8 isr = readb(vp->isr);	/* reading clears it, lowers INTx */

	if (!isr)
		return IRQ_NONE;	/* another device on the line */
	vp->vdev.nr_interrupts++;
	if (isr & VIRTIO_PCI_ISR_CONFIG)
		pr_info("virtio-pci %s: configuration changed (ignored)\n",
			vp->vdev.name);
	if (isr & VIRTIO_PCI_ISR_QUEUE)
		list_for_each_entry(vq, &vp->virtqueues, list)
			vring_interrupt(vq);
	return IRQ_HANDLED;
}

/* ---- probe -------------------------------------------------------------- */

/*
 * Map the first capability of cfg_type whose region lies inside a memory
 * BAR; return it and its length in *len, or NULL.
 */
static void *vp_map_capability(struct pci_dev *pci, u8 cfg_type, u32 minlen,
			       u32 *len, u8 *cap_out)
{
	u8 pos;

	pci_for_each_capability(pci, pos, PCI_CAP_ID_VNDR) {
		u8 type = pci_read_config_byte(pci, cap_field(pos, cfg_type));
		u8 bar = pci_read_config_byte(pci, cap_field(pos, bar));
		u32 off = pci_read_config_dword(pci, cap_field(pos, offset));
		u32 n = pci_read_config_dword(pci, cap_field(pos, length));
		struct pci_resource *r;

		if (type != cfg_type || bar >= PCI_NUM_RESOURCES)
			continue;
		r = &pci->resource[bar];
		if (!r->size || !r->start || r->io || n < minlen ||
		    off > r->size || n > r->size - off)
			continue;
		if (cap_out)
			*cap_out = pos;
		*len = n;
		return ioremap(r->start + off, n);
	}
	return NULL;
}

static int vp_map_regions(struct virtio_pci_device *vp)
{
	struct pci_dev *pci = vp->pci;
	u32 len;
	u8 ncap = 0;

	vp->common = vp_map_capability(pci, VIRTIO_PCI_CAP_COMMON_CFG,
				       VIRTIO_PCI_COMMON_SIZE, &len, NULL);
	vp->isr = vp_map_capability(pci, VIRTIO_PCI_CAP_ISR_CFG, 1, &len, NULL);
	vp->notify_base = vp_map_capability(pci, VIRTIO_PCI_CAP_NOTIFY_CFG, 2,
					    &vp->notify_len, &ncap);
	/* Device config is optional (some device types have none). */
	vp->device = vp_map_capability(pci, VIRTIO_PCI_CAP_DEVICE_CFG, 0,
				       &vp->device_len, NULL);
	if (!vp->device)
		vp->device_len = 0;
	if (!vp->common || !vp->isr || !vp->notify_base)
		return -ENODEV;
	vp->notify_off_multiplier = pci_read_config_dword(pci, ncap +
		offsetof(struct virtio_pci_notify_cap, notify_off_multiplier));
	return 0;
}

/* Called at boot (initcall time). */
static int virtio_pci_probe(struct pci_dev *pci, const struct pci_device_id *id)
{
	struct virtio_pci_device *vp;
	int err;

	/* 0x1000-0x103f: transitional, type in the subsystem id;
	 * 0x1040-0x107f: modern, type = device id - 0x1040. */
	if (pci->device < 0x1000 || pci->device > 0x107f)
		return -ENODEV;
	vp = kzalloc(sizeof(*vp), GFP_KERNEL);
	if (!vp)
		return -ENOMEM;
	vp->pci = pci;
	vp->vdev.config = &virtio_pci_config_ops;
	vp->vdev.id = pci->device >= 0x1040 ? pci->device - 0x1040u
					    : pci->subsystem_device;
	INIT_LIST_HEAD(&vp->virtqueues);
	pci_enable_device(pci);
	err = vp_map_regions(vp);
	if (err) {
		pr_err("virtio-pci %02x:%02x.%d: no virtio 1.x capabilities "
		       "(a legacy-only device), not supported\n", pci->bus,
		       PCI_SLOT(pci->devfn), PCI_FUNC(pci->devfn));
		goto fail;	/* the ioremap space stays used */
	}
	pci_enable_bus_master(pci);
	pci->driver_data = vp;
	/* Before the device can interrupt (DRIVER_OK comes in the driver's
	 * probe); a shared line may already be live. */
	err = pci_request_irq(pci, vp_interrupt, vp, "virtio-pci");
	if (err) {
		pr_err("virtio-pci %02x:%02x.%d: irq %d unavailable (error "
		       "%d)\n", pci->bus, PCI_SLOT(pci->devfn),
		       PCI_FUNC(pci->devfn), pci->irq, err);
		goto fail;
	}
	/* Bound to the transport from here on, whether or not a virtio
	 * driver takes the device (that failure is logged by virtio.c). */
	register_virtio_device(&vp->vdev);
	return 0;
fail:
	kfree(vp);
	return err;
}

static const struct pci_device_id virtio_pci_id_table[] = {
	{ PCI_VENDOR_ID_REDHAT_QUMRANET, PCI_ANY_ID },
	{ 0 },
};

static struct pci_driver virtio_pci_driver = {
	.name = "virtio-pci",
	.id_table = virtio_pci_id_table,
	.probe = virtio_pci_probe,
};

static int virtio_pci_init(void)
{
	return pci_register_driver(&virtio_pci_driver);
}
device_initcall(virtio_pci_init);
