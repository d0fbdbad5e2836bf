/*
 * util.c - the shell's memory arena, error output and string buffers.
 *
 * The arena hands out zeroed memory for one command's tokens, tree and
 * words; arena_reset() frees it all after the command ran, so the rest
 * of the shell never frees anything piecemeal. Messages are formatted
 * into a buffer and written with one write(2), so they cannot interleave
 * with a child's output mid-line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

static struct chunk *arena;

void *sh_alloc(size_t n)
{
	struct chunk *c = arena;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 ? n : 65536;

		c = malloc(sizeof(*c) + size);
		if (!c) {
			sh_error("out of memory");
			_exit(2);
		}
		c->size = size;
		c->used = 0;
		c->next = arena;
		arena = c;
	}
	c->used += n;
	return memset(c->data + c->used - n, 0, n);
}

char *sh_strndup(const char *s, size_t n)
{
	char *p = sh_alloc(n + 1);

	memcpy(p, s, n);
	return p;
}

char *sh_strdup(const char *s)
{
	return sh_strndup(s, strlen(s));
}

void arena_reset(void)
{
	while (arena) {
		struct chunk *next = arena->next;

		free(arena);
		arena = next;
	}
}

static void vprint(int fd, const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];
	size_t n = 0;
	int r;

	if (prefix)
		n = (size_t)snprintf(buf, sizeof(buf), "%s", prefix);
	r = vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (r > 0)
		n += (size_t)r;
	if (n > sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	write(fd, buf, n);
}

/* "sh: <message>\n" on stderr. */
void sh_error(const char *fmt, ...)
{
	char f[256];
	va_list ap;

	snprintf(f, sizeof(f), "%s\n", fmt);
	va_start(ap, fmt);
	vprint(2, "sh: ", f, ap);
	va_end(ap);
}

void sh_print(int fd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fd, NULL, fmt, ap);
	va_end(ap);
}

void sb_adds(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;

		while (cap < sb->len + n + 1)
			cap *= 2;
		sb->s = realloc(sb->s, cap);
		if (!sb->s) {
			sh_error("out of memory");
			_exit(2);
		}
		sb->cap = cap;
	}
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_adds(sb, &c, 1);
}
