/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loss_mode: an alternative response to loss, selected by the loss_mode
 * parameter (0, the default, is v3's; 1 is this one) for the sockets of
 * "bbr2"; the sockets of "bbr2_ref" run mode 0 whatever the parameter.
 *
 * v3 takes every loss for congestion.  On a path that loses packets
 * whatever we send (radio, dirty fibre, a busy switch's random drops) that
 * cuts the bounds in nearly every round.  loss_mode 1 tells the two apart:
 *  - a standing queue: no RTT sample of the loss round came within
 *    1/2^BBR2_QUEUE_RTT_SHIFT of min_rtt.  A drop-tail buffer drops only
 *    when it is full, so congestion loss comes with a queue.  The lowest
 *    sample of a round counts, not the highest, so that our own TSO bursts
 *    and ACK jitter, which raise some samples, do not make a queue;
 *  - a background loss level: the loss rate of rounds spent cruising with
 *    no standing queue, in halves of loss_thresh (0 .. 3).  A loss rate is
 *    too high when it exceeds loss_thresh on top of that background.
 * Outside probing, loss cuts inflight_lo only with a standing queue or at a
 * rate that is too high, and bw_lo only at a rate that is too high; a probe
 * ends on a rate that is too high.  Where the buffer shows a queue, the
 * rounds that drain a probe's queue (DOWN) cut bw_lo only at a rate no
 * background and the probe's own overflow give: their losses are the
 * probe's.
 *
 * It also leaves STARTUP on a lossy round, however few ACKs reported the
 * loss, if the loss is more than any background it learns could explain
 * and the buffer has shown no deep queue;
 * notes at STARTUP's end a deep buffer that STARTUP filled; shortens the
 * min_rtt window when PROBE_RTT finds a queue it could not drain; and lets
 * a probe that regrows inflight_hi end before PROBE_RTT begins.  Where the
 * bottleneck buffer is too shallow for a queue the flow could see,
 * congestion looks like random loss, and three defences keep a flow with a
 * small share from overfilling it: it probes on the Reno-coexistence timer
 * only where a queue is; it cruises a few packets further below inflight_hi
 * than v3; and it trims inflight_hi a packet on a cruising round with
 * congestion loss.  A flow that has seen a deep queue
 * (bbr2_note_deep_buffer()) knows its buffer shows congestion, drops the
 * first and the last, and keeps the headroom only in proportion to
 * inflight_hi: there they would only hold a flow whose whole BDP is a few
 * packets below its pipe, since every probe that random loss ends early
 * leaves inflight_hi near the BDP.  There, too, it judges a loss rate
 * against the background in fractions of a packet
 * (bbr2_loss_beyond_level()).
 *
 * The model (bbr2_model.c) asks this unit at each of its decision points;
 * in loss_mode 0 every answer is v3's:
 *   bbr2_latch_loss_mode()           init: take the parameter
 *   bbr2_loss_mode_start_cycle()     PROBE_BW DOWN: re-latch, decay
 *   bbr2_loss_mode_start_cruise()    PROBE_BW CRUISE begins
 *   bbr2_note_low_rtt()              every ACK: an RTT sample
 *   bbr2_note_deep_buffer()          end of a loss round: did it see a queue
 *   bbr2_loss_mode_startup_done()    STARTUP ends: did it fill a deep buffer
 *   bbr2_update_bg_loss()            end of a loss round
 *   bbr2_forget_low_rtt()            a new loss round begins
 *   bbr2_loss_may_end_startup()      may this STARTUP round's loss end it
 *   bbr2_loss_is_congestion()        is this round's loss congestion
 *   bbr2_loss_cuts_bw()              does its congestion cut bw_lo too
 *   bbr2_bg_loss_level(),
 *   bbr2_loss_beyond_background()    is a loss rate too high
 *   bbr2_trim_cruising_cap()         may this cruising round trim the cap
 *   bbr2_cruise_extra_headroom()     headroom below inflight_hi, packets
 *   bbr2_queue_lets_reno_in()        may the Reno timer start a probe
 *   bbr2_loss_mode_note_loss()       a loss was noted
 *   bbr2_loss_mode_new_min_rtt()     min_rtt takes a new sample
 *   bbr2_loss_mode_min_rtt_win()     the min_rtt window
 *   bbr2_probe_rtt_waits_for_probe() may PROBE_RTT wait for PROBE_UP
 * All are static inline: the BPF build needs the whole per-ACK path in one
 * program, and the module gains no call per ACK.
 *
 * State: bbr->loss_mode, bg_loss_level, bg_loss_seen, low_rtt_in_round,
 * deep_buffer, deep_queue_seen, lost_since_min_rtt, and the cruise pool,
 * which shares a word with bw_probe_up_acks (PROBE_UP's counter, unused
 * while cruising), so that struct bbr fits the private area.
 */
#ifndef _BBR2_LOSS_MODE_H
#define _BBR2_LOSS_MODE_H

#include "bbr2.h"

/*
 * A queue is an RTT more than min_rtt/16 above min_rtt, not less: pacing
 * released in bursts (late timers, interrupt batching) keeps a queue of a
 * few milliseconds that is far from full, and random loss on top of it is
 * not congestion.
 */
#define BBR2_QUEUE_RTT_SHIFT	4
/*
 * A buffer is deep (bbr2_note_deep_buffer()) once it has held a queue of
 * min_rtt/2^BBR2_DEEP_QUEUE_RTT_SHIFT, four times what makes a standing
 * queue: a busy receiving host (a virtual machine, a CPU-bound receiver)
 * sends its ACKs a few milliseconds late for as long as its load lasts,
 * and that lag alone can reach min_rtt/16 however shallow the buffer is.
 */
#define BBR2_DEEP_QUEUE_RTT_SHIFT	2
/*
 * In STARTUP the question is only whether the buffer overflowed, and a
 * shallow buffer shared by many flows is full at a queue of a millisecond
 * or two: there a queue is min_rtt/64.
 */
#define BBR2_STARTUP_QUEUE_RTT_SHIFT	6
#define BBR2_BG_LOSS_MAX	3
/*
 * A probe's losses that cut bw_lo after all (bbr2_loss_cuts_bw()): a
 * level twice the largest background, so a limit of four times
 * loss_thresh.  Under random loss a probe's DOWN round carries the
 * background and the probe's own overflow, and that stays below it in
 * most rounds; a probe that overfills a buffer another flow keeps full
 * loses more.
 */
#define BBR2_OVERFLOW_LOSS_LEVEL	(2 * BBR2_BG_LOSS_MAX)
/* cruise.pool_lost is 8 bits wide */
#define BBR2_BG_POOL_LOST_MAX	((1U << 8) - 1)

/*
 * A flow's inflight_hi is where its own probe met loss, and the ACKs that
 * report the loss come a round after the growth that caused it: at a
 * small inflight, PROBE_UP's first two steps (1 + 2 packets) above what
 * the buffer held.  v3 learns inflight_hi afresh in a probe every Reno
 * interval; loss_mode 1, where no Reno flow keeps a queue
 * (bbr2_queue_lets_reno_in()), cruises for up to bw_probe_max_rounds or
 * the wall-clock wait.  Many flows in a shallow buffer, each cruising a
 * packet or two above its share of what the buffer holds, would keep it
 * overflowing for all that time, so loss_mode 1 cruises this many packets
 * further below inflight_hi.  To a flow of hundreds of packets, three are
 * nothing.
 */
#define BBR2_CRUISE_OVERSHOOT_PKTS	3

/*
 * Losses in a cruising round that trim inflight_hi (bbr2_trim_cruising_cap()).
 * A flow of a few packets per round that overfills a shallow buffer loses
 * one or two of them a round, so three would rarely trim where the trim is
 * meant to act.  One loss is what random loss gives most often; two in a
 * round of nine packets come one round in thirty-five at 3 % random loss,
 * and such a round trims only if it is congestion too
 * (bbr2_is_congestion_loss(): beyond the background the flow has learnt).
 */
#define BBR2_CRUISE_TRIM_LOST	2

/* The loss_mode this socket runs: latched, see bbr2_latch_loss_mode(). */
static inline bool bbr2_loss_mode(const struct bbr2 *bbr)
{
	return bbr->loss_mode;
}

/*
 * A socket takes the loss_mode parameter at init() and at the start of
 * each PROBE_BW cycle (bbr2_loss_mode_start_cycle()), and runs that mode
 * until the next: the mode decides what the word shared by
 * bw_probe_up_acks and the cruising pool holds, and the state only mode 1
 * keeps (the pool, bg_loss_level, low_rtt_in_round) is valid for it only
 * from a point where it is (re)initialised.  A write of loss_mode reaches
 * every socket within one cycle, never in the middle of one.  A reference
 * socket (bbr->reference, the "bbr2_ref" name) always latches mode 0.
 *
 * So does a connection without SACK.  Mode 1 weighs each round's losses
 * against a background rate learnt from them, which needs the losses
 * counted as they happen; without SACK the sender learns of one hole per
 * round trip (NewReno) and of the rest at a retransmission timeout, which
 * takes the whole flight for lost.  Such counts say nothing of the path's
 * background loss, and holding the bounds through them costs a flow more
 * than v3's cuts do.
 */
static inline void bbr2_latch_loss_mode(struct sock *sk,
					const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	bool on = !bbr->reference && bbr2_param(t, LOSS_MODE) != 0 &&
		  tcp_is_sack(tcp_sk(sk));

	if (on == bbr->loss_mode)
		return;
	bbr->loss_mode = on;
	bbr->bg_loss_level = 0;
	bbr->low_rtt_in_round = 0;
	bbr->deep_buffer = 0;
	bbr->deep_queue_seen = 0;
	bbr->bg_loss_seen = 0;
}

static inline void bbr2_empty_bg_pool(struct bbr2 *bbr)
{
	bbr->cruise.pool_tx = 0;
	bbr->cruise.pool_lost = 0;
}

/*
 * A PROBE_BW cycle begins (DOWN): latch the parameter; the background must
 * be confirmed in every cycle, so it decays a step unless a cruising round
 * of the cycle ending lost at its level or above (bg_loss_seen), and a
 * level learnt once, e.g. from the losses STARTUP left, does not outlive
 * the path that showed it; the pool takes over the word PROBE_UP's
 * bw_probe_up_acks used.  Where the Reno timer starts a probe every ten
 * rounds or so, few cycles hold a pool big enough to raise the level, and
 * an unconditional decay would hold it below the background it measures.
 */
static inline void bbr2_loss_mode_start_cycle(struct sock *sk,
					      const struct bbr2_tunables *t)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	bbr2_latch_loss_mode(sk, t);
	if (bbr->bg_loss_level && !bbr->bg_loss_seen)
		bbr->bg_loss_level--;
	bbr->bg_loss_seen = 0;
	if (bbr2_loss_mode(bbr))
		bbr2_empty_bg_pool(bbr);
}

/* CRUISE begins: its rounds start a fresh pool. */
static inline void bbr2_loss_mode_start_cruise(struct bbr2 *bbr)
{
	if (bbr2_loss_mode(bbr))
		bbr2_empty_bg_pool(bbr);
}

/*
 * Does smoothed RTT show a queue?  More than min_rtt/2^@shift above
 * min_rtt, not counting two of our packet intervals:
 *
 * a receiver that delays its ACK until a second segment arrives holds the
 * first segment's RTT sample for up to one of our packet intervals; at a
 * small share of the link that is milliseconds, which smoothed RTT would
 * read as a queue.  Two intervals of it are not counted (one also covers
 * the handshake's RTT, from which min_rtt may come, lacking a full-sized
 * packet's serialisation).  At DTN rates an interval is microseconds.
 */
static inline u64 bbr2_queue_rtt_us(const struct sock *sk, u32 shift)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u64 min_rtt = bbr->min_rtt_us;
	u64 not_queue = min_rtt >> shift;
	u32 bw = bbr2_bw(bbr);

	if (bw)
		not_queue += 2 * div_u64(BW_UNIT, bw);	/* us per packet, x2 */
	return min_rtt + not_queue;
}

static inline bool bbr2_srtt_shows_queue(const struct sock *sk, u32 shift)
{
	return (u64)(tcp_sk(sk)->srtt_us >> 3) > bbr2_queue_rtt_us(sk, shift);
}

/* Is an RTT sample (next to) free of queue? */
static inline bool bbr2_rtt_is_low(const struct bbr2 *bbr, long rtt_us)
{
	u64 min_rtt = bbr->min_rtt_us;
	u32 shift = bbr->full_bw_reached ? BBR2_QUEUE_RTT_SHIFT :
					   BBR2_STARTUP_QUEUE_RTT_SHIFT;

	return (u64)rtt_us <= min_rtt + (min_rtt >> shift);
}

/* Note an RTT sample that saw (next to) no queue. */
static inline void bbr2_note_low_rtt(struct sock *sk,
				     const struct rate_sample *rs)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (unlikely(bbr2_loss_mode(bbr)) && !bbr->low_rtt_in_round &&
	    rs->rtt_us >= 0 && bbr2_rtt_is_low(bbr, rs->rtt_us))
		bbr->low_rtt_in_round = 1;
}

/* A new loss round: its RTT samples have yet to show a queue's absence. */
static inline void bbr2_forget_low_rtt(struct bbr2 *bbr)
{
	bbr->low_rtt_in_round = 0;
}

/* Did the loss round keep a queue throughout? */
static inline bool bbr2_standing_queue(const struct bbr2 *bbr)
{
	return !bbr->low_rtt_in_round;
}

/*
 * At the end of a loss round: in loss_mode 1, note that the bottleneck
 * buffer holds a queue this flow can see, once a loss round kept a
 * standing queue, with smoothed RTT showing a deep one
 * (BBR2_DEEP_QUEUE_RTT_SHIFT) and the round's flight above the BDP (so
 * the queue is packets in the buffer, ours or a competitor's, not a
 * receiver delaying its ACKs to a flow with a packet or two in flight).
 * In STARTUP one such round is enough: the round that overfills a deep
 * buffer is the last before STARTUP ends.  After STARTUP it takes two in
 * a row, as a probe's queue in a deep buffer lasts and a busy receiving
 * host's lag, which comes and goes, mostly does not.  A buffer's
 * depth is the path's, so the note stays: from then on a congestion loss
 * comes with a queue the loss mode sees, and the shallow-buffer defences
 * are off (bbr2_trim_cruising_cap(), bbr2_queue_lets_reno_in()) or scaled
 * to the flow (bbr2_cruise_extra_headroom()).  In a buffer too shallow to
 * show a deep queue the note never comes.
 *
 * The ACK's own RTT sample (@rtt_us) must show the deep queue as well as
 * smoothed RTT.  TCP smooths the RTT of the oldest packet an ACK covers,
 * the rate sample times the newest: where a receiver ACKs every second
 * segment and a flow of a few packets, held by its cwnd, sends in the
 * bursts its ACKs release, the older packet of each pair waits for its
 * partner or the receiver's delayed-ACK timer, and smoothed RTT runs
 * tens of milliseconds above the path's.  An ACK without a sample (one
 * that only SACKs retransmissions, as in recovery after an overflow)
 * leaves smoothed RTT to judge alone.
 */
static inline bool bbr2_flight_shows_deep_queue(const struct sock *sk,
						u32 flight, long rtt_us)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u64 bdp, deep_rtt;

	if (bbr->min_rtt_us == ~0U)
		return false;
	bdp = ((u64)bbr2_max_bw(bbr) * bbr->min_rtt_us) >> BW_SCALE;
	if (flight <= bdp)
		return false;
	deep_rtt = bbr2_queue_rtt_us(sk, BBR2_DEEP_QUEUE_RTT_SHIFT);
	return (rtt_us < 0 || (u64)rtt_us > deep_rtt) &&
	       (u64)(tcp_sk(sk)->srtt_us >> 3) > deep_rtt;
}

static inline void bbr2_note_deep_buffer(struct sock *sk, u32 tx_in_flight,
					 long rtt_us)
{
	struct bbr2 *bbr = inet_csk_ca(sk);
	bool deep_queue;

	if (!bbr2_loss_mode(bbr) || bbr->deep_buffer)
		return;
	deep_queue = bbr2_standing_queue(bbr) &&
		     bbr2_flight_shows_deep_queue(sk, tx_in_flight, rtt_us);
	if (deep_queue && (bbr->deep_queue_seen || !bbr->full_bw_reached))
		bbr->deep_buffer = 1;
	bbr->deep_queue_seen = deep_queue;
}

/*
 * STARTUP ends (bbr2_check_drain()).  In loss_mode 1, note a deep buffer
 * if the flight is above the BDP and the RTT shows a deep queue now:
 * STARTUP's last round fills the buffer from the queue the round before
 * left, so that its first RTT samples can come close to min_rtt, and the
 * round that sees the full buffer may end in DRAIN, which empties it.
 * Neither is a round that kept a standing queue throughout, and a flow
 * whose STARTUP ended on the bw plateau before a loss round showed the
 * queue would take a deep buffer for a shallow one.
 */
static inline void bbr2_loss_mode_startup_done(struct sock *sk, long rtt_us)
{
	struct bbr2 *bbr = inet_csk_ca(sk);

	if (bbr2_loss_mode(bbr) && !bbr->deep_buffer &&
	    bbr2_flight_shows_deep_queue(sk, tcp_packets_in_flight(tcp_sk(sk)),
					 rtt_us))
		bbr->deep_buffer = 1;
}

/*
 * At the end of a loss round spent cruising without a standing queue, move
 * the background loss level a step towards that round's loss rate, counted
 * in halves of loss_thresh (level k: lost/tx >= k * loss_thresh / 2): up a
 * step when the rate is above the level, down a step only when it is two
 * steps below (one round of a Binomial loss count below its mean must not
 * pull it down).  A round of fewer than 512 / loss_thresh packets (103 at
 * 2 %) cannot resolve a step -- one loss is more than a step -- so it may
 * lower the level but not raise it alone; such rounds are pooled until
 * together they resolve a step, then judged as one round, so that a flow
 * whose whole BDP is under 103 packets learns its background too.  The
 * price: a flow with a small share of a shallow buffer learns some of its
 * competitors' congestion loss, which comes with no queue it could see, as
 * background.  A cruising round that lost packets with a standing queue is
 * congestion: it lowers the level a step and empties the pool.  A round,
 * or pool, that lost at the level or above confirms it for the cycle
 * (bbr2_loss_mode_start_cycle()).
 */
static inline void bbr2_update_bg_loss(struct bbr2 *bbr, u32 round_lost,
				       u32 tx_in_flight,
				       const struct bbr2_tunables *t)
{
	u32 thresh = bbr2_param(t, LOSS_THRESH);
	u64 resolvable = BIT(BBR_SCALE + 1);	/* tx * thresh of one step */
	u64 tx = tx_in_flight, lost = round_lost;
	u64 half_thresh;
	u32 level = 0;

	if (!bbr2_loss_mode(bbr) || bbr->mode != BBR2_PROBE_BW ||
	    bbr->cycle_idx != BBR2_BW_PROBE_CRUISE || !tx)
		return;
	if (bbr2_standing_queue(bbr)) {
		/* Loss with a queue: congestion; trust the background less. */
		if (bbr->loss_in_round && bbr->bg_loss_level)
			bbr->bg_loss_level--;
		bbr2_empty_bg_pool(bbr);
		return;
	}
	if (tx * thresh < resolvable) {
		bbr->cruise.pool_tx += tx;
		bbr->cruise.pool_lost = min_t(u64, bbr->cruise.pool_lost + lost,
					      BBR2_BG_POOL_LOST_MAX);
		if ((u64)bbr->cruise.pool_tx * thresh >= resolvable) {
			tx = bbr->cruise.pool_tx;
			lost = bbr->cruise.pool_lost;
			bbr2_empty_bg_pool(bbr);
		}
	}
	half_thresh = tx * thresh;
	lost <<= BBR_SCALE + 1;
	while (level < BBR2_BG_LOSS_MAX && lost >= half_thresh * (level + 1))
		level++;
	if (level >= bbr->bg_loss_level)
		bbr->bg_loss_seen = 1;
	if (level > bbr->bg_loss_level && half_thresh >= resolvable)
		bbr->bg_loss_level++;
	else if (level + 1 < bbr->bg_loss_level)
		bbr->bg_loss_level--;
}

/* The background loss level, in halves of loss_thresh: 0 in v3's mode. */
static inline u32 bbr2_bg_loss_level(const struct bbr2 *bbr)
{
	return bbr2_loss_mode(bbr) ? bbr->bg_loss_level : 0;
}

/*
 * With a background loss level: is a loss count above loss_thresh on top
 * of the background, by more than the background loss itself scatters?  A
 * background of m expected losses in the round is a Binomial count with a
 * variance of at most m, so a count more than two standard deviations
 * above the limit is one round in forty by chance; without that margin a
 * round of a hundred-odd packets at a few percent random loss would pass
 * the limit often, each time cutting inflight_lo by beta until the next
 * probe.  Compared squared, so no square root is taken; for the thousands
 * of packets a DTN's round carries the margin is a small fraction of the
 * limit.
 *
 * @exact: the limit and the background in fractions of a packet.  Without
 * it both are whole packets, rounded down, and a round of a few dozen
 * packets meets a limit of a packet or none, with no margin: one or two
 * losses are too high, whatever the background.  That is the side to err
 * on in a buffer too shallow to show a queue, where a flow with a small
 * share sees its congestion only as loss.  Where the buffer has shown one
 * (bbr2_note_deep_buffer()), congestion loss comes with a standing queue,
 * which bbr2_loss_is_congestion() takes for congestion at any rate; the
 * rate test is then only the guard against random loss, and is exact, so
 * that a flow whose BDP is a few dozen packets keeps its probes and its
 * bounds through the background it has learnt.
 */
static inline bool bbr2_loss_beyond_level(u64 lost, u32 tx_in_flight,
					  u32 thresh, u32 level, bool exact)
{
	u64 pkt = BIT(BBR_SCALE + 1);	/* one packet in the units below */
	u64 limit, expected, excess;

	/* In 1/2^(BBR_SCALE + 1) packets, so that no fraction is lost... */
	lost *= pkt;
	limit = (u64)tx_in_flight * thresh * (2 + level);
	expected = (u64)tx_in_flight * thresh * level;
	/* ...unless whole packets, rounded down, are asked for. */
	if (!exact) {
		limit &= ~(pkt - 1);
		expected &= ~(pkt - 1);
	}
	if (lost <= limit)
		return false;
	if (!level)
		return true;
	excess = lost - limit;
	return excess >= BIT(31) ||
	       excess * excess > (expected << (BBR_SCALE + 1 + 2));
}

/* Is a loss count too high for this flow's background (above)? */
static inline bool bbr2_loss_beyond_background(const struct bbr2 *bbr,
					       u64 lost, u32 tx_in_flight,
					       const struct bbr2_tunables *t)
{
	return bbr2_loss_beyond_level(lost, tx_in_flight,
				      bbr2_param(t, LOSS_THRESH),
				      bbr2_bg_loss_level(bbr),
				      bbr->deep_buffer);
}

/*
 * At the end of a STARTUP loss round: may its loss end STARTUP without
 * full_loss_cnt lossy ACKs?  In loss_mode 1, if the round lost more than
 * the largest background the loss mode learns could explain
 * (BBR2_BG_LOSS_MAX, with its margin; the caller then asks whether it
 * lost more than loss_thresh): that is the pipe overflowing, however few
 * ACKs brought the news.  A flow with a small share of the pipe (many
 * flows of ~10 packets each) never sees full_loss_cnt lossy ACKs in a
 * round, and would keep doubling into a full buffer until bw plateaus;
 * its share of an overflow is a large part of its round.  No standing
 * queue is asked for: a flow that joins a buffer others keep full takes
 * their queue into its min_rtt, and its rounds rarely keep one above it.
 * One random loss in a round of a few dozen packets is more than
 * loss_thresh: without the background's margin a flow would leave
 * STARTUP at half its BDP, with an inflight_hi that every probe's first
 * random loss then holds there.
 *
 * Only while the buffer has shown no deep queue (bbr2_note_deep_buffer(),
 * which the round that ends here has already asked).  A deep buffer gives
 * a small flow's STARTUP the rounds to meet v3's exits, and there the
 * first overflow a flow meets is often not its own: a flow joining a
 * buffer that an incumbent keeps near full meets the incumbent's next
 * probe a few rounds in, loses several packets of a round of a few
 * dozen, and would leave STARTUP at a fraction of its share, which the
 * incumbent, cruising at its cap, yields only over many cycles.
 */
static inline bool bbr2_loss_may_end_startup(const struct bbr2 *bbr, u32 lost,
					     u32 tx_in_flight,
					     const struct bbr2_tunables *t)
{
	return bbr2_loss_mode(bbr) && bbr->mode == BBR2_STARTUP &&
	       !bbr->full_bw_reached && !bbr->deep_buffer &&
	       bbr->loss_in_round &&
	       bbr2_param(t, FULL_LOSS_CNT) &&
	       bbr2_loss_beyond_level(lost, tx_in_flight,
				      bbr2_param(t, LOSS_THRESH),
				      BBR2_BG_LOSS_MAX, true);
}

/*
 * Were this loss round's losses those of our last probe, judged already?
 * Never in v3's mode.  In loss_mode 1, in PROBE_BW DOWN once the buffer
 * has shown a deep queue (bbr2_note_deep_buffer()): the packets DOWN's
 * rounds report lost were sent while the probe filled the buffer, the
 * probe has been judged on them (a loss rate too high ends it and sets
 * inflight_hi), and DOWN drains the queue it built.
 */
static inline bool bbr2_loss_judged_by_probe(const struct bbr2 *bbr)
{
	return bbr2_loss_mode(bbr) && bbr->deep_buffer &&
	       bbr2_draining_probe(bbr);
}

/*
 * Is the loss of this loss round congestion, whatever its rate?  Always in
 * v3's mode.  In loss_mode 1 only with a standing queue that is not the
 * one our last probe left (PROBE_BW DOWN drains that one, and the probe
 * has been judged already); a loss rate that is too high is congestion in
 * either mode, and the caller asks that first.
 */
static inline bool bbr2_loss_is_congestion(const struct bbr2 *bbr)
{
	if (!bbr2_loss_mode(bbr))
		return true;
	return bbr2_standing_queue(bbr) && !bbr2_draining_probe(bbr);
}

/*
 * Does a loss round's congestion cut bw_lo as well as inflight_lo?  Always
 * in v3's mode.  In loss_mode 1 a standing queue with loss at a rate the
 * background explains cuts only inflight_lo: the queue is inflight beyond
 * the pipe, and a cut to what the round delivered (inflight_latest) drains
 * it.  A bw_lo cut would pace below the link until the next probe, since
 * bw_latest is the delivery rate of a round that lost packets, so bw_lo is
 * cut only at a loss rate that is too high (@too_high).
 *
 * The losses of a probe judged already (bbr2_loss_judged_by_probe()) cut
 * bw_lo only at a rate beyond twice the largest background the loss mode
 * learns (BBR2_OVERFLOW_LOSS_LEVEL, with its margin): under random loss,
 * which makes nearly every probe's overflow look too high, a cut at every
 * such rate would hold the flow below the link in nearly every cycle.  A
 * rate beyond that is the probe overfilling a buffer that was full
 * already, as a flow that keeps a buffer full does to a flow that has
 * joined it; there, as in v3, the cut is how the incumbent makes room,
 * and without it the newcomer holds a fraction of its share for many
 * cycles.  The probe's losses also cut inflight_lo when their rate is too
 * high: where several flows share the buffer, one flow's probe overfills
 * a buffer the others keep full, and a flow that went back to cruising at
 * its cap after every such probe would keep it full for the next.  In a
 * buffer too shallow to show a queue, a rate that is too high in DOWN
 * cuts both bounds: there many flows' probes overfill the buffer
 * together, and the cuts are what brings their flight back under it.
 */
static inline bool bbr2_loss_cuts_bw(const struct bbr2 *bbr, bool too_high,
				     u32 lost, u32 tx_in_flight,
				     const struct bbr2_tunables *t)
{
	if (!bbr2_loss_mode(bbr))
		return true;
	if (!too_high)
		return false;
	if (!bbr2_loss_judged_by_probe(bbr))
		return true;
	return bbr2_loss_beyond_level(lost, tx_in_flight,
				      bbr2_param(t, LOSS_THRESH),
				      BBR2_OVERFLOW_LOSS_LEVEL, true);
}

/*
 * After a cruising round's congestion loss: in loss_mode 1, a round that
 * lost BBR2_CRUISE_TRIM_LOST or more packets, beyond the background and
 * with no standing queue, lowers inflight_hi by a packet.  The loss cuts of
 * bw_lo and inflight_lo last only until the next probe, which starts from
 * the cruising cap again; inflight_hi, and with it the cap, is corrected
 * only when the flow's own probe overflows.  Many flows in a shallow buffer
 * can cruise at caps that add up to more than the pipe and the buffer; a
 * packet per lossy round walks each cap down to what the buffer holds
 * until the next probe learns inflight_hi afresh.
 */
static inline void bbr2_trim_cruising_cap(struct bbr2 *bbr, u32 round_lost,
					  const struct bbr2_tunables *t)
{
	u32 floor = bbr2_param(t, CWND_MIN_TARGET) +
		    BBR2_CRUISE_OVERSHOOT_PKTS + 1;

	if (!bbr2_loss_mode(bbr) || bbr->deep_buffer ||
	    bbr->mode != BBR2_PROBE_BW ||
	    bbr->cycle_idx != BBR2_BW_PROBE_CRUISE ||
	    bbr->inflight_hi == ~0U || bbr2_standing_queue(bbr) ||
	    round_lost < BBR2_CRUISE_TRIM_LOST)
		return;
	if (bbr->inflight_hi > floor)
		bbr->inflight_hi--;
}

/*
 * Packets of headroom below inflight_hi on top of v3's, when cruising: in
 * loss_mode 1, BBR2_CRUISE_OVERSHOOT_PKTS until the buffer has shown a
 * queue (bbr2_note_deep_buffer()).  Where it has, an overshoot of
 * inflight_hi shows as a queue, and its loss is congestion; the headroom
 * is kept in proportion to inflight_hi, a 32nd of it at most, so that a
 * flow of hundreds of packets keeps its cap beside a loss-based
 * competitor, and a flow whose whole BDP is a few packets cruises at v3's.
 */
static inline u32 bbr2_cruise_extra_headroom(const struct bbr2 *bbr)
{
	if (!bbr2_loss_mode(bbr))
		return 0;
	if (!bbr->deep_buffer)
		return BBR2_CRUISE_OVERSHOOT_PKTS;
	return min_t(u32, BBR2_CRUISE_OVERSHOOT_PKTS, bbr->inflight_hi >> 5);
}

/*
 * May the Reno-coexistence timer start a probe?  Always in v3's mode.  The
 * timer is for a path where a loss-based flow keeps a queue; in loss_mode
 * 1, smoothed RTT says one does (bbr2_srtt_shows_queue()), at the deep
 * queue of BBR2_DEEP_QUEUE_RTT_SHIFT: a busy receiving host's ACK lag
 * alone lifts it past min_rtt/16 in a shallow buffer.  A buffer too
 * shallow for such a queue gives a Reno flow nothing to take, and there
 * every flow probing on a Reno flow's time scale (~10 rounds at ~10
 * packets each) keeps the buffer overflowing.  There the timer is off:
 * the wall-clock wait and bw_probe_max_rounds start the probes, and the
 * loss cuts hold until then.  A buffer that has shown a queue
 * (bbr2_note_deep_buffer()) is not too shallow: as in v3, the timer
 * probes, and an inflight_hi that random loss lowered to near the BDP is
 * learnt afresh every Reno interval.
 */
static inline bool bbr2_queue_lets_reno_in(const struct sock *sk)
{
	const struct bbr2 *bbr = inet_csk_ca(sk);

	if (!bbr2_loss_mode(bbr) || bbr->deep_buffer)
		return true;
	return bbr2_srtt_shows_queue(sk, BBR2_DEEP_QUEUE_RTT_SHIFT);
}

/*
 * Whether the flow has lost a packet since min_rtt's sample was taken: a
 * loss-based competitor overflows the buffer (its start-up, and every
 * epoch after), so the flow loses packets while its min_rtt stands; BBR
 * flows alone in a deep buffer lose none, whatever queue one flow's
 * PROBE_RTT finds the others holding.
 */
static inline void bbr2_loss_mode_note_loss(struct bbr2 *bbr)
{
	bbr->lost_since_min_rtt = 1;
}

static inline void bbr2_loss_mode_new_min_rtt(struct bbr2 *bbr)
{
	bbr->lost_since_min_rtt = 0;
}

/*
 * The min_rtt window, in jiffies: v3's @win.  loss_mode 1 shortens it to
 * one and a half PROBE_RTT intervals (@probe_rtt_win) when the last
 * PROBE_RTT measured more than a quarter above min_rtt and the flow has
 * lost packets since min_rtt was taken: a queue that a PROBE_RTT could
 * not drain, of a size that only a loss-based competitor keeps (BBR flows
 * drain theirs together in PROBE_RTT, and a shallow buffer's holds a few
 * ms).  That queue is part of the path's RTT for as long as the
 * competitor runs; v3's 10 s keep the empty path's min_rtt over two
 * PROBE_RTTs, and with it a cwnd cap (cwnd_gain x bw x min_rtt) that the
 * competitor's queue makes bind, so that the flow holds well under its
 * share.  Without the loss, the queue can be a BBR flow's that joined
 * late and has not yet run its first PROBE_RTT: taking it into min_rtt
 * would double the incumbent's cwnd cap and keep the split uneven.  The
 * half interval lets the window end after the next PROBE_RTT has
 * measured, not at its start, when the only sample is one taken over the
 * queue.
 */
static inline u32 bbr2_loss_mode_min_rtt_win(const struct bbr2 *bbr, u32 win,
					     u32 probe_rtt_win)
{
	u64 min_rtt = bbr->min_rtt_us;

	if (bbr2_loss_mode(bbr) && bbr->lost_since_min_rtt &&
	    bbr->probe_rtt_min_us > min_rtt + (min_rtt >> 2))
		win = min(win, probe_rtt_win * 3 / 2);
	return win;
}

/*
 * Whether a PROBE_RTT that is due waits for the probe in progress to end.
 * A probe that ends on loss leaves inflight_hi at (1 - beta) of the
 * flight, and PROBE_UP regrows it on a slope that doubles every round:
 * log2 of the shortfall in rounds.  On a path of 10^5 packets per RTT and
 * more, at a long RTT, that is more rounds than fit between two PROBE_RTTs
 * (probe_rtt_win).  v3 leaves PROBE_UP for PROBE_RTT all the same, and the
 * next probe starts its slope from one packet again, so that inflight_hi
 * stays near (1 - beta) of the path for many cycles.  loss_mode 1 lets the
 * probe end first: in PROBE_UP the queue a PROBE_RTT drains is the probe's
 * own, and the min_rtt it would measure keeps for a few more rounds.  It
 * waits at most one more interval (@probe_rtt_win, jiffies), whatever the
 * probe does.  Only where the buffer has not shown a queue: in a deep
 * buffer a probe ends when bw stops growing, not on loss, and flows drain
 * the queue they share by running PROBE_RTT together, which a wait would
 * put out of step.
 */
static inline bool bbr2_probe_rtt_waits_for_probe(const struct bbr2 *bbr,
						  u32 probe_rtt_win)
{
	return bbr2_loss_mode(bbr) && !bbr->deep_buffer &&
	       bbr2_probing_up(bbr) &&
	       !after(tcp_jiffies32,
		      bbr->probe_rtt_min_stamp + 2 * probe_rtt_win);
}

#endif /* _BBR2_LOSS_MODE_H */
