// SPDX-License-Identifier: GPL-2.0
/*
 * An ACK can carry news of loss without a rate sample: dupacks without
 * SACK, an ACK of data already SACKed, the first ACKs after an RTO all
 * have rs->delivered = -1.  When such an ACK says a bandwidth probe lost
 * too much, inflight_hi must still come from a flight the path is known to
 * have held (Google's v3 takes the lost packet's tx_in_flight), not from
 * the missing sample: it must stay at or above what the last round
 * delivered.  And an ACK that delivered nothing proves no flight safe, so
 * it must not raise inflight_hi either (v3 raises it to the ACKed packet's
 * tx_in_flight; the stack's prior_in_flight is the flight now, including
 * packets not yet delivered).
 *
 * 50 Mbit/s, 40 ms, 8 BDP of buffer (no loss of its own); the crafted ACK
 * is fed to the module between two of the simulator's ACKs.
 */
#include "bbr2_util.h"

struct probe {
	int done;
	u32 latest;		/* inflight_latest before the crafted ACK */
	u32 hi_after;		/* inflight_hi after it */
	u32 hi_before;
	u32 pif;
};

static void crafted_ack(struct sock *sk, u32 prior_in_flight, u32 losses)
{
	struct rate_sample rs = { 0 };

	rs.prior_in_flight = prior_in_flight;
	rs.delivered = -1;
	rs.interval_us = -1;
	rs.rtt_us = -1;
	rs.losses = losses;
	tcp_sk(sk)->lost += losses;
	bbr2_feed_sample(sk, &rs);
}

/* In PROBE_UP, with the probe's samples coming in: an ACK, no sample, a
 * quarter of the flight lost. */
static void on_ack_up(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct probe *p = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *b = bbr2_state(sk);
	u32 pif = tcp_packets_in_flight(tcp_sk(sk));

	if (p->done || linksim_now_us(sim) < 5 * USEC_PER_SEC ||
	    b->mode != BBR2_PROBE_BW || b->cycle_idx != BBR2_BW_PROBE_UP ||
	    !b->bw_probe_samples || b->inflight_latest < 20)
		return;
	p->done = 1;
	p->latest = b->inflight_latest;
	p->pif = pif;
	crafted_ack(sk, pif, pif / 4);
	p->hi_after = b->inflight_hi;
}

/* In CRUISE with an inflight_hi and no loss in the round: an ACK, no
 * sample, no loss, reporting 50 packets more in flight than inflight_hi. */
static void on_ack_cruise(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct probe *p = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *b = bbr2_state(sk);

	if (p->done || linksim_now_us(sim) < 5 * USEC_PER_SEC ||
	    b->mode != BBR2_PROBE_BW || b->cycle_idx != BBR2_BW_PROBE_CRUISE ||
	    b->inflight_hi == ~0U || b->loss_in_round ||
	    tcp_sk(sk)->lost != b->loss_round_lost)
		return;
	p->done = 1;
	p->hi_before = b->inflight_hi;
	crafted_ack(sk, b->inflight_hi + 50, 0);
	p->hi_after = b->inflight_hi;
}

static struct probe run(bool up, u32 *bdp)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct probe p = { 0 };

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	*bdp = linksim_bdp_pkts(&cfg);
	/* For CRUISE with an inflight_hi, a buffer the probes overflow. */
	cfg.queue_pkts = up ? 8 * *bdp : *bdp / 2;
	cfg.on_ack = up ? on_ack_up : on_ack_cruise;
	cfg.hook_arg = &p;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	linksim_free(sim);
	return p;
}

int main(void)
{
	struct probe p;
	u32 bdp;

	tap_plan(5);
	p = run(true, &bdp);
	tap_ok(p.done, "reached PROBE_UP with probe samples (flight %u, BDP %u)", p.pif, bdp);
	tap_ok(p.hi_after >= p.latest,
	       "too much loss on an ACK without a rate sample: inflight_hi %u >= the %u the last round delivered",
		 p.hi_after, p.latest);

	p = run(false, &bdp);
	tap_ok(p.done, "reached CRUISE with inflight_hi %u (BDP %u)", p.hi_before, bdp);
	tap_ok(p.hi_after == p.hi_before,
	       "an ACK that delivered nothing does not raise inflight_hi (%u -> %u)",
		 p.hi_before, p.hi_after);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
