// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1's flows sharing a 1-BDP buffer retransmit no more than v3's.
 *
 * Google transperf's four-flow scenario: four bulk flows, 50 Mbit/s x
 * 40 ms, 1 BDP of drop-tail buffer, 60 s, the test bed modelled
 * (linksim_cfg_testbed()), seeds 1-6.  transperf's loss-avoidance score
 * asks that at most 1 % of each flow's packets be retransmitted.  The
 * buffer is deep enough to show a queue, so loss_mode=1 takes the losses
 * that PROBE_BW DOWN's rounds report for its last probe's
 * (bbr2_loss_judged_by_probe()).  Here they are not only its own: one
 * flow's probe overfills a buffer the other three keep full.  A DOWN that
 * cut nothing would let the flow cruise at its cap after every such probe,
 * and keep the buffer full for the next flow's probe; at a loss rate that
 * is too high DOWN cuts inflight_lo to what the round delivered, which
 * drains it, and leaves bw_lo, so that the flow paces at the link.
 *
 * Per seed the worst of the four flows' retransmit rates is taken, in
 * loss_mode=1 and in v3 mode (bbr2_ref) on the same seed.  loss_mode=1's
 * mean over the seeds must stay within 1.3 x v3 mode's, and every seed's
 * worst flow within transperf's 1 %; the total goodput must stay within
 * 1 % of v3 mode's on every seed.  (With DOWN cutting nothing: 1.7 x v3
 * mode's mean, 1.02 % worst.)
 */
#include "bbr2_util.h"

#define NFLOWS		4
#define NSEEDS		6
#define END_S		60
#define RATE_BPS	50000000ULL
#define MAX_MEAN_RATIO	1.3
#define MAX_WORST_PCT	1.0
#define MIN_GOODPUT_RATIO 0.99

struct outcome {
	double worst_retrans_pct;	/* highest of the flows' rates */
	double goodput_bps;		/* all flows together */
};

static bool run(const char *cc, const char *loss_mode, u64 seed,
		struct outcome *o)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	int i;

	memset(o, 0, sizeof(*o));
	bbr2_params_reset();
	if (loss_mode && bbr2_set_param("loss_mode", loss_mode))
		tap_diag("cannot set loss_mode=%s", loss_mode);
	linksim_cfg_dumbbell(&cfg, RATE_BPS, 40000, 1, seed);
	linksim_cfg_testbed(&cfg);
	linksim_cfg_flows(&cfg, NFLOWS, cc);
	sim = linksim_new(&cfg, NULL);
	if (!sim)
		return false;
	linksim_run_until(sim, END_S * USEC_PER_SEC);
	for (i = 0; i < NFLOWS; i++) {
		const struct linksim_flow_stats *st = linksim_flow_stats(sim, i);
		double pct = st->pkts_sent ?
			     100.0 * st->pkts_retrans / st->pkts_sent : 0;

		o->worst_retrans_pct = max(o->worst_retrans_pct, pct);
		o->goodput_bps += linksim_goodput_bps(sim, i);
	}
	linksim_free(sim);
	bbr2_params_reset();
	return true;
}

int main(void)
{
	double lm_sum = 0, ref_sum = 0, lm_worst = 0, gp_ratio = 10;
	bool ran = true;
	u64 seed;

	tap_plan(4);
	shim_modules_load();
	for (seed = 1; seed <= NSEEDS; seed++) {
		struct outcome lm, ref;

		ran &= run("bbr2", "1", seed, &lm);
		ran &= run("bbr2_ref", NULL, seed, &ref);
		tap_diag("seed %llu: worst flow's retransmits %.2f / %.2f %%, goodput %.2f / %.2f Mbit/s (loss_mode=1 / v3 mode)",
			 (unsigned long long)seed, lm.worst_retrans_pct,
			 ref.worst_retrans_pct, lm.goodput_bps / 1e6,
			 ref.goodput_bps / 1e6);
		lm_sum += lm.worst_retrans_pct;
		ref_sum += ref.worst_retrans_pct;
		lm_worst = max(lm_worst, lm.worst_retrans_pct);
		if (ref.goodput_bps > 0)
			gp_ratio = min(gp_ratio, lm.goodput_bps / ref.goodput_bps);
	}
	tap_ok(ran && ref_sum > 0 && lm_sum <= MAX_MEAN_RATIO * ref_sum,
	       "loss_mode=1's worst flow retransmits within %.1f x v3 mode's over seeds 1-%d (%.2f %% vs %.2f %%)",
	       MAX_MEAN_RATIO, NSEEDS, lm_sum / NSEEDS, ref_sum / NSEEDS);
	tap_ok(ran && lm_worst <= MAX_WORST_PCT,
	       "every seed's worst loss_mode=1 flow retransmits <= %.0f %% (%.2f %%)",
	       MAX_WORST_PCT, lm_worst);
	tap_ok(ran && gp_ratio >= MIN_GOODPUT_RATIO,
	       "loss_mode=1's four flows keep %.2f x v3 mode's goodput on every seed (worst %.3f)",
	       MIN_GOODPUT_RATIO, gp_ratio);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)",
	       shim_warn_count);
	return tap_done();
}
