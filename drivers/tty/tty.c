/*
 * drivers/tty/tty.c: the serial console as a terminal.
 *
 * Roadmap, bottom to top:
 *   the UART      COM1's receive interrupt (IRQ 4) drains the receive
 *                 buffer register into the line discipline, but for a
 *                 BREAK and the key after it (magic SysRq,
 *                 kernel/sysrq.c); output goes to console_write
 *                 (serial, mirrored on VGA).
 *   n_tty         Linux's default line discipline, small: in canonical
 *                 mode input is edited a line at a time (erase, kill,
 *                 word erase, ^D end of file, CR -> NL, echo) and a
 *                 reader gets whole lines; with ICANON off every byte is
 *                 readable at once (VMIN 0 or 1; VTIME is ignored).
 *                 ^C, ^\ and ^Z send SIGINT, SIGQUIT and SIGTSTP to the
 *                 foreground group.
 *   the file      read/write/ioctl (termios, window size, process
 *                 group) and poll on /dev/console, /dev/tty and
 *                 /dev/ttyS0.
 *   the session   the terminal is the controlling terminal of at most
 *                 one session (TIOCSCTTY by a session leader: init does
 *                 it for the interactive shell); only that session's
 *                 members may read or set the foreground group
 *                 (TIOCGPGRP, TIOCSPGRP, TIOCGSID: others get ENOTTY, as
 *                 from Linux), and the leader's exit frees the terminal.
 *                 A background group that reads or writes the terminal is
 *                 not stopped (no SIGTTIN, SIGTTOU): it just reads or
 *                 writes.
 *
 * Locking: tty->lock, taken with interrupts off, protects the input ring
 * and termios; the interrupt handler and readers share it. Readers sleep
 * on read_wait until a line (or, raw, a byte) is there.
 */
#include <kernel/serial_raw.h>
#include <kernel/tty.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <kernel/console.h>
#include <kernel/errno.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/sysrq.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/uart.h>
#include <mm/slab.h>

#define UART_RBR 0	/* receive buffer (COM1 etc. in <kernel/uart.h>) */
#define UART_IIR 2
#define UART_IER_RDI 0x01	/* interrupt when a byte arrives */
#define UART_IER_RLSI 0x04	/* and on a line status change: a BREAK */
#define COM1_IRQ 4

#define N_TTY_BUF_SIZE 4096	/* a power of two: indices wrap with & */
#define MAX_EOF_MARKS 8

#define TCSBRK 0x5409
#define TCXONC 0x540A
#define TCFLSH 0x540B
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429

struct tty_struct {
	spinlock_t lock;
	struct termios termios;
	struct winsize winsize;
	pid_t pgrp;	/* foreground process group; 0 until someone sets it */
	pid_t session;	/* whose controlling terminal it is; 0: nobody's */
	unsigned char buf[N_TTY_BUF_SIZE];
	/* Free-running indices: tail <= canon_head <= head. [tail,
	 * canon_head) can be read in canonical mode; [canon_head, head) is
	 * the line still being edited. */
	unsigned int head, tail, canon_head;
	/* ^D on an empty line: a read that reaches one returns 0. */
	unsigned int eof_mark[MAX_EOF_MARKS];
	unsigned int nr_eof;
	wait_queue_head_t read_wait;
	/* One write(2) at a time goes out whole (Linux's atomic_write_lock):
	 * two processes' lines do not interleave. */
	struct mutex write_lock;
	bool registered;
};

static struct tty_struct console_tty = {
	.termios = {
		.c_iflag = ICRNL | IXON,
		.c_oflag = OPOST | ONLCR,
		.c_cflag = B38400 | CS8 | CREAD | HUPCL,
		.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL |
			   ECHOKE | IEXTEN,
		/* ^C ^\ DEL ^U ^D time 0 min 1 - ^Q ^S ^Z - ^R ^O ^W ^V - */
		.c_cc = "\003\034\177\025\004\0\1\0\021\023\032\0\022\017\027"
			"\026\0",
	},
	.winsize = { 24, 80, 0, 0 },
};



#define L_FLAG(tty, f) ((tty)->termios.c_lflag & (f))
#define I_FLAG(tty, f) ((tty)->termios.c_iflag & (f))
#define CC(tty, v) ((tty)->termios.c_cc[v])

/* ---- echo (interrupt context: console_write takes an irq-safe lock) ------- */

static void echo(struct tty_struct *tty, const char *s, size_t n)
{
	if (L_FLAG(tty, ECHO))
		console_write(s, n);
}

static void echo_char(struct tty_struct *tty, unsigned char c)
{
	char ctl[2] = { '^', c ^ 0100 };

	if (c < ' ' && c != '\n' && c != '\t' && L_FLAG(tty, ECHOCTL))
		echo(tty, ctl, 2);
	else
		echo(tty, (const char *)&c, 1);
}

/* ---- the line discipline (tty->lock held) ---------------------------------- */

static void flush_input(struct tty_struct *tty)
{
	tty->head = tty->tail = tty->canon_head = 0;
	tty->nr_eof = 0;
}

static bool erase_one(struct tty_struct *tty)
{
	if (tty->head == tty->canon_head)
		return false;
	tty->head--;
	if (L_FLAG(tty, ECHOE))
		echo(tty, "\b \b", 3);
	return true;
}

/* ^W: back over blanks, then over the word before them. */
static void erase_word(struct tty_struct *tty)
{
	while (tty->head != tty->canon_head &&
	       tty->buf[(tty->head - 1) & (N_TTY_BUF_SIZE - 1)] == ' ')
		erase_one(tty);
	while (tty->head != tty->canon_head &&
	       tty->buf[(tty->head - 1) & (N_TTY_BUF_SIZE - 1)] != ' ')
		erase_one(tty);
}

/*
 * A signal for the foreground group. Until a shell sets one (tcsetpgrp),
 * every user process but init gets it: the shell (which ignores SIGINT)
 * and what it runs. This runs in the interrupt handler, which may take
 * the tasklist lock (it is taken with interrupts off).
 */
static void isig(struct tty_struct *tty, int sig)
{
	struct task_struct *t;

	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks) {
		if (!t->sig->live || !thread_group_leader(t))
			continue;	/* a process once, through its leader */
		if (tty->pgrp ? t->pgid == tty->pgrp : (t->pid > 1 && t->mm))
			group_send_sig_info(sig, NULL, t);
	}
	unlock_tasklist();
}

static void put_char(struct tty_struct *tty, unsigned char c)
{
	tty->buf[tty->head++ & (N_TTY_BUF_SIZE - 1)] = c;
}

/* The line being edited becomes readable. */
static void end_line(struct tty_struct *tty)
{
	tty->canon_head = tty->head;
	wake_up(&tty->read_wait);
}

static bool receive_special(struct tty_struct *tty, unsigned char c)
{
	if (L_FLAG(tty, ISIG) && c &&	/* 0 is _POSIX_VDISABLE */
	    (c == CC(tty, VINTR) || c == CC(tty, VQUIT) ||
	     c == CC(tty, VSUSP))) {
		if (!L_FLAG(tty, NOFLSH))
			flush_input(tty);
		echo_char(tty, c);
		isig(tty, c == CC(tty, VINTR) ? SIGINT :
			  c == CC(tty, VQUIT) ? SIGQUIT : SIGTSTP);
		return true;
	}
	if (!L_FLAG(tty, ICANON))
		return false;
	if (c == CC(tty, VERASE) || c == '\b') {
		erase_one(tty);
	} else if (c == CC(tty, VKILL)) {
		while (erase_one(tty))
			;
	} else if (c == CC(tty, VWERASE) && L_FLAG(tty, IEXTEN)) {
		erase_word(tty);
	} else if (c == CC(tty, VEOF)) {
		/* On an empty line ^D is end of file; else it just pushes
		 * the line to the reader, without a newline. */
		if (tty->head == tty->canon_head && tty->nr_eof < MAX_EOF_MARKS)
			tty->eof_mark[tty->nr_eof++] = tty->head;
		end_line(tty);
	} else {
		return false;
	}
	return true;
}

void tty_receive_char(unsigned char c)
{
	struct tty_struct *tty = &console_tty;
	unsigned long flags;

	spin_lock_irqsave(&tty->lock, flags);
	if (c == '\r' && I_FLAG(tty, IGNCR))
		goto out;
	if (c == '\r' && I_FLAG(tty, ICRNL))
		c = '\n';
	else if (c == '\n' && I_FLAG(tty, INLCR))
		c = '\r';
	if (receive_special(tty, c))
		goto out;
	/* Keep room for the newline that ends a full line. */
	if (tty->head - tty->tail >= N_TTY_BUF_SIZE - 1 &&
	    !(c == '\n' && tty->head - tty->tail < N_TTY_BUF_SIZE))
		goto out;
	put_char(tty, c);
	echo_char(tty, c);
	if (!L_FLAG(tty, ICANON) || c == '\n' || c == CC(tty, VEOL))
		end_line(tty);
out:
	spin_unlock_irqrestore(&tty->lock, flags);
}

/* Each byte goes with the line status it was read with: a BREAK and
 * the key after it are SysRq's (kernel/sysrq.c), not input. */
unsigned char com1_lsr_saved;

static void uart_interrupt(int irq, void *data)
{
	int budget = 256;	/* a stuck UART must not wedge the CPU */
	unsigned char lsr, c;

	while (((lsr = inb(COM1 + UART_LSR)) & UART_LSR_DR) && budget--) {
		/* A BREAK the console's transmitter read off the line
		 * status belongs to the first byte read after it. */
		lsr |= __atomic_exchange_n(&com1_lsr_saved, 0,
					   __ATOMIC_RELAXED);
		c = inb(COM1 + UART_RBR);
		if (!sysrq_uart_rx(lsr, c))
			tty_receive_char(c);
	}
}

/* ---- reading ------------------------------------------------------------- */

static bool at_eof_mark(struct tty_struct *tty)
{
	return tty->nr_eof && tty->eof_mark[0] == tty->tail;
}

static bool input_available(struct tty_struct *tty)
{
	if (!L_FLAG(tty, ICANON))
		return tty->head != tty->tail || CC(tty, VMIN) == 0;
	return tty->canon_head != tty->tail || at_eof_mark(tty);
}

static void consume_eof_mark(struct tty_struct *tty)
{
	tty->nr_eof--;
	memmove(tty->eof_mark, tty->eof_mark + 1,
		tty->nr_eof * sizeof(tty->eof_mark[0]));
}

/* Move up to n readable bytes (a line at most, canonical) into kbuf. */
static size_t take_input(struct tty_struct *tty, char *kbuf, size_t n)
{
	bool canon = L_FLAG(tty, ICANON);
	unsigned int end = canon ? tty->canon_head : tty->head;
	size_t done = 0;

	if (canon && at_eof_mark(tty)) {
		consume_eof_mark(tty);
		return 0;
	}
	while (done < n && tty->tail != end) {
		if (canon && at_eof_mark(tty))
			break;
		kbuf[done] = tty->buf[tty->tail++ & (N_TTY_BUF_SIZE - 1)];
		if (canon && kbuf[done++] == '\n')
			break;
		if (!canon)
			done++;
	}
	return done;
}

static ssize_t tty_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	struct tty_struct *tty = file->private_data;
	size_t n = min(iov_iter_count(to), (size_t)N_TTY_BUF_SIZE);
	unsigned long flags;
	size_t got;
	char *kbuf;
	int err;

	if (!n)
		return 0;
	kbuf = kmalloc(n, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	for (;;) {
		spin_lock_irqsave(&tty->lock, flags);
		if (input_available(tty))
			break;
		spin_unlock_irqrestore(&tty->lock, flags);
		err = -EAGAIN;
		if (file->f_flags & O_NONBLOCK)
			goto out;
		err = wait_event_interruptible(tty->read_wait,
					       input_available(tty));
		if (err)
			goto out;
	}
	got = take_input(tty, kbuf, n);
	spin_unlock_irqrestore(&tty->lock, flags);
	/* The copy runs with interrupts on: it may fault in a user page. */
	err = got && copy_to_iter(kbuf, got, to) != got ? -EFAULT : (int)got;
out:
	kfree(kbuf);
	return err;
}

/* ---- writing, ioctl --------------------------------------------------------- */

static ssize_t tty_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
	struct tty_struct *tty = &console_tty;
	ssize_t done = 0;
	char chunk[256];

	if (mutex_lock_interruptible(&tty->write_lock))
		return -ERESTARTSYS;
	while (iov_iter_count(from)) {
		size_t n = copy_from_iter(chunk, sizeof(chunk), from);

		if (!n) {
			done = done ? done : -EFAULT;
			break;
		}
		/* console_write turns \n into \r\n on the serial line, which
		 * is OPOST|ONLCR; raw output (OPOST off) is not offered. */
		console_write(chunk, n);
		done += n;
	}
	mutex_unlock(&tty->write_lock);
	return done;
}

static long tty_set_termios(struct tty_struct *tty, unsigned int cmd,
			    const struct termios __user *arg)
{
	struct termios t;
	unsigned long flags;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	spin_lock_irqsave(&tty->lock, flags);
	if (cmd == TCSETSF)
		flush_input(tty);
	/* Leaving or entering canonical mode: what was typed so far
	 * counts as complete input. */
	if ((t.c_lflag ^ tty->termios.c_lflag) & ICANON)
		tty->canon_head = tty->head;
	tty->termios = t;
	spin_unlock_irqrestore(&tty->lock, flags);
	wake_up(&tty->read_wait);
	return 0;
}

/* Is some task of session sid in process group pgrp? Zombies count: the
 * group lives until its last member is reaped (Linux's pid hashes). */
static bool pgrp_in_session(pid_t pgrp, pid_t sid)
{
	struct task_struct *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pgid == pgrp && t->sid == sid)
			return true;
	return false;
}

/*
 * The controlling-terminal ioctls, with Linux's rules (tiocsctty,
 * tiocgpgrp, tiocspgrp in drivers/tty/tty_jobctrl.c): the terminal of
 * another session, or of none, answers ENOTTY.
 */
static long tty_job_ioctl(struct tty_struct *tty, unsigned int cmd,
			  unsigned long arg)
{
	struct task_struct *me = current;
	pid_t __user *p = (pid_t __user *)arg;
	pid_t pgrp;

	if (cmd == TIOCSCTTY) {
		if (tty->session == me->sid && me->sid)
			return 0;
		if (me->sid != me->pid)
			return -EPERM;	/* only a session leader */
		/* Another session's terminal: root may steal it (arg 1). */
		if (tty->session && !(arg == 1 && me->cred.euid == 0))
			return -EPERM;
		tty->session = me->sid;
		tty->pgrp = me->pgid;
		return 0;
	}
	if (!tty->session || tty->session != me->sid)
		return -ENOTTY;
	switch (cmd) {
	case TIOCGPGRP:
		return put_user(tty->pgrp, p);
	case TIOCGSID:
		return put_user(tty->session, p);
	case TIOCSPGRP:
		if (get_user(pgrp, p))
			return -EFAULT;
		if (pgrp < 0)
			return -EINVAL;
		if (!pgrp_in_session(pgrp, me->sid))
			return -EPERM;
		tty->pgrp = pgrp;
		return 0;
	case TIOCNOTTY:
		if (me->sid == me->pid)
			tty_session_leader_exit(me);
		return 0;
	}
	return -ENOTTY;
}

/* For /proc/PID/stat: the terminal of session sid and its foreground
 * group, if the console is that session's controlling terminal. */
bool tty_of_session(pid_t sid, unsigned int *dev, pid_t *pgrp)
{
	struct tty_struct *tty = &console_tty;

	if (!sid || tty->session != sid)
		return false;
	*dev = MKDEV(TTY_MAJOR, 64);	/* ttyS0 */
	*pgrp = tty->pgrp;
	return true;
}

/* A session leader leaves its terminal (exit, TIOCNOTTY): the terminal
 * is nobody's again, and ^C goes back to every process (isig). */
void tty_session_leader_exit(struct task_struct *t)
{
	struct tty_struct *tty = &console_tty;

	if (t->sid != t->pid || tty->session != t->sid)
		return;
	tty->session = 0;
	tty->pgrp = 0;
}

static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tty_struct *tty = file->private_data;
	void __user *p = (void __user *)arg;
	unsigned long flags;
	int n;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &tty->termios, sizeof(tty->termios))
			       ? -EFAULT
			       : 0;
	case TCSETS:
	case TCSETSW:	/* output is synchronous: nothing to drain */
	case TCSETSF:
		return tty_set_termios(tty, cmd, p);
	case TIOCGWINSZ:
		return copy_to_user(p, &tty->winsize, sizeof(tty->winsize))
			       ? -EFAULT
			       : 0;
	case TIOCSWINSZ:
		return copy_from_user(&tty->winsize, p, sizeof(tty->winsize))
			       ? -EFAULT
			       : 0;
	case TIOCGPGRP:
	case TIOCSPGRP:
	case TIOCGSID:
	case TIOCSCTTY:
	case TIOCNOTTY:
		return tty_job_ioctl(tty, cmd, arg);
	case FIONREAD:
		spin_lock_irqsave(&tty->lock, flags);
		n = (L_FLAG(tty, ICANON) ? tty->canon_head : tty->head) -
		    tty->tail;
		spin_unlock_irqrestore(&tty->lock, flags);
		return put_user(n, (int __user *)p);
	case TCFLSH:
		if (arg != 1) {	/* TCIFLUSH or TCIOFLUSH */
			spin_lock_irqsave(&tty->lock, flags);
			flush_input(tty);
			spin_unlock_irqrestore(&tty->lock, flags);
		}
		return 0;
	case TCSBRK:	/* tcdrain: output is never queued */
	case TCXONC:
		return 0;
	}
	return -ENOTTY;
}

/* Output never waits; input is ready when a read would not block. */
static __poll_t tty_poll(struct file *file, poll_table *pt)
{
	struct tty_struct *tty = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;
	unsigned long flags;

	poll_wait(file, &tty->read_wait, pt);
	spin_lock_irqsave(&tty->lock, flags);
	if (input_available(tty))
		mask |= EPOLLIN | EPOLLRDNORM;
	spin_unlock_irqrestore(&tty->lock, flags);
	return mask;
}

static int tty_open(struct inode *inode, struct file *file)
{
	struct tty_struct *tty = &console_tty;

	if (MAJOR(inode->i_rdev) == TTY_MAJOR &&
	    MINOR(inode->i_rdev) == SERIAL_RAW_MINOR) {
		file->f_op = &serial_raw_fops;	/* COM2, raw */
		return 0;
	}
	if (!tty->registered)
		return -ENODEV;
	file->private_data = tty;
	return 0;
}

static const struct file_operations tty_fops = {
	.open = tty_open,
	.llseek = no_llseek,
	.read_iter = tty_read,
	.write_iter = tty_write,
	.unlocked_ioctl = tty_ioctl,
	.poll = tty_poll,
};

void tty_init(void)
{
	struct tty_struct *tty = &console_tty;
	int err;

	spin_lock_init(&tty->lock);
	init_waitqueue_head(&tty->read_wait);
	mutex_init(&tty->write_lock);
	serial_raw_init();
	err = register_chrdev(TTYAUX_MAJOR, "tty", &tty_fops);
	if (!err)
		err = register_chrdev(TTY_MAJOR, "ttyS", &tty_fops);
	if (err) {
		pr_err("tty: cannot register the console: error %d\n", err);
		return;
	}
	tty->registered = true;
	err = request_irq(COM1_IRQ, uart_interrupt, tty, "ttyS0");
	if (err) {
		pr_err("tty: ttyS0: no IRQ %d (error %d): no input\n", COM1_IRQ,
		       err);
		return;
	}
	inb(COM1 + UART_RBR);	/* drop anything stale */
	outb(COM1 + UART_IER, UART_IER_RDI | UART_IER_RLSI);
	pr_info("tty: ttyS0 is the console, input on IRQ %d\n", COM1_IRQ);
}
