/*
 * Port I/O instructions; device memory mapped by ioremap()
 * (arch/x86/mm/ioremap.c) and its accessors.
 */
#ifndef _ASM_IO_H
#define _ASM_IO_H

#include <kernel/compiler.h>
#include <kernel/types.h>

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(u16 port, u32 v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* A write to an unused port: about a microsecond, for slow old devices. */
static inline void io_delay(void)
{
	outb(0x80, 0);
}

/*
 * Map size bytes of device memory at physical address phys into the
 * kernel's ioremap area (IOREMAP_START, asm/pgtable_64_types.h),
 * uncached. Returns the virtual address (same offset within the page as
 * phys) or NULL. Mappings are never taken down: PCI devices here are
 * never removed. The area's top-level entry exists from paging_init on,
 * so address spaces made before or after a mapping all see it.
 */
void *ioremap(phys_addr_t phys, size_t size);

/*
 * MMIO accessors for ioremap()ed memory: one access of exactly that size,
 * never moved by the compiler across other memory accesses (a notify must
 * not overtake the ring update it announces; x86 keeps the CPU's order).
 */
#define __MMIO_RW(sfx, type)                                      \
	static inline type read##sfx(const volatile void *a)      \
	{                                                         \
		type v;                                           \
		barrier();                                        \
		v = *(const volatile type *)a;                    \
		barrier();                                        \
		return v;                                         \
	}                                                         \
	static inline void write##sfx(type v, volatile void *a)   \
	{                                                         \
		barrier();                                        \
		*(volatile type *)a = v;                          \
		barrier();                                        \
	}
__MMIO_RW(b, u8)
__MMIO_RW(w, u16)
__MMIO_RW(l, u32)
#undef __MMIO_RW

#endif
