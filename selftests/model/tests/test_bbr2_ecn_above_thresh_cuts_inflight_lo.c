// SPDX-License-Identifier: GPL-2.0
/*
 * ECN: with ecn_enable=1 on an ECN-capable connection whose min_rtt is
 * below ecn_max_rtt_us (5 ms), CE marks above ecn_thresh (50 % of a round)
 * cut inflight_lo and keep the queue near the marking threshold without
 * loss. With ecn_enable=0, or without ECN negotiated, or on a path whose
 * RTT is above ecn_max_rtt_us, the same marks change nothing.
 * 100 Mbit/s, 2 ms, step marking at K = 8 packets, 10 BDP of buffer.
 */
#include "bbr2_util.h"

struct trace {
	u32 last_lo;
	u32 lo_cuts;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct trace *tr = arg;
	const struct bbr2 *b = bbr2_state(linksim_sk(sim, flow));

	if (!b->initialized)
		return;
	if (b->inflight_lo < tr->last_lo)
		tr->lo_cuts++;
	tr->last_lo = b->inflight_lo;
}

struct result {
	u32 lo_cuts;
	double avg_queue;
	u64 ce, drops;
	double util;
};

static struct result run(const char *ecn_enable, bool negotiate, u32 rtt_us,
			 enum linksim_ece_mode mode)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct trace tr = { .last_lo = ~0U };
	struct result r;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 100000000;
	cfg.rtt_us = rtt_us;
	cfg.queue_pkts = 10 * linksim_bdp_pkts(&cfg);
	cfg.ecn_k_pkts = 8;
	cfg.ece_mode = mode;
	cfg.flow[0].ecn = negotiate;
	cfg.on_ack = on_ack;
	cfg.hook_arg = &tr;
	shim_modules_load();
	if (bbr2_set_param("ecn_enable", ecn_enable))
		tap_diag("could not set ecn_enable=%s", ecn_enable);
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 10 * USEC_PER_SEC);
	r.lo_cuts = tr.lo_cuts;
	r.avg_queue = linksim_avg_queue_pkts(sim);
	r.ce = linksim_link_stats(sim)->ce_marks;
	r.drops = linksim_link_stats(sim)->drops_queue;
	r.util = linksim_utilization(sim);
	tap_diag("ecn_enable=%s negotiated=%d rtt=%u us %s: inflight_lo cut %u times, avg queue %.1f pkts, %llu CE, %llu drops, util %.1f%%",
		 ecn_enable, negotiate, rtt_us,
		 mode == LINKSIM_ECE_RFC3168 ? "rfc3168" : "per-packet",
		 r.lo_cuts, r.avg_queue, r.ce, r.drops, r.util * 100);
	linksim_free(sim);
	bbr2_set_param("ecn_enable", "0");
	return r;
}

int main(void)
{
	struct result on, off, plain, far;
	enum linksim_ece_mode mode;

	tap_plan(9);
	for (mode = LINKSIM_ECE_RFC3168; mode <= LINKSIM_ECE_PER_PACKET; mode++) {
		const char *m = mode == LINKSIM_ECE_RFC3168 ? "RFC 3168 receiver" :
							      "per-packet ECE receiver";

		on = run("1", true, 2000, mode);
		off = run("0", true, 2000, mode);
		tap_ok(on.lo_cuts > 10 && on.drops == 0 && on.util > 0.9,
		       "%s: CE above ecn_thresh cuts inflight_lo (%u cuts), no loss, link busy",
		       m, on.lo_cuts);
		tap_ok(off.lo_cuts == 0, "%s: ecn_enable=0 ignores CE (%u cuts)", m, off.lo_cuts);
		tap_ok(on.avg_queue < off.avg_queue,
		       "%s: ECN response shortens the queue (%.1f < %.1f pkts)", m,
		       on.avg_queue, off.avg_queue);
	}
	plain = run("1", false, 2000, LINKSIM_ECE_PER_PACKET);
	tap_ok(plain.ce == 0 && plain.lo_cuts == 0,
	       "without ECN negotiated nothing is marked or cut (%llu CE, %u cuts)",
	       plain.ce, plain.lo_cuts);
	far = run("1", true, 20000, LINKSIM_ECE_PER_PACKET);
	tap_ok(far.ce > 0 && far.lo_cuts == 0,
	       "min_rtt above ecn_max_rtt_us: CE ignored (%llu CE, %u cuts)", far.ce, far.lo_cuts);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
