/*
 * kernel/fault_inject_test.c: self-test "fault_inject": armed for the 2nd
 * read, the block layer fails exactly that one with -EIO, once, and the
 * disk reads fine before and after. Needs a disk (vda).
 */
#include <kernel/fault_inject.h>
#include <kernel/selftest.h>
#include <fs/blkdev.h>
#include <kernel/errno.h>
#include <mm/gfp.h>

static int test_fault_inject(void)
{
	struct block_device *bdev = blkdev_get_by_name("vda");
	unsigned long buf = get_zeroed_page(GFP_KERNEL), before;
	int r[3];

	if (!bdev || !buf) {
		free_page(buf);
		return selftest_fail("needs a disk (vda) and a page");
	}
	before = fail_block_read.injected;
	fail_block_read.countdown = 2;
	for (int i = 0; i < 3; i++)
		r[i] = bdev_rw_sync(bdev, REQ_OP_READ, i, (void *)buf, 512);
	free_page(buf);
	if (r[0] || r[1] != -EIO || r[2])
		return selftest_fail("reads gave %d %d %d, want 0 -EIO 0", r[0],
				     r[1], r[2]);
	if (fail_block_read.injected != before + 1 || fail_block_read.countdown)
		return selftest_fail("one injection expected, then disarmed");
	return 0;
}
DEFINE_SELFTEST(fault_inject, test_fault_inject);
