// SPDX-License-Identifier: GPL-2.0
/*
 * STARTUP must notice a full pipe quickly: once the delivery rate stops
 * growing (the bottleneck is full), BBR waits full_bw_cnt (3) rounds without
 * 25 % growth and leaves STARTUP; DRAIN then empties the queue it built and
 * PROBE_BW starts with a small queue. The buffer is deep (4 BDP) so that
 * STARTUP ends on the bandwidth plateau, not on loss.
 */
#include "bbr2_util.h"

struct trace {
	double link_Bps;
	u64 t_fill_us, t_exit_us, t_probe_bw_us;
	u32 rounds_after_fill;
	u32 queue_at_probe_bw;
	u64 drops_at_exit;
	int last_mode;
	bool saw_drain;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct trace *tr = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *b = bbr2_state(sk);
	u64 now = linksim_now_us(sim);

	if (!b->initialized)
		return;
	if (!tr->t_fill_us && rs->delivered > 0 && rs->interval_us > 0 &&
	    (double)rs->delivered * 1448 * 1e6 / rs->interval_us >= 0.95 * tr->link_Bps)
		tr->t_fill_us = now;
	if (b->mode == BBR2_STARTUP && tr->t_fill_us && b->round_start)
		tr->rounds_after_fill++;
	if (b->mode != BBR2_STARTUP && !tr->t_exit_us) {
		tr->t_exit_us = now;
		tr->drops_at_exit = linksim_link_stats(sim)->drops_queue;
	}
	if (b->mode == BBR2_DRAIN)
		tr->saw_drain = true;
	if (b->mode == BBR2_PROBE_BW && !tr->t_probe_bw_us) {
		tr->t_probe_bw_us = now;
		tr->queue_at_probe_bw = linksim_queue_pkts(sim);
	}
}

static void run(u64 rate_bps, u32 rtt_us)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct trace tr = { 0 };
	u32 bdp;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = rate_bps;
	cfg.rtt_us = rtt_us;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 4 * bdp;
	cfg.on_ack = on_ack;
	cfg.hook_arg = &tr;
	tr.link_Bps = link_payload_Bps(&cfg);
	sim = linksim_new(&cfg, "bbr2");
	if (!sim) {
		tap_ok(false, "linksim_new(bbr2)");
		return;
	}
	linksim_run_until(sim, 10 * USEC_PER_SEC);
	tap_diag("%llu Mbit/s %u ms (BDP %u pkts): pipe full at %.3f s, STARTUP exit at %.3f s after %u rounds, PROBE_BW at %.3f s with %u pkts queued",
		 rate_bps / 1000000, rtt_us / 1000, bdp, tr.t_fill_us / 1e6,
		 tr.t_exit_us / 1e6, tr.rounds_after_fill, tr.t_probe_bw_us / 1e6,
		 tr.queue_at_probe_bw);
	tap_ok(tr.t_fill_us && tr.t_exit_us && tr.rounds_after_fill <= 4,
	       "%llu Mbit/s: STARTUP exits <= 4 rounds after the pipe fills (%u)",
	       rate_bps / 1000000, tr.rounds_after_fill);
	tap_ok(tr.t_exit_us && tr.drops_at_exit == 0,
	       "%llu Mbit/s: STARTUP ended on the bw plateau, not on loss (%llu drops)",
	       rate_bps / 1000000, tr.drops_at_exit);
	tap_ok(tr.saw_drain && tr.t_probe_bw_us && tr.queue_at_probe_bw <= bdp / 4,
	       "%llu Mbit/s: DRAIN empties the queue before PROBE_BW (%u pkts <= BDP/4)",
	       rate_bps / 1000000, tr.queue_at_probe_bw);
	linksim_free(sim);
}

int main(void)
{
	tap_plan(10);
	run(10000000, 40000);
	run(50000000, 40000);
	run(200000000, 100000);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
