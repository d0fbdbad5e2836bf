/*
 * printk and log levels. A message may start with a KERN_* level; the console
 * shows it when its level is below console_loglevel (the loglevel= parameter),
 * like Linux. Every message also goes to the log buffer (dmesg).
 */
#ifndef _KERNEL_PRINTK_H
#define _KERNEL_PRINTK_H

#include <kernel/compiler.h>

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"	/* continue the previous line: no timestamp */

#define LOGLEVEL_DEFAULT 6	/* level of a message without a KERN_ prefix */
#define CONSOLE_LOGLEVEL_DEFAULT 7

#define pr_emerg(fmt, ...) printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)                                          \
	({                                                              \
		static bool __warned;                                   \
		if (!__warned) {                                        \
			__warned = true;                                \
			pr_warn(fmt, ##__VA_ARGS__);                    \
		}                                                       \
	})

extern int console_loglevel;

/* Show at least the default levels for a while (a task dump), whatever
 * console_loglevel says; nested and on several CPUs at once, the first
 * raises the level and the last puts it back. Any context. */
void console_verbose_begin(void);
void console_verbose_end(void);

__printf(1, 2) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);

/* The timer tick wakes syslog readers a printk with interrupts off could
 * not wake. */
void printk_tick(void);

/* Write raw text to every console, bypassing levels (panic uses it). */
void console_write(const char *s, size_t len);

__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

#endif
