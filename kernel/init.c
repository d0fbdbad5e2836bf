/*
 * kernel/init.c: the first process.
 *
 * start_kernel() makes pid 1 as a kernel thread running kernel_init(), as
 * Linux does: it runs the device initcalls (drivers, the flusher thread:
 * they may start threads of their own, so pid 1 must exist first), the
 * self-tests named by selftest=, powers off here if asked (poweroff), and
 * then execs the init program (init=PATH, default /bin/init), becoming the
 * user's init. Linux panics when init exits; with
 * init_exit=poweroff, pagelab powers off instead, with init's exit status,
 * so a test program can be run as init directly.
 */
#include <kernel/sched.h>
#include <kernel/panic.h>
#include <kernel/param.h>
#include <kernel/power.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/init.h>
#include <kernel/selftest.h>
#include <kernel/smp.h>
#include <kernel/time.h>

int do_execve_kernel(const char *filename, const char *const *argv,
		     const char *const *envp);

static char init_path[128] = "/bin/init";
bool init_exit_poweroff;
static bool poweroff_when_done;

static int set_poweroff(const char *val)
{
	poweroff_when_done = true;
	return 0;
}
__setup("poweroff", set_poweroff);

static int set_init(const char *val)
{
	strlcpy(init_path, val, sizeof(init_path));
	return 0;
}
__setup("init", set_init);

static int set_init_exit(const char *val)
{
	if (strcmp(val, "poweroff"))
		return -22;
	init_exit_poweroff = true;
	return 0;
}
__setup("init_exit", set_init_exit);

static void kernel_init(void *unused)
{
	const char *argv[MAX_INIT_ARGS + 2] = { init_path };
	const char *envp[MAX_INIT_ARGS + 4] = { "HOME=/", "PATH=/bin:/tests",
						"TERM=linux" };
	int err, failed, argc = 1, envc = 3;


	current->pgid = current->sid = current->pid;
	current->sig->flags |= SIGNAL_UNKILLABLE;	/* not inherited by fork */
	do_initcalls();	/* drivers: disks appear in /dev */
	failed = run_selftests();
	smp_init();	/* the other CPUs, now that set-up is done */
	pr_notice("pagelab: boot complete (%lu ms)\n",
		  ktime_get_ns() / NSEC_PER_MSEC);
	if (poweroff_when_done)
		kernel_power_off(failed ? 1 : 0);
	/* Words of the command line nobody claimed go to init, as in Linux:
	 * NAME=value ones into its environment, the rest as arguments. */
	for (int i = 0; i < init_argc; i++) {
		if (strchr(init_args[i], '='))
			envp[envc++] = init_args[i];
		else
			argv[argc++] = init_args[i];
	}
	pr_info("init: running %s\n", init_path);
	err = do_execve_kernel(init_path, argv, envp);
	if (err)
		panic("No working init found: %s: error %d. Try passing init= "
		      "option to kernel.", init_path, err);
	/* returns into ret_from_fork and on to the user program */
}

void start_init(void)
{
	pid_t pid = kernel_thread(kernel_init, NULL, "init");

	if (pid != 1)
		panic("init got pid %d", pid);
}

/* Called by do_exit() for pid 1. */
void init_exited(long code)
{
	if (!init_exit_poweroff)
		panic("Attempted to kill init! exitcode=0x%08lx", code);
	if (code & 0x7f) {
		pr_err("init: killed by signal %ld\n", code & 0x7f);
		kernel_power_off(0x40 | (code & 0x3f));
	}
	kernel_power_off((code >> 8) & 0x3f);
}
