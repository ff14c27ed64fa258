/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim: tracepoints compile to nothing in the model, and none is ever
 * enabled, so the glue runs the untraced path exactly as in a kernel whose
 * tracepoints are off.
 */
#ifndef _SHIM_LINUX_TRACEPOINT_H
#define _SHIM_LINUX_TRACEPOINT_H

#include <linux/types.h>

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	static inline void trace_##name(proto) { }			\
	static inline bool trace_##name##_enabled(void) { return false; }

#endif
