/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_LOG2_H
#define _SHIM_LINUX_LOG2_H

#include <linux/bitops.h>

/* ilog2(0) is undefined in the kernel; here it is -1 like the helper. */
#define ilog2(n)	((n) ? (int)(fls64((u64)(n)) - 1) : -1)
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n) - 1)) == 0))
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1UL : 1UL << fls64(n - 1);
}
static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return n ? 1UL << (fls64(n) - 1) : 0;
}

#endif
