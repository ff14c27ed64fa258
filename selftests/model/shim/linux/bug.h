/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: BUG/WARN. A WARN prints once per site and counts into
 * shim_warn_count, so a test can assert that the code under test never
 * warned. BUG() aborts.
 */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <linux/compiler.h>

extern unsigned long shim_warn_count;
void shim_warn(const char *file, int line, const char *cond);
void shim_bug(const char *file, int line, const char *cond) __attribute__((noreturn));

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#define BUILD_BUG_ON_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))
#define BUILD_BUG()		_Static_assert(0, "BUILD_BUG")

#define WARN_ON(cond) ({						\
	int __ret_warn = !!(cond);					\
	if (unlikely(__ret_warn))					\
		shim_warn(__FILE__, __LINE__, #cond);			\
	unlikely(__ret_warn); })

#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	int __ret_warn_once = !!(cond);					\
	if (unlikely(__ret_warn_once)) {				\
		if (!__warned)						\
			shim_warn(__FILE__, __LINE__, #cond);		\
		else							\
			shim_warn_count++;				\
		__warned = true;					\
	}								\
	unlikely(__ret_warn_once); })

#define WARN(cond, fmt...)	WARN_ON(cond)
#define WARN_ONCE(cond, fmt...)	WARN_ON_ONCE(cond)

#define BUG()			shim_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond)		do { if (unlikely(cond)) shim_bug(__FILE__, __LINE__, #cond); } while (0)

#endif
