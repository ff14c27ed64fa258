/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_INET_H
#define _SHIM_LINUX_INET_H
#include <linux/types.h>
#endif
