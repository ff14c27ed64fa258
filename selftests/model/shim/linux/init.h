/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: module_init()/module_exit() register the functions at
 * program start; shim_modules_load() runs every init once (in link order)
 * and shim_modules_unload() every exit. The simulator loads modules before
 * it looks up a congestion control by name.
 */
#ifndef _SHIM_LINUX_INIT_H
#define _SHIM_LINUX_INIT_H

#include <linux/compiler.h>

#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "shim_module"
#endif

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

void shim_module_register_init(const char *modname, initcall_t fn);
void shim_module_register_exit(const char *modname, exitcall_t fn);
void shim_module_register_license(const char *modname, const char *license);
/* 0, or the first failing init's -errno (its module stays unloaded). */
int shim_modules_load(void);
void shim_modules_unload(void);
/* Loads/unloads one module by name (e.g. to test init failure paths). */
int shim_module_load(const char *modname);
int shim_module_unload(const char *modname);
int shim_module_is_loaded(const char *modname);

#define module_init(fn)							\
	static void __attribute__((constructor)) __shim_module_init_ctor(void) \
	{ shim_module_register_init(KBUILD_MODNAME, fn); }
#define module_exit(fn)							\
	static void __attribute__((constructor)) __shim_module_exit_ctor(void) \
	{ shim_module_register_exit(KBUILD_MODNAME, fn); }
#define late_initcall(fn)	module_init(fn)
#define device_initcall(fn)	module_init(fn)
#define subsys_initcall(fn)	module_init(fn)
#define fs_initcall(fn)		module_init(fn)

#endif
