/* SPDX-License-Identifier: GPL-2.0 */
/* bbr2-bpf (userspace): the kernel's type names for src/bbr2_params.[ch]. */
#ifndef _BBR2_CLI_LINUX_TYPES_H
#define _BBR2_CLI_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;

#endif
