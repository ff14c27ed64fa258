/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunables of tcp_bbr2.
 *
 * Every tunable is a global module parameter under
 * /sys/module/tcp_bbr2/parameters/, with the names and units of Google's
 * BBRv2 alpha release where one existed, so that existing DTN scripts keep
 * working.  The ACK path reads each value with READ_ONCE() where it uses
 * it, so a write takes effect on the next ACK of every bbr2 socket.
 *
 * Units: gains and fractions are in 1/256 (BBR_UNIT = 256 = 1.0).
 *
 * bbr2_param_table[] (bbr2_params.c) holds, for each scalar parameter, its
 * live value, its BBRv3 and BBRv2 (v2alpha) defaults and its inclusive
 * range; tcp_bbr2_main.c exposes each entry with a description.
 */
#ifndef _BBR2_PARAMS_H
#define _BBR2_PARAMS_H

#include <linux/types.h>

enum bbr2_param_id {
	BBR2_PARAM_HIGH_GAIN,
	BBR2_PARAM_STARTUP_CWND_GAIN,
	BBR2_PARAM_DRAIN_GAIN,
	BBR2_PARAM_CWND_GAIN,
	BBR2_PARAM_BW_PROBE_CWND_GAIN,
	BBR2_PARAM_BW_PROBE_PIF_GAIN,
	BBR2_PARAM_CWND_MIN_TARGET,
	BBR2_PARAM_PROBE_RTT_CWND_GAIN,
	BBR2_PARAM_MIN_RTT_WIN_SEC,
	BBR2_PARAM_PROBE_RTT_MODE_MS,
	BBR2_PARAM_PROBE_RTT_WIN_MS,
	BBR2_PARAM_FULL_BW_THRESH,
	BBR2_PARAM_FULL_BW_CNT,
	BBR2_PARAM_FULL_LOSS_CNT,
	BBR2_PARAM_FULL_ECN_CNT,
	BBR2_PARAM_LOSS_THRESH,
	BBR2_PARAM_BETA,
	BBR2_PARAM_INFLIGHT_HEADROOM,
	BBR2_PARAM_ECN_ENABLE,
	BBR2_PARAM_ECN_THRESH,
	BBR2_PARAM_ECN_ALPHA_GAIN,
	BBR2_PARAM_ECN_ALPHA_INIT,
	BBR2_PARAM_ECN_FACTOR,
	BBR2_PARAM_ECN_MAX_RTT_US,
	BBR2_PARAM_ECN_REPROBE_GAIN,
	BBR2_PARAM_EXTRA_ACKED_GAIN,
	BBR2_PARAM_EXTRA_ACKED_WIN_RTTS,
	BBR2_PARAM_EXTRA_ACKED_MAX_US,
	BBR2_PARAM_BW_PROBE_MAX_ROUNDS,
	BBR2_PARAM_BW_PROBE_RAND_ROUNDS,
	BBR2_PARAM_BW_PROBE_RENO_GAIN,
	BBR2_PARAM_BW_PROBE_BASE_US,
	BBR2_PARAM_BW_PROBE_RAND_US,
	BBR2_PARAM_DRAIN_TO_TARGET,
	BBR2_PARAM_UNDO,
	BBR2_PARAM_MIN_TSO_RATE,
	BBR2_PARAM_TSO_RTT_SHIFT,
	BBR2_PARAM_LOSS_MODE,
	BBR2_NR_PARAMS
};

struct bbr2_param {
	const char *name;
	u32 value;		/* live value, read in the ACK path */
	u32 v3_default;
	u32 v2_default;
	u32 min;		/* inclusive range enforced on every write */
	u32 max;
};

extern struct bbr2_param bbr2_param_table[BBR2_NR_PARAMS];

/* Current value of a scalar parameter, e.g. bbr2_param(LOSS_THRESH). */
#define bbr2_param(id)	READ_ONCE(bbr2_param_table[BBR2_PARAM_##id].value)

/* 2: v2alpha behaviour, 3: BBRv3 (default). */
extern u32 bbr2_version;

/*
 * PROBE_BW pacing gains, indexed by enum bbr2_cycle_phase: UP, DOWN,
 * CRUISE, REFILL.  Eight entries, as in v2alpha, whose last four were never
 * used either; they are kept so that v2alpha scripts can write the array.
 */
#define BBR2_CYCLE_LEN		8
#define BBR2_PHASES		4
#define BBR2_PACING_GAIN_MIN	1
#define BBR2_PACING_GAIN_MAX	1023
extern u32 bbr2_pacing_gain_cycle[BBR2_CYCLE_LEN];

int bbr2_param_parse_u32(const struct bbr2_param *param, const char *buf,
			 u32 *out);
int bbr2_param_parse_pacing_gain(const char *buf, u32 gains[BBR2_CYCLE_LEN]);
int bbr2_param_set_version(u32 version);

#endif /* _BBR2_PARAMS_H */
