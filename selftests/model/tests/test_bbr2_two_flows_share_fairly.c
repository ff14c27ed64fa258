// SPDX-License-Identifier: GPL-2.0
/*
 * Two bbr2 flows sharing a bottleneck, judged by Google's transperf bars
 * for BBR: lifetime Jain index >= 0.96, per-second Jain >= 0.90 after 4 s,
 * retransmits <= 4 % per flow, goodput >= 80 % of the link; and, unlike a
 * loss-based CC, the pair does not overflow 2 BDP of buffer (< 0.1 %
 * retransmits: BBR bounds inflight by its model, not by loss). Also: a flow
 * that joins 10 s late reaches its share (Jain >= 0.90 per second from 5 s
 * after joining), and a Reno flow sharing a 1-BDP buffer with bbr2 keeps a
 * meaningful share (>= 10 %) instead of being starved.
 * 50 Mbit/s, 40 ms, 2 BDP of buffer (1 BDP with Reno), 60 s.
 */
#include "bbr2_util.h"

struct persec {
	u64 last[2];
	double min_jain;
	u64 judge_from_us;
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct persec *ps = arg;
	double x[2];
	int i;

	for (i = 0; i < 2; i++) {
		u64 b = linksim_flow_stats(sim, i)->bytes_acked;

		x[i] = (double)(b - ps->last[i]);
		ps->last[i] = b;
	}
	if (linksim_now_us(sim) > ps->judge_from_us && jain_index(x, 2) < ps->min_jain)
		ps->min_jain = jain_index(x, 2);
}

static struct linksim *run(const char *cc1, u64 start1_s, double buf_bdp,
			   struct persec *ps, u64 judge_from_s)
{
	struct linksim_cfg cfg;
	struct linksim *sim;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	cfg.queue_pkts = (u32)(buf_bdp * linksim_bdp_pkts(&cfg));
	cfg.nflows = 2;
	cfg.flow[0].cc = "bbr2";
	cfg.flow[1].cc = cc1;
	cfg.flow[1].start_us = start1_s * USEC_PER_SEC;
	cfg.on_tick = on_tick;
	cfg.tick_us = USEC_PER_SEC;
	cfg.hook_arg = ps;
	ps->min_jain = 1.0;
	ps->judge_from_us = judge_from_s * USEC_PER_SEC;
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 60 * USEC_PER_SEC);
	return sim;
}

static double retrans_pct(struct linksim *sim, int i)
{
	const struct linksim_flow_stats *st = linksim_flow_stats(sim, i);

	return st->pkts_sent ? 100.0 * st->pkts_retrans / st->pkts_sent : 0;
}

int main(void)
{
	struct persec ps;
	struct linksim *sim;
	double x[2], total;

	memset(&ps, 0, sizeof(ps));

	tap_plan(8);

	sim = run("bbr2", 0, 2.0, &ps, 4);
	x[0] = linksim_goodput_bps(sim, 0);
	x[1] = linksim_goodput_bps(sim, 1);
	total = (x[0] + x[1]) / 50e6;
	tap_diag("together: %.1f + %.1f Mbit/s, lifetime Jain %.3f, worst per-second Jain %.3f, retransmits %.2f%% / %.2f%%, avg queue %.0f pkts",
		 x[0] / 1e6, x[1] / 1e6, jain_index(x, 2), ps.min_jain,
		 retrans_pct(sim, 0), retrans_pct(sim, 1), linksim_avg_queue_pkts(sim));
	tap_ok(jain_index(x, 2) >= 0.96 && total >= 0.8,
	       "two flows: lifetime Jain >= 0.96 (%.3f), goodput >= 80%% (%.1f%%)",
	       jain_index(x, 2), total * 100);
	tap_ok(ps.min_jain >= 0.90, "two flows: per-second Jain >= 0.90 after 4 s (%.3f)",
	       ps.min_jain);
	tap_ok(retrans_pct(sim, 0) <= 4 && retrans_pct(sim, 1) <= 4,
	       "two flows: retransmits <= 4%% per flow (%.2f%%, %.2f%%)",
	       retrans_pct(sim, 0), retrans_pct(sim, 1));
	tap_ok(retrans_pct(sim, 0) < 0.1 && retrans_pct(sim, 1) < 0.1,
	       "two flows do not overflow 2 BDP of buffer (< 0.1%% retransmits)");
	linksim_free(sim);

	memset(&ps, 0, sizeof(ps));
	sim = run("bbr2", 10, 2.0, &ps, 15);
	tap_diag("late joiner: worst per-second Jain from 15 s %.3f, retransmits %.2f%% / %.2f%%",
		 ps.min_jain, retrans_pct(sim, 0), retrans_pct(sim, 1));
	tap_ok(ps.min_jain >= 0.90, "a flow joining at 10 s gets its share within 5 s (Jain %.3f)",
	       ps.min_jain);
	tap_ok(retrans_pct(sim, 0) <= 4 && retrans_pct(sim, 1) <= 4,
	       "late joiner: retransmits <= 4%% per flow");
	linksim_free(sim);

	memset(&ps, 0, sizeof(ps));
	sim = run("reno", 0, 1.0, &ps, 4);
	x[0] = linksim_goodput_bps(sim, 0);
	x[1] = linksim_goodput_bps(sim, 1);
	tap_diag("bbr2 vs reno, 1 BDP buffer: %.1f vs %.1f Mbit/s", x[0] / 1e6, x[1] / 1e6);
	tap_ok(x[1] >= 0.10 * 50e6 && x[0] >= 0.10 * 50e6,
	       "bbr2 and reno both keep >= 10%% of the link (%.1f%%, %.1f%%)",
	       x[0] / 0.5e6, x[1] / 0.5e6);
	linksim_free(sim);

	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
