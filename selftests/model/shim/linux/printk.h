/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: printk goes to stderr. pr_debug is silent unless
 * shim_debug is set (tests set it from the SHIM_DEBUG environment variable).
 */
#ifndef _SHIM_LINUX_PRINTK_H
#define _SHIM_LINUX_PRINTK_H

#include <stdio.h>
#include <linux/compiler.h>

extern int shim_debug;
extern int shim_quiet;

#define KERN_EMERG	""
#define KERN_ALERT	""
#define KERN_CRIT	""
#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_NOTICE	""
#define KERN_INFO	""
#define KERN_DEBUG	""
#define KERN_CONT	""

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define printk(fmt, ...) \
	({ if (!shim_quiet) fprintf(stderr, fmt, ##__VA_ARGS__); 0; })
#define pr_emerg(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) \
	({ if (shim_debug) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__); 0; })
#define pr_info_once		pr_info
#define pr_warn_once		pr_warn
#define pr_err_once		pr_err
#define pr_info_ratelimited	pr_info
#define pr_warn_ratelimited	pr_warn
#define pr_err_ratelimited	pr_err
#define pr_debug_ratelimited	pr_debug
#define net_dbg_ratelimited	pr_debug
#define net_info_ratelimited	pr_info
#define net_warn_ratelimited	pr_warn

#endif
