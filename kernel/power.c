/*
 * kernel/power.c: power off. QEMU's isa-debug-exit device (port 0xf4, when
 * the harness adds it) ends QEMU with exit code (status << 1) | 1, so tests
 * learn the guest's verdict. Without it, fall back to ACPI S5 on QEMU's PC
 * and q35 machines, then halt.
 */
#include <kernel/power.h>
#include <kernel/printk.h>
#include <asm/io.h>
#include <asm/processor.h>

#define ISA_DEBUG_EXIT_PORT 0xf4
#define QEMU_PIIX4_PM1A_CNT 0x604
#define QEMU_ICH9_PM1A_CNT 0xb004
#define ACPI_SLP_EN_S5 0x2000

__noreturn void kernel_power_off(int status)
{
	pr_notice("pagelab: power off (status %d)\n", status);
	local_irq_disable();
	outl(ISA_DEBUG_EXIT_PORT, status & 0x7f);
	outw(QEMU_PIIX4_PM1A_CNT, ACPI_SLP_EN_S5);
	outw(QEMU_ICH9_PM1A_CNT, ACPI_SLP_EN_S5);
	pr_emerg("pagelab: power off failed; halted\n");
	for (;;)
		halt();
}
