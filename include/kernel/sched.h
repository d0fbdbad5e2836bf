/*
 * Tasks and the scheduler (kernel/sched/, kernel/fork.c, kernel/exit.c).
 *
 * A task is a process with one thread: its kernel stack, saved registers,
 * address space (mm), open files (files), cwd/root/umask (fs), identity
 * (cred), signal state and family links. current is the running task.
 * A task in the kernel runs until it sleeps (schedule()), returns to user
 * mode (where a pending reschedule or signal is acted on), or, with
 * preempt=full, is preempted (<kernel/preempt.h>).
 */
#ifndef _KERNEL_SCHED_H
#define _KERNEL_SCHED_H

#include <kernel/lockdep_types.h>
#include <kernel/cred.h>
#include <kernel/list.h>
#include <kernel/preempt.h>
#include <kernel/signal.h>
#include <kernel/wait.h>
#include <kernel/resource.h>
#include <kernel/trace.h>
#include <mm/mm.h>

struct mm_struct;
struct files_struct;
struct fs_struct;
struct pt_regs;

#define TASK_COMM_LEN 16
/* task->exit_state */
#define EXIT_ZOMBIE 16
#define EXIT_DEAD 32

/* FXSAVE area: x87 and SSE registers, saved on every switch. */
struct fpu_state {
	u8 fxsave[512];
} __attribute__((aligned(16)));

#define PF_MEMALLOC 0x1	/* reclaiming: may use the reserve, no recursion */
#define PF_KTHREAD 0x2	/* a kernel thread */

struct task_struct {
	volatile long state;	/* TASK_RUNNING, TASK_INTERRUPTIBLE, ... */
	int exit_state;
	pid_t pid;
	pid_t pgid, sid;	/* process group and session */
	char comm[TASK_COMM_LEN];
	unsigned long thread_sp;	/* saved kernel rsp while switched out */
	void *stack;	/* kernel stack, THREAD_SIZE bytes */
	unsigned int flags;	/* PF_* */
	int lockdep_depth;	/* mutexes held (more than MAX_LOCK_DEPTH:
				 * only the first are listed) */
	struct held_lock held_locks[MAX_LOCK_DEPTH];

	struct mm_struct *mm;
	struct files_struct *files;
	struct fs_struct *fs;
	struct cred cred;
	struct rlimit rlim[RLIM_NLIMITS];

	struct task_struct *parent;
	struct list_head children;	/* my children, through their sibling */
	struct list_head sibling;
	struct list_head tasks;	/* all tasks */
	struct list_head run_list;	/* on the run queue when runnable */
	wait_queue_head_t wait_chldexit;	/* wait4 sleeps here */
	int exit_code;	/* wait status word, once a zombie */
	/* Job control: the signal that stopped me, while wait4(WUNTRACED)
	 * has not reported it; a SIGCONT that wait4(WCONTINUED) has not. */
	int stop_report;
	bool cont_report;
	struct task_struct *vfork_parent;	/* set while a vfork child runs */

	struct signal_state signal;
	struct fpu_state fpu;
	unsigned long fs_base;	/* arch_prctl(ARCH_SET_FS): TLS */
	unsigned long clear_child_tid;
	unsigned long robust_list;	/* set_robust_list: kept, not walked */
	u64 utime_ticks, stime_ticks;
	u64 start_time;	/* jiffies at fork (/proc/PID/stat's starttime) */
	unsigned long nvcsw;	/* times it gave up the CPU (slept, yielded) */
	unsigned long nivcsw;	/* times it was preempted */
	/* Reaped children's CPU time and switches (with their own reaped
	 * children's): times(), RUSAGE_CHILDREN. */
	u64 cutime_ticks, cstime_ticks;
	unsigned long cnvcsw, cnivcsw;
	/* Page faults that did (maj) or did not (min) wait for the disk
	 * (handle_mm_fault); the c* ones: reaped children's, as above. */
	unsigned long min_flt, maj_flt, cmin_flt, cmaj_flt;
	/* Resident size in KiB, sampled at getrusage and exit (not at every
	 * fault): mine, and the largest of my reaped children's. */
	unsigned long maxrss_kb, cmaxrss_kb;
	int nice;	/* setpriority: -20..19, inherited; the round-robin
			 * scheduler does not use it */
	int pdeath_signal;	/* prctl: sent to me when my parent exits */
	bool oom_victim;	/* killed by mm/oom_kill.c to free memory */
	bool undumpable;	/* prctl(PR_SET_DUMPABLE, 0); exec clears it */
	unsigned long last_nvcsw, hung_since;	/* kernel/hung_task.c */
	bool hung_reported;
	struct trace_graph trace;	/* kernel/trace.c: traced calls in progress */
	/* ITIMER_REAL (alarm, setitimer): SIGALRM at it_real_expires (jiffies,
	 * 0 = disarmed), then every it_real_incr ticks if that is non-zero. */
	u64 it_real_expires, it_real_incr;
	struct list_head itimer_list;
};

/* The user registers saved at the top of t's kernel stack. */
#define task_pt_regs(t) \
	((struct pt_regs *)((char *)(t)->stack + THREAD_SIZE) - 1)

#include <asm/current.h>	/* current */

extern struct task_struct init_task;	/* pid 0: boot, then idle */
extern struct list_head task_list;	/* every task but init_task */

/*
 * The task list, the pids and the family links (tasks, children, sibling,
 * parent) change only between these (fork, exit, wait, kernel_thread),
 * and a walk of them, or a find_task_by_pid whose task is used at once,
 * holds them too, so that the task it stands on is not freed under it.
 * Nothing between them may sleep. On one CPU, no preemption is enough;
 * several CPUs will make it Linux's tasklist_lock.
 */
static inline void lock_tasklist(void)
{
	preempt_disable();
}

static inline void unlock_tasklist(void)
{
	preempt_enable();
}

void sched_init(void);
void schedule(void);
/* Preempt the interrupted kernel code if a switch is due (traps.c). */
void preempt_schedule_irq(void);
/* Make a sleeping task runnable. */
void wake_up_process(struct task_struct *t);
/* Called from the timer tick: account time, maybe ask to reschedule. */
void scheduler_tick(void);
struct task_struct *find_task_by_pid(pid_t pid);
pid_t last_pid_allocated(void);	/* the newest pid (/proc/loadavg) */

/* The life cycle, across kernel/fork.c, exit.c, exec.c, signal.c and
 * sched/core.c (not for drivers). */
__noreturn void do_exit(long code);	/* code: a wait status word */
__noreturn void schedule_dead(void);	/* an exiting task's last switch */
__noreturn void cpu_idle(void);	/* pid 0, forever */
void release_task_stack(struct task_struct *t);	/* frees the task too */
void mm_release_vfork(struct task_struct *t);	/* wake a vfork parent */
void fpu_init_task(struct task_struct *t);	/* a clean FPU state */
void fpu_load_current(const struct fpu_state *src);	/* into the CPU */
void fpu_save_current(void);	/* the CPU's registers into current->fpu */
void fpu_reset_current(void);	/* exec: a clean FPU in the CPU */
void itimer_cancel(struct task_struct *t);
void init_exited(long code);	/* pid 1 is exiting */
/* Reschedule and deliver signals on the way back to user mode. */
void exit_to_user_mode(struct pt_regs *regs);
/* A kernel thread running fn(arg); returns its pid or -errno. */
pid_t kernel_thread(void (*fn)(void *), void *arg, const char *name);

/* For a person looking at a hang (kernel/sched/show.c): R, S, D, T, Z or
 * X, as /proc/PID/stat shows the state; where a sleeping task waits (the
 * first function on its stack outside the __sched sleep primitives, 0
 * when it is not asleep); its kernel stack, symbolised; its line and
 * stack; every task's (sysrq t, the hung-task watchdog). */
char task_state_to_char(const struct task_struct *t);
unsigned long get_wchan(struct task_struct *t);
void show_task_stack(struct task_struct *t);
void sched_show_task(struct task_struct *t);
void show_state(void);

#endif
