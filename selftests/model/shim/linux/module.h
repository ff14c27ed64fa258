/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/module.h>. MODULE_LICENSE is recorded: like the
 * kernel, shim_modules_load() refuses a module whose license is missing or
 * not GPL-compatible, because tcp_register_congestion_control() is
 * EXPORT_SYMBOL_GPL. Other MODULE_* tags are ignored.
 */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/export.h>
#include <linux/moduleparam.h>

struct module {
	const char *name;
};

#define THIS_MODULE		((struct module *)0)
#define MODULE_LICENSE(l)						\
	static void __attribute__((constructor)) __shim_module_license_ctor(void) \
	{ shim_module_register_license(KBUILD_MODNAME, l); }
#define MODULE_AUTHOR(a)	_Static_assert(1, a)
#define MODULE_DESCRIPTION(d)	_Static_assert(1, d)
#define MODULE_VERSION(v)	_Static_assert(1, v)
#define MODULE_ALIAS(a)		_Static_assert(1, a)
#define MODULE_SOFTDEP(s)	_Static_assert(1, s)
#define MODULE_INFO(t, i)	_Static_assert(1, i)
#define MODULE_IMPORT_NS(ns)	_Static_assert(1, #ns)
#define MODULE_ALIAS_TCP_CC(n)	_Static_assert(1, n)

static inline bool try_module_get(struct module *m) { (void)m; return true; }
static inline void module_put(struct module *m) { (void)m; }
static inline void __module_get(struct module *m) { (void)m; }

#endif
