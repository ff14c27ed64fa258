/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_bbr2 internal interface: per-socket state and the congestion-control
 * entry points that tcp_bbr2_main.c registers with the TCP stack.
 */
#ifndef _BBR2_H
#define _BBR2_H

#include "bbr2_compat.h"
#include "bbr2_params.h"

/*
 * Bandwidth is kept in packets per microsecond scaled by 2^24: one unit is
 * about 715 bit/s at 1500-byte packets, and a u32 reaches ~3 Tbit/s.
 */
#define BW_SCALE	24
#define BW_UNIT		BIT(BW_SCALE)

/* Gains and fractions are scaled by 2^8: 256 means 1.0. */
#define BBR_SCALE	8
#define BBR_UNIT	BIT(BBR_SCALE)

enum bbr2_mode {
	BBR2_STARTUP,		/* ramp up sending rate rapidly to fill pipe */
	BBR2_DRAIN,		/* drain the queue STARTUP created */
	BBR2_PROBE_BW,		/* discover and share bw: the steady state */
	BBR2_PROBE_RTT,		/* cut inflight to re-measure min_rtt */
};

/* PROBE_BW phases; the values index the pacing_gain parameter array. */
enum bbr2_cycle_phase {
	BBR2_BW_PROBE_UP	= 0,	/* push inflight up to probe for bw */
	BBR2_BW_PROBE_DOWN	= 1,	/* drain the queue the probe built */
	BBR2_BW_PROBE_CRUISE	= 2,	/* use the pipe, leave headroom */
	BBR2_BW_PROBE_REFILL	= 3,	/* refill the pipe before probing */
};

/* What the ACKs now arriving tell us about our last bandwidth probe. */
enum bbr2_ack_phase {
	BBR2_ACKS_INIT,			/* not probing, no probe feedback */
	BBR2_ACKS_REFILLING,		/* sending at est. bw to fill pipe */
	BBR2_ACKS_PROBE_STARTING,	/* inflight rising to probe bw */
	BBR2_ACKS_PROBE_FEEDBACK,	/* ACKs of data sent while probing */
	BBR2_ACKS_PROBE_STOPPING,	/* probe over, its ACKs still coming */
};

/*
 * Per-socket state.  It lives in the stock icsk_ca_priv area, so nothing is
 * allocated per socket and nothing can leak; the BUILD_BUG_ON in
 * tcp_bbr2_main.c keeps it that way.  The area is 104 bytes on every kernel
 * this module builds for (5.10 and later): Linux 5.1 grew it from 88 for
 * BBRv1's ACK-aggregation state.
 * Timestamps marked "jiffies" are tcp_jiffies32, "us" are the low 32 bits of
 * tcp_mstamp (they only ever measure intervals far below the 71 min wrap).
 */
struct bbr2 {
	u32	min_rtt_us;		/* min RTT in min_rtt_win_sec window */
	u32	min_rtt_stamp;		/* jiffies when min_rtt_us was taken */
	u32	probe_rtt_min_us;	/* min RTT in probe_rtt_win_ms window */
	u32	probe_rtt_min_stamp;	/* jiffies of probe_rtt_min_us */
	u32	probe_rtt_done_stamp;	/* jiffies to end PROBE_RTT; 0: unset */
	u32	next_rtt_delivered;	/* tp->delivered that ends this round */
	u32	cycle_stamp_us;		/* us when this PROBE_BW phase began */
	u32	probe_wait_us:26,	/* wall-clock wait before next probe */
		loss_mode:1,		/* latched, bbr2_latch_loss_mode() */
		reference:1,		/* bbr2_ref: Google's model only */
		deep_buffer:1,		/* loss_mode 1: a deep queue was seen */
		bg_loss_seen:1,		/* loss_mode 1: level confirmed */
		deep_queue_seen:1,	/* loss_mode 1: in the last loss round */
		lost_since_min_rtt:1;	/* loss_mode 1: since min_rtt's sample */
	u32	prior_cwnd;		/* cwnd before recovery or PROBE_RTT */
	u32	full_bw;		/* bw when it last grew by full_bw_thresh */
	u32	bw_hi[2];		/* max bw of previous and current cycle */
	u32	bw_lo;			/* short-term bw bound; ~0U: unbounded */
	u32	bw_latest;		/* max bw sample in the last loss round */
	u32	inflight_hi;		/* long-term inflight bound; ~0U: none */
	u32	inflight_lo;		/* short-term inflight bound; ~0U: none */
	u32	inflight_latest;	/* max delivered per sample, last round */
	u32	undo_inflight_hi;	/* inflight_hi when recovery started */
	u32	loss_round_delivered;	/* tp->delivered ending the loss round */
	u32	loss_round_lost;	/* tp->lost when the loss round began */
	union {
		/* REFILL and UP: packets ACKed since inflight_hi grew */
		u32	bw_probe_up_acks;
		/* DOWN and CRUISE in loss_mode 1 (bbr2_update_bg_loss()) */
		struct {
			/* rounds too small to judge their loss alone (the
			 * pool is judged at 512 / loss_thresh packets, so it
			 * never holds 1024)
			 */
			u32	pool_tx:19,	/* packets sent in them */
				pool_lost:8;	/* packets lost in them */
		} cruise;
	};
	u32	ack_epoch_stamp_us;	/* us when the ACK-aggregation epoch began */
	u16	extra_acked[2];		/* max excess ACKed, last 2 windows */
	u32	ack_epoch_acked:20,	/* packets (S)ACKed in this epoch */
		extra_acked_win_rtts:5,	/* age of extra_acked, in rounds */
		extra_acked_win_idx:1,	/* current extra_acked[] slot */
		full_bw_cnt:3,		/* rounds without full_bw_thresh growth */
		full_bw_now:1,		/* bw plateau seen recently */
		full_bw_reached:1,	/* STARTUP has filled the pipe */
		initialized:1;		/* init() has run (see bbr2_main()) */
	u32	mode:2,			/* enum bbr2_mode */
		cycle_idx:2,		/* enum bbr2_cycle_phase */
		ack_phase:3,		/* enum bbr2_ack_phase */
		prev_ca_state:3,	/* icsk_ca_state on the previous ACK */
		round_start:1,		/* this ACK starts a packet-timed round */
		loss_round_start:1,	/* this ACK starts a loss round */
		idle_restart:1,		/* restarting after idle */
		probe_rtt_round_done:1,	/* a full round spent in PROBE_RTT */
		has_seen_rtt:1,		/* pacing rate set from a real RTT */
		bw_probe_up_rounds:5,	/* rounds in PROBE_UP: slope exponent */
		bw_probe_samples:1,	/* samples reflect our bw probing */
		prev_probe_too_high:1,	/* last PROBE_UP hit too much loss/ECN */
		stopped_risky_probe:1,	/* last PROBE_UP stopped at inflight_hi */
		loss_in_round:1,	/* loss seen in this loss round */
		ecn_in_round:1,		/* ECE seen in this loss round */
		loss_in_cycle:1,	/* loss seen in this PROBE_BW cycle */
		ecn_in_cycle:1,		/* CE seen in this PROBE_BW cycle */
		ecn_eligible:1,		/* ECN negotiated and enabled */
		ece_pending:1,		/* in_ack_event saw ECE for this ACK */
		undo_bw_lo_set:1,	/* bw_lo was bounded when recovery began */
		undo_inflight_lo_set:1,	/* inflight_lo: the same */
		low_rtt_in_round:1;	/* loss_mode 1: an RTT near min_rtt */
	u32	ecn_alpha:9,		/* EWMA of the CE ratio, 1/256 */
		rounds_since_probe:8,	/* rounds since bw was last probed */
		loss_events_in_round:4,	/* ACKs reporting loss, STARTUP round */
		startup_ecn_rounds:2,	/* consecutive high-CE STARTUP rounds */
		init_cwnd:7,		/* cwnd at init, capped at 127 */
		bg_loss_level:2;	/* loss_mode 1: cruising loss rate */
};

/* Windowed max recent bw sample: the last 1-2 PROBE_BW cycles. */
static inline u32 bbr2_max_bw(const struct bbr2 *bbr)
{
	return max(bbr->bw_hi[0], bbr->bw_hi[1]);
}

/* The bw we believe we may use now: max_bw unless loss/ECN bounded it. */
static inline u32 bbr2_bw(const struct bbr2 *bbr)
{
	return min(bbr2_max_bw(bbr), bbr->bw_lo);
}

/* PROBE_BW UP: inflight pushed above the estimate, probing for bw. */
static inline bool bbr2_probing_up(const struct bbr2 *bbr)
{
	return bbr->mode == BBR2_PROBE_BW && bbr->cycle_idx == BBR2_BW_PROBE_UP;
}

/* PROBE_BW DOWN: draining the queue our last probe built. */
static inline bool bbr2_draining_probe(const struct bbr2 *bbr)
{
	return bbr->mode == BBR2_PROBE_BW &&
	       bbr->cycle_idx == BBR2_BW_PROBE_DOWN;
}

/*
 * Entry points registered in struct tcp_congestion_ops.  The glue passes
 * each the tunables set it loaded at the hook's entry (@t), so that one
 * invocation reads one set throughout.
 *
 * init() also takes the socket's flavour, which the glue knows from the
 * name the socket selected and the model keeps for the socket's life:
 * @reference true ("bbr2_ref") runs Google's model exactly, whatever the
 * project's extensions (loss_mode) are set to; false ("bbr2") runs the
 * model with the extensions the parameters select.
 */
void bbr2_init(struct sock *sk, const struct bbr2_tunables *t,
	       bool reference);
void bbr2_main(struct sock *sk, const struct rate_sample *rs,
	       const struct bbr2_tunables *t);
u32 bbr2_ssthresh(struct sock *sk);
u32 bbr2_undo_cwnd(struct sock *sk, const struct bbr2_tunables *t);
void bbr2_set_state(struct sock *sk, u8 new_state,
		    const struct bbr2_tunables *t);
void bbr2_cwnd_event(struct sock *sk, enum tcp_ca_event event,
		     const struct bbr2_tunables *t);
void bbr2_cwnd_event_tx_start(struct sock *sk, const struct bbr2_tunables *t);
void bbr2_in_ack_event(struct sock *sk, u32 flags);
u32 bbr2_min_tso_segs(struct sock *sk, const struct bbr2_tunables *t);
u32 bbr2_tso_segs(struct sock *sk, unsigned int mss_now,
		  const struct bbr2_tunables *t);
u32 bbr2_sndbuf_expand(struct sock *sk);
size_t bbr2_get_info(struct sock *sk, u32 ext, int *attr,
		     union tcp_cc_info *info, const struct bbr2_tunables *t);

/*
 * Tracing (bbr2_trace.c, kernel only): the state a tracepoint reports on
 * when it changes, taken before and compared after each call into the
 * algorithm.
 */
struct bbr2_trace_snap {
	u32	min_rtt_us;
	u32	max_bw;
	u32	bw_lo;
	u32	inflight_hi;
	u32	inflight_lo;
	u8	mode;
	u8	cycle_idx;
	u8	loss_in_round;
	u8	ecn_in_round;
	u8	initialized;
};

void bbr2_trace_snap(const struct sock *sk, struct bbr2_trace_snap *snap);
void bbr2_trace_changes(const struct sock *sk,
			const struct bbr2_trace_snap *old, u32 losses);

#endif /* _BBR2_H */
