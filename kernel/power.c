/*
 * kernel/power.c: power off, restart, halt (reboot(2)'s three commands).
 *
 * Power off: QEMU's isa-debug-exit device (port 0xf4, when the harness
 * adds it) ends QEMU with exit code (status << 1) | 1, so tests learn the
 * guest's verdict. Without it, fall back to ACPI S5 on QEMU's PC and q35
 * machines, then halt.
 * Restart: the keyboard controller's reset line, else a triple fault. The
 * harness and make run start QEMU with -no-reboot, so a reset ends QEMU
 * (exit code 0) instead of booting again.
 * Halt: as Linux's machine_halt, the CPU stops with interrupts off and
 * the machine stays on (QEMU keeps running: quit it with Ctrl-A X).
 */
#include <kernel/power.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <asm/io.h>
#include <asm/processor.h>

#define ISA_DEBUG_EXIT_PORT 0xf4
#define QEMU_PIIX4_PM1A_CNT 0x604
#define QEMU_ICH9_PM1A_CNT 0xb004
#define ACPI_SLP_EN_S5 0x2000
#define I8042_COMMAND 0x64
#define I8042_PULSE_RESET 0xfe

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

__noreturn void kernel_restart(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) no_idt = { 0, 0 };

	pr_notice("pagelab: restarting system\n");
	local_irq_disable();
	smp_send_stop();
	outb(I8042_COMMAND, I8042_PULSE_RESET);
	/* No reset line: fault with no IDT, which escalates to a reset. */
	__asm__ volatile("lidt %0; int3" : : "m"(no_idt));
	for (;;)
		halt();
}

__noreturn void kernel_halt(void)
{
	pr_emerg("pagelab: system halted\n");
	local_irq_disable();
	smp_send_stop();
	for (;;)
		halt();
}
