/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: module parameters. Each module_param*() registers its
 * struct kernel_param in a table at program start, keyed by KBUILD_MODNAME,
 * so a test writes a parameter the way a user writes
 * /sys/module/<mod>/parameters/<name>:
 *	shim_param_set("tcp_bbr2", "loss_thresh", "10");
 * The set/get callbacks are the module's own (or the param_ops_* below).
 */
#ifndef _SHIM_LINUX_MODULEPARAM_H
#define _SHIM_LINUX_MODULEPARAM_H

#include <linux/types.h>
#include <linux/compiler.h>

#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "shim_module"
#endif
#define MODULE_PARAM_PREFIX KBUILD_MODNAME "."

struct module;
struct kernel_param;

struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};
#define KERNEL_PARAM_OPS_FL_NOARG	(1 << 0)

struct kparam_string {
	unsigned int maxlen;
	char *string;
};

struct kparam_array {
	unsigned int max;
	unsigned int elemsize;
	unsigned int *num;
	const struct kernel_param_ops *ops;
	void *elem;
};

struct kernel_param {
	const char *name;
	struct module *mod;
	const struct kernel_param_ops *ops;
	const u16 perm;
	s8 level;
	u8 flags;
	union {
		void *arg;
		const struct kparam_string *str;
		const struct kparam_array *arr;
	};
};

/* Registry (lib/shim.c). */
void shim_param_register(const char *modname, const struct kernel_param *kp);
/* 0 or the -errno the module's set() returned; -ENOENT if no such param. */
int shim_param_set(const char *modname, const char *name, const char *val);
/* Reads like sysfs: into buf (>= 4096 bytes), trailing newline kept. */
int shim_param_get(const char *modname, const char *name, char *buf);
/* Iterate: returns the i-th registered parameter of modname, or NULL. */
const struct kernel_param *shim_param_nth(const char *modname, unsigned int i);

#define __shim_param_ctor(name_)					\
	static void __attribute__((constructor)) __shim_param_reg_##name_(void) \
	{ shim_param_register(KBUILD_MODNAME, &__param_##name_); }

#define module_param_cb(name_, ops_, arg_, perm_)			\
	static const struct kernel_param __param_##name_ = {		\
		.name = #name_, .ops = (ops_), .perm = (perm_),		\
		.level = -1, .arg = (void *)(arg_) };			\
	__shim_param_ctor(name_)

#define module_param_cb_unsafe	module_param_cb
#define __module_param_call(prefix, name, ops, arg, perm, level, flags) \
	module_param_cb(name, ops, arg, perm)
#define module_param_call(name, _set, _get, arg, perm)			\
	static const struct kernel_param_ops __param_ops_##name = {	\
		.flags = 0, .set = _set, .get = _get };			\
	module_param_cb(name, &__param_ops_##name, arg, perm)

/* "type" is pasted directly (never passed on to another macro), because
 * <stdbool.h> makes "bool" a macro and it would expand to "_Bool" first. */
#define module_param_named(name_, value, type, perm)			\
	module_param_cb(name_, &param_ops_##type, &(value), perm)
#define module_param(name_, type, perm)					\
	module_param_cb(name_, &param_ops_##type, &(name_), perm)
#define module_param_unsafe	module_param
#define module_param_named_unsafe module_param_named

#define __shim_param_array(name_, array, ops_, nump, perm)		\
	static const struct kparam_array __param_arr_##name_ = {	\
		.max = sizeof(array) / sizeof((array)[0]),		\
		.num = (nump), .ops = (ops_),				\
		.elemsize = sizeof((array)[0]), .elem = (array) };	\
	module_param_cb(name_, &param_array_ops, &__param_arr_##name_, perm)
#define module_param_array_named(name_, array, type, nump, perm)	\
	__shim_param_array(name_, array, &param_ops_##type, nump, perm)
#define module_param_array(name_, type, nump, perm)			\
	__shim_param_array(name_, name_, &param_ops_##type, nump, perm)

#define module_param_string(name, string, len, perm)			\
	static const struct kparam_string __param_string_##name = {	\
		len, string };						\
	module_param_cb(name, &param_ops_string, &__param_string_##name, perm)

#define __param_check(name, p, type)
#define param_check_uint(name, p)
#define param_check_int(name, p)
#define param_check_bool(name, p)

#define __MODULE_PARM_TYPE(name, _type)
#define MODULE_PARM_DESC(_parm, desc)	_Static_assert(1, desc)

#define DECLARE_PARAM_OPS(type)						\
	extern const struct kernel_param_ops param_ops_##type;		\
	int param_set_##type(const char *val, const struct kernel_param *kp); \
	int param_get_##type(char *buffer, const struct kernel_param *kp)

DECLARE_PARAM_OPS(byte);
DECLARE_PARAM_OPS(short);
DECLARE_PARAM_OPS(ushort);
DECLARE_PARAM_OPS(int);
DECLARE_PARAM_OPS(uint);
DECLARE_PARAM_OPS(long);
DECLARE_PARAM_OPS(ulong);
DECLARE_PARAM_OPS(ullong);
DECLARE_PARAM_OPS(hexint);
DECLARE_PARAM_OPS(charp);
DECLARE_PARAM_OPS(bool);
DECLARE_PARAM_OPS(invbool);
DECLARE_PARAM_OPS(string);
extern const struct kernel_param_ops param_array_ops;
int param_set_uint_minmax(const char *val, const struct kernel_param *kp,
			  unsigned int min, unsigned int max);
#define param_check_hexint(name, p)

#endif
