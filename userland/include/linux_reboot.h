/*
 * linux_reboot.h - reboot(2) as the kernel sees it, for init and poweroff.
 *
 * musl ships no <linux/reboot.h>, so the ABI constants are here. The
 * two magic numbers guard against a stray call; the kernel refuses the
 * call with EINVAL without them, and with EPERM without CAP_SYS_BOOT.
 */
#ifndef PAGELAB_LINUX_REBOOT_H
#define PAGELAB_LINUX_REBOOT_H

#include <sys/syscall.h>
#include <unistd.h>

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_MAGIC2 672274793
#define LINUX_REBOOT_CMD_RESTART 0x01234567
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc
#define LINUX_REBOOT_CMD_HALT 0xcdef0123

/* Returns only on failure: -1 with errno. */
static inline int linux_reboot(unsigned int cmd)
{
	return (int)syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
			    LINUX_REBOOT_MAGIC2, cmd, 0);
}

#endif /* PAGELAB_LINUX_REBOOT_H */
