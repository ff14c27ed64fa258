/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim: a tracepoint counts its hits (shim_trace_hits(), by event name).
 * All are off unless a test sets shim_trace_on, so the glue runs the
 * untraced path exactly as in a kernel whose tracepoints are off.
 */
#ifndef _SHIM_LINUX_TRACEPOINT_H
#define _SHIM_LINUX_TRACEPOINT_H

#include <linux/types.h>

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args

extern bool shim_trace_on;
void shim_trace_hit(const char *name);
/* Hits of the named event since the last shim_trace_reset(). */
unsigned long shim_trace_hits(const char *name);
void shim_trace_reset(void);

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	static inline void trace_##name(proto) { shim_trace_hit(#name); } \
	static inline bool trace_##name##_enabled(void) { return shim_trace_on; }

#endif
