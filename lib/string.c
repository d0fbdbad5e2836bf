/*
 * lib/string.c: the memory and string routines the compiler and the kernel
 * expect. Byte loops, except memchr_inv (a word at a time) and
 * memset/memcpy, which use rep string instructions: the compiler emits
 * calls to them for struct copies, so they run often.
 * They move eight bytes at a time (rep stosq/movsq) and the last n % 8 by
 * bytes: page zeroing and page copies go through them, and under QEMU's
 * TCG every iteration of a rep instruction is executed (and, with -icount,
 * counted) on its own, so a byte loop costs eight times as much. Linux's
 * clear_page_rep/copy_page do the same on CPUs without fast rep movsb.
 */
#include <kernel/string.h>

void *memset(void *s, int c, size_t n)
{
	unsigned long v = 0x0101010101010101UL * (unsigned char)c;
	unsigned long q = n >> 3, r = n & 7;
	void *d = s;

	__asm__ volatile("rep stosq\n\t"
			 "movq %[r], %%rcx\n\t"
			 "rep stosb"
			 : "+D"(d), "+c"(q)
			 : "a"(v), [r] "r"(r)
			 : "memory");
	return s;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned long q = n >> 3, r = n & 7;
	void *d = dst;

	__asm__ volatile("rep movsq\n\t"
			 "movq %[r], %%rcx\n\t"
			 "rep movsb"
			 : "+D"(d), "+S"(src), "+c"(q)
			 : [r] "r"(r)
			 : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)	/* overlapping, destination above: copy backwards */
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

/*
 * The first byte of s[0..n) that is not c, or NULL: how the kmalloc
 * checker finds a written red zone or poison byte (mm/slab_debug.c). It
 * compares eight bytes at a time where it can, since it runs at every
 * kmalloc and kfree.
 */
void *memchr_inv(const void *s, int c, size_t n)
{
	const unsigned char *p = s, *end = p + n;
	const unsigned long v = 0x0101010101010101UL * (unsigned char)c;

	for (; p < end && ((unsigned long)p & 7); p++)
		if (*p != (unsigned char)c)
			return (void *)p;
	for (; end - p >= 8; p += 8)
		if (*(const unsigned long *)p != v)
			break;
	for (; p < end; p++)
		if (*p != (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

/* Copy at most size-1 bytes and always terminate; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* base 0 means: 0x prefix is hex, leading 0 is octal, else decimal. */
unsigned long simple_strtoul(const char *s, char **end, unsigned int base)
{
	unsigned long v = 0;

	if (base == 0) {
		base = 10;
		if (s[0] == '0') {
			base = 8;
			if (s[1] == 'x' || s[1] == 'X') {
				base = 16;
				s += 2;
			}
		}
	} else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	}
	for (; digit_value(*s) < (int)base; s++)
		v = v * base + digit_value(*s);
	if (end)
		*end = (char *)s;
	return v;
}

long simple_strtol(const char *s, char **end, unsigned int base)
{
	if (*s == '-')
		return -(long)simple_strtoul(s + 1, end, base);
	return simple_strtoul(s, end, base);
}
