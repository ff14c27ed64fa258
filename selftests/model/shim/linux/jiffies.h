/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: jiffies follow the simulator clock. HZ is 250 as in
 * Debian's amd64 kernels. As in the kernel, jiffies start 5 minutes before
 * the 32-bit wrap (INITIAL_JIFFIES), so wrap bugs show up in tests that run
 * past simulated t = 300 s (or sooner via shim_clock_set_jiffies_base()).
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H

#include <linux/types.h>
#include <linux/time64.h>
#include <linux/ktime.h>

#ifndef HZ
#define HZ 250
#endif
#define MAX_JIFFY_OFFSET ((long)(~0UL >> 1) - 1)
#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))

extern unsigned long jiffies;	/* updated by shim_clock_set_ns() */
#define jiffies_64 ((u64)jiffies)
static inline u64 get_jiffies_64(void) { return jiffies; }

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)
#define time_in_range(a, b, c)	(time_after_eq(a, b) && time_before_eq(a, c))
#define time_after32(a, b)	((s32)((u32)(b) - (u32)(a)) < 0)
#define time_before32(b, a)	time_after32(a, b)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)

static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	return ((unsigned long)m * HZ + MSEC_PER_SEC - 1) / MSEC_PER_SEC;
}

static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	return ((unsigned long)u * HZ + USEC_PER_SEC - 1) / USEC_PER_SEC;
}

static inline unsigned long nsecs_to_jiffies(u64 n)
{
	return (unsigned long)(n / (NSEC_PER_SEC / HZ));
}

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (unsigned int)((MSEC_PER_SEC / HZ) * j);
}

static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	return (unsigned int)((USEC_PER_SEC / HZ) * j);
}

static inline u64 jiffies_to_nsecs(const unsigned long j)
{
	return (u64)jiffies_to_usecs(j) * NSEC_PER_USEC;
}

#endif
