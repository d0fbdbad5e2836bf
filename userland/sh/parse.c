/*
 * parse.c - tokens to a command tree.
 *
 * Grammar (a subset of POSIX sh, no compound commands):
 *   list     := { and_or ( ';' | '&' | newline ) } [ and_or ]
 *   and_or   := pipeline { ( '&&' | '||' ) newline* pipeline }
 *   pipeline := [ '!' ] command { '|' newline* command }
 *   command  := ( WORD | redirection WORD )+
 * A recursive-descent parser, one function per rule. Each returns 0,
 * SH_MORE when the tokens ran out where more must follow (after |, &&,
 * ||: the caller reads another line), or -1 after a syntax error
 * message. The tree lives in the arena.
 */
#include <string.h>

#include "sh.h"

struct parser {
	struct token *t; /* current token */
};

static int syntax_error(struct parser *ps)
{
	if (ps->t->type == T_LPAREN || ps->t->type == T_RPAREN)
		sh_error("syntax error: ( ) subshells and $( ) are not supported");
	else
		sh_error("syntax error near unexpected '%s'", tok_name(ps->t));
	return -1;
}

static void skip_newlines(struct parser *ps)
{
	while (ps->t->type == T_NEWLINE)
		ps->t++;
}

/* Grow an arena array by one element (arrays here are small). */
static void *grow(void *old, int n, size_t size)
{
	void *p = sh_alloc(size * (size_t)(n + 1));

	if (n)
		memcpy(p, old, size * (size_t)n);
	return p;
}

static int parse_command(struct parser *ps, struct command *c)
{
	struct redir **tail = &c->redirs;

	for (;;) {
		struct token *t = ps->t;

		if (t->type == T_WORD) {
			c->words = grow(c->words, c->nwords, sizeof(char *));
			c->words[c->nwords++] = t->text;
			ps->t++;
		} else if (t->type == T_REDIR) {
			struct redir *r = sh_alloc(sizeof(*r));

			ps->t++;
			if (ps->t->type != T_WORD)
				return ps->t->type == T_END ? SH_MORE
							    : syntax_error(ps);
			r->fd = t->fd;
			r->kind = t->redir;
			r->target = ps->t->text;
			*tail = r;
			tail = &r->next;
			ps->t++;
		} else {
			break;
		}
	}
	if (c->nwords == 0 && !c->redirs)
		return ps->t->type == T_END ? SH_MORE : syntax_error(ps);
	return 0;
}

static int parse_pipeline(struct parser *ps, struct pipeline *p)
{
	int r;

	if (ps->t->type == T_WORD && strcmp(ps->t->text, "!") == 0) {
		p->bang = 1;
		ps->t++;
	}
	for (;;) {
		p->cmds = grow(p->cmds, p->ncmds, sizeof(*p->cmds));
		memset(&p->cmds[p->ncmds], 0, sizeof(*p->cmds));
		r = parse_command(ps, &p->cmds[p->ncmds++]);
		if (r)
			return r;
		if (ps->t->type != T_PIPE)
			return 0;
		ps->t++;
		skip_newlines(ps);
	}
}

static int parse_andor(struct parser *ps, struct andor *a)
{
	int r;

	for (;;) {
		a->pipes = grow(a->pipes, a->npipes, sizeof(*a->pipes));
		memset(&a->pipes[a->npipes], 0, sizeof(*a->pipes));
		r = parse_pipeline(ps, &a->pipes[a->npipes++]);
		if (r)
			return r;
		if (ps->t->type != T_AND && ps->t->type != T_OR)
			return 0;
		a->ops = grow(a->ops, a->npipes - 1, sizeof(*a->ops));
		a->ops[a->npipes - 1] = ps->t->type;
		ps->t++;
		skip_newlines(ps);
	}
}

int parse(struct token *toks, int ntok, struct list *out)
{
	struct parser ps = {toks};

	(void)ntok; /* the list always ends with T_END */
	int r;

	memset(out, 0, sizeof(*out));
	for (;;) {
		struct andor *a;

		skip_newlines(&ps);
		if (ps.t->type == T_END)
			return 0;
		out->items = grow(out->items, out->n, sizeof(*out->items));
		a = &out->items[out->n++];
		memset(a, 0, sizeof(*a));
		r = parse_andor(&ps, a);
		if (r)
			return r;
		switch (ps.t->type) {
		case T_AMP:
			a->background = 1;
			/* fall through */
		case T_SEMI:
		case T_NEWLINE:
			ps.t++;
			break;
		case T_END:
			return 0;
		default:
			return syntax_error(&ps);
		}
	}
}
