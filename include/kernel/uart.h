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
#define UART_LSR_THRE 0x20
#define UART_LCR_DLAB 0x80

/* One byte out once the transmitter is free; a missing UART must not
 * hang the kernel, so the wait is bounded. */
static inline void uart_putc(unsigned int port, char c)
{
	int spins = 100000;

	while (!(inb(port + UART_LSR) & UART_LSR_THRE) && --spins)
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
