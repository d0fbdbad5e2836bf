/*
 * expand.c - turn a raw word into the strings a command receives.
 *
 * In one left-to-right pass over the raw word:
 *   'single quotes'  literal
 *   "double quotes"  literal except \$ \" \\ \` \newline and $ expansions
 *   \c               c, literal (backslash-newline disappears)
 *   $NAME ${NAME} ${NAME:-word} ${NAME-word} ${#NAME}
 *   $? $$ $! $# $0..$9 $@ $*    (variables are environment variables)
 * Unquoted expansion results are split into fields at spaces, tabs and
 * newlines ("$X" is never split), then fields with an unquoted * ? or [
 * are matched against file names (glob(3)); with no match the word
 * stays as it was. A word that expands to nothing unquoted ($UNSET)
 * gives no field at all; "" gives one empty field.
 *
 * The current field is built in two forms at once: the text itself, and
 * a glob pattern in which quoted * ? [ \ are backslash-escaped, so that
 * "*" stays a literal star while * matches.
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"

struct field {
	struct strbuf text, pat;
	int started; /* something (maybe "") is in the field */
	int glob; /* an unquoted glob character is in it */
};

struct exp {
	struct field f;
	int flags;
	struct fields *out;
	int bad; /* a bad substitution was seen */
	int split_literal; /* in ${X:-word}: word's plain blanks split too */
};

void fields_add(struct fields *f, char *s)
{
	if (f->n + 1 >= f->cap) {
		int cap = f->cap ? f->cap * 2 : 16;
		char **v = sh_alloc(sizeof(*v) * (size_t)cap);

		if (f->n)
			memcpy(v, f->v, sizeof(*v) * (size_t)f->n);
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = s;
	f->v[f->n] = NULL;
}

static void add_char(struct exp *e, char c, int quoted)
{
	sb_addc(&e->f.text, c);
	if (quoted && strchr("*?[\\", c))
		sb_addc(&e->f.pat, '\\');
	sb_addc(&e->f.pat, c);
	if (!quoted && strchr("*?[", c))
		e->f.glob = 1;
	e->f.started = 1;
}

static void end_field(struct exp *e)
{
	glob_t g;
	size_t i;

	if (!e->f.started)
		return;
	if (e->f.glob && !(e->flags & EXP_NOSPLIT) &&
	    glob(e->f.pat.s, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			fields_add(e->out, sh_strdup(g.gl_pathv[i]));
		globfree(&g);
	} else {
		fields_add(e->out, sh_strndup(e->f.text.s ? e->f.text.s : "",
					      e->f.text.len));
	}
	e->f.text.len = e->f.pat.len = 0;
	e->f.started = e->f.glob = 0;
}

/* Append an expansion's value: split at IFS white space unless quoted. */
static void add_value(struct exp *e, const char *v, int quoted)
{
	int split = !quoted && !(e->flags & EXP_NOSPLIT);

	for (; *v; v++) {
		if (split && (*v == ' ' || *v == '\t' || *v == '\n'))
			end_field(e);
		else
			add_char(e, *v, quoted);
	}
}

static const char *param(const char *name, size_t len, char *num)
{
	char key[256];

	if (len == 1 && strchr("?$!#", *name)) {
		long v = *name == '?'	? last_status
			 : *name == '$' ? sh_pid
			 : *name == '!' ? last_bg_pid
					: posc;

		if (*name == '!' && !last_bg_pid)
			return "";
		snprintf(num, 24, "%ld", v);
		return num;
	}
	if (len == 1 && isdigit((unsigned char)*name)) {
		int i = *name - '0';

		return i == 0 ? sh_name : i <= posc ? posv[i - 1] : "";
	}
	if (len >= sizeof(key))
		return NULL;
	memcpy(key, name, len);
	key[len] = '\0';
	return getenv(key);
}

static void expand_part(struct exp *e, const char *p, const char *end,
			int quoted);

/* "$@" and "$*" (quoted), $@ and $* (unquoted). */
static void add_params(struct exp *e, char which, int quoted)
{
	int i;

	for (i = 0; i < posc; i++) {
		if (i > 0) {
			if (quoted && which == '@') {
				end_field(e);
				e->f.started = 1; /* "$@": "" stays a field */
			} else if (quoted)
				add_char(e, ' ', 1);
			else
				end_field(e);
		}
		add_value(e, posv[i], quoted);
	}
}

static int is_name_char(char c, int first)
{
	return c == '_' || isalpha((unsigned char)c) ||
	       (!first && isdigit((unsigned char)c));
}

/* ${...}: p at '{', close at the '}'. */
static void expand_brace(struct exp *e, const char *p, const char *close,
			 int quoted)
{
	const char *name = p + 1, *n = name, *v, *word;
	char num[24];
	int length = 0;

	if (*n == '#' && n + 1 < close) {
		length = 1;
		name = ++n;
	}
	if (n < close && strchr("?$!#@*", *n))
		n++;
	else
		while (n < close && is_name_char(*n, n == name))
			n++;
	if (n == name || (n < close && *n != ':' && *n != '-') ||
	    (length && n != close)) {
		sh_error("%.*s}: bad substitution", (int)(close - p + 1),
			 p - 1);
		e->bad = 1;
		return;
	}
	if (*name == '@' || *name == '*') {
		add_params(e, *name, quoted);
		return;
	}
	v = param(name, (size_t)(n - name), num);
	if (length) {
		snprintf(num, sizeof(num), "%zu", v ? strlen(v) : 0);
		add_value(e, num, quoted);
		return;
	}
	word = n < close ? n + (*n == ':' ? 2 : 1) : NULL;
	if (word && (n[0] == ':' ? n[1] != '-' : 0)) {
		sh_error("%.*s}: bad substitution", (int)(close - p + 1),
			 p - 1);
		e->bad = 1;
		return;
	}
	if (word && (!v || (*n == ':' && !*v))) {
		/* Unquoted, the default is an expansion result: split it. */
		int saved = e->split_literal;

		e->split_literal = !quoted && !(e->flags & EXP_NOSPLIT);
		expand_part(e, word, close, quoted);
		e->split_literal = saved;
		return;
	}
	if (v)
		add_value(e, v, quoted);
}

/* p at '$'; returns where the expansion ends. */
static const char *expand_dollar(struct exp *e, const char *p, const char *end,
				 int quoted)
{
	const char *n = p + 1, *v;
	char num[24];

	if (n < end && *n == '{') {
		const char *close = skip_brace(n);

		if (!close || close > end) {
			sh_error("missing '}'");
			e->bad = 1;
			return end;
		}
		expand_brace(e, n, close - 1, quoted);
		return close;
	}
	if (n < end && (*n == '@' || *n == '*')) {
		add_params(e, *n, quoted);
		return n + 1;
	}
	if (n < end && (strchr("?$!#", *n) || isdigit((unsigned char)*n))) {
		add_value(e, param(n, 1, num), quoted);
		return n + 1;
	}
	while (n < end && is_name_char(*n, n == p + 1))
		n++;
	if (n == p + 1) { /* a lone $ is literal */
		add_char(e, '$', quoted);
		return n;
	}
	v = param(p + 1, (size_t)(n - p - 1), num);
	if (v)
		add_value(e, v, quoted);
	return n;
}

static void expand_part(struct exp *e, const char *p, const char *end,
			int quoted)
{
	while (p < end) {
		if (*p == '\'' && !quoted) {
			const char *q = skip_squote(p);

			e->f.started = 1;
			for (p++; p < q - 1; p++)
				add_char(e, *p, 1);
			p = q;
		} else if (*p == '"' && !quoted) {
			const char *q = skip_dquote(p);

			e->f.started = 1;
			expand_part(e, p + 1, q - 1, 1);
			p = q;
		} else if (*p == '\\' && p + 1 < end) {
			if (p[1] == '\n') {
				p += 2;
			} else if (!quoted || strchr("$`\"\\", p[1])) {
				add_char(e, p[1], 1);
				p += 2;
			} else {
				add_char(e, *p++, 1);
			}
		} else if (*p == '$') {
			p = expand_dollar(e, p, end, quoted);
		} else if (e->split_literal && !quoted &&
			   (*p == ' ' || *p == '\t' || *p == '\n')) {
			end_field(e);
			p++;
		} else {
			add_char(e, *p++, quoted);
		}
	}
}

/* Expand raw into fields appended to out. Returns -1 on a bad
 * substitution (already reported), else 0. */
int expand_word(const char *raw, int flags, struct fields *out)
{
	struct exp e;

	memset(&e, 0, sizeof(e));
	e.flags = flags;
	e.out = out;
	/* "$@" with no parameters is no field at all, not one empty one. */
	if (strcmp(raw, "\"$@\"") == 0 && posc == 0)
		return 0;
	expand_part(&e, raw, raw + strlen(raw), 0);
	if ((flags & EXP_NOSPLIT) && !e.f.started)
		e.f.started = 1;
	end_field(&e);
	free(e.f.text.s);
	free(e.f.pat.s);
	return e.bad ? -1 : 0;
}

/* One string, no splitting or globbing: assignments, redirections. */
char *expand_one(const char *raw)
{
	struct fields f = {0};
	int i;
	size_t len = 0;
	char *s;

	if (expand_word(raw, EXP_NOSPLIT, &f) < 0)
		return NULL;
	/* "$@" can still make several fields: join them with spaces. */
	for (i = 0; i < f.n; i++)
		len += strlen(f.v[i]) + 1;
	s = sh_alloc(len + 1);
	for (i = 0; i < f.n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, f.v[i]);
	}
	return s;
}

/* NAME=... with a valid NAME (the raw text, before any expansion). */
int is_assignment(const char *word)
{
	const char *p = word;

	if (!is_name_char(*p, 1))
		return 0;
	while (is_name_char(*p, 0))
		p++;
	return *p == '=';
}
