/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: kmalloc and friends over malloc, with accounting so a test
 * can assert no leak (shim_kmalloc_live) and failure injection so a test can
 * exercise the GFP_NOWAIT-failed path (shim_kmalloc_fail_after: fail every
 * allocation once this many more have succeeded; -1 = never).
 */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

#include <linux/types.h>

#define GFP_KERNEL	0x01u
#define GFP_ATOMIC	0x02u
#define GFP_NOWAIT	0x04u
#define __GFP_NOWARN	0x08u
#define __GFP_ZERO	0x10u
#define __GFP_NORETRY	0x20u

extern long shim_kmalloc_live;		/* outstanding allocations */
extern long shim_kmalloc_total;		/* successful allocations */
extern long shim_kmalloc_fail_after;	/* -1: never fail */

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void *kmalloc_array(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);
#define kvfree(p)		kfree(p)
#define kvmalloc(s, f)		kmalloc(s, f)
#define kvzalloc(s, f)		kzalloc(s, f)
#define kfree_sensitive(p)	kfree(p)

#endif
