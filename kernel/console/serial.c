/*
 * kernel/console/serial.c: the 16550 UART at COM1, the primary console.
 * Output is polled (wait for the transmit holding register to empty), which
 * works with interrupts off and in a panic. Input arrives in a later layer.
 */
#include <kernel/console.h>
#include <asm/io.h>

#define COM1 0x3f8
#define UART_THR 0	/* transmit holding register */
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_LSR_THRE 0x20
#define UART_LCR_DLAB 0x80

static void serial_putc(char c)
{
	int spins = 100000;	/* a missing UART must not hang the kernel */

	while (!(inb(COM1 + UART_LSR) & UART_LSR_THRE) && --spins)
		;
	outb(COM1 + UART_THR, c);
}

void serial_write(const char *s, size_t len)
{
	for (; len; len--, s++) {
		if (*s == '\n')
			serial_putc('\r');
		serial_putc(*s);
	}
}

static struct console serial_console = {
	.name = "ttyS0",
	.write = serial_write,
};

void serial_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, UART_LCR_DLAB);
	outb(COM1 + 0, 1);	/* divisor 1: 115200 baud */
	outb(COM1 + 1, 0);
	outb(COM1 + UART_LCR, 0x03);	/* 8 data bits, no parity, 1 stop */
	outb(COM1 + UART_FCR, 0xc7);	/* FIFOs on and cleared */
	outb(COM1 + UART_MCR, 0x0b);	/* DTR, RTS, OUT2 (IRQ line) */
	register_console(&serial_console);
}
