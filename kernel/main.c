/*
 * kernel/main.c: start_kernel(), the C entry point, called by head.S with
 * the boot loader's magic and information pointer, interrupts off, on the
 * boot stack, with the boot page tables.
 *
 * Order matters: the console first (so everything after can report), then
 * the clock (printk timestamps), the boot information (memory map, command
 * line), the CPU tables (so a fault is reported, not a triple fault), memory,
 * and only then interrupts.
 */
#include <kernel/bootinfo.h>
#include <kernel/console.h>
#include <kernel/init.h>
#include <kernel/irq.h>
#include <kernel/panic.h>
#include <kernel/param.h>
#include <kernel/power.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/selftest.h>
#include <kernel/smp.h>
#include <kernel/syscalls.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/tty.h>
#include <fs/buffer_head.h>
#include <fs/fs.h>
#include <kernel/version.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <mm/memblock.h>
#include <mm/filemap.h>
#include <mm/mm.h>
#include <mm/slab.h>


static void print_banner(void)
{
	pr_notice("pagelab version %s (%s) x86-64, booted by %s (%s)\n",
		  PAGELAB_VERSION, PAGELAB_COMPILER,
		  boot_info.loader[0] ? boot_info.loader : "unknown loader",
		  boot_info.protocol);
	pr_notice("Command line: %s\n", boot_command_line);
}

/* Tell memblock about RAM and about what must not be handed out. */
static void setup_memory_map(void)
{
	for (int i = 0; i < boot_info.nr_regions; i++) {
		struct boot_region *r = &boot_info.regions[i];

		pr_info("BIOS-e820: [mem 0x%016lx-0x%016lx] %s\n", r->base,
			r->base + r->size - 1,
			r->type == BOOT_REGION_RAM ? "usable" : "reserved");
		if (r->type == BOOT_REGION_RAM)
			memblock_add(r->base, r->size);
	}
	memblock_reserve(0, 0x100000);	/* BIOS data, VGA, option ROMs */
	memblock_reserve(KERNEL_PHYS, virt_to_phys(_end) - KERNEL_PHYS);
	for (int i = 0; i < boot_info.nr_modules; i++)
		memblock_reserve(boot_info.modules[i].start & PAGE_MASK,
				 PAGE_ALIGN(boot_info.modules[i].end) -
					 (boot_info.modules[i].start & PAGE_MASK));
}


void start_kernel(u32 magic, u32 info_phys)
{
	bool boot_info_ok;

	percpu_init(&boot_cpu);	/* first: spin_lock counts in the per-CPU area */
	serial_init();
	tsc_calibrate();
	rtc_init();
	boot_info_ok = parse_boot_info(magic, info_phys);
	parse_kernel_params();
	print_banner();
	if (!boot_info_ok)
		panic("not booted by a Multiboot loader (magic 0x%x)", magic);
	gdt_init();
	idt_init();
	setup_memory_map();
	mem_init();
	vga_init();
	kmalloc_init();
	pagecache_init();	/* the page-lock wait queues */
	buffer_init();	/* the buffer-lock wait queues */
	pic_init();
	tty_init();	/* claims IRQ 4; /dev/console's device numbers */
	timer_init();
	local_irq_enable();
	pr_info("clock: tsc %lu.%03lu MHz, tick %d Hz\n", tsc_khz / 1000,
		tsc_khz % 1000, HZ);

	syscall_init();
	sched_init();
	smp_prepare_boot_cpu();	/* the other CPUs start in kernel_init */
	vfs_init();	/* root ramfs, the initramfs, console fds for init */
	start_init();	/* pid 1: initcalls, self-tests, then /bin/init */
	cpu_idle();
}
