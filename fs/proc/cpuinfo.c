/*
 * fs/proc/cpuinfo.c: /proc/cpuinfo and /proc/version, in Linux's formats
 * (arch/x86/kernel/cpu/proc.c, fs/proc/version.c), so that what a student
 * types out of habit answers.
 *
 * /proc/cpuinfo is read from CPUID each time: vendor, family, model and
 * stepping (leaf 1, with the extended family and model folded in as Linux
 * does), the brand string (leaves 0x80000002-4), the address sizes (leaf
 * 0x80000008) and the feature bits of leaves 1, 7 and 0x80000001 under
 * Linux's flag names (a subset: the common ones). cpu MHz is the TSC rate
 * kernel/time/clock.c calibrated; bogomips is twice that, as Linux's
 * TSC-based delay loop gives. One CPU, one block, a blank line after it.
 */
#include <fs/proc_fs.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/version.h>
#include <asm/processor.h>

struct cpu_flag {
	u8 leaf;	/* index into the words read by cpuinfo_words */
	u8 bit;
	const char *name;
};

enum { W_1_EDX, W_1_ECX, W_7_EBX, W_7_ECX, W_81_EDX, W_81_ECX, NR_WORDS };

/* In Linux's order (its cpufeatures.h word by word). */
static const struct cpu_flag cpu_flags[] = {
	{ W_1_EDX, 0, "fpu" }, { W_1_EDX, 1, "vme" }, { W_1_EDX, 2, "de" },
	{ W_1_EDX, 3, "pse" }, { W_1_EDX, 4, "tsc" }, { W_1_EDX, 5, "msr" },
	{ W_1_EDX, 6, "pae" }, { W_1_EDX, 7, "mce" }, { W_1_EDX, 8, "cx8" },
	{ W_1_EDX, 9, "apic" }, { W_1_EDX, 11, "sep" },
	{ W_1_EDX, 12, "mtrr" }, { W_1_EDX, 13, "pge" },
	{ W_1_EDX, 14, "mca" }, { W_1_EDX, 15, "cmov" },
	{ W_1_EDX, 16, "pat" }, { W_1_EDX, 17, "pse36" },
	{ W_1_EDX, 19, "clflush" }, { W_1_EDX, 23, "mmx" },
	{ W_1_EDX, 24, "fxsr" }, { W_1_EDX, 25, "sse" },
	{ W_1_EDX, 26, "sse2" }, { W_1_EDX, 27, "ss" }, { W_1_EDX, 28, "ht" },
	{ W_81_EDX, 11, "syscall" }, { W_81_EDX, 20, "nx" },
	{ W_81_EDX, 22, "mmxext" }, { W_81_EDX, 25, "fxsr_opt" },
	{ W_81_EDX, 26, "pdpe1gb" }, { W_81_EDX, 27, "rdtscp" },
	{ W_81_EDX, 29, "lm" },
	{ W_1_ECX, 0, "pni" }, { W_1_ECX, 1, "pclmulqdq" },
	{ W_1_ECX, 3, "monitor" }, { W_1_ECX, 5, "vmx" },
	{ W_1_ECX, 9, "ssse3" }, { W_1_ECX, 12, "fma" },
	{ W_1_ECX, 13, "cx16" }, { W_1_ECX, 17, "pcid" },
	{ W_1_ECX, 19, "sse4_1" }, { W_1_ECX, 20, "sse4_2" },
	{ W_1_ECX, 21, "x2apic" }, { W_1_ECX, 22, "movbe" },
	{ W_1_ECX, 23, "popcnt" }, { W_1_ECX, 24, "tsc_deadline_timer" },
	{ W_1_ECX, 25, "aes" }, { W_1_ECX, 26, "xsave" },
	{ W_1_ECX, 28, "avx" }, { W_1_ECX, 29, "f16c" },
	{ W_1_ECX, 30, "rdrand" }, { W_1_ECX, 31, "hypervisor" },
	{ W_81_ECX, 0, "lahf_lm" }, { W_81_ECX, 1, "cmp_legacy" },
	{ W_81_ECX, 2, "svm" }, { W_81_ECX, 5, "abm" },
	{ W_81_ECX, 6, "sse4a" }, { W_81_ECX, 7, "misalignsse" },
	{ W_81_ECX, 8, "3dnowprefetch" },
	{ W_7_EBX, 0, "fsgsbase" }, { W_7_EBX, 1, "tsc_adjust" },
	{ W_7_EBX, 3, "bmi1" }, { W_7_EBX, 4, "hle" }, { W_7_EBX, 5, "avx2" },
	{ W_7_EBX, 7, "smep" }, { W_7_EBX, 8, "bmi2" },
	{ W_7_EBX, 9, "erms" }, { W_7_EBX, 10, "invpcid" },
	{ W_7_EBX, 11, "rtm" }, { W_7_EBX, 16, "avx512f" },
	{ W_7_EBX, 18, "rdseed" }, { W_7_EBX, 19, "adx" },
	{ W_7_EBX, 20, "smap" }, { W_7_EBX, 23, "clflushopt" },
	{ W_7_EBX, 24, "clwb" }, { W_7_EBX, 29, "sha_ni" },
	{ W_7_ECX, 2, "umip" }, { W_7_ECX, 22, "rdpid" },
};

struct cpuinfo {
	char vendor[13];
	char model_name[49];
	u32 max_leaf, max_ext_leaf;
	u32 signature, ebx1;	/* leaf 1's eax and ebx */
	u32 words[NR_WORDS];
};

static void cpuinfo_read(struct cpuinfo *c)
{
	u32 a, b, d, unused;
	u32 *brand = (u32 *)c->model_name;

	memset(c, 0, sizeof(*c));
	/* the vendor string is in ebx, edx, ecx */
	cpuid(0, 0, &c->max_leaf, &b, &d, &a);
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &a, 4);
	cpuid(1, 0, &c->signature, &c->ebx1, &c->words[W_1_ECX],
	      &c->words[W_1_EDX]);
	if (c->max_leaf >= 7)
		cpuid(7, 0, &unused, &c->words[W_7_EBX], &c->words[W_7_ECX],
		      &unused);
	cpuid(0x80000000, 0, &c->max_ext_leaf, &unused, &unused, &unused);
	if (c->max_ext_leaf >= 0x80000001)
		cpuid(0x80000001, 0, &unused, &unused, &c->words[W_81_ECX],
		      &c->words[W_81_EDX]);
	if (c->max_ext_leaf >= 0x80000004)
		for (u32 i = 0; i < 3; i++)
			cpuid(0x80000002 + i, 0, &brand[4 * i],
			      &brand[4 * i + 1], &brand[4 * i + 2],
			      &brand[4 * i + 3]);
}

/* Leaf 1's family, with the extended family added for family 0xf. */
static unsigned int cpu_family(u32 sig)
{
	unsigned int family = (sig >> 8) & 0xf;

	return family == 0xf ? family + ((sig >> 20) & 0xff) : family;
}

static unsigned int cpu_model(u32 sig)
{
	unsigned int model = (sig >> 4) & 0xf;

	return cpu_family(sig) >= 6 ? model + (((sig >> 16) & 0xf) << 4)
				    : model;
}

static void show_address_sizes(struct seq_file *m, const struct cpuinfo *c)
{
	u32 a = 0, unused;

	if (c->max_ext_leaf >= 0x80000008)
		cpuid(0x80000008, 0, &a, &unused, &unused, &unused);
	if (!a)	/* Linux's defaults for a 64-bit CPU that does not say */
		a = 36 | 48 << 8;
	seq_printf(m, "address sizes\t: %u bits physical, %u bits virtual\n",
		   a & 0xff, (a >> 8) & 0xff);
}

/* One CPU's paragraph. CPUID is read on whichever CPU runs this; QEMU
 * gives every CPU the same model, and each its own APIC ID. */
static void show_cpu(struct seq_file *m, const struct cpuinfo *c, int cpu)
{
	const char *name = c->model_name;
	unsigned long khz = tsc_khz;
	u32 apicid = cpu_data[cpu].apic_id;

	while (*name == ' ')	/* Intel pads the brand string in front */
		name++;
	seq_printf(m, "processor\t: %d\n", cpu);
	seq_printf(m, "vendor_id\t: %s\n", c->vendor);
	seq_printf(m, "cpu family\t: %u\n", cpu_family(c->signature));
	seq_printf(m, "model\t\t: %u\n", cpu_model(c->signature));
	seq_printf(m, "model name\t: %s\n", *name ? name : "unknown");
	seq_printf(m, "stepping\t: %u\n", c->signature & 0xf);
	seq_printf(m, "cpu MHz\t\t: %lu.%03lu\n", khz / 1000, khz % 1000);
	seq_printf(m, "physical id\t: 0\nsiblings\t: %d\ncore id\t\t: %d\n"
		      "cpu cores\t: %d\n", num_online_cpus(), cpu,
		   num_online_cpus());
	seq_printf(m, "apicid\t\t: %u\ninitial apicid\t: %u\n", apicid,
		   apicid);
	seq_printf(m, "fpu\t\t: yes\nfpu_exception\t: yes\n");
	seq_printf(m, "cpuid level\t: %u\nwp\t\t: yes\n", c->max_leaf);
	seq_puts(m, "flags\t\t:");
	for (size_t i = 0; i < ARRAY_SIZE(cpu_flags); i++)
		if (c->words[cpu_flags[i].leaf] & (1U << cpu_flags[i].bit))
			seq_printf(m, " %s", cpu_flags[i].name);
	seq_printf(m, "\nbogomips\t: %lu.%02lu\n", khz / 500, (khz / 5) % 100);
	seq_printf(m, "clflush size\t: %u\ncache_alignment\t: %u\n",
		   ((c->ebx1 >> 8) & 0xff) * 8, ((c->ebx1 >> 8) & 0xff) * 8);
	show_address_sizes(m, c);
	seq_puts(m, "power management:\n\n");
}

int cpuinfo_proc_show(struct seq_file *m, void *v)
{
	struct cpuinfo c;
	int cpu;

	cpuinfo_read(&c);
	for_each_online_cpu(cpu)
		show_cpu(m, &c, cpu);
	return 0;
}

/*
 * Linux's "Linux version R (user@host) (compiler) #N ...". The build is
 * reproducible (no date, no builder's name goes into the kernel), so the
 * user@host is a fixed stand-in, as KBUILD_BUILD_USER/HOST make it for a
 * reproducible Linux build, and there is no date.
 */
int version_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "pagelab version %s (pagelab@reproducible) "
		      "(gcc version %s) #1\n", PAGELAB_VERSION, __VERSION__);
	return 0;
}
