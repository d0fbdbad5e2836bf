/*
 * fs/ext2/super.c: mounting an ext2 file system (Linux's fs/ext2/super.c).
 *
 * mount(2) -> ext2_mount: find the block device, then ext2_fill_super
 * reads the superblock and the group descriptor table and checks
 * everything later code relies on (block size, group geometry, features,
 * descriptors pointing inside their group), so that a damaged or foreign
 * image is refused with one log line instead of crashing the kernel later.
 * The superblock and descriptor buffers stay pinned while mounted: the
 * free counts in them are updated in place (balloc.c, ialloc.c) and are
 * exact at all times. sync_fs writes them, put_super marks the file system
 * clean again, statfs reports them (super_ops.c).
 *
 * Below: the buffer cache (sb_bread) and the block device; above: the VFS
 * (fs/super.c, fs/namespace.c).
 */
#include "ext2.h"
#include <fs/dcache.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <mm/slab.h>
#include <mm/writeback.h>

void ext2_error(struct super_block *sb, const char *function,
		const char *fmt, ...)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("ext2: %s: error: %s: %s\n", sbi->s_id, function, msg);
	if (!sb_rdonly(sb)) {
		sbi->s_es->s_state |= EXT2_ERROR_FS;
		ext2_sb_dirty(sb);
	}
}

/*
 * The wall clock comes from the RTC (arch/x86/kernel/rtc.c); a machine
 * whose RTC says nonsense counts from 1970 instead. Harmless in a
 * timestamp, but not in i_dtime: e2fsck takes a deleted inode's dtime
 * below s_inodes_count for a link in the ext3 orphan list and complains.
 * So a clock behind what the disk has already seen gives way to the
 * latest time the disk recorded (or at least s_inodes_count).
 */
u32 ext2_dtime(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 now = current_time(sb->s_root->d_inode).tv_sec;

	if (now >= sbi->s_inodes_count && now >= sbi->s_time_floor)
		return now;
	return max(sbi->s_time_floor, (u32)sbi->s_inodes_count);
}

void ext2_sb_dirty(struct super_block *sb)
{
	mark_buffer_dirty(EXT2_SB(sb)->s_sbh);
}

struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb,
					    unsigned long group,
					    struct buffer_head **bh)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long block = group / sbi->s_desc_per_block;
	unsigned long offset = group % sbi->s_desc_per_block;

	if (group >= sbi->s_groups_count)
		return NULL;
	if (bh)
		*bh = sbi->s_group_desc[block];
	return (struct ext2_group_desc *)sbi->s_group_desc[block]->b_data +
	       offset;
}

static bool is_power_of(unsigned long n, unsigned long base)
{
	while (n > 1 && n % base == 0)
		n /= base;
	return n == 1;
}

/* sparse_super keeps backups only in groups 0, 1 and powers of 3, 5, 7. */
bool ext2_group_has_super(struct super_block *sb, unsigned long group)
{
	if (group <= 1 ||
	    !ext2_has_ro_compat(sb, EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	if (!(group & 1))
		return false;
	return is_power_of(group, 3) || is_power_of(group, 5) ||
	       is_power_of(group, 7);
}

/* Blocks at the start of a group taken by its superblock copy and GDT. */
unsigned long ext2_group_sb_blocks(struct super_block *sb,
				     unsigned long group)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!ext2_group_has_super(sb, group))
		return 0;
	return 1 + sbi->s_gdb_count + sbi->s_es->s_reserved_gdt_blocks;
}

bool ext2_data_block_valid(struct super_block *sb, unsigned long block,
			   unsigned long count)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long end = block + count, group, first;
	struct ext2_group_desc *gdp;

	if (block < sbi->s_first_data_block || end > sbi->s_blocks_count ||
	    end <= block)
		return false;
	group = (block - sbi->s_first_data_block) / sbi->s_blocks_per_group;
	first = ext2_group_first_block(sbi, group);
	/* A run never spans groups (allocation stays inside one). */
	if (end > first + sbi->s_blocks_per_group)
		return false;
	gdp = ext2_get_group_desc(sb, group, NULL);
#define OVERLAPS(s, n) ((s) < end && block < (s) + (n))
	return !OVERLAPS(first, ext2_group_sb_blocks(sb, group)) &&
	       !OVERLAPS(gdp->bg_block_bitmap, 1) &&
	       !OVERLAPS(gdp->bg_inode_bitmap, 1) &&
	       !OVERLAPS(gdp->bg_inode_table, sbi->s_itb_per_group);
#undef OVERLAPS
}

/* ---- options, going read-write, letting go -------------------------------------- */

/* -o truncate=old|new; 0 or -EINVAL (with a log line). */
int ext2_parse_options(struct super_block *sb, const char *data,
			 int *truncate)
{
	const char *o = data;

	while (o && *o) {
		size_t len = strchr(o, ',') ? (size_t)(strchr(o, ',') - o)
					     : strlen(o);

		if (len == 12 && !strncmp(o, "truncate=new", 12))
			*truncate = EXT2_TRUNCATE_NEW;
		else if (len == 12 && !strncmp(o, "truncate=old", 12))
			*truncate = EXT2_TRUNCATE_OLD;
		else if (len) {
			pr_err("ext2: %s: unknown mount option \"%.*s\"\n",
			       EXT2_SB(sb)->s_id, (int)len, o);
			return -EINVAL;
		}
		o += len + (o[len] == ',');
	}
	return 0;
}

/* Going read-write: refuse what we could not write, mark it in use. */
int ext2_setup_rw(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;
	u32 bad = es->s_feature_ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP;

	if (es->s_rev_level > EXT2_GOOD_OLD_REV && bad) {
		pr_err("ext2: %s: unsupported features (0x%x), mount refused\n",
		       sbi->s_id, bad);
		return -EINVAL;
	}
	if (es->s_state & EXT2_ERROR_FS)
		pr_warn("ext2: %s: has errors, running e2fsck is recommended\n",
			sbi->s_id);
	else if (!(es->s_state & EXT2_VALID_FS))
		pr_warn("ext2: %s: was not cleanly unmounted, running e2fsck "
			"is recommended\n", sbi->s_id);
	/* In use: not clean until put_super says so. */
	es->s_state &= ~EXT2_VALID_FS;
	es->s_mnt_count++;
	es->s_mtime = ext2_now(sb);
	ext2_sb_dirty(sb);
	return sync_dirty_buffer(sbi->s_sbh);
}

void ext2_release_sbi(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	for (unsigned long i = 0; sbi->s_group_desc && i < sbi->s_gdb_count;
	     i++)
		brelse(sbi->s_group_desc[i]);
	kfree(sbi->s_group_desc);
	brelse(sbi->s_sbh);
	invalidate_bdev(sb->s_bdev);
	kfree(sbi);
	sb->s_fs_info = NULL;
}

int ext2_show_options(struct seq_file *m, struct super_block *sb)
{
	seq_printf(m, ",truncate=%s",
		   EXT2_SB(sb)->s_truncate == EXT2_TRUNCATE_OLD ? "old" : "new");
	return 0;
}

/* ---- mount ------------------------------------------------------------------ */

/* The largest file the block map and i_blocks (32 bits of 512-byte
 * sectors) can describe; 2 GiB - 1 where i_size_high cannot be used. */
static loff_t ext2_max_size(struct super_block *sb)
{
	unsigned int bits = sb->s_blocksize_bits;
	u64 p = 1ULL << (bits - 2);	/* block numbers per block */
	u64 map = EXT2_NDIR_BLOCKS + p + p * p + p * p * p;
	/* i_blocks counts 512-byte sectors in 32 bits: in blocks, */
	u64 upper = ((1ULL << 32) - 1) >> (bits - 9), rest, meta = 1;

	if (EXT2_SB(sb)->s_es->s_rev_level == EXT2_GOOD_OLD_REV)
		return 0x7fffffff;
	/* The whole block map fits in i_blocks, indirect blocks included:
	 * the map is the limit (1 KiB and 2 KiB blocks). */
	if (map + 1 + (1 + p) + (1 + p + p * p) <= upper)
		return min(map << bits, (u64)MAX_LFS_FILESIZE);
	/* Otherwise i_blocks is: take from `upper` the indirect blocks a
	 * file that big needs (single: 1; double: 1 + one per p blocks;
	 * triple: 1 + p + 1 per p and per p*p blocks), as Linux counts. */
	rest = upper - EXT2_NDIR_BLOCKS - p;
	if (rest < p * p) {
		meta += 1 + DIV_ROUND_UP(rest, p);
	} else {
		rest -= p * p;
		meta += (1 + p) + 1 + DIV_ROUND_UP(rest, p) +
			DIV_ROUND_UP(rest, p * p);
	}
	return min((upper - meta) << bits, (u64)MAX_LFS_FILESIZE);
}

#define REFUSE(fmt, ...)                                                   \
	({                                                                 \
		if (!silent)                                               \
			pr_err("ext2: %s: " fmt ", mount refused\n",       \
			       sbi->s_id, ##__VA_ARGS__);                  \
		-EINVAL;                                                   \
	})

/* The superblock's own fields: everything else is computed from them. */
static int check_super(struct super_block *sb, struct ext2_super_block *es,
		       u64 disk_bytes, int silent)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long bs, bad;

	if (es->s_magic != EXT2_SUPER_MAGIC)
		return REFUSE("no ext2 file system (magic 0x%x)", es->s_magic);
	if (es->s_log_block_size > PAGE_SHIFT - EXT2_MIN_BLOCK_LOG_SIZE)
		return REFUSE("bad block size (log %u)", es->s_log_block_size);
	bs = EXT2_MIN_BLOCK_SIZE << es->s_log_block_size;
	if (es->s_log_frag_size != es->s_log_block_size)
		return REFUSE("fragment size differs from block size");
	if (es->s_rev_level > EXT2_DYNAMIC_REV)
		return REFUSE("revision %u is too new", es->s_rev_level);
	bad = es->s_rev_level ? es->s_feature_incompat &
					~EXT2_FEATURE_INCOMPAT_SUPP : 0;
	if (bad) {
		if (!silent)
			pr_err("ext2: %s: unsupported features (0x%lx), mount "
			       "refused\n", sbi->s_id, bad);
		return -EINVAL;
	}
	sbi->s_inode_size = es->s_rev_level ? es->s_inode_size
					    : EXT2_GOOD_OLD_INODE_SIZE;
	sbi->s_first_ino = es->s_rev_level ? es->s_first_ino
					   : EXT2_GOOD_OLD_FIRST_INO;
	if (sbi->s_inode_size < EXT2_GOOD_OLD_INODE_SIZE ||
	    sbi->s_inode_size > bs ||
	    (sbi->s_inode_size & (sbi->s_inode_size - 1)))
		return REFUSE("bad inode size %u", sbi->s_inode_size);
	sbi->s_blocks_per_group = es->s_blocks_per_group;
	sbi->s_inodes_per_group = es->s_inodes_per_group;
	sbi->s_blocks_count = es->s_blocks_count;
	sbi->s_inodes_count = es->s_inodes_count;
	sbi->s_first_data_block = es->s_first_data_block;
	if (!sbi->s_blocks_per_group || sbi->s_blocks_per_group > bs * 8 ||
	    es->s_frags_per_group != sbi->s_blocks_per_group)
		return REFUSE("bad blocks per group (%lu)",
			      sbi->s_blocks_per_group);
	sbi->s_inodes_per_block = bs / sbi->s_inode_size;
	if (!sbi->s_inodes_per_group || sbi->s_inodes_per_group > bs * 8 ||
	    sbi->s_inodes_per_group % sbi->s_inodes_per_block)
		return REFUSE("bad inodes per group (%lu)",
			      sbi->s_inodes_per_group);
	if (sbi->s_first_data_block != (bs == 1024 ? 1 : 0) ||
	    sbi->s_blocks_count <= sbi->s_first_data_block)
		return REFUSE("bad first data block %lu or block count %lu",
			      sbi->s_first_data_block, sbi->s_blocks_count);
	if ((u64)sbi->s_blocks_count * bs > disk_bytes)
		return REFUSE("%lu blocks do not fit on the device (%lu KiB)",
			      sbi->s_blocks_count, (unsigned long)(disk_bytes >> 10));
	sbi->s_groups_count = (sbi->s_blocks_count - sbi->s_first_data_block +
			       sbi->s_blocks_per_group - 1) /
			      sbi->s_blocks_per_group;
	if ((u64)sbi->s_groups_count * sbi->s_inodes_per_group !=
	    sbi->s_inodes_count)
		return REFUSE("inode count %lu is not %lu groups of %lu",
			      sbi->s_inodes_count, sbi->s_groups_count,
			      sbi->s_inodes_per_group);
	if (sbi->s_first_ino <= EXT2_ROOT_INO ||
	    sbi->s_first_ino >= sbi->s_inodes_count)
		return REFUSE("bad first inode %u", sbi->s_first_ino);
	sbi->s_desc_per_block = bs / sizeof(struct ext2_group_desc);
	sbi->s_gdb_count = (sbi->s_groups_count + sbi->s_desc_per_block - 1) /
			   sbi->s_desc_per_block;
	sbi->s_itb_per_group = sbi->s_inodes_per_group /
			       sbi->s_inodes_per_block;
	sbi->s_addr_per_block_bits = es->s_log_block_size + 8;
	if (sbi->s_first_data_block + 1 + sbi->s_gdb_count >
	    sbi->s_blocks_count)
		return REFUSE("group descriptors beyond the end of the disk");
	return 0;
}

/* Every descriptor points inside its own group; counts within bounds. */
static int check_descriptors(struct super_block *sb, int silent)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u64 free_blocks = 0, free_inodes = 0;

	for (unsigned long g = 0; g < sbi->s_groups_count; g++) {
		struct ext2_group_desc *gdp = ext2_get_group_desc(sb, g, NULL);
		unsigned long first = ext2_group_first_block(sbi, g);
		unsigned long last = min(first + sbi->s_blocks_per_group,
					 sbi->s_blocks_count) - 1;

		if (gdp->bg_block_bitmap < first ||
		    gdp->bg_block_bitmap > last)
			return REFUSE("group %lu: block bitmap %u outside the "
				      "group", g, gdp->bg_block_bitmap);
		if (gdp->bg_inode_bitmap < first ||
		    gdp->bg_inode_bitmap > last)
			return REFUSE("group %lu: inode bitmap %u outside the "
				      "group", g, gdp->bg_inode_bitmap);
		if (gdp->bg_inode_table < first ||
		    gdp->bg_inode_table + sbi->s_itb_per_group - 1 > last)
			return REFUSE("group %lu: inode table %u outside the "
				      "group", g, gdp->bg_inode_table);
		if (gdp->bg_free_blocks_count > last - first + 1 ||
		    gdp->bg_free_inodes_count > sbi->s_inodes_per_group ||
		    gdp->bg_used_dirs_count > sbi->s_inodes_per_group)
			return REFUSE("group %lu: impossible counts", g);
		free_blocks += gdp->bg_free_blocks_count;
		free_inodes += gdp->bg_free_inodes_count;
	}
	/* The groups' counts are what allocation keeps exact; the totals
	 * in the superblock follow them (as Linux recomputes at mount). */
	sbi->s_es->s_free_blocks_count = free_blocks;
	sbi->s_es->s_free_inodes_count = free_inodes;
	return 0;
}

static int read_descriptors(struct super_block *sb, int silent)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	sbi->s_group_desc = kzalloc(sbi->s_gdb_count * sizeof(void *),
				    GFP_KERNEL);
	if (!sbi->s_group_desc)
		return -ENOMEM;
	for (unsigned long i = 0; i < sbi->s_gdb_count; i++) {
		sbi->s_group_desc[i] =
			sb_bread(sb, sbi->s_first_data_block + 1 + i);
		if (!sbi->s_group_desc[i])
			return REFUSE("cannot read group descriptors");
	}
	return check_descriptors(sb, silent);
}

struct ext2_mount_data {
	struct block_device *bdev;
	const char *options;
};

/* Read the superblock (at byte 1024 whatever the block size) and check
 * it; then set the block size and keep its buffer. */
static int read_super(struct super_block *sb, int silent)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct block_device *bdev = sb->s_bdev;
	u64 disk_bytes = bdev->bd_nr_sectors << SECTOR_SHIFT;
	struct ext2_super_block *es;
	unsigned long bs, offset;
	int err;

	if (disk_bytes < EXT2_SUPER_OFFSET + sizeof(*es))
		return REFUSE("device too small");
	es = kmalloc(sizeof(*es), GFP_KERNEL);
	if (!es)
		return -ENOMEM;
	err = bdev_rw_sync(bdev, REQ_OP_READ, EXT2_SUPER_OFFSET >> SECTOR_SHIFT,
			   es, sizeof(*es));
	if (!err)
		err = check_super(sb, es, disk_bytes, silent);
	bs = EXT2_MIN_BLOCK_SIZE << es->s_log_block_size;
	kfree(es);
	if (err)
		return err;
	sb->s_blocksize = bs;
	sb->s_blocksize_bits = EXT2_MIN_BLOCK_LOG_SIZE +
			       (bs == 1024 ? 0 : bs == 2048 ? 1 : 2);
	offset = EXT2_SUPER_OFFSET % bs;
	sbi->s_sbh = sb_bread(sb, EXT2_SUPER_OFFSET / bs);
	if (!sbi->s_sbh)
		return REFUSE("cannot read the superblock");
	sbi->s_es = (struct ext2_super_block *)(sbi->s_sbh->b_data + offset);
	return 0;
}

static int ext2_fill_super(struct super_block *sb, void *data, int silent)
{
	struct ext2_mount_data *md = data;
	struct ext2_sb_info *sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	struct inode *root;
	int err;

	if (!sbi)
		return -ENOMEM;
	sb->s_fs_info = sbi;
	sb->s_bdev = md->bdev;
	sb->s_dev = md->bdev->bd_dev;
	sbi->s_id = md->bdev->bd_name;
	sbi->s_truncate = EXT2_TRUNCATE_NEW;
	mutex_init(&sbi->s_lock);
	err = ext2_parse_options(sb, md->options, &sbi->s_truncate);
	if (!err)
		err = read_super(sb, silent);
	if (!err)
		err = read_descriptors(sb, silent);
	if (err)
		goto fail;
	sb->s_magic = EXT2_SUPER_MAGIC;
	sb->s_maxbytes = ext2_max_size(sb);
	sb->s_op = &ext2_sops;
	sbi->s_next_generation = sbi->s_es->s_wtime;
	sbi->s_time_floor = max(max(sbi->s_es->s_wtime, sbi->s_es->s_mtime),
				max(sbi->s_es->s_mkfs_time,
				    sbi->s_es->s_lastcheck));
	root = ext2_iget(sb, EXT2_ROOT_INO);
	if (IS_ERR(root)) {
		err = REFUSE("cannot read the root inode (error %ld)",
			     PTR_ERR(root));
		goto fail;
	}
	if (!S_ISDIR(root->i_mode) || !root->i_blocks || !root->i_size) {
		iput(root);
		err = REFUSE("corrupt root inode");
		goto fail;
	}
	if (!sb_rdonly(sb)) {
		err = ext2_setup_rw(sb);
		if (err) {
			iput(root);
			goto fail;
		}
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		err = -ENOMEM;
		goto fail;
	}
	md->bdev->bd_holder = sb;
	pr_info("ext2: %s: mounted, %lu-byte blocks, truncate=%s%s\n",
		sbi->s_id, sb->s_blocksize,
		sbi->s_truncate == EXT2_TRUNCATE_OLD ? "old" : "new",
		sb_rdonly(sb) ? ", read-only" : "");
	return 0;
fail:
	ext2_release_sbi(sb);
	return err;
}

/*
 * Linux's mount_bdev: find the device, refuse one that is mounted
 * already, then build the super block. fs/super.c has only
 * mount_nodev, so the device travels to fill_super inside data.
 */
static struct dentry *ext2_mount(struct file_system_type *type, int flags,
				 const char *dev_name, void *data)
{
	struct ext2_mount_data md = { .options = data };

	if (!dev_name || !*dev_name)
		return ERR_PTR(-ENOENT);
	md.bdev = lookup_bdev(dev_name);
	if (IS_ERR(md.bdev))
		return (struct dentry *)md.bdev;	/* the same ERR_PTR */
	if (md.bdev->bd_holder)
		return ERR_PTR(-EBUSY);
	if (md.bdev->bd_read_only && !(flags & MS_RDONLY))
		return ERR_PTR(-EACCES);
	return mount_nodev(type, flags, &md, ext2_fill_super);
}

static struct file_system_type ext2_fs_type = {
	.name = "ext2",
	.fs_flags = FS_NEG_DENTRIES,
	.mount = ext2_mount,
	.kill_sb = ext2_kill_sb,
};

static int init_ext2_fs(void)
{
	return register_filesystem(&ext2_fs_type);
}
device_initcall(init_ext2_fs);
