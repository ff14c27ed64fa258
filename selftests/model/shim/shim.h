/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control surface of the userspace kernel shim, for the simulator and tests
 * (kernel code never includes this). Everything here is global: one
 * simulated host per process, single-threaded.
 */
#ifndef _SHIM_SHIM_H
#define _SHIM_SHIM_H

#include <linux/types.h>
#include <linux/jiffies.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>

/* Clock: nanoseconds since "boot"; jiffies follow (HZ = 250). */
void shim_clock_set_ns(u64 ns);
/* jiffies at ns == 0; default INITIAL_JIFFIES (wraps 32 bits at 300 s). */
void shim_clock_set_jiffies_base(unsigned long j);

/* WARN_ON() and friends count here; tests assert it stays 0. */
extern unsigned long shim_warn_count;
/* SHIM_DEBUG=1 in the environment turns pr_debug on; shim_quiet mutes printk. */
extern int shim_debug;
extern int shim_quiet;

#endif
