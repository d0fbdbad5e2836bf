/*
 * fs/proc/stat.c: /proc/stat, /proc/uptime and /proc/loadavg, in Linux's
 * formats (fs/proc/stat.c, uptime.c, loadavg.c there), for top, uptime
 * and anyone who reads them.
 *
 * CPU time, a line per CPU and their sum: the tick does not tell user from
 * system time, so every tick that found a task running counts as user
 * time and every tick that found the CPU's idle task (pid 0) counts as
 * idle (struct percpu counts both). Load averages are not kept: 0.00, as
 * sysinfo(2) says.
 */
#include <fs/proc_fs.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/vmstat.h>

/* Ticks spent busy and idle since boot, on cpu (-1: all of them). */
static void cpu_ticks(int cpu, u64 *busy, u64 *idle)
{
	int c;

	*busy = *idle = 0;
	for_each_online_cpu(c)
		if (cpu < 0 || c == cpu) {
			*busy += READ_ONCE(cpu_data[c].busy_ticks);
			*idle += READ_ONCE(cpu_data[c].idle_ticks);
		}
}

int stat_proc_show(struct seq_file *m, void *v)
{
	u64 busy, idle, now = ktime_get_real_ns(), up = ktime_get_ns();
	struct task_struct *t;
	int running = 0, cpu;

	cpu_ticks(-1, &busy, &idle);
	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks)
		if (!t->exit_state && t->state == TASK_RUNNING)
			running++;
	unlock_tasklist();
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	seq_printf(m, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n",
		   (unsigned long long)busy, (unsigned long long)idle);
	for_each_online_cpu(cpu) {
		cpu_ticks(cpu, &busy, &idle);
		seq_printf(m, "cpu%d %llu 0 0 %llu 0 0 0 0 0 0\n", cpu,
			   (unsigned long long)busy, (unsigned long long)idle);
	}
	seq_printf(m, "intr 0\nctxt 0\nbtime %llu\nprocesses %lu\n"
		      "procs_running %d\nprocs_blocked 0\n",
		   (unsigned long long)((now - up) / NSEC_PER_SEC),
		   vm_event_sum(NR_FORKS), running);
	return 0;
}

/* Seconds since boot and seconds idle, to the hundredth. */
int uptime_proc_show(struct seq_file *m, void *v)
{
	u64 busy, idle, up = ktime_get_ns() / (NSEC_PER_SEC / 100);

	cpu_ticks(-1, &busy, &idle);	/* idle time of all CPUs, as Linux */
	idle = idle * 100 / HZ;
	seq_printf(m, "%llu.%02llu %llu.%02llu\n",
		   (unsigned long long)(up / 100), (unsigned long long)(up % 100),
		   (unsigned long long)(idle / 100),
		   (unsigned long long)(idle % 100));
	return 0;
}

/* "0.00 0.00 0.00 running/total newest-pid" */
int loadavg_proc_show(struct seq_file *m, void *v)
{
	struct task_struct *t;
	int running = 0, total = 0;

	lock_tasklist();
	list_for_each_entry(t, &task_list, tasks) {
		if (t->exit_state)
			continue;
		total++;
		if (t->state == TASK_RUNNING)
			running++;
	}
	unlock_tasklist();
	seq_printf(m, "0.00 0.00 0.00 %d/%d %d\n", running, total,
		   last_pid_allocated());
	return 0;
}
