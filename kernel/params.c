/*
 * kernel/params.c: split the boot command line into words and hand each to
 * the __setup handler that declared its name (see <kernel/param.h>).
 */
#include <kernel/param.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>

char boot_command_line[COMMAND_LINE_SIZE];
const char *init_args[MAX_INIT_ARGS + 1];
int init_argc;

static char param_words[COMMAND_LINE_SIZE];

extern const struct kernel_param __param_start[], __param_end[];

static const struct kernel_param *find_param(const char *name, size_t len)
{
	const struct kernel_param *p;

	for (p = __param_start; p < __param_end; p++)
		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return p;
	return NULL;
}

static void handle_word(char *word)
{
	char *eq = strchr(word, '=');
	size_t nlen = eq ? (size_t)(eq - word) : strlen(word);
	const struct kernel_param *p = find_param(word, nlen);
	int err;

	if (!p) {
		if (init_argc < MAX_INIT_ARGS)
			init_args[init_argc++] = word;
		return;
	}
	err = p->setup(eq ? eq + 1 : "");
	if (err)
		pr_warn("params: %s: invalid value (error %d), ignored\n",
			word, err);
}

void parse_kernel_params(void)
{
	char *s = param_words;

	strlcpy(param_words, boot_command_line, sizeof(param_words));
	while (*s) {
		char *word;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		word = s;
		while (*s && *s != ' ')
			s++;
		if (*s)
			*s++ = '\0';
		handle_word(word);
	}
	init_args[init_argc] = NULL;
}

bool kernel_param_present(const char *name)
{
	size_t len = strlen(name);
	const char *s = boot_command_line;

	while (*s) {
		while (*s == ' ')
			s++;
		if (!strncmp(s, name, len) &&
		    (s[len] == '\0' || s[len] == ' ' || s[len] == '='))
			return true;
		while (*s && *s != ' ')
			s++;
	}
	return false;
}

int param_set_onoff(const char *val, bool *flag)
{
	if (!*val || !strcmp(val, "on"))
		*flag = true;
	else if (!strcmp(val, "off"))
		*flag = false;
	else
		return -EINVAL;
	return 0;
}
