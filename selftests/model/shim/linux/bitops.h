/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_BITOPS_H
#define _SHIM_LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_LONG		64
#define BITS_PER_LONG_LONG	64
#define BITS_PER_BYTE		8
#define BITS_PER_TYPE(type)	(sizeof(type) * BITS_PER_BYTE)
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define GENMASK(h, l)		(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	(((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (63 - (h))))

/* fls(x): 1-based index of the most significant set bit; fls(0) == 0. */
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline unsigned long __fls(unsigned long w) { return 63 - __builtin_clzl(w); }
static inline unsigned long __ffs(unsigned long w) { return __builtin_ctzl(w); }
static inline int fls_long(unsigned long l) { return fls64(l); }
#define hweight32(w)		__builtin_popcount((unsigned int)(w))
#define hweight64(w)		__builtin_popcountll((u64)(w))

#endif
