/*
 * redir.c - apply a command's redirections to the file descriptors.
 *
 *   [N]<file  open for reading on N (default 0)
 *   [N]>file  create/truncate for writing on N (default 1); >| the same
 *   [N]>>file create/append on N (default 1)
 *   [N]<>file open read-write (created if missing) on N (default 0)
 *   [N]>&M [N]<&M  make N a copy of M;  [N]>&- close N
 * In a child about to exec, redirections are applied for good (save is
 * NULL). For a builtin run in the shell itself, each fd is first copied
 * to a close-on-exec descriptor >= 10 and put back by restore_redirs(),
 * so "pwd > f" does not redirect the shell forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

static int save_fd(int fd, struct saved_fd *save, int *nsave)
{
	int copy;

	if (!save)
		return 0;
	if (*nsave == MAX_SAVED) {
		sh_error("too many redirections");
		return -1;
	}
	copy = fcntl(fd, F_DUPFD, 10);
	if (copy < 0 && errno != EBADF) {
		sh_error("%d: %s", fd, strerror(errno));
		return -1;
	}
	if (copy >= 0)
		fcntl(copy, F_SETFD, FD_CLOEXEC);
	save[*nsave].fd = fd;
	save[*nsave].copy = copy;
	(*nsave)++;
	return 0;
}

/* Open (or find) the descriptor the redirection r wants; -1 on error,
 * -2 for "close it" (>&-). */
static int source_fd(struct redir *r, const char *target)
{
	static const int flags[] = {
	    [R_IN] = O_RDONLY,
	    [R_OUT] = O_WRONLY | O_CREAT | O_TRUNC,
	    [R_APPEND] = O_WRONLY | O_CREAT | O_APPEND,
	    [R_RDWR] = O_RDWR | O_CREAT,
	};
	char *end;
	long n;
	int fd;

	if (r->kind == R_DUPIN || r->kind == R_DUPOUT) {
		if (strcmp(target, "-") == 0)
			return -2;
		n = strtol(target, &end, 10);
		if (!*target || *end || n < 0 || n > 9999) {
			sh_error("%s: bad file descriptor", target);
			return -1;
		}
		return (int)n;
	}
	fd = open(target, flags[r->kind], 0666);
	if (fd < 0)
		sh_error("%s: %s", target, strerror(errno));
	return fd;
}

int apply_redirs(struct redir *r, struct saved_fd *save, int *nsave)
{
	for (; r; r = r->next) {
		int dup = r->kind == R_DUPIN || r->kind == R_DUPOUT;
		int fd = r->fd >= 0 ? r->fd
			 : (r->kind == R_IN || r->kind == R_RDWR ||
			    r->kind == R_DUPIN)
			     ? 0
			     : 1;
		char *target = expand_one(r->target);
		int src;

		if (!target)
			return -1;
		if (save_fd(fd, save, nsave) < 0)
			return -1;
		src = source_fd(r, target);
		if (src == -1)
			return -1;
		if (src == -2) {
			close(fd);
			continue;
		}
		if (src != fd && dup2(src, fd) < 0) {
			sh_error("%s: %s", target, strerror(errno));
			if (!dup)
				close(src);
			return -1;
		}
		if (src != fd && !dup)
			close(src);
	}
	return 0;
}

/* Undo in reverse order, so a fd redirected twice ends as it began. */
void restore_redirs(struct saved_fd *save, int nsave)
{
	while (nsave-- > 0) {
		if (save[nsave].copy >= 0) {
			dup2(save[nsave].copy, save[nsave].fd);
			close(save[nsave].copy);
		} else {
			close(save[nsave].fd);
		}
	}
}
