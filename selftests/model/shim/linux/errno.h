/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the uapi errno values plus the kernel-internal ones. */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H
#include_next <linux/errno.h>
#ifndef ENOTSUPP
#define ERESTARTSYS	512
#define ENOIOCTLCMD	515
#define ENOTSUPP	524
#endif
#endif
