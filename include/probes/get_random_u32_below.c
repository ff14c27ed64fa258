// SPDX-License-Identifier: GPL-2.0
/* API: get_random_u32_below */
/* 6.2, backported to Debian's 6.1: get_random_u32_below() replaces prandom_u32_max(). */
#include <linux/random.h>

u32 bbr2_probe(u32 ceil);
u32 bbr2_probe(u32 ceil)
{
	return get_random_u32_below(ceil);
}
