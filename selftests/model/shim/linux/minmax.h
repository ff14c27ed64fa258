/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: min/max/clamp. Like the 6.1 kernel, min() and max()
 * insist that both sides have the same type (a "comparison of distinct
 * pointer types" warning, an error under -Werror); use min_t() otherwise.
 */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

#define __shim_typecheck(x, y)	(!!(sizeof((__typeof__(x) *)1 == (__typeof__(y) *)1)))

#define __shim_cmp(x, y, op)	((x) op (y) ? (x) : (y))
#define __shim_cmp_once(x, y, op) ({			\
	__typeof__(x) __x = (x);			\
	__typeof__(y) __y = (y);			\
	(void)__shim_typecheck(__x, __y);		\
	__shim_cmp(__x, __y, op); })

#define min(x, y)		__shim_cmp_once(x, y, <)
#define max(x, y)		__shim_cmp_once(x, y, >)
#define min3(x, y, z)		min((__typeof__(x))min(x, y), z)
#define max3(x, y, z)		max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y)	({ type __a = (x); type __b = (y); __a < __b ? __a : __b; })
#define max_t(type, x, y)	({ type __a = (x); type __b = (y); __a > __b ? __a : __b; })
#define min_not_zero(x, y) ({				\
	__typeof__(x) __mx = (x);			\
	__typeof__(y) __my = (y);			\
	__mx == 0 ? __my : ((__my == 0) ? __mx : min(__mx, __my)); })

#define clamp(val, lo, hi)	min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)	clamp_t(__typeof__(val), val, lo, hi)

#define swap(a, b) \
	do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
