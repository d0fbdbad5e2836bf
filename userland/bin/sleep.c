/*
 * sleep - pause for a time.
 *   sleep NUMBER[SUFFIX]...  NUMBER may have a fraction (0.25); SUFFIX is
 *                            s (default), m, h or d; several are added up
 * Parsed by hand (not strtod) so "1.5" means the same in every locale and
 * the nanoseconds are exact. nanosleep is restarted with the remaining
 * time when a signal interrupts it.
 */
#include <err.h>
#include <errno.h>
#include <time.h>

/* Parse one argument into *ts; returns 0, or -1 if malformed. */
static int parse(const char *s, struct timespec *ts)
{
	long long sec = 0, nsec = 0, scale = 100000000, mult = 1;
	int digits = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > 100000000000LL)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++, scale /= 10)
			nsec += (*s - '0') * scale;
	if (!digits)
		return -1;
	switch (*s) {
	case '\0':
	case 's':
		break;
	case 'm':
		mult = 60;
		break;
	case 'h':
		mult = 3600;
		break;
	case 'd':
		mult = 86400;
		break;
	default:
		return -1;
	}
	if (*s && s[1])
		return -1;
	nsec *= mult;
	ts->tv_sec = (time_t)(sec * mult + nsec / 1000000000);
	ts->tv_nsec = (long)(nsec % 1000000000);
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec total = {0, 0}, one;
	int i;

	if (argc < 2)
		errx(1, "usage: sleep SECONDS[s|m|h|d]...");
	for (i = 1; i < argc; i++) {
		if (parse(argv[i], &one) < 0)
			errx(1, "invalid time interval '%s'", argv[i]);
		total.tv_sec += one.tv_sec;
		total.tv_nsec += one.tv_nsec;
		if (total.tv_nsec >= 1000000000) {
			total.tv_sec++;
			total.tv_nsec -= 1000000000;
		}
	}
	while (nanosleep(&total, &total) < 0)
		if (errno != EINTR)
			err(1, "nanosleep");
	return 0;
}
