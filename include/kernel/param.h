/*
 * Kernel command line parameters. A subsystem declares the parameters it
 * understands where it uses them:
 *
 *	static int set_loglevel(const char *val) { ... }
 *	__setup("loglevel", set_loglevel);
 *
 * parse_kernel_params() calls the handler for "loglevel=N" with "N" (and with
 * "" for a bare "loglevel"). A handler returns 0 or a negative errno, which
 * is logged. Words no handler claims are kept for init, as Linux does.
 */
#ifndef _KERNEL_PARAM_H
#define _KERNEL_PARAM_H

#include <kernel/compiler.h>

struct kernel_param {
	const char *name;
	int (*setup)(const char *val);
};

#define __setup(str, fn)                                                 \
	static const struct kernel_param __param_##fn __used             \
		__section(".init.param") __aligned(8) = { str, fn }

#define COMMAND_LINE_SIZE 1024
#define MAX_INIT_ARGS 16

extern char boot_command_line[COMMAND_LINE_SIZE];
/* Words of the command line that no __setup handler claimed. */
extern const char *init_args[MAX_INIT_ARGS + 1];
extern int init_argc;

void parse_kernel_params(void);
/* For a switch: "on" (or the bare word) sets *flag, "off" clears it;
 * anything else is -EINVAL, and *flag stays. */
int param_set_onoff(const char *val, bool *flag);
/* True when the bare word or "name=..." appears on the command line. */
bool kernel_param_present(const char *name);

#endif
