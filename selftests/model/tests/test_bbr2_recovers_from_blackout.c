// SPDX-License-Identifier: GPL-2.0
/*
 * After a 1 s total outage (every packet lost: RTOs, TCP_CA_Loss,
 * CA_EVENT_LOSS, exponential backoff), bbr2 gets back to > 80 % of the
 * link within 5 s of the path returning, keeps its bandwidth model sane,
 * and does not flood the queue on restart. Also after a halving of the
 * link rate, bbr2 adapts to the new rate within 10 s.
 */
#include "bbr2_util.h"

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	u64 b0, rtos, bw;
	double after;
	u32 bdp;

	tap_plan(5);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 2 * bdp;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 10 * USEC_PER_SEC);
	linksim_set_loss_ppm(sim, 1000000);
	linksim_run_until(sim, 11 * USEC_PER_SEC);
	linksim_set_loss_ppm(sim, 0);
	rtos = linksim_flow_stats(sim, 0)->rtos;
	/* backoff: the next RTO may be up to ~1.6 s away */
	linksim_run_until(sim, 13 * USEC_PER_SEC);
	b0 = linksim_flow_stats(sim, 0)->bytes_acked;
	linksim_run_until(sim, 16 * USEC_PER_SEC);
	after = (linksim_flow_stats(sim, 0)->bytes_acked - b0) * 8 / 3.0;
	tap_diag("blackout: %llu RTOs, goodput 13-16 s %.1f Mbit/s, max queue %u pkts (buffer %u)",
		 rtos, after / 1e6, linksim_link_stats(sim)->max_queue_pkts, cfg.queue_pkts);
	tap_ok(rtos >= 1, "the blackout caused RTOs (%llu)", rtos);
	tap_ok(after > 0.8 * cfg.rate_bps, "> 80%% of the link within 5 s of recovery (%.1f Mbit/s)",
	       after / 1e6);
	tap_ok(inet_csk(linksim_sk(sim, 0))->icsk_ca_state == TCP_CA_Open,
	       "back in TCP_CA_Open");

	linksim_set_rate(sim, cfg.rate_bps / 2);
	linksim_run_until(sim, 26 * USEC_PER_SEC);
	bw = cc_info_bw(linksim_sk(sim, 0), NULL);
	tap_ok(bw * 8 > 0.9 * cfg.rate_bps / 2 && bw * 8 < 1.1 * cfg.rate_bps / 2,
	       "after the link rate halves, bw tracks the new rate within 10 s (%.2f Mbit/s)",
	       bw * 8 / 1e6);
	linksim_free(sim);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
