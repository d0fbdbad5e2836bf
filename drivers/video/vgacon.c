/*
 * drivers/video/vgacon.c: mirror the console on the VGA text screen (80x25 at
 * physical 0xb8000), for people who boot with a display. Scrolls; no cursor.
 */
#include <kernel/console.h>
#include <kernel/string.h>
#include <mm/mm.h>

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700	/* light grey on black */

static u16 *vga_buf;
static int vga_row, vga_col;

static void vga_scroll(void)
{
	int i;

	memmove(vga_buf, vga_buf + VGA_COLS, 2 * VGA_COLS * (VGA_ROWS - 1));
	for (i = 0; i < VGA_COLS; i++)
		vga_buf[VGA_COLS * (VGA_ROWS - 1) + i] = VGA_ATTR | ' ';
	vga_row = VGA_ROWS - 1;
}

static void vga_putc(char c)
{
	if (c == '\n') {
		vga_col = 0;
		vga_row++;
	} else if (c == '\r') {
		vga_col = 0;
	} else {
		vga_buf[vga_row * VGA_COLS + vga_col] = VGA_ATTR | (u8)c;
		if (++vga_col == VGA_COLS) {
			vga_col = 0;
			vga_row++;
		}
	}
	if (vga_row == VGA_ROWS)
		vga_scroll();
}

static void vga_write(const char *s, size_t len)
{
	while (len--)
		vga_putc(*s++);
}

static struct console vga_console = {
	.name = "vga",
	.write = vga_write,
};

void vga_init(void)
{
	int i;

	vga_buf = phys_to_virt(0xb8000);
	for (i = 0; i < VGA_COLS * VGA_ROWS; i++)
		vga_buf[i] = VGA_ATTR | ' ';
	register_console(&vga_console);
}
