/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunables of tcp_bbr2, one table for the whole module.
 *
 * Every tunable is a global module parameter under
 * /sys/module/tcp_bbr2/parameters/, with the names and units of Google's
 * BBRv2 alpha release where one existed, so that existing DTN scripts keep
 * working.  Values are read once per use in the ACK path (READ_ONCE), so a
 * write takes effect on the next ACK of every bbr2 socket.
 *
 * Units: "gain" values and fractions are in 1/256 (BBR_UNIT = 256 = 1.0).
 *
 * BBR2_SCALAR_PARAMS(X) lists the scalar parameters as
 *	X(name, v3 default, v2 default, min, max, description)
 * The v2 column is Google's v2alpha constant set, loaded by writing 2 to
 * the "version" parameter.  The range is inclusive and is enforced on every
 * write; a rejected write leaves the old value in place.
 */
#ifndef _BBR2_PARAMS_H
#define _BBR2_PARAMS_H

#include <linux/types.h>

#define BBR2_CYCLE_LEN		8	/* entries in the pacing_gain array */
#define BBR2_PHASES		4	/* PROBE_BW phases that use them */
#define BBR2_DEFAULT_VERSION	3

#define BBR2_SCALAR_PARAMS(X)						\
	X(high_gain, 710, 739, 256, 2047,				\
	  "STARTUP pacing gain, 1/256 (710 = 2.77 = 4ln2; v2: 739 = 2.885)") \
	X(startup_cwnd_gain, 512, 739, 256, 2047,			\
	  "STARTUP and DRAIN cwnd gain, 1/256 (512 = 2.0)")		\
	X(drain_gain, 88, 88, 1, 256,					\
	  "DRAIN pacing gain, 1/256 (88 = 0.344 = 1/2.885)")		\
	X(cwnd_gain, 512, 512, 256, 2047,				\
	  "PROBE_BW cwnd gain, 1/256 (512 = 2.0)")			\
	X(bw_probe_cwnd_gain, 1, 0, 0, 3,				\
	  "extra PROBE_BW UP cwnd gain, in quarters (1 = +0.25)")	\
	X(bw_probe_pif_gain, 320, 320, 256, 511,			\
	  "v2 PROBE_BW UP ends when inflight reaches this BDP multiple, 1/256") \
	X(cwnd_min_target, 4, 4, 2, 255,				\
	  "minimum cwnd, packets")					\
	X(probe_rtt_cwnd_gain, 128, 128, 0, 256,			\
	  "PROBE_RTT cwnd as a fraction of BDP, 1/256 (0 = cwnd_min_target)") \
	X(min_rtt_win_sec, 10, 10, 1, 60,				\
	  "min_rtt filter window, seconds")				\
	X(probe_rtt_mode_ms, 200, 200, 0, 2000,			\
	  "time spent in PROBE_RTT, ms (0 = never enter PROBE_RTT)")	\
	X(probe_rtt_win_ms, 5000, 5000, 100, 60000,			\
	  "interval between PROBE_RTTs, ms (capped at min_rtt_win_sec)") \
	X(full_bw_thresh, 320, 320, 257, 1023,				\
	  "bw growth per round that means the pipe is not full, 1/256") \
	X(full_bw_cnt, 3, 3, 1, 7,					\
	  "rounds without full_bw_thresh growth that end STARTUP")	\
	X(full_loss_cnt, 6, 8, 0, 15,					\
	  "loss events in a lossy round that end STARTUP (0 = off)")	\
	X(full_ecn_cnt, 2, 2, 0, 3,					\
	  "rounds above ecn_thresh that end STARTUP (0 = off)")	\
	X(loss_thresh, 5, 5, 1, 255,					\
	  "loss rate per round that bounds inflight_hi, 1/256 (5 = 2%)") \
	X(beta, 76, 76, 0, 255,					\
	  "multiplicative cut of bw_lo/inflight_lo on loss, 1/256 (76 = 30%)") \
	X(inflight_headroom, 38, 38, 0, 255,				\
	  "headroom left below inflight_hi when cruising, 1/256 (38 = 15%)") \
	X(ecn_enable, 0, 0, 0, 1,					\
	  "react to ECN CE marks on ECN-capable connections (0/1)")	\
	X(ecn_thresh, 128, 128, 0, 255,				\
	  "CE ratio that bounds inflight_hi, 1/256 (0 = off)")		\
	X(ecn_alpha_gain, 16, 16, 0, 255,				\
	  "EWMA gain of the CE ratio estimate alpha, 1/256")		\
	X(ecn_alpha_init, 256, 256, 0, 256,				\
	  "initial alpha, 1/256")					\
	X(ecn_factor, 85, 85, 0, 255,					\
	  "inflight_lo cut per CE round is alpha*ecn_factor, 1/256 (0 = off)") \
	X(ecn_max_rtt_us, 5000, 5000, 0, 524287,			\
	  "use ECN only below this min_rtt, us (0 = any RTT)")		\
	X(ecn_reprobe_gain, 128, 0, 0, 511,				\
	  "after ECN clears, reprobe from this fraction of inflight_hi, 1/256") \
	X(extra_acked_gain, 256, 256, 0, 2047,				\
	  "gain on the ACK aggregation cwnd allowance, 1/256")		\
	X(extra_acked_win_rtts, 5, 5, 1, 31,				\
	  "ACK aggregation filter window, round trips")			\
	X(extra_acked_max_us, 100000, 100000, 0, 1000000,		\
	  "cap on the ACK aggregation allowance, us of bw")		\
	X(bw_probe_max_rounds, 63, 63, 1, 255,				\
	  "most rounds between bw probes (Reno coexistence)")		\
	X(bw_probe_rand_rounds, 2, 2, 0, 15,				\
	  "random rounds subtracted from that wait")			\
	X(bw_probe_reno_gain, 256, 256, 0, 511,			\
	  "Reno-style probe wait is this multiple of BDP rounds, 1/256") \
	X(bw_probe_base_us, 2000000, 2000000, 0, 67108863,		\
	  "least wall-clock time between bw probes, us")		\
	X(bw_probe_rand_us, 1000000, 1000000, 0, 67108863,		\
	  "random extra wall-clock time between bw probes, us")		\
	X(drain_to_target, 1, 1, 0, 1,					\
	  "PROBE_BW DOWN lasts until inflight <= BDP (0: or one min_rtt)") \
	X(undo, 1, 1, 0, 1,						\
	  "undo the model's loss response after spurious recovery (0/1)") \
	X(min_tso_rate, 1200000, 1200000, 0, 2147483647,		\
	  "below this pacing rate use 1-segment TSO bursts, bit/s")	\
	X(tso_rtt_shift, 9, 9, 0, 15,					\
	  "halve the RTT-based TSO allowance per 2^N us of min_rtt (0 = off)")

/* PROBE_BW pacing gains, 1/256: UP, DOWN, CRUISE, REFILL (+4 unused). */
#define BBR2_PACING_GAIN_V3 { 320, 232, 256, 256, 256, 256, 256, 256 }
#define BBR2_PACING_GAIN_V2 { 320, 192, 256, 256, 256, 256, 256, 256 }
#define BBR2_PACING_GAIN_MIN	1
#define BBR2_PACING_GAIN_MAX	1023

struct bbr2_params {
	u32 version;		/* 2: v2alpha behaviour, 3: BBRv3 */
#define BBR2_PARAM_FIELD(name, v3, v2, lo, hi, desc) u32 name;
	BBR2_SCALAR_PARAMS(BBR2_PARAM_FIELD)
#undef BBR2_PARAM_FIELD
	u32 pacing_gain[BBR2_CYCLE_LEN];
};

/* The live values, read by every bbr2 socket. */
extern struct bbr2_params bbr2_params;

#define bbr2_param(name)	READ_ONCE(bbr2_params.name)

/* What the parameter glue needs to know about one scalar parameter. */
struct bbr2_param_desc {
	const char *name;
	u32 *value;
	u32 v3_default;
	u32 v2_default;
	u32 min;
	u32 max;
};

enum bbr2_param_id {
#define BBR2_PARAM_ID(name, v3, v2, lo, hi, desc) BBR2_PARAM_##name,
	BBR2_SCALAR_PARAMS(BBR2_PARAM_ID)
#undef BBR2_PARAM_ID
	BBR2_NR_SCALAR_PARAMS
};

extern const struct bbr2_param_desc bbr2_param_descs[BBR2_NR_SCALAR_PARAMS];

int bbr2_param_parse_u32(const struct bbr2_param_desc *desc, const char *buf,
			 u32 *out);
int bbr2_param_parse_pacing_gain(const char *buf, u32 gains[BBR2_CYCLE_LEN]);
int bbr2_param_set_version(u32 version);

#endif /* _BBR2_PARAMS_H */
