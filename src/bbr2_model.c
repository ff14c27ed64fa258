// SPDX-License-Identifier: GPL-2.0
/*
 * BBRv3 (and BBRv2) congestion control for unmodified Linux kernels.
 *
 * BBR builds an explicit model of the network path from the ACK stream and
 * paces data to match it, instead of reacting to loss the way Reno and CUBIC
 * do.  The model has two central estimates:
 *
 *   max_bw  = windowed max of delivery-rate samples (over 2 PROBE_BW cycles)
 *   min_rtt = windowed min of RTT samples (over min_rtt_win_sec, 10 s)
 *
 * and their product, the bandwidth-delay product (BDP), is how much data the
 * path holds without a queue.  Version 2 added bounds learned from loss and
 * ECN, because v1 kept probing into full buffers regardless of loss:
 *
 *   inflight_hi, bw_hi: long-term upper bounds, set when a bandwidth probe
 *	saw a loss rate above loss_thresh (2%) or a CE-mark rate above
 *	ecn_thresh, and raised again while probing finds no such signal;
 *   inflight_lo, bw_lo: short-term lower bounds, cut by beta (30%) in each
 *	round trip with loss (and by alpha * ecn_factor with CE marks) while
 *	not probing, and reset whenever a new probe begins.
 *
 * On every ACK:  rate sample -> update the model (bw, min_rtt, rounds,
 * loss/ECN signals, state machine) -> pacing rate = pacing_gain * bw ->
 * cwnd = cwnd_gain * BDP, capped by the inflight bounds.  See bbr2_main().
 *
 * State machine:
 *
 *             |
 *             V
 *    +---> STARTUP  ----+
 *    |        |         |
 *    |        V         |
 *    |      DRAIN   ----+
 *    |        |         |
 *    |        V         |
 *    +---> PROBE_BW ----+        PROBE_BW cycles through
 *    |      ^    |      |          DOWN -> CRUISE -> REFILL -> UP -> DOWN
 *    |      |    |      |        spending most of its time in CRUISE and
 *    |      +----+      |        probing every 2-3 s (or sooner, on the
 *    |                  |        time scale a Reno flow of our BDP would).
 *    +---- PROBE_RTT <--+
 *
 * STARTUP doubles the sending rate each round (pacing_gain 2.77 = 4 ln 2)
 * until the bw stops growing by 25% for 3 rounds, or loss/ECN runs high.
 * DRAIN paces below the bw until the queue STARTUP built is gone.
 * PROBE_BW: DOWN drains any queue the last probe left; CRUISE paces at bw
 * while leaving headroom below inflight_hi; REFILL spends a round filling
 * the pipe at bw; UP paces at 1.25 x bw and grows inflight_hi exponentially
 * until loss/ECN says stop, the bw plateaus (v3), or inflight reaches
 * 1.25 x BDP (v2).
 * PROBE_RTT: if min_rtt has not been refreshed for probe_rtt_win_ms (5 s),
 * hold cwnd at half the BDP for probe_rtt_mode_ms (200 ms) and a round, so
 * that competing flows drain the queue together and see the real min_rtt.
 *
 * loss_mode=1 (default 0, v3) is another response to loss, kept in
 * bbr2_loss_mode.h: this file asks it at each decision point, and in
 * loss_mode 0 every answer is v3's.  A socket that init() makes a
 * reference socket (the "bbr2_ref" name) runs loss_mode 0 whatever the
 * parameter says: Google's model exactly.
 *
 * What a stock kernel does not give us, and what we do instead
 * (Documentation/design.rst has the full account and the costs):
 *  - No per-packet loss hook (skb_marked_lost) and no rs->lost or
 *    rs->tx_in_flight: loss is judged per loss round from tp->lost, against
 *    the flight the losses came out of (rs->prior_in_flight, or the round's
 *    delivered+lost if larger).  See bbr2_ack_init().
 *  - No rs->is_ece: in_ack_event(CA_ACK_ECE) marks the ACK instead.
 *  - No way to ask for DCTCP-style CE feedback without forcing ECN on every
 *    connection, so ECN is used only when the admin enables it
 *    (ecn_enable) and the connection negotiated it.
 *  - The private area is 104 bytes, so the undo copies of bw_lo and
 *    inflight_lo are not kept, only whether each was bounded: undo drops
 *    a bound that did not exist when recovery began and keeps one that
 *    did, rather than restoring its value then.
 *
 * This is original code for the tcp_bbr2 project, written from the IETF
 * draft (draft-ietf-ccwg-bbr), the mainline BBRv1 module and Google's
 * published BBRv2/v3 descriptions and sources.
 */
#include "bbr2.h"
#include "bbr2_loss_mode.h"

/* Per-ACK values that several steps of the model need. */
struct bbr2_ack {
	u32 sample_bw;		/* this sample's delivery rate, BW_UNIT */
	u32 lost;		/* packets lost in this loss round */
	u32 tx_in_flight;	/* the flight those losses came out of */
	s32 delivered_ce;	/* CE-marked deliveries in the sample, or -1 */
};

/* Pace ~1% below the estimated bw, to drain rather than build queues. */
#define BBR2_PACING_MARGIN_PERCENT	1

/*
 * Never pace slower than one segment per 100 ms.  TCP stamps each packet
 * with its departure time and moves the socket's send clock on by
 * len / pacing_rate; nothing moves it back when the rate recovers.  A
 * rate of a few bytes per second (bw_lo cut to a stalled round's delivery
 * rate, times a low gain) would push that clock minutes ahead: sch_fq drops
 * whatever is stamped beyond its 10 s horizon, retransmissions included,
 * no ACK comes back to raise the rate, and the connection hangs.  100 ms,
 * half of TCP_RTO_MIN, keeps even the two segments TSQ lets into the qdisc
 * inside the shortest retransmission timeout.
 */
#define BBR2_MAX_PACING_GAP_US		100000

/* ack_epoch_acked is 20 bits wide: restart the epoch before it overflows. */
#define BBR2_ACK_EPOCH_ACKED_MAX	((1U << 20) - 1)

/* bw_probe_up_rounds is 5 bits; 2^30 packets per round is plenty. */
#define BBR2_MAX_PROBE_UP_ROUNDS	30

static u32 bbr2_now_us(const struct tcp_sock *tp)
{
	return (u32)tp->tcp_mstamp;
}

/* ---------------------------------------------------------------------- */
/* The model's estimates.                                                  */

static bool bbr2_full_bw_reached(const struct bbr2 *bbr)
{
	return bbr->full_bw_reached;
}

static u16 bbr2_extra_acked(const struct bbr2 *bbr)
{
	return max(bbr->extra_acked[0], bbr->extra_acked[1]);
}

static bool bbr2_is_v2(const struct bbr2_tunables *t)
{
	return t->version == 2;
}

static u32 bbr2_pacing_gain(const struct bbr2 *bbr,
			    const struct bbr2_tunables *t)
{
	switch (bbr->mode) {
	case BBR2_STARTUP:
		return bbr2_param(t, HIGH_GAIN);
	case BBR2_DRAIN:
		return bbr2_param(t, DRAIN_GAIN);
	case BBR2_PROBE_BW:
		return t->pacing_gain[bbr->cycle_idx];
	default:			/* PROBE_RTT */
		return BBR_UNIT;
	}
}

static u32 bbr2_cwnd_gain(const struct bbr2 *bbr, const struct bbr2_tunables *t)
{
	u32 gain;

	switch (bbr->mode) {
	case BBR2_STARTUP:
	case BBR2_DRAIN:		/* keep STARTUP's cwnd while draining */
		return bbr2_param(t, STARTUP_CWND_GAIN);
	case BBR2_PROBE_BW:
		gain = bbr2_param(t, CWND_GAIN);
		/* Room for the extra inflight a probe needs. */
		if (bbr->cycle_idx == BBR2_BW_PROBE_UP)
			gain += bbr2_param(t, BW_PROBE_CWND_GAIN) *
				BBR_UNIT / 4;
		return gain;
	default:			/* PROBE_RTT */
		return bbr2_param(t, PROBE_RTT_CWND_GAIN);
	}
}

/*
 * Convert a bw (packets/us << BW_SCALE) and a gain to bytes per second.
 * Each step keeps a 128-bit intermediate, so no input overflows: bw < 2^32
 * and mss < 2^16 make the first product < 2^48.
 */
static u64 bbr2_rate_bytes_per_sec(const struct sock *sk, u32 bw, u32 gain,
				   u32 margin_percent)
{
	u64 rate = (u64)bw * tcp_sk(sk)->mss_cache;

	rate = mul_u64_u32_shr(rate, gain, BBR_SCALE);
	rate = mul_u64_u32_shr(rate, USEC_PER_SEC / 100 * (100 - margin_percent),
			       BW_SCALE);
	return max_t(u64, rate, 1);
}

static unsigned long bbr2_bw_to_pacing_rate(const struct sock *sk, u32 bw,
					    u32 gain)
{
	u64 floor = (u64)tcp_sk(sk)->mss_cache *
		    (USEC_PER_SEC / BBR2_MAX_PACING_GAP_US);
	u64 rate = bbr2_rate_bytes_per_sec(sk, bw, gain,
					   BBR2_PACING_MARGIN_PERCENT);

	rate = max(rate, floor);
	return min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate));
}

/* Before the first bw sample, pace at high_gain * cwnd / RTT. */
static void bbr2_init_pacing_rate_from_rtt(struct sock *sk,
					   const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 rtt_us = USEC_PER_MSEC;	/* nominal RTT until we measure one */
	u32 gain;
	u64 bw;

	if (tp->srtt_us) {
		rtt_us = max(tp->srtt_us >> 3, 1U);
		bbr->has_seen_rtt = 1;
	}
	bw = div_u64((u64)tcp_snd_cwnd(tp) * BW_UNIT, rtt_us);
	bw = min_t(u64, bw, U32_MAX);
	gain = bbr2_param(t, HIGH_GAIN);
	bbr2_set_sk_pacing_rate(sk, bbr2_bw_to_pacing_rate(sk, bw, gain));
}

static void bbr2_set_pacing_rate(struct sock *sk, u32 bw, u32 gain,
				 const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	unsigned long rate = bbr2_bw_to_pacing_rate(sk, bw, gain);

	if (unlikely(!bbr->has_seen_rtt && tp->srtt_us))
		bbr2_init_pacing_rate_from_rtt(sk, t);
	/* Until the pipe is full, never slow down on a low sample. */
	if (bbr2_full_bw_reached(bbr) || rate > bbr2_pacing_rate(sk))
		bbr2_set_sk_pacing_rate(sk, rate);
}

/* Below min_tso_rate, send one segment at a time to keep bursts small. */
static u32 bbr2_tso_segs_floor(const struct sock *sk,
			       const struct bbr2_tunables *t)
{
	return bbr2_pacing_rate(sk) < (bbr2_param(t, MIN_TSO_RATE) >> 3) ?
	       1 : 2;
}

u32 bbr2_min_tso_segs(struct sock *sk, const struct bbr2_tunables *t)
{
	return bbr2_tso_segs_floor(sk, t);
}

/*
 * Bytes we expect per TSO burst: a pacing-rate allowance (1 ms of data at
 * the default pacing shift) plus 64 KB halved for every 2^tso_rtt_shift us
 * of min_rtt, since short paths need bigger bursts to reach line rate.
 */
static u32 bbr2_tso_bytes_goal(const struct sock *sk,
			       const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 shift = bbr2_param(t, TSO_RTT_SHIFT);
	u64 bytes;
	u32 r;

	bytes = bbr2_pacing_rate(sk) >> READ_ONCE(sk->sk_pacing_shift);
	if (shift) {
		r = bbr->min_rtt_us >> shift;
		if (r < BITS_PER_TYPE(u32))
			bytes += GSO_LEGACY_MAX_SIZE >> r;
	}
	return min_t(u64, bytes, GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER);
}

/* The same goal in segments: whole ones, and at least the floor. */
static u32 bbr2_tso_segs_goal(const struct sock *sk,
			      const struct bbr2_tunables *t)
{
	u32 mss = max_t(u32, tcp_sk(sk)->mss_cache, 1);

	return max(bbr2_tso_bytes_goal(sk, t) / mss,
		   bbr2_tso_segs_floor(sk, t));
}

/* Kernels with Google's BBRv3 patch ask the CC for the whole TSO burst. */
u32 bbr2_tso_segs(struct sock *sk, unsigned int mss_now,
		  const struct bbr2_tunables *t)
{
	return bbr2_tso_segs_goal(sk, t);
}

/*
 * bdp = ceil(bw * min_rtt * gain), in packets.  With no RTT sample yet we
 * cannot know the BDP, so stay at the initial cwnd.
 */
static u32 bbr2_bdp(const struct sock *sk, u32 bw, u32 gain)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u64 w;

	if (unlikely(bbr->min_rtt_us == ~0U))
		return bbr->init_cwnd;
	w = (u64)bw * bbr->min_rtt_us;		/* < 2^64: both are u32 */
	w = mul_u64_u32_shr(w, gain, BBR_SCALE);
	w = (w + BW_UNIT - 1) >> BW_SCALE;
	return min_t(u64, w, U32_MAX);
}

/*
 * Budget enough cwnd for full-sized TSO bursts queued at both hosts (one in
 * the qdisc, one in the NIC, one in the receiver's GRO/delayed ACK), and
 * nudge a PROBE_UP over the BDP even when the BDP is a few packets.
 */
static u32 bbr2_quantization_budget(const struct sock *sk, u32 cwnd,
				    const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 mss = max_t(u32, tcp_sk(sk)->mss_cache, 1);

	/*
	 * Room for three TSO bursts: cwnd >= 3 * tso_segs_goal.  A cwnd
	 * whose bytes cover three bursts' bytes, and that covers three
	 * minimal bursts, has it already; proving that with a multiply
	 * spares the division by mss on the ACKs of all but tiny windows.
	 */
	if ((u64)cwnd * mss < 3ULL * bbr2_tso_bytes_goal(sk, t) ||
	    cwnd < 3 * bbr2_tso_segs_floor(sk, t))
		cwnd = max(cwnd, 3 * bbr2_tso_segs_goal(sk, t));
	cwnd = max(cwnd, bbr2_param(t, CWND_MIN_TARGET));
	if (bbr2_probing_up(bbr))
		cwnd = cwnd < U32_MAX - 2 ? cwnd + 2 : U32_MAX;
	return cwnd;
}

/* The inflight that a gain times the BDP calls for, with TSO budget. */
static u32 bbr2_inflight(const struct sock *sk, u32 bw, u32 gain,
			 const struct bbr2_tunables *t)
{
	return bbr2_quantization_budget(sk, bbr2_bdp(sk, bw, gain), t);
}

/* What we want in flight: the BDP, unless congestion has cut cwnd. */
static u32 bbr2_target_inflight(const struct sock *sk,
				const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 bdp = bbr2_inflight(sk, bbr2_bw(bbr), BBR_UNIT, t);

	return min(bdp, tcp_snd_cwnd(tcp_sk(sk)));
}

/*
 * With fq or internal pacing, skbs may sit in the pacing layer with a
 * departure time in the future.  Estimate what will actually be in the
 * network when the next skb departs: inflight now, plus that skb if we are
 * growing inflight, minus what bw delivers until then.
 */
static u32 bbr2_packets_in_net_at_edt(const struct sock *sk, u32 inflight_now,
				      const struct bbr2_tunables *t)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u64 now_ns = tp->tcp_clock_cache;
	u64 edt_ns = max(tp->tcp_wstamp_ns, now_ns);
	u64 interval_us = div_u64(edt_ns - now_ns, NSEC_PER_USEC);
	u64 delivered_by_edt = mul_u64_u32_shr(interval_us, bbr2_bw(bbr),
					       BW_SCALE);
	u64 inflight_at_edt = inflight_now;

	if (bbr2_pacing_gain(bbr, t) > BBR_UNIT)
		inflight_at_edt += bbr2_tso_segs_goal(sk, t);
	if (delivered_by_edt >= inflight_at_edt)
		return 0;
	return inflight_at_edt - delivered_by_edt;
}

/* cwnd allowance for data ACKed faster than bw (ACK aggregation). */
static u32 bbr2_ack_aggregation_cwnd(const struct sock *sk,
				     const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 gain = bbr2_param(t, EXTRA_ACKED_GAIN);
	u64 max_aggr_cwnd;
	u32 aggr_cwnd;

	if (!gain)
		return 0;
	max_aggr_cwnd = ((u64)bbr2_bw(bbr) * bbr2_param(t, EXTRA_ACKED_MAX_US))
			>> BW_SCALE;
	aggr_cwnd = (gain * bbr2_extra_acked(bbr)) >> BBR_SCALE;
	return min_t(u64, aggr_cwnd, max_aggr_cwnd);
}

static u32 bbr2_probe_rtt_cwnd(const struct sock *sk,
			       const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 gain = bbr2_param(t, PROBE_RTT_CWND_GAIN);
	u32 min_cwnd = bbr2_param(t, CWND_MIN_TARGET);

	if (!gain)
		return min_cwnd;
	return max(min_cwnd, bbr2_bdp(sk, bbr2_bw(bbr), gain));
}

/* Remember the last known-good cwnd, to restore after loss or PROBE_RTT. */
static void bbr2_save_cwnd(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (bbr->prev_ca_state < TCP_CA_Recovery && bbr->mode != BBR2_PROBE_RTT)
		bbr->prior_cwnd = tcp_snd_cwnd(tp);
	else	/* recovery or PROBE_RTT cut cwnd: keep the larger */
		bbr->prior_cwnd = max(bbr->prior_cwnd, tcp_snd_cwnd(tp));
}

/*
 * Grow cwnd toward cwnd_gain * BDP (plus the aggregation allowance), by at
 * most the packets ACKed: a slow start toward the target when below it, and
 * a snap down to it once the pipe has been filled.
 */
static void bbr2_set_cwnd(struct sock *sk, const struct rate_sample *rs,
			  u32 bw, u32 gain, const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u64 cwnd = tcp_snd_cwnd(tp);
	u32 acked = rs->acked_sacked;
	u64 target;

	if (acked) {
		target = (u64)bbr2_bdp(sk, bw, gain) +
			 bbr2_ack_aggregation_cwnd(sk, t);
		target = bbr2_quantization_budget(sk, min_t(u64, target,
							    U32_MAX), t);
		if (bbr2_full_bw_reached(bbr))
			cwnd = min(cwnd + acked, target);
		else if (cwnd < target || cwnd < 2 * bbr->init_cwnd)
			cwnd += acked;
		cwnd = max_t(u64, cwnd, bbr2_param(t, CWND_MIN_TARGET));
	}
	/* tcp_snd_cwnd_set() WARNs above INT_MAX; the clamp defaults to ~0U */
	cwnd = min_t(u64, cwnd, min_t(u32, tp->snd_cwnd_clamp, INT_MAX));
	if (bbr->mode == BBR2_PROBE_RTT)	/* drain queue, refresh min_rtt */
		cwnd = min_t(u64, cwnd, bbr2_probe_rtt_cwnd(sk, t));
	tcp_snd_cwnd_set(tp, max_t(u32, cwnd, 1));
}

/* ---------------------------------------------------------------------- */
/* Rounds, samples and filters.                                            */

/* A sample we can learn a rate and a volume from. */
static bool bbr2_sample_is_valid(const struct rate_sample *rs)
{
	return rs->interval_us > 0 && rs->delivered >= 0 && rs->acked_sacked;
}

/* A packet-timed round ends when a packet sent after it began is ACKed. */
static void bbr2_update_round(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr->round_start = 0;
	if (rs->interval_us > 0 &&
	    !before(rs->prior_delivered, bbr->next_rtt_delivered)) {
		bbr->next_rtt_delivered = tp->delivered;
		bbr->round_start = 1;
	}
}

/* Delivered packets over the interval: a lower bound on the bottleneck bw. */
static u32 bbr2_bw_sample(const struct rate_sample *rs)
{
	u64 bw;

	if (rs->interval_us <= 0 || rs->delivered < 0)
		return 0;
	bw = div64_u64((u64)rs->delivered * BW_UNIT + rs->interval_us - 1,
		       (u64)rs->interval_us);
	return min_t(u64, bw, U32_MAX);
}

static u32 bbr2_add_sat(u32 a, u32 b)
{
	return a + b < a ? U32_MAX : a + b;
}

/*
 * Stock kernels tell us how many packets each ACK marked lost, but not, as
 * Google's patched kernel does per lost skb, how much was in flight when
 * they were sent.  So loss is judged over the loss round: packets lost since
 * it began, against the flight they came out of.  That flight is at least
 * what is in flight now (rs->prior_in_flight), what the round has resolved
 * (delivered + lost), and what was delivered while the ACKed packet was in
 * flight (rs->delivered) plus the losses -- the last matters when inflight
 * has just been cut (PROBE_BW DOWN, PROBE_RTT) and the losses reported now
 * come from the larger flight of the probe before.
 */
static void bbr2_ack_init(const struct sock *sk, const struct rate_sample *rs,
			  struct bbr2_ack *ack)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 resolved, sampled;

	ack->sample_bw = bbr2_bw_sample(rs);
	ack->lost = tp->lost - bbr->loss_round_lost;
	resolved = bbr2_add_sat(tp->delivered - bbr->loss_round_delivered,
				ack->lost);
	sampled = bbr2_add_sat(max_t(s32, rs->delivered, 0), ack->lost);
	ack->tx_in_flight = max3(rs->prior_in_flight, resolved, sampled);
	ack->delivered_ce = bbr2_rs_delivered_ce(rs);
}

/*
 * The first loss in a round starts a new loss round, so that the round
 * judged covers the whole flight the loss happened in (Google's kernel does
 * this from its skb_marked_lost hook, for every packet the stack marks
 * lost).  Stock kernels report the losses an ACK marks in rs->losses; those
 * an RTO marks reach only tp->lost, and are noted when the RTO moves us to
 * TCP_CA_Loss (bbr2_set_state()).  @lost: the losses being noted, the
 * last ones tp->lost counts.
 */
static void bbr2_note_loss(struct sock *sk, u32 lost)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (!bbr->loss_in_round) {
		bbr->loss_round_delivered = tp->delivered;
		bbr->loss_round_lost = tp->lost - lost;
	}
	bbr->loss_in_round = 1;
	bbr->loss_in_cycle = 1;
	bbr2_loss_mode_note_loss(bbr);
}

/* Track the rate and volume delivered in the latest loss round. */
static void bbr2_update_latest_delivery_signals(struct sock *sk,
						const struct rate_sample *rs,
						const struct bbr2_ack *ack)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr->loss_round_start = 0;
	if (!bbr2_sample_is_valid(rs))
		return;
	bbr->bw_latest = max(bbr->bw_latest, ack->sample_bw);
	bbr->inflight_latest = max_t(u32, bbr->inflight_latest, rs->delivered);
	if (!before(rs->prior_delivered, bbr->loss_round_delivered)) {
		bbr->loss_round_delivered = tp->delivered;
		bbr->loss_round_lost = tp->lost;
		bbr->loss_round_start = 1;
	}
}

/* Once per loss round, restart the "latest" filters from this sample. */
static void bbr2_advance_latest_delivery_signals(struct sock *sk,
						 const struct rate_sample *rs,
						 const struct bbr2_ack *ack)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (bbr->loss_round_start) {
		bbr->bw_latest = ack->sample_bw;
		bbr->inflight_latest = max_t(s32, rs->delivered, 0);
	}
}

static void bbr2_take_max_bw_sample(struct bbr2 *bbr, u32 bw)
{
	bbr->bw_hi[1] = max(bw, bbr->bw_hi[1]);
}

/* Forget the older cycle's max; done once per PROBE_BW cycle. */
static void bbr2_advance_max_bw_filter(struct bbr2 *bbr)
{
	if (!bbr->bw_hi[1])
		return;		/* no samples this cycle: keep the old ones */
	bbr->bw_hi[0] = bbr->bw_hi[1];
	bbr->bw_hi[1] = 0;
}

/*
 * ACK aggregation: data ACKed beyond what bw explains over the current
 * epoch.  Its windowed max (5-10 rounds; 1-2 in STARTUP) is added to cwnd
 * so that we keep sending through the silences between aggregated ACKs.
 */
static void bbr2_update_ack_aggregation(struct sock *sk,
					const struct rate_sample *rs,
					const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 win_rtts = bbr2_param(t, EXTRA_ACKED_WIN_RTTS);
	u32 epoch_us, extra_acked;
	u64 expected_acked;

	if (!bbr2_param(t, EXTRA_ACKED_GAIN) || !bbr2_sample_is_valid(rs))
		return;

	if (bbr->round_start) {
		bbr->extra_acked_win_rtts = min(0x1FU,
						bbr->extra_acked_win_rtts + 1U);
		if (!bbr2_full_bw_reached(bbr))
			win_rtts = 1;
		if (bbr->extra_acked_win_rtts >= win_rtts) {
			bbr->extra_acked_win_rtts = 0;
			bbr->extra_acked_win_idx ^= 1;
			bbr->extra_acked[bbr->extra_acked_win_idx] = 0;
		}
	}

	epoch_us = (u32)tp->delivered_mstamp - bbr->ack_epoch_stamp_us;
	expected_acked = ((u64)bbr2_bw(bbr) * epoch_us) >> BW_SCALE;

	/* ACKs slower than bw, or an epoch so old it says nothing: restart. */
	if (bbr->ack_epoch_acked <= expected_acked ||
	    bbr->ack_epoch_acked + rs->acked_sacked > BBR2_ACK_EPOCH_ACKED_MAX) {
		bbr->ack_epoch_acked = 0;
		bbr->ack_epoch_stamp_us = (u32)tp->delivered_mstamp;
		expected_acked = 0;
	}

	bbr->ack_epoch_acked = min_t(u32, BBR2_ACK_EPOCH_ACKED_MAX,
				     bbr->ack_epoch_acked + rs->acked_sacked);
	extra_acked = bbr->ack_epoch_acked - (u32)expected_acked;
	extra_acked = min3(extra_acked, tcp_snd_cwnd(tp), (u32)U16_MAX);
	if (extra_acked > bbr->extra_acked[bbr->extra_acked_win_idx])
		bbr->extra_acked[bbr->extra_acked_win_idx] = extra_acked;
}

/* ---------------------------------------------------------------------- */
/* Loss and ECN: upper bounds while probing, lower bounds otherwise.       */

static bool bbr2_is_probing_bandwidth(const struct bbr2 *bbr)
{
	return bbr->mode == BBR2_STARTUP ||
	       (bbr->mode == BBR2_PROBE_BW &&
		(bbr->cycle_idx == BBR2_BW_PROBE_REFILL ||
		 bbr->cycle_idx == BBR2_BW_PROBE_UP));
}

/*
 * ECN is used only on connections that negotiated it, when the admin says
 * CE marks here mean a shallow queue (ecn_enable), and on short paths where
 * such marking is typical (ecn_max_rtt_us).
 */
static bool bbr2_can_use_ecn(const struct sock *sk,
			     const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 max_rtt_us = bbr2_param(t, ECN_MAX_RTT_US);

	return bbr2_param(t, ECN_ENABLE) && bbr2_param(t, ECN_FACTOR) &&
	       bbr2_ecn_negotiated(tcp_sk(sk)) &&
	       (!max_rtt_us || bbr->min_rtt_us <= max_rtt_us);
}

/*
 * Was more than loss_thresh of the flight lost?  Where the loss mode has
 * learnt a background loss level, the limit is above it.
 */
static bool bbr2_is_loss_too_high(const struct bbr2 *bbr, u32 lost,
				  u32 tx_in_flight,
				  const struct bbr2_tunables *t)
{
	if (bbr2_bg_loss_level(bbr))
		return bbr2_loss_beyond_background(bbr, lost, tx_in_flight, t);
	return lost > (((u64)tx_in_flight * bbr2_param(t, LOSS_THRESH)) >>
		       BBR_SCALE);
}

/* Does loss or CE marking say that inflight has gone too high? */
static bool bbr2_is_inflight_too_high(const struct sock *sk,
				      const struct rate_sample *rs,
				      const struct bbr2_ack *ack,
				      const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 ecn_thresh = bbr2_param(t, ECN_THRESH);
	u64 limit;

	if (ack->lost && ack->tx_in_flight &&
	    bbr2_is_loss_too_high(bbr, ack->lost, ack->tx_in_flight, t))
		return true;
	if (ack->delivered_ce > 0 && rs->delivered > 0 &&
	    bbr->ecn_eligible && ecn_thresh) {
		limit = ((u64)rs->delivered * ecn_thresh) >> BBR_SCALE;
		if (ack->delivered_ce > limit)
			return true;
	}
	return false;
}

/* inflight_hi less the headroom we leave for other flows when cruising. */
static u32 bbr2_inflight_with_headroom(const struct sock *sk,
				       const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 min_cwnd = bbr2_param(t, CWND_MIN_TARGET);
	u32 headroom;

	if (bbr->inflight_hi == ~0U)
		return ~0U;
	headroom = ((u64)bbr->inflight_hi * bbr2_param(t, INFLIGHT_HEADROOM)) >>
		   BBR_SCALE;
	headroom = max(headroom, 1U) + bbr2_cruise_extra_headroom(bbr);
	if (headroom >= bbr->inflight_hi)
		return min_cwnd;
	return max(bbr->inflight_hi - headroom, min_cwnd);
}

/* Cap cwnd by the inflight bounds that apply in this phase. */
static void bbr2_bound_cwnd_for_inflight_model(struct sock *sk,
					       const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 cap = ~0U;

	if (bbr->mode == BBR2_PROBE_BW &&
	    bbr->cycle_idx != BBR2_BW_PROBE_CRUISE)
		cap = bbr->inflight_hi;		/* probe up to the bound */
	else if (bbr->mode == BBR2_PROBE_RTT ||
		 bbr->mode == BBR2_PROBE_BW)	/* i.e. CRUISE */
		cap = bbr2_inflight_with_headroom(sk, t);
	cap = min(cap, bbr->inflight_lo);
	cap = max(cap, bbr2_param(t, CWND_MIN_TARGET));
	tcp_snd_cwnd_set(tp, min(cap, tcp_snd_cwnd(tp)));
}

static void bbr2_reset_lower_bounds(struct bbr2 *bbr)
{
	bbr->bw_lo = ~0U;
	bbr->inflight_lo = ~0U;
}

static void bbr2_init_lower_bounds(struct sock *sk, bool init_bw)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (init_bw && bbr->bw_lo == ~0U)
		bbr->bw_lo = bbr2_max_bw(bbr);
	if (bbr->inflight_lo == ~0U)
		bbr->inflight_lo = tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * Congestion loss: cut inflight_lo, and bw_lo if @cut_bw, by beta, to no
 * less than what the loss round delivered.
 */
static void bbr2_cut_lower_bounds_for_loss(struct sock *sk, bool cut_bw,
					   u32 round_lost,
					   const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 cut = BBR_UNIT - bbr2_param(t, BETA);

	bbr2_init_lower_bounds(sk, cut_bw);
	if (cut_bw)
		bbr->bw_lo = max_t(u32, bbr->bw_latest,
				   ((u64)bbr->bw_lo * cut) >> BBR_SCALE);
	bbr->inflight_lo = max_t(u32, bbr->inflight_latest,
				 ((u64)bbr->inflight_lo * cut) >> BBR_SCALE);
	bbr2_trim_cruising_cap(bbr, round_lost, t);
}

/*
 * Once per loss round outside of probing: cut bw_lo and inflight_lo by beta
 * if the round had congestion loss, and inflight_lo by alpha * ecn_factor
 * if it had CE marks -- but never below what the round actually delivered,
 * which is a measurement of what the path carries now.  v3 takes all loss
 * for congestion; the loss mode may ask for a sign of it, and then a loss
 * rate that is too high is one.
 */
static void bbr2_adapt_lower_bounds(struct sock *sk,
				    const struct rate_sample *rs,
				    const struct bbr2_ack *ack,
				    const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 ecn_inflight_lo = ~0U;
	u32 cut;

	if (bbr2_is_probing_bandwidth(bbr))
		return;

	if (bbr->ecn_in_round && bbr2_param(t, ECN_FACTOR)) {
		bbr2_init_lower_bounds(sk, false);
		cut = BBR_UNIT - ((bbr->ecn_alpha *
				   bbr2_param(t, ECN_FACTOR)) >>
				  BBR_SCALE);
		ecn_inflight_lo = ((u64)bbr->inflight_lo * cut) >> BBR_SCALE;
	}

	if (bbr->loss_in_round) {
		bool too_high = bbr2_is_inflight_too_high(sk, rs, ack, t);
		bool cut_bw = bbr2_loss_cuts_bw(bbr, too_high, ack->lost,
						ack->tx_in_flight, t);

		if (too_high || bbr2_loss_is_congestion(bbr))
			bbr2_cut_lower_bounds_for_loss(sk, cut_bw, ack->lost,
						       t);
	}

	bbr->inflight_lo = min(bbr->inflight_lo, ecn_inflight_lo);
	bbr->bw_lo = max(1U, bbr->bw_lo);
}

static void
bbr2_handle_queue_too_high_in_startup(struct sock *sk,
				      const struct bbr2_tunables *t);

static void bbr2_reset_congestion_signals(struct bbr2 *bbr)
{
	bbr->loss_in_round = 0;
	bbr->ecn_in_round = 0;
	bbr->loss_in_cycle = 0;
	bbr->ecn_in_cycle = 0;
	bbr2_forget_low_rtt(bbr);
	bbr->bw_latest = 0;
	bbr->inflight_latest = 0;
}

/* Feed the max-bw filter; adapt the lower bounds once per loss round. */
static void bbr2_update_congestion_signals(struct sock *sk,
					   const struct rate_sample *rs,
					   const struct bbr2_ack *ack,
					   const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (!bbr2_sample_is_valid(rs))
		return;
	/* App-limited samples underestimate, unless they beat the max. */
	if (!rs->is_app_limited || ack->sample_bw >= bbr2_max_bw(bbr))
		bbr2_take_max_bw_sample(bbr, ack->sample_bw);

	if (!bbr->loss_round_start)
		return;
	bbr2_note_deep_buffer(sk, ack->tx_in_flight, rs->rtt_us);
	bbr2_update_bg_loss(bbr, ack->lost, ack->tx_in_flight, t);
	/* The loss mode may end STARTUP on a lossy round. */
	if (bbr2_loss_may_end_startup(bbr, ack->lost, ack->tx_in_flight, t) &&
	    bbr2_is_inflight_too_high(sk, rs, ack, t))
		bbr2_handle_queue_too_high_in_startup(sk, t);
	bbr2_adapt_lower_bounds(sk, rs, ack, t);
	bbr->loss_in_round = 0;
	bbr->ecn_in_round = 0;
	bbr2_forget_low_rtt(bbr);
}

/* ---------------------------------------------------------------------- */
/* PROBE_BW: when to probe, how far, and when to stop.                     */

static bool bbr2_has_elapsed_in_phase(const struct sock *sk, u32 interval_us)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);

	return bbr2_now_us(tcp_sk(sk)) - bbr->cycle_stamp_us > interval_us;
}

/*
 * Randomised wait until the next probe: 2-3 s of wall clock, so flows mix
 * and converge, and a random head start on the Reno-coexistence round count.
 */
static void bbr2_pick_probe_wait(struct bbr2 *bbr,
				 const struct bbr2_tunables *t)
{
	bbr->rounds_since_probe =
		bbr2_random_below(bbr2_param(t, BW_PROBE_RAND_ROUNDS));
	bbr->probe_wait_us = bbr2_param(t, BW_PROBE_BASE_US) +
			     bbr2_random_below(bbr2_param(t, BW_PROBE_RAND_US));
}

/* Rounds a Reno flow with this cwnd waits between losses, times a gain. */
static u64 bbr2_reno_rounds(u32 cwnd, u32 reno_gain)
{
	return ((u64)cwnd * reno_gain) >> BBR_SCALE;
}

/*
 * A Reno flow with our BDP loses a packet about every BDP rounds; probing no
 * more often than that lets it keep its share.  (The caller caps the wait
 * at bw_probe_max_rounds.)
 */
static bool bbr2_is_reno_coexistence_probe_time(const struct sock *sk,
						const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 reno_gain = bbr2_param(t, BW_PROBE_RENO_GAIN);
	u32 rounds = bbr->rounds_since_probe;
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));
	u32 bdp;

	if (!reno_gain)
		return false;
	/*
	 * The target inflight is min(BDP plus TSO budget, cwnd): at least
	 * min(BDP, cwnd).  Most ACKs come long before that many rounds have
	 * passed, and the bound says so without working out the budget.
	 */
	bdp = bbr2_bdp(sk, bbr2_bw(bbr), BBR_UNIT);
	if (rounds < bbr2_reno_rounds(min(bdp, cwnd), reno_gain))
		return false;
	return rounds >= bbr2_reno_rounds(bbr2_target_inflight(sk, t),
					  reno_gain);
}

static void bbr2_set_cycle_idx(struct bbr2 *bbr, enum bbr2_cycle_phase idx)
{
	bbr->cycle_idx = idx;
}

/*
 * REFILL: send at bw for a round to fill the pipe, so the coming probe
 * measures a full pipe rather than causing loss into a half-empty one.
 */
static void bbr2_start_bw_probe_refill(struct sock *sk, u32 bw_probe_up_rounds)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr2_reset_lower_bounds(bbr);
	bbr->bw_probe_up_rounds = min_t(u32, bw_probe_up_rounds,
					BBR2_MAX_PROBE_UP_ROUNDS);
	bbr->bw_probe_up_acks = 0;
	bbr->stopped_risky_probe = 0;
	bbr->ack_phase = BBR2_ACKS_REFILLING;
	bbr->next_rtt_delivered = tcp_sk(sk)->delivered;
	bbr2_set_cycle_idx(bbr, BBR2_BW_PROBE_REFILL);
}

/* Each round in PROBE_UP doubles the rate at which inflight_hi grows. */
static void bbr2_raise_inflight_hi_slope(struct bbr2 *bbr)
{
	bbr->bw_probe_up_rounds = min_t(u32, bbr->bw_probe_up_rounds + 1,
					BBR2_MAX_PROBE_UP_ROUNDS);
}

/* Packets to ACK per unit of inflight_hi growth: cwnd / 2^(rounds - 1). */
static u32 bbr2_probe_up_cnt(const struct sock *sk)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 rounds = bbr->bw_probe_up_rounds;

	return max(tcp_snd_cwnd(tcp_sk(sk)) >> (rounds ? rounds - 1 : 0), 1U);
}

static void bbr2_reset_full_bw(struct bbr2 *bbr)
{
	bbr->full_bw = 0;
	bbr->full_bw_cnt = 0;
	bbr->full_bw_now = 0;
}

static void bbr2_start_bw_probe_up(struct sock *sk, const struct bbr2_ack *ack)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr->ack_phase = BBR2_ACKS_PROBE_STARTING;
	bbr->next_rtt_delivered = tp->delivered;
	bbr->cycle_stamp_us = bbr2_now_us(tp);
	bbr2_reset_full_bw(bbr);
	bbr->full_bw = ack->sample_bw;
	bbr2_set_cycle_idx(bbr, BBR2_BW_PROBE_UP);
	bbr2_raise_inflight_hi_slope(bbr);
}

/*
 * DOWN starts a new cycle: drain what the probe queued, and schedule the
 * next probe a random, Reno-friendly time from now.
 */
static void bbr2_start_bw_probe_down(struct sock *sk,
				     const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr2_reset_congestion_signals(bbr);
	bbr2_pick_probe_wait(bbr, t);
	bbr2_loss_mode_start_cycle(sk, t);
	bbr->cycle_stamp_us = bbr2_now_us(tp);
	bbr->ack_phase = BBR2_ACKS_PROBE_STOPPING;
	bbr->next_rtt_delivered = tp->delivered;
	bbr2_set_cycle_idx(bbr, BBR2_BW_PROBE_DOWN);
}

static void bbr2_start_bw_probe_cruise(struct bbr2 *bbr,
				       const struct bbr2_tunables *t)
{
	bbr2_loss_mode_start_cruise(bbr);
	if (bbr->inflight_lo != ~0U)
		bbr->inflight_lo = min(bbr->inflight_lo, bbr->inflight_hi);
	bbr2_set_cycle_idx(bbr, BBR2_BW_PROBE_CRUISE);
}

/*
 * Loss or CE marks ran too high while probing: set inflight_hi to what the
 * path held, but not below (1 - beta) of our target, and stop probing.
 * App-limited flights did not test the path.  Google's kernel knows the
 * flight each lost packet was sent into; here the path is known to have
 * held the most that a sample of this loss round delivered
 * (inflight_latest), or this ACK's sample if larger.  The ACK that brings
 * the news may carry no sample at all (dupacks, an ACK of SACKed data, the
 * first ACKs after an RTO: rs->delivered is -1), and inflight_latest is
 * defined for it all the same.
 */
static void bbr2_handle_inflight_too_high(struct sock *sk,
					  const struct rate_sample *rs,
					  const struct bbr2_ack *ack,
					  const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 held, floor;

	bbr->prev_probe_too_high = 1;
	bbr->bw_probe_samples = 0;	/* react once per probe */
	if (!rs->is_app_limited) {
		held = max_t(s32, rs->delivered, bbr->inflight_latest);
		floor = ((u64)bbr2_target_inflight(sk, t) *
			 (BBR_UNIT - bbr2_param(t, BETA))) >> BBR_SCALE;
		bbr->inflight_hi = max(held, floor);
	}
	if (bbr2_probing_up(bbr)) {
		bbr2_start_bw_probe_down(sk, t);
		/*
		 * Google's kernel notes lost packets one at a time, so those
		 * after the one that ended the probe mark DOWN's first round
		 * as a loss round.  Ours come per ACK: the ACK's losses do.
		 */
		if (rs->losses > 0)
			bbr2_note_loss(sk, rs->losses);
	}
}

/* No loss/ECN at the bound while probing up: grow inflight_hi. */
static void bbr2_probe_inflight_hi_upward(struct sock *sk,
					  const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 cnt, delta;

	if (!tp->is_cwnd_limited || tcp_snd_cwnd(tp) < bbr->inflight_hi)
		return;		/* not using all of inflight_hi yet */

	cnt = bbr2_probe_up_cnt(sk);
	bbr->bw_probe_up_acks = min_t(u64, (u64)bbr->bw_probe_up_acks +
				      rs->acked_sacked, U32_MAX);
	if (bbr->bw_probe_up_acks >= cnt) {
		delta = bbr->bw_probe_up_acks / cnt;
		bbr->bw_probe_up_acks -= delta * cnt;
		/* ~0U means "no bound": stay just below it. */
		bbr->inflight_hi = min_t(u64, (u64)bbr->inflight_hi + delta,
					 U32_MAX - 1);
	}
	if (bbr->round_start)
		bbr2_raise_inflight_hi_slope(bbr);
}

/*
 * Adapt the upper bounds to what the last probe found.  Returns true if it
 * decided a state transition, which the caller must then not override.
 */
static bool bbr2_adapt_upper_bounds(struct sock *sk,
				    const struct rate_sample *rs,
				    const struct bbr2_ack *ack,
				    const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	/* Track when ACKs start and stop reflecting our probe. */
	if (bbr->ack_phase == BBR2_ACKS_PROBE_STARTING && bbr->round_start)
		bbr->ack_phase = BBR2_ACKS_PROBE_FEEDBACK;
	if (bbr->ack_phase == BBR2_ACKS_PROBE_STOPPING && bbr->round_start) {
		bbr->bw_probe_samples = 0;
		bbr->ack_phase = BBR2_ACKS_INIT;
		/*
		 * The probe's last samples are in: our best recent chance at
		 * the max bw.  Now is the time to forget the older cycle.
		 */
		if (bbr->mode == BBR2_PROBE_BW && !rs->is_app_limited)
			bbr2_advance_max_bw_filter(bbr);
		/*
		 * The probe reached inflight_hi without loss/ECN: probe again,
		 * holding at inflight_hi for a round before accelerating.
		 */
		if (bbr->mode == BBR2_PROBE_BW &&
		    bbr->stopped_risky_probe && !bbr->prev_probe_too_high) {
			bbr2_start_bw_probe_refill(sk, 0);
			return true;
		}
	}

	if (bbr2_is_inflight_too_high(sk, rs, ack, t)) {
		if (bbr->bw_probe_samples)	/* caused by our probe? */
			bbr2_handle_inflight_too_high(sk, rs, ack, t);
		return false;
	}

	if (bbr->inflight_hi == ~0U)
		return false;	/* no bound to raise */
	/*
	 * Random loss shaves the bound; raise it when more proves safe: to
	 * the flight this ACK's packets were delivered from (v3 uses their
	 * tx_in_flight).  prior_in_flight would not do: it counts what is in
	 * flight now, packets not yet delivered and perhaps lost included.
	 */
	if (rs->delivered > 0 && rs->delivered > bbr->inflight_hi)
		bbr->inflight_hi = rs->delivered;
	if (bbr2_probing_up(bbr))
		bbr2_probe_inflight_hi_upward(sk, rs);
	return false;
}

static bool bbr2_check_time_to_probe_bw(struct sock *sk,
					const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 reprobe_gain = bbr2_param(t, ECN_REPROBE_GAIN);
	u64 reprobe;

	/*
	 * CE marks but no loss this cycle, and the marks have stopped: the
	 * cross traffic may be gone, so reprobe at once, starting the growth
	 * of inflight_hi at reprobe_gain x inflight_hi.
	 */
	if (reprobe_gain && bbr->ecn_eligible && bbr->ecn_in_cycle &&
	    !bbr->loss_in_cycle &&
	    inet_csk(sk)->icsk_ca_state == TCP_CA_Open) {
		reprobe = ((u64)bbr->inflight_hi * reprobe_gain) >> BBR_SCALE;
		bbr2_start_bw_probe_refill(sk, reprobe ? ilog2(reprobe) : 0);
		return true;
	}

	/*
	 * The wall-clock wait is over, or bw_probe_max_rounds have passed: the
	 * cap on rounds lets a flow recover the bounds that random loss shaves
	 * in every round.
	 */
	if (bbr2_has_elapsed_in_phase(sk, bbr->probe_wait_us) ||
	    bbr->rounds_since_probe >= bbr2_param(t, BW_PROBE_MAX_ROUNDS)) {
		bbr2_start_bw_probe_refill(sk, 0);
		return true;
	}
	/* the round count first: the queue test divides */
	if (bbr2_is_reno_coexistence_probe_time(sk, t) &&
	    bbr2_queue_lets_reno_in(sk)) {
		bbr2_start_bw_probe_refill(sk, 0);
		return true;
	}
	return false;
}

/* DOWN ends once the queue is drained: inflight at or below the BDP. */
static bool bbr2_check_time_to_cruise(const struct sock *sk, u32 inflight,
				      u32 bw, const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	bool is_under_bdp;

	if (inflight > bbr2_inflight_with_headroom(sk, t))
		return false;
	is_under_bdp = inflight <= bbr2_inflight(sk, bw, BBR_UNIT, t);
	if (bbr2_param(t, DRAIN_TO_TARGET))
		return is_under_bdp;
	return is_under_bdp || bbr2_has_elapsed_in_phase(sk, bbr->min_rtt_us);
}

/* Should PROBE_UP end now, without loss or ECN having ended it? */
static bool bbr2_is_bw_probe_done(struct sock *sk, const struct bbr2_ack *ack,
				  u32 inflight, u32 bw,
				  const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	/* Back at the level that caused loss last time: stop before it does. */
	if (bbr->prev_probe_too_high && inflight >= bbr->inflight_hi) {
		bbr->stopped_risky_probe = 1;
		return true;
	}
	/* v2: a min_rtt of probing that queued bw_probe_pif_gain x BDP. */
	if (bbr2_is_v2(t))
		return bbr2_has_elapsed_in_phase(sk, bbr->min_rtt_us) &&
		       inflight >= bbr2_inflight(sk, bw,
						 bbr2_param(t, BW_PROBE_PIF_GAIN),
						 t);
	/* v3: while inflight_hi limits us, bw cannot plateau; else it did. */
	if (tp->is_cwnd_limited && tcp_snd_cwnd(tp) >= bbr->inflight_hi) {
		bbr2_reset_full_bw(bbr);
		bbr->full_bw = ack->sample_bw;
		return false;
	}
	return bbr->full_bw_now;
}

/* The PROBE_BW state machine: cruise, refill, probe up, or drain? */
static void bbr2_update_cycle_phase(struct sock *sk,
				    const struct rate_sample *rs,
				    const struct bbr2_ack *ack,
				    const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 inflight;

	if (!bbr2_full_bw_reached(bbr))
		return;
	/* In DRAIN, PROBE_BW or PROBE_RTT, first adapt the upper bounds. */
	if (bbr2_adapt_upper_bounds(sk, rs, ack, t))
		return;
	if (bbr->mode != BBR2_PROBE_BW)
		return;

	/*
	 * Only UP and DOWN compare inflight with a target, so only they
	 * estimate it: CRUISE, where most ACKs arrive, need not.
	 */
	switch (bbr->cycle_idx) {
	case BBR2_BW_PROBE_CRUISE:
		bbr2_check_time_to_probe_bw(sk, t);
		break;
	case BBR2_BW_PROBE_REFILL:
		/* After a round of REFILL, samples reflect a full pipe. */
		if (bbr->round_start) {
			bbr->bw_probe_samples = 1;
			bbr2_start_bw_probe_up(sk, ack);
		}
		break;
	case BBR2_BW_PROBE_UP:
		inflight = bbr2_packets_in_net_at_edt(sk, rs->prior_in_flight,
						      t);
		if (bbr2_is_bw_probe_done(sk, ack, inflight,
					  bbr2_max_bw(bbr), t)) {
			bbr->prev_probe_too_high = 0;
			bbr2_start_bw_probe_down(sk, t);
		}
		break;
	case BBR2_BW_PROBE_DOWN:
		if (bbr2_check_time_to_probe_bw(sk, t))
			break;
		inflight = bbr2_packets_in_net_at_edt(sk, rs->prior_in_flight,
						      t);
		if (bbr2_check_time_to_cruise(sk, inflight, bbr2_max_bw(bbr),
					      t))
			bbr2_start_bw_probe_cruise(bbr, t);
		break;
	}
}

/* ---------------------------------------------------------------------- */
/* STARTUP and DRAIN.                                                      */

/* Leaving STARTUP on loss/ECN: the flight we reached bounds inflight. */
static void bbr2_handle_queue_too_high_in_startup(struct sock *sk,
						  const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 bdp = bbr2_inflight(sk, bbr2_max_bw(bbr), BBR_UNIT, t);

	bbr->full_bw_reached = 1;
	bbr->inflight_hi = max(bdp, bbr->inflight_latest);
}

/* Leave STARTUP after full_ecn_cnt consecutive rounds of high CE ratio. */
static void bbr2_check_ecn_too_high_in_startup(struct sock *sk, u32 ce_ratio,
					       const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 full_ecn_cnt = bbr2_param(t, FULL_ECN_CNT);
	u32 ecn_thresh = bbr2_param(t, ECN_THRESH);

	if (bbr2_full_bw_reached(bbr) || !bbr->ecn_eligible ||
	    !full_ecn_cnt || !ecn_thresh)
		return;
	if (ce_ratio >= ecn_thresh)
		bbr->startup_ecn_rounds = min(bbr->startup_ecn_rounds + 1U, 3U);
	else
		bbr->startup_ecn_rounds = 0;
	if (bbr->startup_ecn_rounds >= full_ecn_cnt)
		bbr2_handle_queue_too_high_in_startup(sk, t);
}

/* Once per round: EWMA of the CE-marked fraction of delivered packets. */
static void bbr2_update_ecn_alpha(struct sock *sk, const struct rate_sample *rs,
				  const struct bbr2_ack *ack,
				  const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 gain = bbr2_param(t, ECN_ALPHA_GAIN);
	u32 ce_ratio, alpha;

	/*
	 * Eligible once for good, as in v3: a min_rtt that later grows past
	 * ecn_max_rtt_us does not switch the ECN response off.  The admin's
	 * ecn_enable=0 (a v3 constant, a parameter here) does.
	 */
	bbr->ecn_eligible = bbr2_param(t, ECN_ENABLE) &&
			    (bbr->ecn_eligible || bbr2_can_use_ecn(sk, t));
	if (!bbr->ecn_eligible || rs->delivered <= 0 || ack->delivered_ce < 0)
		return;

	ce_ratio = min_t(u64, div_u64((u64)ack->delivered_ce << BBR_SCALE,
				      rs->delivered), BBR_UNIT);
	alpha = ((BBR_UNIT - gain) * bbr->ecn_alpha + gain * ce_ratio) >>
		BBR_SCALE;
	bbr->ecn_alpha = min_t(u32, alpha, BBR_UNIT);
	bbr2_check_ecn_too_high_in_startup(sk, ce_ratio, t);
}

/*
 * Leave STARTUP if, at the end of a round in Recovery, the round saw
 * full_loss_cnt loss events and a loss rate above loss_thresh.
 */
static void bbr2_check_loss_too_high_in_startup(struct sock *sk,
						const struct rate_sample *rs,
						const struct bbr2_ack *ack,
						const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 full_loss_cnt = bbr2_param(t, FULL_LOSS_CNT);

	if (bbr2_full_bw_reached(bbr))
		return;
	if (rs->losses > 0 && bbr->loss_events_in_round < 0xF)
		bbr->loss_events_in_round++;
	if (full_loss_cnt && bbr->loss_round_start &&
	    inet_csk(sk)->icsk_ca_state == TCP_CA_Recovery &&
	    bbr->loss_events_in_round >= full_loss_cnt &&
	    bbr2_is_inflight_too_high(sk, rs, ack, t)) {
		bbr2_handle_queue_too_high_in_startup(sk, t);
		return;
	}
	if (bbr->loss_round_start)
		bbr->loss_events_in_round = 0;
}

/*
 * v2 (v2alpha) asks only in STARTUP, once per round, whether the max-bw
 * filter has grown by full_bw_thresh since it last did.
 */
static void bbr2_check_full_bw_reached_v2(struct sock *sk,
					  const struct rate_sample *rs,
					  const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 max_bw = bbr2_max_bw(bbr);

	if (bbr2_full_bw_reached(bbr) || !bbr->round_start ||
	    rs->is_app_limited)
		return;
	if (max_bw >= ((u64)bbr->full_bw * bbr2_param(t, FULL_BW_THRESH) >>
		       BBR_SCALE)) {
		bbr->full_bw = max_bw;
		bbr->full_bw_cnt = 0;
		return;
	}
	if (bbr->full_bw_cnt < 7)
		bbr->full_bw_cnt++;
	bbr->full_bw_reached = bbr->full_bw_cnt >= bbr2_param(t, FULL_BW_CNT);
}

/*
 * The pipe is full once bw has not grown by full_bw_thresh (25%) for
 * full_bw_cnt (3) rounds: one round for the receive window to grow, one to
 * fill it, one to see the result.  v3 also uses the plateau to end PROBE_UP,
 * so it keeps watching after STARTUP.
 */
static void bbr2_check_full_bw_reached(struct sock *sk,
				       const struct rate_sample *rs,
				       const struct bbr2_ack *ack,
				       const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	u64 bw_thresh;

	if (bbr2_is_v2(t)) {
		bbr2_check_full_bw_reached_v2(sk, rs, t);
		return;
	}
	if (bbr->full_bw_now || rs->is_app_limited)
		return;

	bw_thresh = ((u64)bbr->full_bw * bbr2_param(t, FULL_BW_THRESH)) >>
		    BBR_SCALE;
	if (ack->sample_bw >= bw_thresh) {
		bbr2_reset_full_bw(bbr);
		bbr->full_bw = ack->sample_bw;
		return;
	}
	if (!bbr->round_start)
		return;
	if (bbr->full_bw_cnt < 7)
		bbr->full_bw_cnt++;
	bbr->full_bw_now = bbr->full_bw_cnt >= bbr2_param(t, FULL_BW_CNT);
	bbr->full_bw_reached |= bbr->full_bw_now;
}

/* Pipe full: drain the queue STARTUP built, then enter PROBE_BW. */
static void bbr2_check_drain(struct sock *sk, const struct rate_sample *rs,
			     const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 bdp;

	if (bbr->mode == BBR2_STARTUP && bbr2_full_bw_reached(bbr)) {
		bbr->mode = BBR2_DRAIN;
		/*
		 * BBR does not use ssthresh; a finite value tells tools
		 * (ss, tcp_info) that STARTUP is over.
		 */
		tp->snd_ssthresh = bbr2_inflight(sk, bbr2_max_bw(bbr),
						 BBR_UNIT, t);
		bbr2_reset_congestion_signals(bbr);
		bbr2_loss_mode_startup_done(sk, rs->rtt_us);
	}
	if (bbr->mode != BBR2_DRAIN)
		return;
	bdp = bbr2_inflight(sk, bbr2_max_bw(bbr), BBR_UNIT, t);
	if (bbr2_packets_in_net_at_edt(sk, tcp_packets_in_flight(tp), t) <=
	    bdp) {
		bbr->mode = BBR2_PROBE_BW;
		bbr2_start_bw_probe_down(sk, t);
	}
}

/* ---------------------------------------------------------------------- */
/* min_rtt and PROBE_RTT.                                                  */

static void bbr2_exit_probe_rtt(struct sock *sk, const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr2_reset_lower_bounds(bbr);
	if (bbr2_full_bw_reached(bbr)) {
		bbr->mode = BBR2_PROBE_BW;
		/*
		 * Rising inflight may cause loss, so restart the cycle clock
		 * for a friendly, random next probe; inflight is below the
		 * BDP now, so we can go straight to cruising.
		 */
		bbr2_start_bw_probe_down(sk, t);
		bbr2_start_bw_probe_cruise(bbr, t);
	} else {
		bbr->mode = BBR2_STARTUP;
	}
}

static void bbr2_check_probe_rtt_done(struct sock *sk,
				      const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (!(bbr->probe_rtt_done_stamp &&
	      after(tcp_jiffies32, bbr->probe_rtt_done_stamp)))
		return;
	bbr->probe_rtt_min_stamp = tcp_jiffies32;	/* next one in 5 s */
	tcp_snd_cwnd_set(tp, max(tcp_snd_cwnd(tp), bbr->prior_cwnd));
	bbr2_exit_probe_rtt(sk, t);
}

static u32 bbr2_probe_rtt_win_jiffies(const struct bbr2_tunables *t)
{
	u32 win_ms = min_t(u32, bbr2_param(t, PROBE_RTT_WIN_MS),
			   bbr2_param(t, MIN_RTT_WIN_SEC) * MSEC_PER_SEC);

	return msecs_to_jiffies(win_ms);
}

/* Has min_rtt outlived its window (min_rtt_win_sec; see the loss mode)? */
static bool bbr2_min_rtt_expired(const struct bbr2 *bbr, u32 probe_rtt_win,
				 const struct bbr2_tunables *t)
{
	u32 win = bbr2_param(t, MIN_RTT_WIN_SEC) * HZ;

	win = bbr2_loss_mode_min_rtt_win(bbr, win, probe_rtt_win);
	return after(tcp_jiffies32, bbr->min_rtt_stamp + win);
}

/*
 * Two min filters: min_rtt over min_rtt_win_sec (10 s; the loss mode may
 * shorten it), used for the BDP, and probe_rtt_min
 * over probe_rtt_win_ms (5 s), whose expiry schedules PROBE_RTT.  In
 * PROBE_RTT, cwnd is held at probe_rtt_cwnd for probe_rtt_mode_ms and at
 * least one round, so that the queue drains and every flow sharing it sees
 * the true propagation delay.  Flows that are idle or app-limited now and
 * then refresh min_rtt for free and never pay for PROBE_RTT.
 */
static void bbr2_update_min_rtt(struct sock *sk, const struct rate_sample *rs,
				const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);
	u32 probe_rtt_mode_ms = bbr2_param(t, PROBE_RTT_MODE_MS);
	u32 probe_rtt_win = bbr2_probe_rtt_win_jiffies(t);
	bool probe_rtt_expired, min_rtt_expired;
	u32 done;

	probe_rtt_expired = after(tcp_jiffies32, bbr->probe_rtt_min_stamp +
					probe_rtt_win) &&
			    !bbr2_probe_rtt_waits_for_probe(bbr, probe_rtt_win);
	if (rs->rtt_us >= 0 &&
	    (rs->rtt_us < bbr->probe_rtt_min_us ||
	     (probe_rtt_expired && !rs->is_ack_delayed))) {
		/* ~0U means "no sample": a real RTT stays below it. */
		bbr->probe_rtt_min_us = min_t(u64, rs->rtt_us, U32_MAX - 1);
		bbr->probe_rtt_min_stamp = tcp_jiffies32;
	}
	min_rtt_expired = bbr2_min_rtt_expired(bbr, probe_rtt_win, t);
	if (bbr->probe_rtt_min_us <= bbr->min_rtt_us || min_rtt_expired) {
		if (bbr->min_rtt_stamp != bbr->probe_rtt_min_stamp)
			bbr2_loss_mode_new_min_rtt(bbr);
		bbr->min_rtt_us = bbr->probe_rtt_min_us;
		bbr->min_rtt_stamp = bbr->probe_rtt_min_stamp;
	}

	if (probe_rtt_mode_ms && probe_rtt_expired && !bbr->idle_restart &&
	    bbr->mode != BBR2_PROBE_RTT) {
		bbr->mode = BBR2_PROBE_RTT;
		bbr2_save_cwnd(sk);
		bbr->probe_rtt_done_stamp = 0;
		bbr->ack_phase = BBR2_ACKS_PROBE_STOPPING;
		bbr->next_rtt_delivered = tp->delivered;
	}

	if (bbr->mode == BBR2_PROBE_RTT) {
		/* Low-rate samples taken now say nothing about the path. */
		tp->app_limited = (tp->delivered + tcp_packets_in_flight(tp)) ? : 1;
		if (!bbr->probe_rtt_done_stamp &&
		    tcp_packets_in_flight(tp) <= bbr2_probe_rtt_cwnd(sk, t)) {
			done = tcp_jiffies32 + msecs_to_jiffies(probe_rtt_mode_ms);
			bbr->probe_rtt_done_stamp = done ? : 1;	/* 0: unset */
			bbr->probe_rtt_round_done = 0;
			bbr->next_rtt_delivered = tp->delivered;
		} else if (bbr->probe_rtt_done_stamp) {
			if (bbr->round_start)
				bbr->probe_rtt_round_done = 1;
			if (bbr->probe_rtt_round_done)
				bbr2_check_probe_rtt_done(sk, t);
		}
	}
	/* An idle restart ends with the first ACK of new data. */
	if (rs->delivered > 0)
		bbr->idle_restart = 0;
}

/* ---------------------------------------------------------------------- */
/* The per-ACK data flow.                                                  */

static void bbr2_update_model(struct sock *sk, const struct rate_sample *rs,
			      const struct bbr2_ack *ack,
			      const struct bbr2_tunables *t)
{
	bbr2_update_congestion_signals(sk, rs, ack, t);
	bbr2_update_ack_aggregation(sk, rs, t);
	bbr2_check_loss_too_high_in_startup(sk, rs, ack, t);
	bbr2_check_full_bw_reached(sk, rs, ack, t);
	bbr2_check_drain(sk, rs, t);
	bbr2_update_cycle_phase(sk, rs, ack, t);
	bbr2_update_min_rtt(sk, rs, t);
}

void bbr2_main(struct sock *sk, const struct rate_sample *rs,
	       const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	struct bbr2_ack ack;
	u32 bw;

	/*
	 * tcp_rcv_synsent_state_process() runs tcp_ack(), and so this hook,
	 * before init(); there is nothing to model yet.
	 */
	if (unlikely(!bbr->initialized))
		return;

	if (rs->losses > 0)
		bbr2_note_loss(sk, rs->losses);
	bbr2_ack_init(sk, rs, &ack);

	bbr2_update_round(sk, rs);
	if (bbr->round_start) {
		bbr->rounds_since_probe = min(bbr->rounds_since_probe + 1U,
					      0xFFU);
		bbr2_update_ecn_alpha(sk, rs, &ack, t);
	}
	/*
	 * An ECE that in_ack_event() noted counts for this round.  Written
	 * only then: a write to these flags on every ACK would stall the
	 * reads of the same word that follow (store-to-load forwarding).
	 */
	if (bbr->ece_pending) {
		bbr->ecn_in_round |= bbr->ecn_eligible;
		bbr->ece_pending = 0;
	}

	bbr2_note_low_rtt(sk, rs);
	bbr2_update_latest_delivery_signals(sk, rs, &ack);
	bbr2_update_model(sk, rs, &ack, t);

	bw = bbr2_bw(bbr);
	bbr2_set_pacing_rate(sk, bw, bbr2_pacing_gain(bbr, t), t);
	bbr2_set_cwnd(sk, rs, bw, bbr2_cwnd_gain(bbr, t), t);
	bbr2_bound_cwnd_for_inflight_model(sk, t);

	bbr2_advance_latest_delivery_signals(sk, rs, &ack);
	bbr->prev_ca_state = inet_csk(sk)->icsk_ca_state;
	if (ack.delivered_ce > 0)
		bbr->ecn_in_cycle = 1;
}

/* ---------------------------------------------------------------------- */
/* Other hooks.                                                            */

void bbr2_init(struct sock *sk, const struct bbr2_tunables *t,
	       bool reference)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	memset(bbr, 0, sizeof(*bbr));
	bbr->initialized = 1;
	bbr->reference = reference;
	bbr2_latch_loss_mode(sk, t);
	bbr->init_cwnd = min(0x7FU, tcp_snd_cwnd(tp));
	bbr->prior_cwnd = tp->prior_cwnd;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	bbr->next_rtt_delivered = tp->delivered;
	bbr->prev_ca_state = TCP_CA_Open;

	bbr->probe_rtt_min_us = tcp_min_rtt(tp);
	bbr->probe_rtt_min_stamp = tcp_jiffies32;
	bbr->min_rtt_us = tcp_min_rtt(tp);
	bbr->min_rtt_stamp = tcp_jiffies32;
	bbr2_init_pacing_rate_from_rtt(sk, t);

	bbr->mode = BBR2_STARTUP;
	bbr->ack_epoch_stamp_us = bbr2_now_us(tp);

	/* Judge loss and ECN only after the first full flight is ACKed. */
	bbr->loss_round_delivered = tp->delivered + 1;
	bbr->loss_round_lost = tp->lost;

	bbr->bw_lo = ~0U;
	bbr->inflight_lo = ~0U;
	bbr->inflight_hi = ~0U;
	bbr->undo_inflight_hi = ~0U;
	bbr->ack_phase = BBR2_ACKS_INIT;
	bbr->ecn_alpha = bbr2_param(t, ECN_ALPHA_INIT);

	/* BBR needs pacing: ask TCP to pace if no fq qdisc does it. */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
}

/*
 * Entering recovery: BBR keeps ssthresh; save what undo may need.  There is
 * no room for copies of bw_lo and inflight_lo, only for whether they were
 * bounded (see bbr2_undo_cwnd()).
 */
u32 bbr2_ssthresh(struct sock *sk)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr2_save_cwnd(sk);
	bbr->undo_inflight_hi = bbr->inflight_hi;
	bbr->undo_bw_lo_set = bbr->bw_lo != ~0U;
	bbr->undo_inflight_lo_set = bbr->inflight_lo != ~0U;
	return tcp_sk(sk)->snd_ssthresh;
}

/*
 * The recovery was spurious (DSACK or timestamps proved no loss): forget
 * the loss response.  Google's version restores bw_lo and inflight_lo to
 * the larger of now and when recovery began.  A bound that did not exist
 * then is dropped, as there; one that did stays as it is now, which is
 * where it was unless a loss round of the recovery cut it (v3 would undo
 * that cut too; the next bw probe resets it).
 */
u32 bbr2_undo_cwnd(struct sock *sk, const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr2_reset_full_bw(bbr);	/* the slowdown was not the pipe */
	bbr->loss_in_round = 0;
	if (!bbr2_param(t, UNDO))
		return tcp_snd_cwnd(tp);
	if (!bbr->undo_bw_lo_set)
		bbr->bw_lo = ~0U;
	if (!bbr->undo_inflight_lo_set)
		bbr->inflight_lo = ~0U;
	bbr->inflight_hi = max(bbr->inflight_hi, bbr->undo_inflight_hi);
	return max(bbr->prior_cwnd, tcp_snd_cwnd(tp));
}

void bbr2_set_state(struct sock *sk, u8 new_state,
		    const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (new_state == TCP_CA_Loss) {
		/*
		 * The RTO has marked the flight lost, and no ACK will report
		 * those losses: they make this round a loss round.
		 */
		if (tp->lost != bbr->loss_round_lost)
			bbr2_note_loss(sk, tp->lost - bbr->loss_round_lost);
		bbr->prev_ca_state = TCP_CA_Loss;
		/* An RTO may have moved us to a new path: re-learn the bw. */
		bbr2_reset_full_bw(bbr);
		/* Let the next loss round cut from the pre-RTO cwnd. */
		if (!bbr2_is_probing_bandwidth(bbr) &&
		    bbr->inflight_lo == ~0U)
			bbr->inflight_lo = bbr2_is_v2(t) ? bbr->prior_cwnd :
					   max(tcp_snd_cwnd(tp),
					       bbr->prior_cwnd);
	} else if (new_state == TCP_CA_CWR && !bbr->ece_pending) {
		/*
		 * CWR without an ECE on this ACK: a tail-loss probe repaired
		 * a loss that was never marked (tcp_process_tlp_ack()), as
		 * v3's TLP-recovery event says.  It makes a loss round; v3
		 * also judges it against inflight_latest + 1 when probing,
		 * which one loss exceeds only below 50 packets.
		 */
		bbr2_note_loss(sk, 0);
	} else if (bbr->prev_ca_state == TCP_CA_Loss) {
		/* Leaving RTO recovery: restore cwnd; the model bounds it. */
		tcp_snd_cwnd_set(tp, max(tcp_snd_cwnd(tp), bbr->prior_cwnd));
	}
}

/* First transmit with nothing in flight (CA_EVENT_TX_START). */
void bbr2_cwnd_event_tx_start(struct sock *sk, const struct bbr2_tunables *t)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (!tp->app_limited)
		return;
	/* Restarting from idle. */
	bbr->idle_restart = 1;
	bbr->ack_epoch_stamp_us = bbr2_now_us(tp);
	bbr->ack_epoch_acked = 0;
	/* No need to go faster than bw: don't overflow buffers on restart. */
	if (bbr->mode == BBR2_PROBE_BW)
		bbr2_set_pacing_rate(sk, bbr2_bw(bbr), BBR_UNIT, t);
	else if (bbr->mode == BBR2_PROBE_RTT)
		bbr2_check_probe_rtt_done(sk, t);
}

/*
 * Kernels before 7.1 report TX_START here; later ones call
 * cwnd_event_tx_start() directly and never pass it to cwnd_event().
 */
void bbr2_cwnd_event(struct sock *sk, enum tcp_ca_event event,
		     const struct bbr2_tunables *t)
{
	if (event == CA_EVENT_TX_START)
		bbr2_cwnd_event_tx_start(sk, t);
}

/* Runs before cong_control() for the same ACK: note an ECN echo. */
void bbr2_in_ack_event(struct sock *sk, u32 flags)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (flags & CA_ACK_ECE)
		bbr->ece_pending = 1;
}

/* BBR may slow-start even in recovery: provision 3 x cwnd of sndbuf. */
u32 bbr2_sndbuf_expand(struct sock *sk)
{
	return 3;
}

/*
 * ss -ti: the stock tcp_bbr_info has room for bw, min_rtt and the two
 * gains; the gains are those of the current mode, so PROBE_RTT shows its
 * cwnd_gain of 0.5 and PROBE_BW phases show their pacing gains.
 */
size_t bbr2_get_info(struct sock *sk, u32 ext, int *attr,
		     union tcp_cc_info *info, const struct bbr2_tunables *t)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u64 bw;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1)) ||
	      ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	bw = bbr2_rate_bytes_per_sec(sk, bbr2_bw(bbr), BBR_UNIT, 0);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = bbr->min_rtt_us;
	info->bbr.bbr_pacing_gain = bbr2_pacing_gain(bbr, t);
	info->bbr.bbr_cwnd_gain = bbr2_cwnd_gain(bbr, t);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}
