/*
 * md5sum - print MD5 (RFC 1321) checksums, as coreutils md5sum.
 *   md5sum [FILE]...     "-" or no FILE: standard input
 * Output: 32 hex digits, two spaces, the name. A weak hash, but the
 * common way to show two files hold the same bytes (e.g. after a
 * remount or a drop_caches).
 *
 * The algorithm: pad the message to 56 mod 64 bytes with 0x80 then
 * zeros, append the bit length (little endian), and run each 64-byte
 * block through four rounds of sixteen steps on the state a, b, c, d.
 */
#include <err.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct md5 {
	uint32_t s[4];
	uint64_t len; /* bytes so far */
	unsigned char block[64];
	size_t used;
};

static const uint32_t K[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
    0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
    0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const unsigned char R[4][4] = {
    {7, 12, 17, 22},
    {5, 9, 14, 20},
    {4, 11, 16, 23},
    {6, 10, 15, 21},
};

static void md5_block(struct md5 *m, const unsigned char *p)
{
	uint32_t w[16], a = m->s[0], b = m->s[1], c = m->s[2], d = m->s[3];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[i * 4] | (uint32_t)p[i * 4 + 1] << 8 |
		       (uint32_t)p[i * 4 + 2] << 16 |
		       (uint32_t)p[i * 4 + 3] << 24;
	for (i = 0; i < 64; i++) {
		uint32_t f, t;
		int g, round = i / 16;

		switch (round) {
		case 0:
			f = (b & c) | (~b & d);
			g = i;
			break;
		case 1:
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
			break;
		case 2:
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
			break;
		default:
			f = c ^ (b | ~d);
			g = (7 * i) % 16;
			break;
		}
		t = a + f + K[i] + w[g];
		a = d;
		d = c;
		c = b;
		b += (t << R[round][i % 4]) | (t >> (32 - R[round][i % 4]));
	}
	m->s[0] += a;
	m->s[1] += b;
	m->s[2] += c;
	m->s[3] += d;
}

static void md5_init(struct md5 *m)
{
	static const uint32_t iv[4] = {
	    0x67452301,
	    0xefcdab89,
	    0x98badcfe,
	    0x10325476,
	};

	memcpy(m->s, iv, sizeof(iv));
	m->len = 0;
	m->used = 0;
}

static void md5_update(struct md5 *m, const unsigned char *p, size_t n)
{
	m->len += n;
	while (n > 0) {
		size_t k = 64 - m->used < n ? 64 - m->used : n;

		memcpy(m->block + m->used, p, k);
		m->used += k;
		p += k;
		n -= k;
		if (m->used == 64) {
			md5_block(m, m->block);
			m->used = 0;
		}
	}
}

static void md5_final(struct md5 *m, unsigned char out[16])
{
	uint64_t bits = m->len * 8;
	unsigned char pad = 0x80, len[8];
	int i;

	md5_update(m, &pad, 1);
	pad = 0;
	while (m->used != 56)
		md5_update(m, &pad, 1);
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (8 * i));
	md5_update(m, len, 8);
	for (i = 0; i < 16; i++)
		out[i] = (unsigned char)(m->s[i / 4] >> (8 * (i % 4)));
}

static int sum_file(const char *name)
{
	static unsigned char buf[65536];
	unsigned char digest[16];
	struct md5 m;
	ssize_t n;
	int fd = strcmp(name, "-") ? open(name, O_RDONLY) : 0, i;

	if (fd < 0) {
		warn("%s", name);
		return 1;
	}
	md5_init(&m);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		md5_update(&m, buf, (size_t)n);
	if (fd != 0)
		close(fd);
	if (n < 0) {
		warn("%s", name);
		return 1;
	}
	md5_final(&m, digest);
	for (i = 0; i < 16; i++)
		printf("%02x", digest[i]);
	printf("  %s\n", name);
	return 0;
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
		fprintf(stderr, "usage: md5sum [FILE]...\n");
		return 1;
	}
	if (argc == 1)
		return sum_file("-");
	for (i = 1; i < argc; i++)
		status |= sum_file(argv[i]);
	return status;
}
