/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the model emulates a 6.1 kernel (Debian bookworm) unless
 * built with -DSHIM_LINUX_VERSION_CODE=KERNEL_VERSION(a,b,c).
 */
#ifndef _SHIM_LINUX_VERSION_H
#define _SHIM_LINUX_VERSION_H
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#ifndef SHIM_LINUX_VERSION_CODE
#define SHIM_LINUX_VERSION_CODE KERNEL_VERSION(6, 1, 0)
#endif
#define LINUX_VERSION_CODE SHIM_LINUX_VERSION_CODE
#define LINUX_VERSION_MAJOR (LINUX_VERSION_CODE >> 16)
#define LINUX_VERSION_PATCHLEVEL ((LINUX_VERSION_CODE >> 8) & 0xff)
#define LINUX_VERSION_SUBLEVEL (LINUX_VERSION_CODE & 0xff)
#endif
