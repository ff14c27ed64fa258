/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/math64.h>
