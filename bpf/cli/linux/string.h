/* SPDX-License-Identifier: GPL-2.0 */
/* bbr2-bpf (userspace): strlen, memcpy, strsep for src/bbr2_params.c. */
#ifndef _BBR2_CLI_LINUX_STRING_H
#define _BBR2_CLI_LINUX_STRING_H
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <string.h>
#endif
