/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunables of tcp_bbr2.
 *
 * Every tunable is a global module parameter under
 * /sys/module/tcp_bbr2/parameters/, with the names and units of Google's
 * BBRv2 alpha release where one existed, so that existing DTN scripts keep
 * working.  All of them together, the version included, form one
 * struct bbr2_tunables; a write takes effect, whole, on the next hook
 * invocation of every bbr2 socket.
 *
 * Units: gains and fractions are in 1/256 (BBR_UNIT = 256 = 1.0).
 *
 * bbr2_param_table[] (bbr2_params.c) holds, for each scalar parameter, its
 * name, its BBRv3 and BBRv2 (v2alpha) defaults and its inclusive range;
 * tcp_bbr2_main.c exposes each entry with a description.
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
	u32 v3_default;
	u32 v2_default;
	u32 min;		/* inclusive range enforced on every write */
	u32 max;
};

extern const struct bbr2_param bbr2_param_table[BBR2_NR_PARAMS];

/*
 * PROBE_BW pacing gains, indexed by enum bbr2_cycle_phase: UP, DOWN,
 * CRUISE, REFILL.  Eight entries, as in v2alpha, whose last four were never
 * used either; they are kept so that v2alpha scripts can write the array.
 */
#define BBR2_CYCLE_LEN		8
#define BBR2_PHASES		4
#define BBR2_PACING_GAIN_MIN	1
#define BBR2_PACING_GAIN_MAX	1023

/* Cross-parameter rules (bbr2_tunables_check()). */
#define BBR2_CRUISE_GAIN_MIN	192		/* CRUISE, REFILL >= 0.75 */
#define BBR2_PROBE_WAIT_MIN_US	500000		/* base + rand probe wait */

/* explicit_mask bit of pacing_gain; bit N < BBR2_NR_PARAMS: parameter N */
#define BBR2_EXPLICIT_PACING_GAIN	BBR2_NR_PARAMS

/*
 * One complete, validated set of tunables.  A set is never modified once
 * the ACK path can see it: a write builds a new set from a copy of the
 * active one and publishes it whole (tcp_bbr2_main.c), so every hook
 * invocation reads the one set it loaded at its entry.
 */
struct bbr2_tunables {
	u32	param[BBR2_NR_PARAMS];		/* enum bbr2_param_id */
	u32	pacing_gain[BBR2_CYCLE_LEN];	/* enum bbr2_cycle_phase */
	u32	version;		/* 2: v2alpha behaviour, 3: BBRv3 */
	u32	reserved;
	u64	explicit_mask;		/* set by the admin, kept by version */
};

/* A scalar parameter of set t, e.g. bbr2_param(t, LOSS_THRESH). */
#define bbr2_param(t, id)	((t)->param[BBR2_PARAM_##id])

/* The BBRv3 defaults, nothing set explicitly: the set at module load. */
extern const struct bbr2_tunables bbr2_tunables_boot;

/* Longest message bbr2_tunables_write() leaves in its why buffer. */
#define BBR2_WHY_LEN		192

int bbr2_tunables_write(struct bbr2_tunables *t, const char *name,
			const char *val, char *why, size_t why_len);
int bbr2_tunables_read(const struct bbr2_tunables *t, const char *name,
		       char *buf, size_t len);
int bbr2_tunables_check(const struct bbr2_tunables *t, char *why,
			size_t why_len);

#endif /* _BBR2_PARAMS_H */
