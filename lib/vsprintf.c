/*
 * lib/vsprintf.c: a small vsnprintf.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %% with flags '-', '0', '#'
 * (0x before a nonzero %x, 0 before %o), width, precision (strings), and the length modifiers l, ll, z. Two kernel
 * extensions from Linux: %pS prints a code address as symbol+off/size (used by
 * backtraces) and %ps as the bare symbol name.
 * Output is always NUL-terminated; the return value is the length the full
 * output would have had, as in C99.
 */
#include <kernel/printk.h>
#include <kernel/kallsyms.h>
#include <kernel/string.h>

struct outbuf {
	char *buf;
	size_t size, len;
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_str(struct outbuf *o, const char *s, size_t n, int width,
		    bool left)
{
	int pad = width > (int)n ? width - (int)n : 0;

	while (!left && pad-- > 0)
		put(o, ' ');
	while (n--)
		put(o, *s++);
	while (left && pad-- > 0)
		put(o, ' ');
}

struct numspec {
	int base, width;
	bool upper, zero, left, negative, alt;
};

static void put_num(struct outbuf *o, unsigned long v, struct numspec *ns)
{
	const char *digits = ns->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	/* '#': C's alternate form, which leaves zero alone */
	const char *prefix = !ns->alt || !v ? "" :
			     ns->base == 16 ? (ns->upper ? "0X" : "0x") :
			     ns->base == 8 ? "0" : "";
	char tmp[24];
	int n = 0, pad;

	do {
		tmp[n++] = digits[v % ns->base];
		v /= ns->base;
	} while (v);
	pad = ns->width - n - ns->negative - (int)strlen(prefix);
	if (!ns->left && !ns->zero)
		while (pad-- > 0)
			put(o, ' ');
	if (ns->negative)
		put(o, '-');
	while (*prefix)
		put(o, *prefix++);
	if (!ns->left && ns->zero)
		while (pad-- > 0)
			put(o, '0');
	while (n)
		put(o, tmp[--n]);
	if (ns->left)
		while (pad-- > 0)
			put(o, ' ');
}

static void put_symbol(struct outbuf *o, unsigned long addr, bool offset)
{
	char tmp[KSYM_NAME_LEN + 48];

	if (offset)
		sprint_symbol(tmp, sizeof(tmp), addr);
	else
		sprint_symbol_name(tmp, sizeof(tmp), addr);
	put_str(o, tmp, strlen(tmp), 0, false);
}

/* Handle one %p conversion; *fmt points just past the 'p'. */
static const char *put_pointer(struct outbuf *o, const char *fmt, void *p)
{
	struct numspec ns = { .base = 16, .width = 16, .zero = true };

	if (*fmt == 'S' || *fmt == 's') {
		put_symbol(o, (unsigned long)p, *fmt == 'S');
		return fmt + 1;
	}
	put(o, '0');
	put(o, 'x');
	put_num(o, (unsigned long)p, &ns);
	return fmt;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		struct numspec ns = { .base = 10 };
		int lng = 0, prec = -1;
		unsigned long v;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (fmt++;; fmt++) {
			if (*fmt == '-')
				ns.left = true;
			else if (*fmt == '0')
				ns.zero = true;
			else if (*fmt == '#')
				ns.alt = true;
			else
				break;
		}
		if (*fmt == '*') {
			ns.width = va_arg(ap, int);
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			ns.width = ns.width * 10 + (*fmt++ - '0');
		if (*fmt == '.') {
			prec = 0;
			if (*++fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + (*fmt++ - '0');
		}
		while (*fmt == 'l' || *fmt == 'z' || *fmt == 'h') {
			if (*fmt != 'h')
				lng = 1;
			fmt++;
		}
		switch (*fmt) {
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			put_str(&o, s, prec < 0 ? strlen(s) : strnlen(s, prec),
				ns.width, ns.left);
			break;
		}
		case 'p':
			fmt = put_pointer(&o, fmt + 1, va_arg(ap, void *)) - 1;
			break;
		case 'd':
		case 'i': {
			long s = lng ? va_arg(ap, long) : va_arg(ap, int);

			ns.negative = s < 0;
			put_num(&o, ns.negative ? -(unsigned long)s : (unsigned long)s,
				&ns);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			v = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
			ns.base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
			ns.upper = *fmt == 'X';
			put_num(&o, v, &ns);
			break;
		case '%':
			put(&o, '%');
			break;
		default:	/* unknown conversion: show it, don't guess */
			put(&o, '%');
			put(&o, *fmt);
			if (!*fmt)
				fmt--;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
