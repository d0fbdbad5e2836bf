/*
 * modestr.h: "drwxr-sr-x" from a st_mode, as ls -l and stat print it
 * (header-only: each program is one file).
 */
#ifndef PAGELAB_MODESTR_H
#define PAGELAB_MODESTR_H

#include <sys/stat.h>

/* s must hold 11 bytes. */
static inline void mode_string(mode_t m, char *s)
{
	static const char types[] = "?pc?d?b?-?l?s???";
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = types[(m & S_IFMT) >> 12];
	for (i = 0; i < 9; i++)
		s[i + 1] = (m & (0400 >> i)) ? rwx[i] : '-';
	if (m & S_ISUID)
		s[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = (m & S_IXOTH) ? 't' : 'T';
	s[10] = '\0';
}

#endif
