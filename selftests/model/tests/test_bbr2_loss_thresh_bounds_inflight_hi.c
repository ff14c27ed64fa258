// SPDX-License-Identifier: GPL-2.0
/*
 * loss_thresh (5/256 = 2 %) separates noise from congestion: random loss
 * well below it (0.1 %, 0.2 %) must never lower inflight_hi, while random
 * loss well above it (3 %) lowers inflight_hi, repeatedly, below the BDP.
 * In between (0.5 %, a quarter of loss_thresh) an unlucky probe round may
 * exceed 2 % and set inflight_hi, but BBRv3 sets it to
 * max(inflight when the probe lost, (1 - beta) x target inflight), so it
 * must never fall below ~0.7 BDP (checked against 0.6 BDP).
 * Three seeds each, 50 Mbit/s, 40 ms, 2 BDP of buffer, 30 s (60 s at 0.5 %).
 */
#include "bbr2_util.h"

struct trace {
	u32 last_hi;
	u32 lowered;
	u32 min_hi;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct trace *tr = arg;
	const struct bbr2 *b = bbr2_state(linksim_sk(sim, flow));

	if (!b->initialized)
		return;
	if (b->inflight_hi < tr->last_hi)
		tr->lowered++;
	tr->last_hi = b->inflight_hi;
	tr->min_hi = min(tr->min_hi, b->inflight_hi);
}

static struct trace run(u32 loss_ppm, u64 seed, u32 *bdp, double *goodput, u32 secs)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct trace tr = { .last_hi = ~0U, .min_hi = ~0U };

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	*bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 2 * *bdp;
	cfg.loss_ppm = loss_ppm;
	cfg.seed = seed;
	cfg.on_ack = on_ack;
	cfg.hook_arg = &tr;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, (u64)secs * USEC_PER_SEC);
	*goodput = linksim_goodput_bps(sim, 0);
	tap_diag("loss %.1f%% seed %llu: inflight_hi lowered %u times, min %d pkts (BDP %u), goodput %.1f Mbit/s",
		 loss_ppm / 1e4, seed, tr.lowered, tr.min_hi == ~0U ? -1 : (int)tr.min_hi,
		 *bdp, *goodput / 1e6);
	linksim_free(sim);
	return tr;
}

int main(void)
{
	static const u32 below[] = { 1000, 2000 };
	u32 bdp, i;
	u64 seed;
	double gp;

	tap_plan(13);
	for (i = 0; i < ARRAY_SIZE(below); i++) {
		for (seed = 1; seed <= 3; seed++) {
			struct trace tr = run(below[i], seed, &bdp, &gp, 30);

			tap_ok(tr.lowered == 0,
			       "%.1f%% loss (seed %llu) never lowers inflight_hi (%u times)",
			       below[i] / 1e4, seed, tr.lowered);
		}
	}
	for (seed = 1; seed <= 3; seed++) {
		struct trace tr = run(30000, seed, &bdp, &gp, 30);

		tap_ok(tr.lowered >= 5 && tr.min_hi < bdp,
		       "3%% loss (seed %llu) lowers inflight_hi repeatedly, below the BDP (%u times, min %u < %u)",
		       seed, tr.lowered, tr.min_hi, bdp);
	}
	for (seed = 1; seed <= 3; seed++) {
		struct trace tr = run(5000, seed, &bdp, &gp, 60);

		/*
		 * Losses reported in DOWN or PROBE_RTT come from the probe's
		 * larger flight; judging them against the small flight of the
		 * moment once set inflight_hi to a quarter of the BDP.
		 */
		tap_ok(tr.min_hi == ~0U || tr.min_hi >= bdp * 6 / 10,
		       "0.5%% loss (seed %llu): inflight_hi never below 0.6 BDP (min %d, 0.6 BDP = %u)",
		       seed, tr.min_hi == ~0U ? -1 : (int)tr.min_hi, bdp * 6 / 10);
	}
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
