/*
 * kernel/sysrq.c: magic SysRq (Linux's drivers/tty/sysrq.c, one key of
 * it): t shows every task, its state, wait channel and kernel stack
 * (show_state, kernel/sched/show.c), for a machine that seems to hang.
 * Three ways in:
 *   - the serial console: a BREAK, then t within 5 seconds, as Linux
 *     reads SysRq on a serial line. A BREAK is not a byte, so nothing a
 *     program or a paste sends can be taken for one. From QEMU's console
 *     (make run) it is Ctrl-A B; the UART reports it in its line status
 *     (LSR BI) with a NUL byte, which drivers/tty/tty.c hands here
 *     with every byte it reads (sysrq_uart_rx);
 *   - echo t > /proc/sysrq-trigger;
 *   - the test harness, which sends the console's BREAK and t when it
 *     gives up on a boot (scripts/lib.tcl, scripts/pagelab-run), so that
 *     a hang's log says where every task was.
 * The hung-task watchdog calls show_state itself.
 */
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/sysrq.h>
#include <kernel/time.h>
#include <kernel/uart.h>
#include <fs/proc_fs.h>

#define SYSRQ_WINDOW (5 * HZ)	/* the key must follow the BREAK within */

static u64 sysrq_until;	/* jiffies: after a BREAK, the next key's deadline */

void handle_sysrq(int key)
{
	/* Asked for at the console: shown whatever loglevel= says. */
	console_verbose_begin();
	if (key == 't') {
		pr_info("sysrq: Show State\n");
		show_state();
	} else {
		pr_info("sysrq: HELP : show-task-states(t)\n");
	}
	console_verbose_end();
}

/*
 * A BREAK arms the window; the next byte in it is the key. The BREAK's
 * own NUL is dropped; a byte read with the BI status that is not a NUL
 * came before the BREAK (the status is the line's, not the byte's, on
 * QEMU's UART): it is input, and the NUL follows.
 */
bool sysrq_uart_rx(unsigned char lsr, unsigned char c)
{
	bool armed = sysrq_until && time_after_jiffies(sysrq_until, jiffies);

	if (lsr & UART_LSR_BI) {
		sysrq_until = jiffies + SYSRQ_WINDOW;
		return c == 0;
	}
	if (!armed)
		return false;
	if (c == 0)
		return true;	/* the BREAK's NUL, behind earlier bytes */
	sysrq_until = 0;
	handle_sysrq(c);
	return true;
}

static int sysrq_trigger_show(struct seq_file *m, void *data)
{
	return 0;	/* write-only, as on Linux */
}

/* The first byte written is the key, as on Linux ("echo t" writes
 * "t\n"). */
static int sysrq_trigger_write(const char *buf, size_t len, void *data)
{
	if (len)
		handle_sysrq(buf[0]);
	return 0;
}

static int sysrq_init(void)
{
	return proc_create_rw_data("sysrq-trigger", 0200, sysrq_trigger_show,
				   sysrq_trigger_write, NULL) ? 0 : -ENOMEM;
}
device_initcall(sysrq_init);
