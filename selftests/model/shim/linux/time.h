/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/time64.h>
#include <linux/ktime.h>
