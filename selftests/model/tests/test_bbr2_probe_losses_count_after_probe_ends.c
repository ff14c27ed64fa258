// SPDX-License-Identifier: GPL-2.0
/*
 * When a bandwidth probe ends because an ACK reported too much loss, the
 * losses on that ACK beyond the ones that crossed loss_thresh still belong
 * to the round that follows: Google's v3 notes each lost packet in turn, so
 * those after the one that ended PROBE_UP mark the new PROBE_DOWN round as a
 * loss round, and at its end bw_lo and inflight_lo are cut by beta.  bbr2
 * clears its loss round when PROBE_DOWN begins; it must not drop the
 * losses of the ACK that began it.
 *
 * 50 Mbit/s, 40 ms, 8 BDP of buffer (no loss of its own): in PROBE_UP, one
 * crafted ACK (a copy of the simulator's, with a quarter of the flight
 * lost) is fed to the module between two of the simulator's ACKs.
 */
#include "bbr2_util.h"

struct trace {
	int injected;
	bool down;		/* the crafted ACK ended the probe */
	bool round_kept;	/* DOWN's loss round has the losses */
	bool bounded;		/* bw_lo/inflight_lo cut before the next probe */
	bool reprobed;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct trace *tr = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *b = bbr2_state(sk);
	struct rate_sample crafted;
	u32 pif;

	if (tr->injected) {
		if (tr->reprobed)
			return;
		if (b->mode == BBR2_PROBE_BW && b->cycle_idx == BBR2_BW_PROBE_REFILL)
			tr->reprobed = true;
		else if (b->bw_lo != ~0U || b->inflight_lo != ~0U)
			tr->bounded = true;
		return;
	}
	if (linksim_now_us(sim) < 5 * USEC_PER_SEC || b->mode != BBR2_PROBE_BW ||
	    b->cycle_idx != BBR2_BW_PROBE_UP || !b->bw_probe_samples ||
	    rs->delivered <= 0 || rs->interval_us <= 0 || b->loss_in_round)
		return;
	tr->injected = 1;
	pif = tcp_packets_in_flight(tcp_sk(sk));
	crafted = *rs;
	crafted.losses = pif / 4;
	crafted.acked_sacked = 1;
	tcp_sk(sk)->lost += crafted.losses;
	bbr2_feed_sample(sk, &crafted);
	tr->down = b->cycle_idx == BBR2_BW_PROBE_DOWN;
	tr->round_kept = b->loss_in_round;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct trace tr = { 0 };

	tap_plan(4);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	cfg.queue_pkts = 8 * linksim_bdp_pkts(&cfg);
	cfg.on_ack = on_ack;
	cfg.hook_arg = &tr;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 20 * USEC_PER_SEC);
	linksim_free(sim);
	tap_ok(tr.injected && tr.down, "the crafted ACK's losses ended PROBE_UP");
	tap_ok(tr.round_kept,
	       "PROBE_DOWN's loss round keeps the losses of the ACK that began it");
	tap_ok(tr.bounded,
	       "bw_lo / inflight_lo were cut before the next probe");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
