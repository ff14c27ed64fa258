/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: 64-bit division helpers. A zero divisor is a bug in
 * kernel code (a #DE oops): here it aborts with the call site, so tests
 * find it.
 */
#ifndef _SHIM_LINUX_MATH64_H
#define _SHIM_LINUX_MATH64_H

#include <linux/types.h>
#include <linux/bug.h>

void shim_div0(const char *file, int line, const char *what) __attribute__((noreturn));

#define __shim_chk_div(d, what) \
	do { if (unlikely((d) == 0)) shim_div0(__FILE__, __LINE__, what); } while (0)

#ifndef SHIM_DIV64_OUTOFLINE

#define div_u64(dividend, divisor) ({					\
	u64 __dd = (dividend); u32 __dv = (divisor);			\
	__shim_chk_div(__dv, "div_u64");				\
	__dd / __dv; })

#define div_s64(dividend, divisor) ({					\
	s64 __dd = (dividend); s32 __dv = (divisor);			\
	__shim_chk_div(__dv, "div_s64");				\
	__dd / __dv; })

#define div64_u64(dividend, divisor) ({					\
	u64 __dd = (dividend); u64 __dv = (divisor);			\
	__shim_chk_div(__dv, "div64_u64");				\
	__dd / __dv; })

#define div64_s64(dividend, divisor) ({					\
	s64 __dd = (dividend); s64 __dv = (divisor);			\
	__shim_chk_div(__dv, "div64_s64");				\
	__dd / __dv; })

#define div_u64_rem(dividend, divisor, remainder) ({			\
	u64 __dd = (dividend); u32 __dv = (divisor);			\
	__shim_chk_div(__dv, "div_u64_rem");				\
	*(remainder) = (u32)(__dd % __dv);				\
	__dd / __dv; })

#define div64_u64_rem(dividend, divisor, remainder) ({			\
	u64 __dd = (dividend); u64 __dv = (divisor);			\
	__shim_chk_div(__dv, "div64_u64_rem");				\
	*(remainder) = __dd % __dv;					\
	__dd / __dv; })

/* do_div(n, base): n is a u64 lvalue, becomes the quotient; returns the
 * remainder. base is 32-bit, as on the kernel's 32-bit architectures. */
#define do_div(n, base) ({						\
	u32 __base = (base);						\
	u32 __rem;							\
	(void)(((__typeof__((n)) *)0) == ((u64 *)0)); /* n must be u64 */ \
	__shim_chk_div(__base, "do_div");				\
	__rem = (u32)((u64)(n) % __base);				\
	(n) = (u64)(n) / __base;					\
	__rem; })

#else /* SHIM_DIV64_OUTOFLINE */
/*
 * For the 32-bit division check (make check-div64): the helpers become
 * calls, so that any __udivdi3/__divdi3 left in an object compiled with
 * -m32 comes from a plain 64-bit '/' or '%' in the code under test - the
 * thing that fails to link into a 32-bit kernel.
 */
u64 shim_div_u64(u64 dividend, u32 divisor);
s64 shim_div_s64(s64 dividend, s32 divisor);
u64 shim_div64_u64(u64 dividend, u64 divisor);
s64 shim_div64_s64(s64 dividend, s64 divisor);
u64 shim_div_u64_rem(u64 dividend, u32 divisor, u32 *remainder);
u64 shim_div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder);
u32 shim_do_div(u64 *n, u32 base);

#define div_u64(a, b)		shim_div_u64(a, b)
#define div_s64(a, b)		shim_div_s64(a, b)
#define div64_u64(a, b)		shim_div64_u64(a, b)
#define div64_s64(a, b)		shim_div64_s64(a, b)
#define div_u64_rem(a, b, r)	shim_div_u64_rem(a, b, r)
#define div64_u64_rem(a, b, r)	shim_div64_u64_rem(a, b, r)
#define do_div(n, base) ({						\
	(void)(((__typeof__((n)) *)0) == ((u64 *)0)); /* n must be u64 */ \
	shim_do_div(&(n), (base)); })

#endif /* SHIM_DIV64_OUTOFLINE */

#define div64_ul(dividend, divisor)	div64_u64(dividend, divisor)
#define div64_long(dividend, divisor)	div64_s64(dividend, divisor)

#define DIV64_U64_ROUND_UP(ll, d) ({					\
	u64 __d = (d); div64_u64((ll) + __d - 1, __d); })
#define DIV64_U64_ROUND_CLOSEST(dividend, divisor) ({			\
	u64 __d = (divisor); div64_u64((dividend) + (__d / 2), __d); })
#define DIV_U64_ROUND_UP(ll, d) ({					\
	u32 __d = (d); div_u64((ll) + __d - 1, __d); })

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}

#ifdef __SIZEOF_INT128__
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	if (unlikely(div == 0))
		shim_div0(__FILE__, __LINE__, "mul_u64_u64_div_u64");
	return (u64)(((unsigned __int128)a * mul) / div);
}
#else
u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift);
u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div);
#endif

#endif
