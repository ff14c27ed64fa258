/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the kernel clocks read the simulator clock. */
#ifndef _SHIM_LINUX_KTIME_H
#define _SHIM_LINUX_KTIME_H

#include <linux/types.h>
#include <linux/time64.h>

typedef s64 ktime_t;

/* Nanoseconds since "boot"; set by the simulator (shim_clock_set_ns()). */
extern u64 shim_clock_ns;

static inline u64 ktime_get_ns(void) { return shim_clock_ns; }
static inline ktime_t ktime_get(void) { return (ktime_t)shim_clock_ns; }
static inline u64 ktime_get_mono_fast_ns(void) { return shim_clock_ns; }
static inline u64 local_clock(void) { return shim_clock_ns; }
static inline s64 ktime_to_ns(ktime_t kt) { return kt; }
static inline s64 ktime_to_us(ktime_t kt) { return kt / NSEC_PER_USEC; }
static inline s64 ktime_to_ms(ktime_t kt) { return kt / NSEC_PER_MSEC; }
static inline long ktime_get_seconds(void) { return (long)(shim_clock_ns / NSEC_PER_SEC); }

#endif
