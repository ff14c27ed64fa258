/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_EXPORT_H
#define _SHIM_LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)		_Static_assert(1, #sym)
#define EXPORT_SYMBOL_GPL(sym)		_Static_assert(1, #sym)
#define EXPORT_SYMBOL_NS(sym, ns)	_Static_assert(1, #sym)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	_Static_assert(1, #sym)
#define EXPORT_PER_CPU_SYMBOL(sym)	_Static_assert(1, #sym)
#endif
