/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: a mutex for one thread, which only checks that it is not
 * taken twice (a writer re-entered from a test hook would deadlock in the
 * kernel).
 */
#ifndef _SHIM_LINUX_MUTEX_H
#define _SHIM_LINUX_MUTEX_H

#include <linux/kernel.h>
#include <linux/bug.h>

struct mutex {
	int locked;
};

#define DEFINE_MUTEX(m)		struct mutex m = { 0 }

static inline void mutex_lock(struct mutex *m)
{
	BUG_ON(m->locked);
	m->locked = 1;
}

static inline void mutex_unlock(struct mutex *m)
{
	BUG_ON(!m->locked);
	m->locked = 0;
}

#endif
