/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xorshift64*: the tests' own PRNG for crafted inputs, independent of the
 * shim's (which the module under test draws from), so that the inputs of a
 * seed stay the same whatever the module does with its random numbers.
 * One stream per program: seed it by assigning rng_state (non-zero).
 */
#ifndef MODEL_XORSHIFT_H
#define MODEL_XORSHIFT_H

#include <stdbool.h>
#include <linux/types.h>

static u64 rng_state;

static inline u64 rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* uniform in [0, n); 0 for n == 0 */
static inline u32 rnd(u32 n)
{
	return n ? (u32)(rnd64() % n) : 0;
}

/* true with probability per_mille / 1000 */
static inline bool chance(u32 per_mille)
{
	return rnd(1000) < per_mille;
}

#endif /* MODEL_XORSHIFT_H */
