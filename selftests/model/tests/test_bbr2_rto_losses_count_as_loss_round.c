// SPDX-License-Identifier: GPL-2.0
/*
 * Losses marked outside the ACK path count.  An RTO marks the whole flight
 * lost (tp->lost) without any ACK's rs->losses saying so; Google's v3 notes
 * every packet the stack marks lost, so the round of an RTO is a loss
 * round and the cycle has seen loss.  bbr2 must note them too: when
 * set_state(TCP_CA_Loss) is called (checked on a 1 ms tick), and by the
 * first ACK after the RTO at the latest.
 *
 * 20 Mbit/s, 40 ms, 2 BDP of buffer; an outage (every packet lost) of
 * 150 ms, shorter than the RTO, starting while bbr2 cruises in PROBE_BW.
 */
#include "bbr2_util.h"

struct trace {
	bool armed;
	bool in_loss_seen;	/* a tick found the socket in CA_Loss */
	bool round_at_rto;	/* loss_in_round set at that tick */
	bool acked;		/* the first ACK after the RTO came */
	bool cycle_at_ack;	/* loss_in_cycle set after that ACK */
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct trace *tr = arg;
	struct sock *sk = linksim_sk(sim, 0);

	if (!tr->armed || tr->in_loss_seen || inet_csk(sk)->icsk_ca_state != TCP_CA_Loss)
		return;
	tr->in_loss_seen = true;
	tr->round_at_rto = bbr2_state(sk)->loss_in_round;
}

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct trace *tr = arg;

	if (!tr->in_loss_seen || tr->acked)
		return;
	tr->acked = true;
	tr->cycle_at_ack = bbr2_state(linksim_sk(sim, flow))->loss_in_cycle;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct trace tr = { 0 };
	const struct bbr2 *b;
	u64 t;

	tap_plan(4);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	cfg.queue_pkts = 2 * linksim_bdp_pkts(&cfg);
	cfg.on_ack = on_ack;
	cfg.on_tick = on_tick;
	cfg.tick_us = 1000;
	cfg.hook_arg = &tr;
	sim = linksim_new(&cfg, "bbr2");
	b = bbr2_state(linksim_sk(sim, 0));
	for (t = 8 * USEC_PER_SEC; t < 20 * USEC_PER_SEC; t += 1000) {
		linksim_run_until(sim, t);
		if (b->mode == BBR2_PROBE_BW && b->cycle_idx == BBR2_BW_PROBE_CRUISE &&
		    inet_csk(linksim_sk(sim, 0))->icsk_ca_state == TCP_CA_Open &&
		    !b->loss_in_round && !b->loss_in_cycle)
			break;
	}
	tr.armed = true;
	linksim_set_loss_ppm(sim, 1000000);
	linksim_run_until(sim, t + 150000);
	linksim_set_loss_ppm(sim, 0);
	linksim_run_until(sim, t + 2 * USEC_PER_SEC);
	tap_diag("outage at %.3f s: %u RTOs, tp->lost %u", t / 1e6,
		 linksim_flow_stats(sim, 0)->rtos, tcp_sk(linksim_sk(sim, 0))->lost);
	tap_ok(linksim_flow_stats(sim, 0)->rtos >= 1 && tr.in_loss_seen && tr.acked,
	       "the outage caused an RTO while cruising, then ACKs");
	tap_ok(tr.round_at_rto,
	       "the RTO's losses make its round a loss round when they are marked");
	tap_ok(tr.cycle_at_ack,
	       "the PROBE_BW cycle has seen loss after the first ACK that follows the RTO");
	linksim_free(sim);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
