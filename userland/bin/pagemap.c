/*
 * pagemap FILE [OFFSET LEN]: draw what the page cache holds of FILE, one
 * row per page, and in each row the page's blocks: which have a disk
 * block (a number), which are holes, which are dirty or new; "|EOF"
 * marks where i_size falls. With blocks smaller than a page, the page
 * that straddles EOF is the one to watch: its blocks past EOF are holes,
 * and a store through a mapping there has nowhere to go until
 * page_mkwrite gives it a block.
 *
 *   # pagemap /mnt/f
 *   /mnt/f: i_size 1124, 1024-byte blocks, 4 per page
 *   page  state      maps  blocks
 *      0  U D          1   [3073 UD] [3074 UD]|EOF [hole U] [hole U]
 *
 * A block can be on disk while its buffer does not say so: a write maps
 * only the buffers it covers, and a page read ahead has no buffers. The
 * kernel then asks the file system (->bmap) and such a block shows as
 * "[973 -]": on disk, not mapped by a buffer yet. "hole" is only a block
 * the file system has no disk block for.
 *
 * The numbers come from the PAGELAB_IOC_PAGEMAP ioctl (fs/pagemap.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <pagelab/pagemap.h>

#define PAGE 4096LL
#define CHUNK 64

static void page_state(const struct pagemap_page *p, char *out)
{
	sprintf(out, "%s%s%s%s", p->flags & PM_UPTODATE ? "U " : "",
		p->flags & PM_DIRTY ? "D " : "",
		p->flags & PM_WRITEBACK ? "W " : "",
		p->flags & PM_LOCKED ? "L " : "");
}

/* One block: its disk block or "hole", then U(ptodate) D(irty) N(ew)
 * L(ocked), and "-" for a block on disk that no buffer maps. */
static void print_block(const struct pagemap_page *p, unsigned int i)
{
	unsigned int f = p->buf_flags[i];

	if (f & (PMB_MAPPED | PMB_ON_DISK))
		printf(" [%llu ", p->block[i]);
	else
		printf(" [hole ");
	printf("%s%s%s%s%s]", f & PMB_UPTODATE ? "U" : "",
	       f & PMB_DIRTY ? "D" : "", f & PMB_NEW ? "N" : "",
	       f & PMB_LOCKED ? "L" : "", f & PMB_ON_DISK ? "-" : "");
}

static void print_page(const struct pagemap_page *p, long long i_size,
		       unsigned int blocksize)
{
	long long start = p->index * PAGE;
	char state[16];

	if (!(p->flags & PM_CACHED)) {
		printf("%6llu  not cached%s\n", p->index,
		       start < i_size && i_size < start + PAGE ?
		       "               (EOF inside)" : "");
		return;
	}
	page_state(p, state);
	printf("%6llu  %-10s %4d  ", p->index, state, p->mapcount);
	if (p->flags & PM_BMAP)
		printf(" (no buffers)");
	else if (!(p->flags & PM_BUFFERS))
		printf(" (no buffers: blocks not looked up yet)");
	for (unsigned int i = 0; i < p->nr_buffers; i++) {
		long long end = start + (long long)(i + 1) * blocksize;

		print_block(p, i);
		if (i_size > end - blocksize && i_size < end)
			printf("<EOF inside");
		else if (i_size == end && i_size % PAGE)
			printf("|EOF");
	}
	if (start >= i_size)
		printf("   past EOF");
	printf("\n");
}

int main(int argc, char **argv)
{
	struct pagemap_page pages[CHUNK];
	struct pagemap_request req;
	long long first, last, off = 0, len = -1;
	int fd;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: pagemap FILE [OFFSET LEN]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (argc == 4) {
		off = atoll(argv[2]);
		len = atoll(argv[3]);
	}
	memset(&req, 0, sizeof(req));
	req.pages = (unsigned long long)(unsigned long)pages;
	if (ioctl(fd, PAGELAB_IOC_PAGEMAP, &req) < 0) {
		perror("pagemap: PAGELAB_IOC_PAGEMAP (pagelab only)");
		return 1;
	}
	printf("%s: i_size %lld, %u-byte blocks, %lld per page\n", argv[1],
	       req.i_size, req.blocksize, PAGE / req.blocksize);
	printf("  page  state      maps  blocks\n");
	if (len < 0)
		len = req.i_size - off + PAGE;	/* and the page after EOF */
	first = off / PAGE;
	last = (off + len + PAGE - 1) / PAGE;
	while (first < last) {
		req.first = first;
		req.count = last - first < CHUNK ? last - first : CHUNK;
		if (ioctl(fd, PAGELAB_IOC_PAGEMAP, &req) < 0) {
			perror("pagemap");
			return 1;
		}
		for (unsigned int i = 0; i < req.count; i++)
			print_page(&pages[i], req.i_size, req.blocksize);
		first += req.count;
	}
	printf("state: U uptodate, D dirty, W writeback, L locked; maps: "
	       "PTEs mapping the page;\nblock: disk block number or hole, "
	       "U uptodate, D dirty, N new, L locked, - on disk but not "
	       "mapped by a buffer yet\n");
	return 0;
}
