/*
 * The console terminal (drivers/tty/tty.c): the serial port as a tty,
 * with Linux's canonical-mode line discipline, termios ioctls and SIGINT
 * on ^C. /dev/console (5,1), /dev/tty (5,0) and /dev/ttyS0 (4,64) all open
 * this one terminal.
 */
#ifndef _KERNEL_TTY_H
#define _KERNEL_TTY_H

#include <kernel/cred.h>
#include <kernel/types.h>

typedef unsigned char cc_t;
typedef unsigned int speed_t;
typedef unsigned int tcflag_t;

#define NCCS 19

/* The kernel's struct termios (TCGETS), 36 bytes. */
struct termios {
	tcflag_t c_iflag;
	tcflag_t c_oflag;
	tcflag_t c_cflag;
	tcflag_t c_lflag;
	cc_t c_line;
	cc_t c_cc[NCCS];
};

struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* c_cc indices */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSUSP 10
#define VEOL 11
#define VWERASE 14
#define VEOL2 16

/* c_iflag */
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IXON 0002000
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
/* c_cflag */
#define B38400 0000017
#define CS8 0000060
#define CREAD 0000200
#define HUPCL 0002000
/* c_lflag */
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define ECHOE 0000020
#define ECHOK 0000040
#define ECHONL 0000100
#define NOFLSH 0000200
#define ECHOCTL 0001000
#define ECHOKE 0004000
#define IEXTEN 0100000

/* ioctls */
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B
#define FIONBIO 0x5421
#define FIONCLEX 0x5450
#define FIOCLEX 0x5451

#define TTY_MAJOR 4	/* ttyS0 is (4, 64) */
#define TTYAUX_MAJOR 5	/* tty (5, 0), console (5, 1) */

/* Set up the console tty: register its device numbers, claim IRQ 4 and
 * turn on the UART's receive interrupt. After pic_init(). */
void tty_init(void);
/* Feed one received byte to the line discipline (the IRQ handler does;
 * tests may too). Interrupt context is fine. */
void tty_receive_char(unsigned char c);
struct task_struct;
/* do_exit: a session leader's terminal becomes nobody's (Linux's
 * disassociate_ctty, without its SIGHUP). */
void tty_session_leader_exit(struct task_struct *t);
/* Is the console session sid's controlling terminal? Then its device
 * number (ttyS0) and foreground process group. */
bool tty_of_session(pid_t sid, unsigned int *dev, pid_t *pgrp);	/* dev_t */

#endif
