// SPDX-License-Identifier: GPL-2.0
/*
 * Frame mode (cfg.frame_segs, the simulator's unit at 1-100 Gbit/s) keeps
 * what a congestion control sees per packet (with Reno as the sender):
 * random loss is a per-packet rate, not a per-frame one; the link carries
 * what per-packet mode carries at a rate both can run, with the same
 * queueing delay; the ACK clock is one ACK per frame (what GRO gives a
 * sender); a full buffer drops the tail of a frame and never holds more
 * than its limit; and a 10 Gbit/s path fills.
 */
#include "model_util.h"

static struct linksim *run(struct linksim_cfg *cfg, u32 secs)
{
	struct linksim *sim = linksim_new(cfg, "reno");

	linksim_run_until(sim, (u64)secs * USEC_PER_SEC);
	return sim;
}

static double mean_rtt_ms(struct linksim *sim)
{
	const struct linksim_flow_stats *st = linksim_flow_stats(sim, 0);

	return st->rtt_samples ? st->rtt_sum_us / st->rtt_samples / 1000 : 0;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	const struct linksim_flow_stats *st;
	double p, frac, var, util[2], rtt[2];
	int mode;

	tap_plan(5);

	/* 1 % loss: the dropped fraction of packets is 1 %, within 4 sigma */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 1000000000;
	cfg.rtt_us = 10000;
	cfg.fq = true;
	cfg.frame_segs = 45;
	cfg.loss_ppm = 10000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	sim = run(&cfg, 20);
	st = linksim_flow_stats(sim, 0);
	p = cfg.loss_ppm / 1e6;
	frac = (double)linksim_link_stats(sim)->drops_random / st->pkts_sent;
	var = p * (1 - p) / st->pkts_sent;
	tap_ok(st->pkts_sent > 10000 && (frac - p) * (frac - p) < 16 * var,
	       "random loss is per packet: %.4f%% of %llu packets (%.2f%%, 4 sigma)",
	       frac * 100, st->pkts_sent, p * 100);
	linksim_free(sim);

	/* 50 Mbit/s x 40 ms, 1 BDP: frames and packets give the same link */
	for (mode = 0; mode < 2; mode++) {
		linksim_cfg_default(&cfg);
		cfg.rate_bps = 50000000;
		cfg.fq = true;
		cfg.tso = true;
		cfg.hdr_bytes = 66;
		cfg.frame_segs = mode ? 45 : 0;
		cfg.queue_pkts = linksim_bdp_pkts(&cfg);
		sim = run(&cfg, 30);
		util[mode] = linksim_utilization(sim);
		rtt[mode] = mean_rtt_ms(sim);
		linksim_free(sim);
	}
	tap_ok(util[1] - util[0] < 0.03 && util[0] - util[1] < 0.03 &&
	       rtt[1] - rtt[0] < 0.1 * rtt[0] && rtt[0] - rtt[1] < 0.1 * rtt[0],
	       "50 Mbit/s: frames %.1f%% busy, RTT %.1f ms; packets %.1f%%, %.1f ms",
	       util[1] * 100, rtt[1], util[0] * 100, rtt[0]);

	/* 1 Gbit/s: one ACK per frame, frames of the TSO autosize (> 4) */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 1000000000;
	cfg.rtt_us = 10000;
	cfg.fq = true;
	cfg.frame_segs = 45;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	sim = run(&cfg, 10);
	st = linksim_flow_stats(sim, 0);
	tap_ok(st->acks * 4 < st->pkts_sent && linksim_utilization(sim) > 0.9,
	       "1 Gbit/s: %llu ACKs for %llu packets, %.1f%% busy",
	       st->acks, st->pkts_sent, linksim_utilization(sim) * 100);
	linksim_free(sim);

	/* a 0.1-BDP buffer: tail drops, and the queue stays within its limit */
	cfg.queue_pkts = 0;
	cfg.queue_bytes = (u64)linksim_bdp_pkts(&cfg) / 10 * cfg.mss;
	sim = run(&cfg, 10);
	tap_ok(linksim_link_stats(sim)->drops_queue > 0 &&
	       linksim_link_stats(sim)->max_queue_pkts <= linksim_bdp_pkts(&cfg) / 10,
	       "0.1-BDP buffer: %llu tail drops, queue max %u of %u packets",
	       linksim_link_stats(sim)->drops_queue, linksim_link_stats(sim)->max_queue_pkts,
	       linksim_bdp_pkts(&cfg) / 10);
	linksim_free(sim);

	/* 10 Gbit/s x 20 ms (BDP 17,000 packets) fills in 20 s */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 10000000000ULL;
	cfg.rtt_us = 20000;
	cfg.fq = true;
	cfg.frame_segs = 45;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	sim = run(&cfg, 20);
	tap_ok(linksim_utilization(sim) > 0.85 &&
	       linksim_goodput_bps(sim, 0) <= link_payload_Bps(&cfg) * 8,
	       "10 Gbit/s x 20 ms: %.1f%% busy, goodput %.2f Gbit/s",
	       linksim_utilization(sim) * 100, linksim_goodput_bps(sim, 0) / 1e9);
	linksim_free(sim);

	return tap_done();
}
