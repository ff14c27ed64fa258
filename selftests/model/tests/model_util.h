/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the model tests: reading a CC's view through get_info()
 * (what `ss -ti` shows) and bbr2's private state (src/bbr2.h).
 */
#ifndef _MODEL_UTIL_H
#define _MODEL_UTIL_H

#include <shim.h>
#include "linksim.h"
#include "tap.h"

/* bw (bytes/s) and min_rtt (us) as get_info() reports them; 0 if none. */
static inline u64 cc_info_bw(struct sock *sk, u32 *min_rtt_us)
{
	const struct tcp_congestion_ops *ops = inet_csk(sk)->icsk_ca_ops;
	union tcp_cc_info info;
	int attr = 0;

	memset(&info, 0, sizeof(info));
	if (!ops->get_info ||
	    !ops->get_info(sk, 1U << (INET_DIAG_BBRINFO - 1), &attr, &info) ||
	    attr != INET_DIAG_BBRINFO)
		return 0;
	if (min_rtt_us)
		*min_rtt_us = info.bbr.bbr_min_rtt;
	return (u64)info.bbr.bbr_bw_hi << 32 | info.bbr.bbr_bw_lo;
}

/* Payload bytes/s the link can carry for cfg's MSS and header overhead. */
static inline double link_payload_Bps(const struct linksim_cfg *cfg)
{
	return (double)cfg->rate_bps / 8.0 * cfg->mss / (cfg->mss + cfg->hdr_bytes);
}

/*
 * The VM benchmark's dumbbell (selftests/net/lib.sh): rate_bps x rtt_us, fq
 * at the sender, a drop-tail buffer of buf_bdp BDPs counted in bytes with
 * 66 header bytes per packet, as the tbf counts it.
 */
static inline void linksim_cfg_dumbbell(struct linksim_cfg *cfg, u64 rate_bps,
					u32 rtt_us, double buf_bdp, u64 seed)
{
	linksim_cfg_default(cfg);
	cfg->rate_bps = rate_bps;
	cfg->rtt_us = rtt_us;
	cfg->hdr_bytes = 66;
	cfg->queue_pkts = 0;
	cfg->queue_bytes = (u64)(linksim_bdp_pkts(cfg) * buf_bdp) *
			   (cfg->mss + cfg->hdr_bytes);
	cfg->fq = true;
	cfg->seed = seed;
}

/* Jain's fairness index of n throughputs. */
static inline double jain_index(const double *x, int n)
{
	double s = 0, s2 = 0;
	int i;

	for (i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 0;
}


#endif
