/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the kernel's random numbers come from one deterministic
 * PRNG, seeded by shim_prandom_seed() (the simulator seeds it from its
 * config), so every run of a test is reproducible.
 */
#ifndef _SHIM_LINUX_RANDOM_H
#define _SHIM_LINUX_RANDOM_H

#include <linux/types.h>

void shim_prandom_seed(u64 seed);
u32 get_random_u32(void);
u64 get_random_u64(void);
void get_random_bytes(void *buf, size_t len);

static inline u16 get_random_u16(void) { return (u16)get_random_u32(); }
static inline u8 get_random_u8(void) { return (u8)get_random_u32(); }
static inline unsigned long get_random_long(void) { return (unsigned long)get_random_u64(); }

/* Uniform in [0, ceil): the multiply-shift the kernel uses (ceil 0 gives 0). */
static inline u32 get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)get_random_u32() * ceil) >> 32);
}
static inline u32 prandom_u32_max(u32 ceil) { return get_random_u32_below(ceil); }
static inline u32 prandom_u32(void) { return get_random_u32(); }
static inline u32 get_random_u32_inclusive(u32 floor, u32 ceil)
{
	return floor + get_random_u32_below(ceil - floor + 1);
}

#endif
