/*
 * sh.h - the pagelab shell's shared types and functions.
 *
 * The shell reads a complete command (one line, more if a quote or an
 * operator is left open), turns it into tokens (lex.c), parses the
 * tokens into a tree (parse.c), and runs the tree (exec.c), expanding
 * each word just before it is used (expand.c) so that "A=1; echo $A"
 * sees the new A. Redirections are in redir.c, builtins in builtin.c,
 * the input loop and the options in main.c, small helpers in util.c.
 *
 * Memory: everything built for one command (tokens, tree, expanded
 * words) comes from an arena freed after the command has run. What must
 * outlive a command (variables: the environment; positional
 * parameters) is malloc'd or static.
 */
#ifndef SH_H
#define SH_H

#include <stddef.h>
#include <sys/types.h>

/* ---- util.c ---- */
void *sh_alloc(size_t n); /* arena: zeroed, freed by arena_reset */
char *sh_strndup(const char *s, size_t n);
char *sh_strdup(const char *s);
void arena_reset(void);
void sh_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sh_print(int fd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A growable string on malloc (input lines survive arena resets). */
struct strbuf {
	char *s;
	size_t len, cap;
};
void sb_addc(struct strbuf *sb, char c);
void sb_adds(struct strbuf *sb, const char *s, size_t n);

/* ---- shell state (main.c) ---- */
extern int last_status; /* $? */
extern int interactive; /* prompts, ignores SIGINT */
extern pid_t sh_pid; /* $$ */
extern pid_t last_bg_pid; /* $! */
extern const char *sh_name; /* $0 */
extern int posc; /* $# */
extern char **posv; /* $1 ... */
int sh_run_file(const char *path, char **argv); /* in a child: never returns */

/* ---- lex.c ---- */
enum tok_type {
	T_WORD,
	T_NEWLINE,
	T_SEMI,
	T_AMP,
	T_PIPE,
	T_AND,
	T_OR,
	T_REDIR,
	T_LPAREN,
	T_RPAREN,
	T_END,
};
enum redir_kind { R_IN, R_OUT, R_APPEND, R_RDWR, R_DUPIN, R_DUPOUT };

struct token {
	enum tok_type type;
	char *text; /* T_WORD: raw text, quotes and all */
	int fd; /* T_REDIR: the N in N>, or -1 */
	enum redir_kind redir; /* T_REDIR */
};

#define SH_MORE (-2) /* input ends inside a construct: read more */
int lex(const char *src, struct token **toks, int *ntok);
const char *skip_squote(const char *p); /* p at ' ; returns past the ' */
const char *skip_dquote(const char *p); /* p at " ; returns past the " */
const char *skip_brace(const char *p); /* p at { ; returns past the } */
const char *tok_name(const struct token *t);

/* ---- parse.c ---- */
struct redir {
	int fd; /* -1: the default for the kind */
	enum redir_kind kind;
	char *target; /* raw word */
	struct redir *next;
};

struct command {
	char **words; /* raw words, assignments first */
	int nwords;
	struct redir *redirs;
};

struct pipeline {
	struct command *cmds;
	int ncmds;
	int bang; /* "! pipeline": invert the status */
};

struct andor {
	struct pipeline *pipes;
	enum tok_type *ops; /* ops[i] joins pipes[i] and pipes[i+1] */
	int npipes;
	int background; /* ended by & */
};

struct list {
	struct andor *items;
	int n;
};

int parse(struct token *toks, int ntok, struct list *out);

/* ---- expand.c ---- */
struct fields {
	char **v;
	int n, cap;
};
#define EXP_NOSPLIT 1 /* one field: no field splitting, no glob */
int expand_word(const char *raw, int flags, struct fields *out);
char *expand_one(const char *raw); /* NULL on a bad substitution */
void fields_add(struct fields *f, char *s);
int is_assignment(const char *word);

/* ---- redir.c ---- */
struct saved_fd {
	int fd;
	int copy; /* -1: fd was closed before */
};
#define MAX_SAVED 16
int apply_redirs(struct redir *r, struct saved_fd *save, int *nsave);
void restore_redirs(struct saved_fd *save, int nsave);

/* ---- exec.c ---- */
int run_list(struct list *l);
int wait_child(pid_t pid);
void child_reset_signals(void);
void exec_external(char **argv) __attribute__((noreturn));

/* ---- builtin.c ---- */
typedef int (*builtin_fn)(int argc, char **argv);
builtin_fn find_builtin(const char *name);

#endif /* SH_H */
