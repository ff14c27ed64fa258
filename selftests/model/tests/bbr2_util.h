/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the bbr2 behaviour tests: its state (src/bbr2.h) by name. */
#ifndef _BBR2_UTIL_H
#define _BBR2_UTIL_H

#include "model_util.h"
#include "bbr2.h"

static inline const struct bbr2 *bbr2_state(struct sock *sk)
{
	return inet_csk_ca(sk);
}

static inline const char *bbr2_mode_name(unsigned int mode)
{
	switch (mode) {
	case BBR2_STARTUP:	return "STARTUP";
	case BBR2_DRAIN:	return "DRAIN";
	case BBR2_PROBE_BW:	return "PROBE_BW";
	case BBR2_PROBE_RTT:	return "PROBE_RTT";
	}
	return "?";
}

/* Sets a tcp_bbr2 module parameter as `echo val > /sys/module/...` does;
 * a test that changes one must restore it (they are global). */
static inline int bbr2_set_param(const char *name, const char *val)
{
	return shim_param_set("tcp_bbr2", name, val);
}

#endif
