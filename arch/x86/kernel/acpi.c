/*
 * arch/x86/kernel/acpi.c: the one thing pagelab asks of ACPI, the list of
 * CPUs. The firmware describes the machine in tables found from the RSDP
 * ("RSD PTR ", on a 16-byte boundary in the first KiB of the EBDA or in
 * the BIOS area 0xe0000-0xfffff): it points at the RSDT (32-bit pointers)
 * or XSDT (64-bit), whose entries point at the other tables. The MADT
 * (signature "APIC") lists a local APIC entry per CPU, with its APIC ID
 * and whether it may be started, and may move the APIC's address.
 * Every table carries a checksum (its bytes sum to 0 mod 256); a bad one
 * is reported and the kernel runs on the boot CPU alone.
 */
#include <asm/apic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/mm.h>

struct acpi_header {
	char signature[4];
	u32 length;
	u8 revision, checksum;
	char oem_id[6], oem_table_id[8];
	u32 oem_revision, creator_id, creator_revision;
} __attribute__((packed));

struct rsdp {
	char signature[8];
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt;
	u32 length;	/* revision 2 and later */
	u64 xsdt;
	u8 extended_checksum, reserved[3];
} __attribute__((packed));

#define MADT_LAPIC 0
#define MADT_LAPIC_OVERRIDE 5
#define MADT_LAPIC_ENABLED 1
#define MADT_LAPIC_ONLINE_CAPABLE 2

/* The direct map covers RAM (2 MiB pages up to its end): the tables of
 * QEMU's firmware sit in the last, reserved, part of that. */
static void *acpi_map(u64 phys, u32 len)
{
	u64 end = ALIGN((u64)max_pfn << PAGE_SHIFT, 2UL << 20);

	if (phys + len > end || phys + len < phys)
		return NULL;
	return phys_to_virt(phys);
}

static bool checksum_ok(const void *p, u32 len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum == 0;
}

static struct rsdp *scan_rsdp(u64 start, u64 len)
{
	for (u64 a = start; a + 20 <= start + len; a += 16) {
		struct rsdp *r = phys_to_virt(a);

		if (!memcmp(r->signature, "RSD PTR ", 8) && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

static struct rsdp *find_rsdp(void)
{
	u64 ebda = (u64)*(u16 *)phys_to_virt(0x40e) << 4;
	struct rsdp *r = NULL;

	if (ebda >= 0x80000 && ebda < 0xa0000)
		r = scan_rsdp(ebda, 1024);
	return r ? r : scan_rsdp(0xe0000, 0x20000);
}

/* A table by its physical address, checked; NULL when unreadable. */
static struct acpi_header *get_table(u64 phys)
{
	struct acpi_header *h = acpi_map(phys, sizeof(*h));

	if (!h || !acpi_map(phys, h->length))
		return NULL;
	if (!checksum_ok(h, h->length)) {
		pr_warn("acpi: table %.4s at %#lx: bad checksum\n",
			h->signature, phys);
		return NULL;
	}
	return h;
}

static struct acpi_header *find_madt(struct rsdp *r)
{
	bool x = r->revision >= 2 && r->xsdt;
	struct acpi_header *sdt = get_table(x ? r->xsdt : r->rsdt);
	u32 n, size = x ? 8 : 4;

	if (!sdt)
		return NULL;
	n = (sdt->length - sizeof(*sdt)) / size;
	for (u32 i = 0; i < n; i++) {
		u8 *e = (u8 *)(sdt + 1) + i * size;
		u64 phys = x ? *(u64 *)e : *(u32 *)e;
		struct acpi_header *h = get_table(phys);

		if (h && !memcmp(h->signature, "APIC", 4))
			return h;
	}
	return NULL;
}

/* Fill apic_ids with the CPUs that may run; the count, or 0. */
int acpi_find_cpus(u32 *apic_ids, int max)
{
	struct rsdp *r = find_rsdp();
	struct acpi_header *madt;
	u8 *p, *end;
	int n = 0;

	if (!r || !(madt = find_madt(r))) {
		pr_info("acpi: no MADT found\n");
		return 0;
	}
	lapic_phys = *(u32 *)(madt + 1);
	p = (u8 *)(madt + 1) + 8;	/* past the APIC address and flags */
	end = (u8 *)madt + madt->length;
	for (; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		u32 flags = p[1] >= 8 ? *(u32 *)(p + 4) : 0;

		if (p[0] == MADT_LAPIC && (flags & (MADT_LAPIC_ENABLED |
						   MADT_LAPIC_ONLINE_CAPABLE))) {
			if (n < max)
				apic_ids[n] = p[3];
			n++;
		} else if (p[0] == MADT_LAPIC_OVERRIDE && p[1] >= 12) {
			lapic_phys = *(u64 *)(p + 4);
		}
	}
	if (n > max)
		pr_warn("acpi: %d CPUs, using the first %d\n", n, max);
	pr_info("acpi: MADT lists %d CPU%s, local APIC at %#lx\n", n,
		n == 1 ? "" : "s", lapic_phys);
	return n < max ? n : max;
}
