/*
 * fs/initramfs.c: unpack a cpio "newc" archive into the root file system.
 *
 * The format (Linux's Documentation/driver-api/early-userspace): each
 * entry is a 110-byte ASCII header ("070701", then 13 eight-digit hex
 * fields), the NUL-terminated name, padding to 4 bytes, the data, padding
 * to 4 bytes. The entry named "TRAILER!!!" ends an archive; archives may
 * follow one another, with NUL padding between them.
 *
 * Every entry goes through the ordinary kernel-path calls (do_mkdirat,
 * filp_open + kernel_write, do_symlinkat, do_mknodat), then gets its
 * owner, mode and mtime, as Linux's init/initramfs.c does. A hard link
 * (nlink > 1, an inode number already seen) becomes a link to the first
 * name. Directory mtimes are set last, once nothing more is created in
 * them. The archive is untrusted input: every length is checked against
 * the buffer, and a malformed archive is reported ("initramfs: ...") and
 * abandoned where the damage starts, never followed past its end.
 */
#include <fs/initramfs.h>
#include <fs/file.h>
#include <fs/namei.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>

#define CPIO_HDR_LEN 110

struct cpio_header {
	unsigned long ino, mode, uid, gid, nlink, mtime, filesize;
	unsigned long devmajor, devminor, rdevmajor, rdevminor, namesize;
	unsigned long check;
};

/* Names seen for linked inodes, and directories whose mtime waits. */
struct cpio_note {
	struct cpio_note *next;
	unsigned long ino, major, minor, mtime;
	char name[];
};

struct unpack_state {
	struct cpio_note *links, *dirs;
	unsigned long entries, errors;
};

static int parse_hex8(const char *p, unsigned long *v)
{
	*v = 0;
	for (int i = 0; i < 8; i++) {
		char c = p[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		*v = *v * 16 + d;
	}
	return 0;
}

static int parse_header(const char *p, struct cpio_header *h)
{
	unsigned long *fields = &h->ino;

	if (memcmp(p, "070701", 6) && memcmp(p, "070702", 6))
		return -EINVAL;
	for (int i = 0; i < 13; i++)
		if (parse_hex8(p + 6 + 8 * i, &fields[i]))
			return -EINVAL;
	return 0;
}

static struct cpio_note *note(struct cpio_note **list, const char *name,
			      const struct cpio_header *h)
{
	size_t len = strlen(name);
	struct cpio_note *n = kmalloc(sizeof(*n) + len + 1, GFP_KERNEL);

	if (!n)
		return NULL;
	n->ino = h->ino;
	n->major = h->devmajor;
	n->minor = h->devminor;
	n->mtime = h->mtime;
	memcpy(n->name, name, len + 1);
	n->next = *list;
	*list = n;
	return n;
}

static void free_notes(struct cpio_note *n)
{
	while (n) {
		struct cpio_note *next = n->next;

		kfree(n);
		n = next;
	}
}

static void set_mtime(const char *path, unsigned long mtime)
{
	struct timespec64 t[2] = { { mtime, 0 }, { mtime, 0 } };

	do_utimes(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW);
}

/* A regular file: create (or link, for a known inode) and fill it. */
static int unpack_file(struct unpack_state *s, const char *path,
		       const struct cpio_header *h, const void *body)
{
	int flags = O_WRONLY | O_CREAT | O_TRUNC;
	struct file *file;
	loff_t pos = 0;
	ssize_t n;

	if (h->nlink >= 2) {
		struct cpio_note *l;

		for (l = s->links; l; l = l->next)
			if (l->ino == h->ino && l->major == h->devmajor &&
			    l->minor == h->devminor)
				break;
		if (l) {
			long err = do_linkat(AT_FDCWD, l->name, AT_FDCWD, path,
					     0);

			if (err)
				return err;
			flags &= ~O_TRUNC;	/* the data may come with us */
		} else if (!note(&s->links, path, h)) {
			return -ENOMEM;
		}
	}
	file = filp_open(path, flags, h->mode & 07777);
	if (IS_ERR(file))
		return PTR_ERR(file);
	n = h->filesize ? kernel_write(file, body, h->filesize, &pos) : 0;
	fput(file);
	if (n < 0)
		return n;
	return (unsigned long)n == h->filesize ? 0 : -ENOSPC;
}

static int unpack_symlink(const char *path, const struct cpio_header *h,
			  const char *body)
{
	char *target;
	long err;

	if (h->filesize == 0 || h->filesize >= PATH_MAX)
		return -EINVAL;
	target = kmalloc(h->filesize + 1, GFP_KERNEL);
	if (!target)
		return -ENOMEM;
	memcpy(target, body, h->filesize);
	target[h->filesize] = '\0';
	err = do_symlinkat(target, AT_FDCWD, path);
	kfree(target);
	return err;
}

/* Create one entry at path (absolute), then give it owner, mode, mtime. */
static int unpack_entry(struct unpack_state *s, const char *path,
			const struct cpio_header *h, const void *body)
{
	umode_t mode = h->mode;
	long err;

	if (!S_ISDIR(mode))
		do_unlinkat(AT_FDCWD, path);	/* replace, as Linux does */
	switch (mode & S_IFMT) {
	case S_IFDIR:
		err = do_mkdirat(AT_FDCWD, path, mode & 07777);
		if (err == -EEXIST)
			err = 0;
		if (!err && !note(&s->dirs, path, h))
			err = -ENOMEM;
		break;
	case S_IFREG:
		err = unpack_file(s, path, h, body);
		break;
	case S_IFLNK:
		err = unpack_symlink(path, h, body);
		break;
	case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		err = do_mknodat(AT_FDCWD, path, mode,
				 new_encode_dev(MKDEV(h->rdevmajor,
						      h->rdevminor)));
		break;
	default:
		err = -EINVAL;
	}
	if (err)
		return err;
	do_fchownat(AT_FDCWD, path, h->uid, h->gid, AT_SYMLINK_NOFOLLOW);
	if (!S_ISLNK(mode))
		do_fchmodat(AT_FDCWD, path, mode & 07777);
	if (!S_ISDIR(mode))
		set_mtime(path, h->mtime);
	return 0;
}

/* "./a/b", "a/b" and "/a/b" all mean /a/b; "." is the root itself. */
static int make_path(char *buf, const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (*name == '/')
		name++;
	if (!strcmp(name, "."))
		name = "";
	if (strlen(name) + 2 > PATH_MAX)
		return -ENAMETOOLONG;
	buf[0] = '/';
	strlcpy(buf + 1, name, PATH_MAX - 1);
	return 0;
}

static int corrupt(const char *why, unsigned long off)
{
	pr_err("initramfs: %s at offset %lu; unpacking stopped\n", why, off);
	return -EINVAL;
}

/* One entry at off; moves off past it. 1 at a trailer, 0, or -EINVAL. */
static int next_entry(struct unpack_state *s, const char *data, size_t len,
		      size_t *off, char *path)
{
	struct cpio_header h;
	size_t name_off = *off + CPIO_HDR_LEN, data_off;
	const char *name;
	int err;

	if (len - *off >= 2 && data[*off] == 0x1f &&
	    (unsigned char)data[*off + 1] == 0x8b)
		return corrupt("gzip-compressed archive (not supported)", *off);
	if (len - *off < CPIO_HDR_LEN)
		return corrupt("truncated header", *off);
	if (parse_header(data + *off, &h))
		return corrupt("bad header", *off);
	if (h.namesize == 0 || h.namesize > PATH_MAX)
		return corrupt("bad name size", *off);
	if (len - name_off < h.namesize)
		return corrupt("truncated name", *off);
	name = data + name_off;
	if (name[h.namesize - 1] != '\0' || strlen(name) != h.namesize - 1)
		return corrupt("name not terminated", *off);
	data_off = ALIGN(name_off + h.namesize, 4);
	if (data_off > len || len - data_off < h.filesize)
		return corrupt("truncated data", *off);
	*off = ALIGN(data_off + h.filesize, 4);
	if (!strcmp(name, "TRAILER!!!"))
		return 1;
	err = make_path(path, name);
	if (!err)
		err = unpack_entry(s, path, &h, data + data_off);
	if (err) {
		pr_warn("initramfs: %s: error %d\n", name, err);
		s->errors++;
	}
	s->entries++;
	return 0;
}

int populate_rootfs(const void *buf, size_t len)
{
	const char *data = buf;
	struct unpack_state s = { NULL, NULL, 0, 0 };
	bool trailer = false;
	size_t off = 0;
	int err = 0;
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);

	if (!path)
		return -ENOMEM;
	for (;;) {
		while (off < len && !data[off])
			off++;	/* padding between archives */
		if (off >= len)
			break;
		err = next_entry(&s, data, len, &off, path);
		if (err < 0)
			break;
		trailer = err == 1;
		err = 0;
	}
	if (!err && !trailer)
		err = corrupt("no TRAILER!!! (archive cut short?)", off);
	/* Now that the directories are full, give them their mtimes. */
	for (struct cpio_note *d = s.dirs; d; d = d->next)
		set_mtime(d->name, d->mtime);
	free_notes(s.links);
	free_notes(s.dirs);
	kfree(path);
	pr_info("initramfs: unpacked %lu entries (%lu failed) from %lu bytes\n",
		s.entries, s.errors, (unsigned long)len);
	return err;
}
