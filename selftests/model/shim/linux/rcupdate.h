/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: RCU for one thread.  rcu_read_lock() sections nest and
 * are counted; kfree_rcu() frees at once outside of them and waits for the
 * outermost rcu_read_unlock() inside one, so that a reader still holding
 * a pointer a writer replaced (a writer run from a test hook in the middle
 * of a reader) reads freed memory only if the code gets RCU wrong, and
 * ASan says so.
 */
#ifndef _SHIM_LINUX_RCUPDATE_H
#define _SHIM_LINUX_RCUPDATE_H

#include <linux/types.h>
#include <linux/compiler.h>

struct rcu_head {
	struct rcu_head *next;
	void *obj;
};

extern int shim_rcu_depth;
void shim_rcu_read_unlock(void);
void shim_kfree_rcu(void *obj, struct rcu_head *head);

#define rcu_read_lock()		do { shim_rcu_depth++; } while (0)
#define rcu_read_unlock()	shim_rcu_read_unlock()
#define rcu_read_lock_bh()	rcu_read_lock()
#define rcu_read_unlock_bh()	rcu_read_unlock()
#define rcu_dereference(p)	READ_ONCE(p)
#define rcu_dereference_bh(p)	READ_ONCE(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_access_pointer(p)	READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
#define RCU_INITIALIZER(v)	(v)
#define synchronize_rcu()	do { } while (0)
#define kfree_rcu(ptr, field)	shim_kfree_rcu((ptr), &(ptr)->field)
#define lockdep_is_held(l)	((void)(l), 1)

#endif
