/*
 * The PC's 16550 UARTs: COM1 is the console (output polled in
 * drivers/tty/serial.c, input by interrupt in drivers/tty/tty.c),
 * COM2 the programs' raw output channel (drivers/tty/serial_raw.c).
 */
#ifndef _KERNEL_UART_H
#define _KERNEL_UART_H

#include <asm/io.h>

#define COM1 0x3f8
#define COM2 0x2f8
#define UART_THR 0	/* transmit holding register */
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_SCR 7	/* scratch: keeps what is written, if a UART is there */
#define UART_LSR_DR 0x01	/* a byte to read */
#define UART_LSR_BI 0x10	/* a BREAK came; its byte is a NUL */
#define UART_LSR_THRE 0x20
#define UART_LCR_DLAB 0x80

/*
 * Reading the line status clears its BREAK bit, whoever reads it: the
 * transmitter's poll below would eat a BREAK that came while the console
 * printed, and the receiver (drivers/tty/tty.c) would take the BREAK's
 * NUL, and the SysRq key after it, for input. So a BREAK the poll sees on
 * COM1 is kept here for the receiver (Linux's lsr_saved_flags).
 */
extern unsigned char com1_lsr_saved;

static inline unsigned char uart_read_lsr(unsigned int port)
{
	unsigned char lsr = inb(port + UART_LSR);

	if (port == COM1 && (lsr & UART_LSR_BI))
		__atomic_or_fetch(&com1_lsr_saved, UART_LSR_BI,
				  __ATOMIC_RELAXED);
	return lsr;
}

/* One byte out once the transmitter is free; a missing UART must not
 * hang the kernel, so the wait is bounded. */
static inline void uart_putc(unsigned int port, char c)
{
	int spins = 100000;

	while (!(uart_read_lsr(port) & UART_LSR_THRE) && --spins)
		;
	outb(port + UART_THR, c);
}

/* 115200 baud, 8N1, FIFOs on; mcr sets DTR, RTS and (0x08) the IRQ line. */
static inline void uart_setup(unsigned int port, unsigned char mcr)
{
	outb(port + UART_IER, 0);
	outb(port + UART_LCR, UART_LCR_DLAB);
	outb(port + 0, 1);	/* divisor 1 */
	outb(port + 1, 0);
	outb(port + UART_LCR, 0x03);
	outb(port + UART_FCR, 0xc7);
	outb(port + UART_MCR, mcr);
}

#endif
