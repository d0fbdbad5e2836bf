/*
 * init - pagelab's first process (PID 1).
 *
 * Roadmap:
 *   1. make sure fds 0, 1, 2 are open (on /dev/console) so every program
 *      after us can print
 *   2. mount /proc if the kernel has it (a missing /proc directory or
 *      file system type is not an error yet); on Linux (no /dev/null:
 *      pagelab's kernel makes its /dev nodes itself, Linux leaves them
 *      to devtmpfs) mount devtmpfs on /dev; then the disk that the
 *      kernel command line names (pagelab.disk=/dev/vda, options in
 *      pagelab.disk_opts=truncate=old: make run does this) on /mnt
 *   3. if /etc/pagelab-run exists (the test harness put it in the image):
 *      run "/bin/sh /etc/pagelab-run", wait for it, sync, power off
 *   4. otherwise start an interactive "/bin/sh -i" and start it again
 *      whenever it exits (at most once a second: a shell that dies at
 *      once, say on a console that only gives EOF, must not flood it);
 *      it leads a new session whose controlling terminal is the console
 *      (setsid, TIOCSCTTY), so that its job control can set the
 *      foreground group ^C goes to
 * All the while, every orphan the kernel re-parents to us is reaped:
 * waiting is always wait4(-1, ...), whichever child we are waiting for,
 * with the signals init answers blocked except in sigsuspend.
 * PID 1 must never exit (the kernel would panic), so where there is
 * nothing left to do init powers the machine off, and if even that
 * fails it goes on reaping forever.
 *
 * Shutting down, busybox init's convention (busybox's reboot, halt and
 * poweroff send these): SIGTERM reboots, SIGUSR1 halts, SIGUSR2 powers
 * off. Each syncs, sends every other process SIGTERM, gives them up to a
 * second to go, sends SIGKILL to the rest, unmounts the disks and calls
 * reboot(2) with RESTART, HALT or POWER_OFF. (The kernel drops any
 * signal pid 1 has no handler for, so nothing else can stop init.)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linux_reboot.h"
#include "unmount.h"

#define RUN_SCRIPT "/etc/pagelab-run"
#define SHELL "/bin/sh"

static char *const shell_env[] = {"PATH=/bin", "HOME=/", "PS1=# ", NULL};

/* Open /dev/console once and dup it onto whichever of 0-2 are closed:
 * one open file, so all three share one file position. */
static void open_console(void)
{
	int fd, console = -1;

	for (fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (console < 0) /* open() takes the lowest free fd */
			console = open("/dev/console", O_RDWR);
		else
			dup2(console, fd);
	}
}

static void mount_proc(void)
{
	if (mount("proc", "/proc", "proc", 0, NULL) == 0)
		return;
	if (errno != ENOENT && errno != ENODEV && errno != ENOSYS)
		fprintf(stderr, "init: cannot mount /proc: %s\n",
			strerror(errno));
}

/*
 * Linux only (scripts/pagelab-run --linux): its initramfs /dev holds just
 * the console, so mount devtmpfs, where the kernel makes a node for every
 * device (ttyS1, vda, null...). pagelab makes its nodes at boot; it has
 * /dev/null, so this never runs there.
 */
static void mount_devtmpfs(void)
{
	if (access("/dev/null", F_OK) == 0)
		return;
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) < 0)
		fprintf(stderr, "init: cannot mount devtmpfs on /dev: %s\n",
			strerror(errno));
}

/* The value of NAME=VALUE on the kernel command line, or NULL. */
static char *cmdline_value(const char *name)
{
	static char line[1024];
	char *word, *save = NULL;
	size_t len = strlen(name);
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, line, sizeof(line) - 1);

	if (fd >= 0)
		close(fd);
	line[n > 0 ? n : 0] = 0;
	for (word = strtok_r(line, " \n", &save); word;
	     word = strtok_r(NULL, " \n", &save))
		if (!strncmp(word, name, len) && word[len] == '=')
			return word + len + 1;
	return NULL;
}

/* pagelab.disk=DEV: mount it on /mnt as ext2, and say so. */
static void mount_disk(void)
{
	char dev[256], opts[256] = "", *v = cmdline_value("pagelab.disk");

	if (!v)
		return;
	snprintf(dev, sizeof(dev), "%s", v);
	v = cmdline_value("pagelab.disk_opts");
	if (v)
		snprintf(opts, sizeof(opts), "%s", v);
	mkdir("/mnt", 0755);
	if (mount(dev, "/mnt", "ext2", 0, opts[0] ? opts : NULL) < 0) {
		fprintf(stderr, "init: cannot mount %s on /mnt: %s\n", dev,
			strerror(errno));
		return;
	}
	printf("init: %s (ext2%s%s) is mounted on /mnt; what you write "
	       "there stays on the disk\n", dev, opts[0] ? ", " : "", opts);
}

static volatile sig_atomic_t shutdown_signal;
/* Blocked all the time but in sigsuspend (wait_for), so that none can
 * slip in between looking for it and going to sleep. */
static sigset_t init_signals;

static void on_shutdown_signal(int sig)
{
	shutdown_signal = sig;
}

static void on_sigchld(int sig)
{
	(void)sig;	/* only ends wait_for's sigsuspend */
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_shutdown_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = on_sigchld;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&init_signals);
	sigaddset(&init_signals, SIGTERM);
	sigaddset(&init_signals, SIGUSR1);
	sigaddset(&init_signals, SIGUSR2);
	sigaddset(&init_signals, SIGCHLD);
	sigprocmask(SIG_BLOCK, &init_signals, NULL);
}

/*
 * Start argv[0] in a child, with the console as its controlling terminal
 * if ctty (what busybox's init and getty do for a login shell; without
 * it ash says "can't access tty; job control turned off"). Returns its
 * pid, or -1 if fork or execve failed (already reported). A close-on-exec
 * pipe carries the child's execve errno back: it closes unread when the
 * exec succeeds.
 */
static pid_t spawn(char *const argv[], bool ctty)
{
	int fds[2], err = 0;
	pid_t pid;

	if (pipe(fds) < 0) {
		fprintf(stderr, "init: pipe: %s\n", strerror(errno));
		return -1;
	}
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		sigprocmask(SIG_UNBLOCK, &init_signals, NULL);
		if (ctty && setsid() >= 0)
			ioctl(0, TIOCSCTTY, 0);
		execve(argv[0], argv, shell_env);
		err = errno;
		write(fds[1], &err, sizeof(err));
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		fprintf(stderr, "init: fork: %s\n", strerror(errno));
		close(fds[0]);
		return -1;
	}
	while (read(fds[0], &err, sizeof(err)) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (err) {
		fprintf(stderr, "init: cannot exec %s: %s\n", argv[0],
			strerror(err));
		return -1;
	}
	return pid;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Reap until no process but init is left, or ms have passed. */
static void reap_all_within(long ms)
{
	struct timespec tick = { 0, 10 * 1000000L };
	long end = now_ms() + ms;
	int st;

	do {
		while (waitpid(-1, &st, WNOHANG) > 0)
			;
		if (kill(-1, 0) < 0 && errno == ESRCH)
			return;
		nanosleep(&tick, NULL);
	} while (now_ms() < end);
}

static void __attribute__((noreturn)) shut_down(int sig)
{
	const char *what = sig == SIGTERM ? "reboot" :
			   sig == SIGUSR1 ? "halt" : "poweroff";
	unsigned int cmd = sig == SIGTERM ? LINUX_REBOOT_CMD_RESTART :
			   sig == SIGUSR1 ? LINUX_REBOOT_CMD_HALT :
					    LINUX_REBOOT_CMD_POWER_OFF;
	int st;

	signal(SIGTERM, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	printf("init: %s: the system is going down\n", what);
	sync();
	kill(-1, SIGTERM);
	reap_all_within(1000);
	kill(-1, SIGKILL);
	reap_all_within(1000);
	sync();
	unmount_disks("init");
	printf("init: requesting system %s\n", what);
	linux_reboot(cmd);
	fprintf(stderr, "init: cannot %s: %s\n", what, strerror(errno));
	for (;;)
		if (wait4(-1, &st, 0, NULL) < 0 && errno == ECHILD)
			sleep(60);
}

/* Reap children until pid exits; returns its wait status (-1: no such
 * child). Orphans that exit meanwhile are reaped and forgotten. A
 * shutdown signal ends the wait, and everything else. */
static int wait_for(pid_t pid)
{
	sigset_t none;
	int st;
	pid_t r;

	sigemptyset(&none);
	for (;;) {
		if (shutdown_signal)
			shut_down(shutdown_signal);
		r = wait4(-1, &st, WNOHANG, NULL);
		if (r == pid)
			return st;
		if (r < 0 && errno == ECHILD)
			return -1;
		if (r == 0)
			sigsuspend(&none);	/* SIGCHLD or a shutdown */
	}
}

static void report(const char *what, int st)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		fprintf(stderr, "init: %s exited with status %d\n", what,
			WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		fprintf(stderr, "init: %s killed by signal %d (%s)\n", what,
			WTERMSIG(st), strsignal(WTERMSIG(st)));
}

static void __attribute__((noreturn)) power_off(void)
{
	int st;

	sync();
	linux_reboot(LINUX_REBOOT_CMD_POWER_OFF);
	fprintf(stderr, "init: cannot power off: %s\n", strerror(errno));
	/* Sleep between reaps when there is no child to block on; sleep
	 * (nanosleep) rather than pause: it is in the first syscall set. */
	for (;;)
		if (wait4(-1, &st, 0, NULL) < 0 && errno == ECHILD)
			sleep(60);
}

int main(void)
{
	static char *const run_argv[] = {SHELL, RUN_SCRIPT, NULL};
	static char *const shell_argv[] = {SHELL, "-i", NULL};
	pid_t pid;

	open_console();
	/* stderr is unbuffered already; stdout must not hold lines back. */
	setvbuf(stdout, NULL, _IONBF, 0);
	catch_signals();
	mount_proc();
	mount_devtmpfs();
	mount_disk();
	if (access(RUN_SCRIPT, F_OK) == 0) {
		pid = spawn(run_argv, false);
		if (pid > 0)
			report(RUN_SCRIPT, wait_for(pid));
		power_off();
	}
	for (;;) {
		long started = now_ms();

		printf("init: starting %s\n", SHELL);
		pid = spawn(shell_argv, true);
		if (pid < 0) {
			fprintf(stderr, "init: nothing to run, powering off\n");
			power_off();
		}
		report(SHELL, wait_for(pid));
		if (now_ms() - started < 1000)
			sleep(1);
		if (shutdown_signal)
			shut_down(shutdown_signal);
	}
}
