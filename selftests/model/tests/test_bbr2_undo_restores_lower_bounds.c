// SPDX-License-Identifier: GPL-2.0
/*
 * Undo of a spurious recovery (DSACK or timestamps prove nothing was lost)
 * puts the short-term bounds back where they were when recovery began, as
 * Google's v3 does (bw_lo = max(bw_lo, undo_bw_lo), the same for
 * inflight_lo): bounds that were in force before recovery stay in force,
 * and bounds that did not exist before it are dropped.
 *
 * The simulator has no DSACK, so the test calls ssthresh() (recovery
 * begins) and undo_cwnd() (it was spurious) itself, from the ACK hook of a
 * flow at 50 Mbit/s, 40 ms, 1 BDP of buffer and 1 % random loss, which
 * keeps bw_lo and inflight_lo bounded most of the time outside probes:
 *  - with both bounds set: undo must leave them bounded, not "unbounded";
 *  - with both unbounded when recovery began and cut before the undo (as a
 *    loss round in the recovery would): undo must drop them again.
 */
#include "bbr2_util.h"

struct probe {
	int kept_done, dropped_done;
	u32 lo_before, lo_after;
	u32 bwlo_before, bwlo_after;
	u32 dropped_lo, dropped_bwlo;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct probe *p = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct tcp_congestion_ops *ops = inet_csk(sk)->icsk_ca_ops;
	struct bbr2 *b = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	if (linksim_now_us(sim) < 5 * USEC_PER_SEC || b->mode != BBR2_PROBE_BW ||
	    inet_csk(sk)->icsk_ca_state != TCP_CA_Open)
		return;
	if (!p->kept_done && b->bw_lo != ~0U && b->inflight_lo != ~0U) {
		p->kept_done = 1;
		p->lo_before = b->inflight_lo;
		p->bwlo_before = b->bw_lo;
		ops->ssthresh(sk);
		tcp_snd_cwnd_set(tcp_sk(sk), ops->undo_cwnd(sk));
		p->lo_after = b->inflight_lo;
		p->bwlo_after = b->bw_lo;
		return;
	}
	if (p->kept_done && !p->dropped_done && b->bw_lo == ~0U &&
	    b->inflight_lo == ~0U) {
		p->dropped_done = 1;
		ops->ssthresh(sk);
		/* A loss round in the recovery cuts the bounds. */
		b->bw_lo = bbr2_max_bw(b) / 2;
		b->inflight_lo = cwnd / 2;
		tcp_snd_cwnd_set(tcp_sk(sk), ops->undo_cwnd(sk));
		p->dropped_lo = b->inflight_lo;
		p->dropped_bwlo = b->bw_lo;
	}
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct probe p = { 0 };

	tap_plan(4);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.loss_ppm = 10000;
	cfg.on_ack = on_ack;
	cfg.hook_arg = &p;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	linksim_free(sim);
	tap_ok(p.kept_done && p.dropped_done, "found both cases in PROBE_BW");
	tap_ok(p.lo_after == p.lo_before && p.bwlo_after == p.bwlo_before,
	       "undo keeps the bounds in force before recovery (inflight_lo %u -> %d, bw_lo %u -> %d)",
	       p.lo_before, (int)p.lo_after, p.bwlo_before, (int)p.bwlo_after);
	tap_ok(p.dropped_lo == ~0U && p.dropped_bwlo == ~0U,
	       "undo drops bounds that did not exist before recovery");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
