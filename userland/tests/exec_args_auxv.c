/*
 * exec_args_auxv: what execve hands a new program.
 * The test re-executes itself through a path, with chosen argv and envp
 * (argv[0] deliberately different from the path), and the child checks
 * argc/argv/envp, the auxiliary vector (AT_PAGESZ, AT_PHDR/PHENT/PHNUM
 * pointing at this program's real program headers, AT_ENTRY = _start,
 * AT_RANDOM 16 bytes, AT_UID..AT_EGID, AT_EXECFN = the path) and the
 * initial stack alignment.
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

extern char **environ;
extern void _start(void);

static int child(int argc, char **argv)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	int load = 0;

	plan(14);
	is_int(argc, 4, "argc");
	is_str(argv[0], "not-my-path", "argv[0] as given, not the path");
	is_str(argv[3], "three words here", "an argument with spaces intact");
	ok(argv[4] == NULL, "argv ends with NULL");
	is_str(getenv("PAGELAB_A"), "1", "envp passed");
	ok(environ[2] == NULL, "envp has exactly the two entries given");
	is_int(getauxval(AT_PAGESZ), 4096, "AT_PAGESZ");
	is_int(getauxval(AT_PHENT), sizeof(Elf64_Phdr), "AT_PHENT");
	for (unsigned long i = 0; ph && i < getauxval(AT_PHNUM); i++)
		load += ph[i].p_type == PT_LOAD;
	ok(load >= 1, "AT_PHDR/AT_PHNUM point at program headers with %d PT_LOAD",
	   load);
	ok(getauxval(AT_ENTRY) == (unsigned long)_start, "AT_ENTRY is _start");
	ok(rnd && (rnd[0] | rnd[1] | rnd[2] | rnd[3] | rnd[15]),
	   "AT_RANDOM points at random bytes");
	ok(getauxval(AT_UID) == getuid() && getauxval(AT_EGID) == getegid(),
	   "AT_UID and AT_EGID");
	is_str((const char *)getauxval(AT_EXECFN), argv[1],
	       "AT_EXECFN is the path given to execve");
	ok(((uintptr_t)__builtin_frame_address(0) & 7) == 0,
	   "a sane stack in main");
	return done_testing();
}

int main(int argc, char **argv)
{
	char *args[] = { "not-my-path", NULL, "x", "three words here", NULL };
	char *envs[] = { "PAGELAB_A=1", "PAGELAB_B=two", NULL };
	char path[256];
	int status;
	pid_t pid;
	ssize_t n;

	if (argc > 1 && !strcmp(argv[0], "not-my-path"))
		return child(argc, argv);
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		strcpy(path, argv[0]);	/* pagelab: no /proc/self yet */
	else
		path[n] = '\0';
	args[1] = path;
	pid = fork();
	if (pid == 0) {
		execve(path, args, envs);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
