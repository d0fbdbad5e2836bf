/*
 * lex.c - split a command's text into tokens.
 *
 * Words are kept raw (quotes, backslashes and $ still in them): the
 * expansion happens later, when the command runs (expand.c). The lexer
 * only has to know where a word ends, which means skipping over quoted
 * parts and ${...}. Operators: ; & | && || ( ) newline, and the
 * redirections [N]< [N]> [N]>> [N]<> [N]<& [N]>& (N: an fd number
 * written right before the operator). '#' at the start of a word starts
 * a comment up to the end of the line.
 *
 * lex() returns 0, SH_MORE when the text ends inside a quote or after a
 * backslash-newline (the caller reads another line and tries again), or
 * -1 after printing a syntax error.
 */
#include <string.h>

#include "sh.h"

#define MORE_INPUT ((const char *)0) /* skip_* : text ended first */

const char *skip_squote(const char *p)
{
	const char *q = strchr(p + 1, '\'');

	return q ? q + 1 : MORE_INPUT;
}

const char *skip_dquote(const char *p)
{
	for (p++; *p;) {
		if (*p == '\\' && p[1]) {
			p += 2;
		} else if (*p == '"') {
			return p + 1;
		} else if (*p == '$' && p[1] == '{') {
			p = skip_brace(p + 1);
			if (p == MORE_INPUT)
				return MORE_INPUT;
		} else {
			p++;
		}
	}
	return MORE_INPUT;
}

const char *skip_brace(const char *p)
{
	const char *q = strchr(p, '}');

	return q ? q + 1 : MORE_INPUT;
}

static int is_meta(char c)
{
	return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' ||
	       c == '(' || c == ')';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* End of the word starting at p; MORE_INPUT if it runs off the text. */
static const char *word_end(const char *p)
{
	while (*p && !is_blank(*p) && *p != '\n' && !is_meta(*p)) {
		if (*p == '\'') {
			p = skip_squote(p);
		} else if (*p == '"') {
			p = skip_dquote(p);
		} else if (*p == '\\') {
			if (p[1] == '\n' && p[2] == '\0')
				return MORE_INPUT;
			p += p[1] ? 2 : 1;
		} else if (*p == '$' && p[1] == '{') {
			p = skip_brace(p + 1);
		} else {
			p++;
		}
		if (p == MORE_INPUT)
			return MORE_INPUT;
	}
	return p;
}

/* Redirection operator at p (digits already consumed); 0 if none. */
static int redir_op(const char *p, enum redir_kind *kind)
{
	if (p[0] == '>' && p[1] == '>')
		return *kind = R_APPEND, 2;
	if (p[0] == '>' && p[1] == '&')
		return *kind = R_DUPOUT, 2;
	if (p[0] == '>' && p[1] == '|')
		return *kind = R_OUT, 2;
	if (p[0] == '<' && p[1] == '&')
		return *kind = R_DUPIN, 2;
	if (p[0] == '<' && p[1] == '>')
		return *kind = R_RDWR, 2;
	if (p[0] == '>')
		return *kind = R_OUT, 1;
	if (p[0] == '<')
		return *kind = R_IN, 1;
	return 0;
}

/* Operator at p (not a redirection); sets *type, returns its length. */
static int plain_op(const char *p, enum tok_type *type)
{
	if (p[0] == '&' && p[1] == '&')
		return *type = T_AND, 2;
	if (p[0] == '|' && p[1] == '|')
		return *type = T_OR, 2;
	switch (p[0]) {
	case '&':
		*type = T_AMP;
		return 1;
	case '|':
		*type = T_PIPE;
		return 1;
	case ';':
		*type = T_SEMI;
		return 1;
	case '(':
		*type = T_LPAREN;
		return 1;
	case ')':
		*type = T_RPAREN;
		return 1;
	case '\n':
		*type = T_NEWLINE;
		return 1;
	}
	return 0;
}

static struct token *push(struct token **toks, int *n, int *cap)
{
	if (*n == *cap) {
		struct token *t = sh_alloc(sizeof(*t) * (size_t)(*cap * 2));

		memcpy(t, *toks, sizeof(*t) * (size_t)*n);
		*toks = t;
		*cap *= 2;
	}
	return &(*toks)[(*n)++];
}

int lex(const char *src, struct token **toks, int *ntok)
{
	int n = 0, cap = 32;
	const char *p = src;

	*toks = sh_alloc(sizeof(**toks) * (size_t)cap);
	for (;;) {
		struct token *t;
		enum redir_kind kind;
		const char *d;
		int len;

		while (is_blank(*p) || (p[0] == '\\' && p[1] == '\n')) {
			if (*p == '\\' && p[2] == '\0')
				return SH_MORE;
			p += *p == '\\' ? 2 : 1;
		}
		if (*p == '#')
			while (*p && *p != '\n')
				p++;
		t = push(toks, &n, &cap);
		t->fd = -1;
		if (!*p) {
			t->type = T_END;
			break;
		}
		for (d = p; *d >= '0' && *d <= '9'; d++)
			;
		if ((len = redir_op(d, &kind))) {
			t->type = T_REDIR;
			t->redir = kind;
			if (d > p && d - p < 5)
				for (t->fd = 0; p < d; p++)
					t->fd = t->fd * 10 + (*p - '0');
			else if (d > p)
				t->fd = 10000; /* too big: dup2 says EBADF */
			p = d + len;
			continue;
		}
		if ((len = plain_op(p, &t->type))) {
			p += len;
			continue;
		}
		d = word_end(p);
		if (d == MORE_INPUT)
			return SH_MORE;
		t->type = T_WORD;
		t->text = sh_strndup(p, (size_t)(d - p));
		p = d;
	}
	*ntok = n;
	return 0;
}

const char *tok_name(const struct token *t)
{
	static const char *const names[] = {
	    [T_WORD] = "word",	     [T_NEWLINE] = "newline",
	    [T_SEMI] = ";",	     [T_AMP] = "&",
	    [T_PIPE] = "|",	     [T_AND] = "&&",
	    [T_OR] = "||",	     [T_REDIR] = "redirection",
	    [T_LPAREN] = "(",	     [T_RPAREN] = ")",
	    [T_END] = "end of file",
	};

	return t->type == T_WORD ? t->text : names[t->type];
}
