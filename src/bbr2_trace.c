// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr2 tracepoints (see bbr2_trace.h).
 *
 * The glue in tcp_bbr2_main.c takes a bbr2_trace_snap of the socket's state
 * before it calls into the algorithm and hands it to bbr2_trace_changes()
 * afterwards, but only while some tracepoint of ours is enabled: the ACK
 * path pays one static-key test otherwise.  Comparing states here, instead
 * of calling a tracepoint at every assignment in bbr2_model.c, keeps the
 * algorithm free of tracing and traces every path that changes the state.
 */
#include "bbr2.h"

#define CREATE_TRACE_POINTS
#include "bbr2_trace.h"

/* bw in packets/us << BW_SCALE to kbit/s; ~0U (no bound) stays ~0ULL. */
static u64 bbr2_trace_kbps(const struct sock *sk, u32 bw)
{
	if (bw == ~0U)
		return ~0ULL;
	/* bw * mss < 2^48, times 8000 < 2^61: no overflow */
	return ((u64)bw * tcp_sk(sk)->mss_cache * 8000) >> BW_SCALE;
}

void bbr2_trace_snap(const struct sock *sk, struct bbr2_trace_snap *snap)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);

	snap->mode = bbr->mode;
	snap->cycle_idx = bbr->cycle_idx;
	snap->loss_in_round = bbr->loss_in_round;
	snap->ecn_in_round = bbr->ecn_in_round;
	snap->initialized = bbr->initialized;
	snap->min_rtt_us = bbr->min_rtt_us;
	snap->max_bw = bbr2_max_bw(bbr);
	snap->bw_lo = bbr->bw_lo;
	snap->inflight_hi = bbr->inflight_hi;
	snap->inflight_lo = bbr->inflight_lo;
}

/* One bbr2_state event, from (mode, phase) to (mode, phase); the rest is now. */
static void bbr2_trace_state(const struct sock *sk, u8 old_mode, u8 old_phase,
			     u8 mode, u8 phase,
			     const struct bbr2_trace_snap *now)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);

	trace_bbr2_state(sk, old_mode, old_phase, mode, phase,
			 bbr2_trace_kbps(sk, bbr2_bw(bbr)), now->min_rtt_us,
			 tcp_snd_cwnd(tcp_sk(sk)), now->inflight_hi,
			 bbr->loss_mode);
}

void bbr2_trace_changes(const struct sock *sk,
			const struct bbr2_trace_snap *old, u32 losses)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	struct bbr2_trace_snap now;
	u8 from_mode, from_phase;
	bool cut;

	bbr2_trace_snap(sk, &now);
	/* before init() nothing is modelled; init() itself is a transition */
	if (!now.initialized)
		return;
	from_mode = old->initialized ? old->mode : BBR2_STARTUP;
	from_phase = old->cycle_idx;
	/*
	 * STARTUP leaves only through DRAIN, and DRAIN ends on the ACK that
	 * enters it when inflight is already down to the BDP (as after a
	 * STARTUP ended by loss): both steps are reported.
	 */
	if (from_mode == BBR2_STARTUP && now.mode == BBR2_PROBE_BW) {
		bbr2_trace_state(sk, BBR2_STARTUP, from_phase, BBR2_DRAIN,
				 from_phase, &now);
		from_mode = BBR2_DRAIN;
	}
	if (!old->initialized || now.mode != from_mode ||
	    (now.mode == BBR2_PROBE_BW && now.cycle_idx != from_phase))
		bbr2_trace_state(sk, from_mode, from_phase, now.mode,
				 now.cycle_idx, &now);
	if (now.max_bw != old->max_bw)
		trace_bbr2_bw(sk, bbr2_trace_kbps(sk, old->max_bw),
			      bbr2_trace_kbps(sk, now.max_bw),
			      bbr2_trace_kbps(sk, bbr2_bw(bbr)));
	if (now.min_rtt_us != old->min_rtt_us)
		trace_bbr2_min_rtt(sk, old->min_rtt_us, now.min_rtt_us);
	if (now.inflight_hi != old->inflight_hi ||
	    now.inflight_lo != old->inflight_lo || now.bw_lo != old->bw_lo)
		trace_bbr2_bounds(sk, now.inflight_hi, now.inflight_lo,
				  bbr2_trace_kbps(sk, now.bw_lo));
	/* a cut of a bound is a reaction to the loss or ECN of its round */
	cut = now.inflight_hi < old->inflight_hi ||
	      now.inflight_lo < old->inflight_lo || now.bw_lo < old->bw_lo;
	if (old->initialized && cut &&
	    (losses || old->loss_in_round || old->ecn_in_round ||
	     now.loss_in_round || now.ecn_in_round))
		trace_bbr2_loss_ecn(sk, losses,
				    old->loss_in_round || now.loss_in_round ||
				    losses,
				    old->ecn_in_round || now.ecn_in_round,
				    bbr->ecn_alpha, old->inflight_hi,
				    now.inflight_hi, old->inflight_lo,
				    now.inflight_lo);
}
