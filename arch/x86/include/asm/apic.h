/*
 * The local APIC (arch/x86/kernel/apic.c): each CPU's own interrupt
 * controller. It takes interrupts for its CPU (the timer, IPIs), sends
 * IPIs to other CPUs, and wants an EOI for every interrupt it delivered.
 * The 8259 PICs still bring device interrupts to the boot CPU, through its
 * LINT0 pin; those take pic_eoi, not the APIC's.
 */
#ifndef _ASM_APIC_H
#define _ASM_APIC_H

#include <kernel/types.h>

/* Vectors above the PIC's, highest priority last as Linux orders them. */
#define LOCAL_TIMER_VECTOR 0xec
#define CALL_FUNCTION_VECTOR 0xfb	/* TLB flushes */
#define PARK_VECTOR 0xfc	/* smp_park_others */
#define RESCHEDULE_VECTOR 0xfd
#define STOP_VECTOR 0xfe
#define SPURIOUS_APIC_VECTOR 0xff

extern phys_addr_t lapic_phys;	/* from the MADT (acpi.c) */

bool lapic_map(void);	/* map the registers; false: no APIC */
void lapic_setup(void);	/* this CPU's APIC on, LVTs set */
void lapic_timer_calibrate(void);	/* boot CPU, once */
void lapic_timer_start(void);	/* HZ interrupts on this CPU */
u32 lapic_id(void);
void lapic_eoi(void);
void lapic_send_ipi(u32 apic_id, int vector);
void lapic_send_nmi(u32 apic_id);
void lapic_send_init(u32 apic_id);
void lapic_send_startup(u32 apic_id, u32 phys);
/* From do_interrupt, for vectors LOCAL_TIMER_VECTOR and up. */
void handle_apic_interrupt(int vector);

/* acpi.c: CPUs found in the ACPI MADT, as APIC IDs; 0 when none. */
int acpi_find_cpus(u32 *apic_ids, int max);

#endif
