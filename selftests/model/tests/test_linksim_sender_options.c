// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's knobs do what they say (with Reno as the sender):
 * delayed ACKs (every 2nd packet) halve the ACK count and still fill the
 * link; fq pacing plus TSO bursts fill the link; a byte-limited buffer
 * bounds the queue in bytes; header overhead takes its share of the
 * link; four flows share the link fairly.
 */
#include "model_util.h"

static struct linksim *run(struct linksim_cfg *cfg, u32 secs)
{
	struct linksim *sim = linksim_new(cfg, "reno");

	linksim_run_until(sim, (u64)secs * USEC_PER_SEC);
	return sim;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	const struct linksim_flow_stats *st;
	double x[4], payload;
	int i;

	tap_plan(6);

	linksim_cfg_default(&cfg);
	cfg.ack_every = 2;
	sim = run(&cfg, 30);
	st = linksim_flow_stats(sim, 0);
	/* half, plus the immediate ACKs that out-of-order arrivals get */
	tap_ok(st->acks >= st->pkts_sent / 2 && st->acks <= st->pkts_sent * 6 / 10 &&
	       linksim_utilization(sim) > 0.85,
	       "ACK every 2nd packet: %llu ACKs for %llu packets, %.1f%% busy",
	       st->acks, st->pkts_sent, linksim_utilization(sim) * 100);
	linksim_free(sim);

	linksim_cfg_default(&cfg);
	cfg.fq = true;
	cfg.tso = true;
	cfg.rate_bps = 100000000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	sim = run(&cfg, 30);
	tap_ok(linksim_sk(sim, 0)->sk_pacing_status == SK_PACING_FQ &&
	       linksim_utilization(sim) > 0.85,
	       "fq pacing with TSO bursts fills the link (%.1f%%)", linksim_utilization(sim) * 100);
	linksim_free(sim);

	linksim_cfg_default(&cfg);
	cfg.queue_pkts = 0;
	cfg.queue_bytes = 20 * 1448;
	sim = run(&cfg, 20);
	tap_ok(linksim_link_stats(sim)->max_queue_pkts <= 20 &&
	       linksim_link_stats(sim)->drops_queue > 0,
	       "a 20-packet byte limit bounds the queue (max %u pkts)",
	       linksim_link_stats(sim)->max_queue_pkts);
	linksim_free(sim);

	linksim_cfg_default(&cfg);
	cfg.hdr_bytes = 52;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	sim = run(&cfg, 30);
	payload = linksim_goodput_bps(sim, 0) / (linksim_utilization(sim) * cfg.rate_bps);
	tap_ok(payload > 0.96 * 1448 / 1500.0 && payload < 1.001 * 1448 / 1500.0,
	       "52 bytes of headers per 1448: goodput is %.3f of the busy link (%.3f)",
	       payload, 1448 / 1500.0);
	linksim_free(sim);

	linksim_cfg_default(&cfg);
	cfg.nflows = 4;
	cfg.queue_pkts = 2 * linksim_bdp_pkts(&cfg);
	for (i = 0; i < 4; i++)
		cfg.flow[i].start_us = i * 100000;
	sim = run(&cfg, 120);
	for (i = 0; i < 4; i++)
		x[i] = linksim_goodput_bps(sim, i);
	tap_ok(jain_index(x, 4) > 0.9, "four Reno flows share fairly (Jain %.3f: %.2f %.2f %.2f %.2f Mbit/s)",
	       jain_index(x, 4), x[0] / 1e6, x[1] / 1e6, x[2] / 1e6, x[3] / 1e6);
	linksim_free(sim);

	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
