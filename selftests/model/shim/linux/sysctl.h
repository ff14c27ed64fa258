/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: nothing a congestion control needs from here. */
#include <linux/kernel.h>
