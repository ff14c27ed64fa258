/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/kernel.h>: the grab bag of helpers a TCP
 * congestion-control module uses. Keep it small and boring.
 */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/jiffies.h>
#include <linux/time64.h>
#include <linux/errno.h>

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(ll, d)	DIV_ROUND_UP((unsigned long long)(ll), (d))
#define DIV_ROUND_CLOSEST(x, divisor) ({			\
	__typeof__(x) __x = (x);				\
	__typeof__(divisor) __d = (divisor);			\
	(((__typeof__(x))-1) > 0 || ((__typeof__(divisor))-1) > 0 || \
	 (((__x) > 0) == ((__d) > 0))) ?			\
		(((__x) + ((__d) / 2)) / (__d)) :		\
		(((__x) - ((__d) / 2)) / (__d)); })
#define DIV_ROUND_CLOSEST_ULL(x, divisor) ({			\
	__typeof__(divisor) __d = (divisor);			\
	unsigned long long _tmp = (x) + (__d) / 2;		\
	do_div(_tmp, __d);					\
	_tmp; })
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y)		((x) - ((x) % (y)))
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))

#ifndef offsetof
#define offsetof(TYPE, MEMBER)	__builtin_offsetof(TYPE, MEMBER)
#endif
#define container_of(ptr, type, member) ({			\
	void *__mptr = (void *)(ptr);				\
	((type *)(__mptr - offsetof(type, member))); })
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define FIELD_SIZEOF(t, f)	sizeof_field(t, f)

/* Written so that unsigned arguments do not trip -Wtype-limits. */
#define abs(x) ({ __typeof__(x) __ax = (x); (__ax > 0 || __ax == 0) ? __ax : -__ax; })

#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

#define PAGE_SIZE		4096UL
#define SMP_CACHE_BYTES		64
#define L1_CACHE_BYTES		64

#define might_sleep()		do { } while (0)
#define cond_resched()		do { } while (0)
#define cpu_relax()		do { } while (0)
#define prefetch(x)		((void)(x))

#include <linux/rcupdate.h>

/* String to number, as lib/kstrtox.c: 0 or -EINVAL/-ERANGE. */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtou16(const char *s, unsigned int base, u16 *res);
int kstrtou8(const char *s, unsigned int base, u8 *res);
int kstrtos32(const char *s, unsigned int base, s32 *res);
int kstrtobool(const char *s, bool *res);
#define kstrtou32 kstrtouint
#define kstrtou64 kstrtoull
#define kstrtos64 kstrtoll

int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int sysfs_emit(char *buf, const char *fmt, ...) __printf(2, 3);
int sysfs_emit_at(char *buf, int at, const char *fmt, ...) __printf(3, 4);

#endif
