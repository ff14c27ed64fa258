/* SPDX-License-Identifier: GPL-2.0 */
/* bbr2-bpf (userspace): errno values for src/bbr2_params.c. */
#include_next <linux/errno.h>
