// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 judges a probe's losses once, by the probe.
 *
 * One flow, 50 Mbit/s x 40 ms, 1 BDP of buffer, 1 % random loss, the test
 * bed modelled (linksim_cfg_testbed()), 20 s, seeds 1-4.  Each probe
 * overfills the buffer, and with the random loss on top its loss rate is
 * too high: the probe ends and sets inflight_hi.  The ACKs that report
 * the rest of its losses arrive in PROBE_BW DOWN, which drains the queue
 * the probe built.  v3 cuts bw_lo and inflight_lo for them, and the flow
 * then paces at what a lossy round delivered, below the link, until its
 * next probe.  In loss_mode=1, once the flow has seen that its buffer
 * shows a queue (deep_buffer), DOWN's rounds cut bw_lo only at a loss
 * rate that neither the background nor the probe's own overflow gives in
 * most rounds (bbr2_loss_judged_by_probe(), BBR2_OVERFLOW_LOSS_LEVEL); a
 * loss rate that is too high but below that cuts only inflight_lo, to
 * what the round delivered.
 *
 * Per seed: the loss_mode=1 flow notes the deep buffer; bbr2_ref on the
 * same seed cuts bw_lo in DOWN (the scenario reaches the case); over the
 * seeds, loss_mode=1 sets or lowers bw_lo in DOWN less than a quarter as
 * often as bbr2_ref; and it keeps 0.97 x the goodput of the kernel's
 * BBRv1 on the same seed (KSRC=...), which a flow held under the link
 * after its probes does not.
 */
#include "bbr2_util.h"

#define NSEEDS		4
#define END_S		20
#define JUDGE_FROM_S	2
#define LOSS_PPM	10000
#define MIN_V1_RATIO	0.97

struct watch {
	u64 judge_from_us;
	u32 down_cuts;		/* bw_lo set or lowered in DOWN */
	bool deep_buffer;	/* the flow noted a deep buffer */
	u32 last_bw_lo;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs,
		   void *arg)
{
	struct watch *w = arg;
	const struct bbr2 *bbr = bbr2_state(linksim_sk(sim, flow));
	bool reference = bbr->reference;

	w->deep_buffer |= bbr->deep_buffer;
	if (linksim_now_us(sim) >= w->judge_from_us &&
	    (reference || bbr->deep_buffer) &&
	    bbr->mode == BBR2_PROBE_BW &&
	    bbr->cycle_idx == BBR2_BW_PROBE_DOWN &&
	    bbr->bw_lo < w->last_bw_lo)
		w->down_cuts++;
	w->last_bw_lo = bbr->bw_lo;
}

static double run(const char *cc, const char *loss_mode, u64 seed,
		  struct watch *w)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double goodput;

	memset(w, 0, sizeof(*w));
	w->judge_from_us = JUDGE_FROM_S * USEC_PER_SEC;
	w->last_bw_lo = ~0U;
	bbr2_params_reset();
	if (loss_mode && bbr2_set_param("loss_mode", loss_mode))
		tap_diag("cannot set loss_mode=%s", loss_mode);
	linksim_cfg_dumbbell(&cfg, 50000000, 40000, 1, seed);
	linksim_cfg_testbed(&cfg);
	cfg.loss_ppm = LOSS_PPM;
	cfg.flow[0].cc = cc;
	if (strcmp(cc, "bbr")) {
		cfg.on_ack = on_ack;
		cfg.hook_arg = w;
	}
	sim = linksim_new(&cfg, NULL);
	if (!sim)
		return 0;
	linksim_run_until(sim, END_S * USEC_PER_SEC);
	goodput = linksim_goodput_bps(sim, 0);
	linksim_free(sim);
	bbr2_params_reset();
	return goodput;
}

int main(void)
{
	u32 lm_cuts = 0, ref_cuts = 0, ref_seeds_cut = 0, deep_seeds = 0;
	u32 v1_seeds_ok = 0;
	double worst_ratio = 10;
	bool have_bbr1;
	u64 seed;

	tap_plan(5);
	shim_modules_load();
	have_bbr1 = tcp_ca_find("bbr") != NULL;
	for (seed = 1; seed <= NSEEDS; seed++) {
		struct watch lm, ref, v1w;
		double g_lm = run("bbr2", "1", seed, &lm);
		double g_ref = run("bbr2_ref", NULL, seed, &ref);
		double g_v1 = have_bbr1 ? run("bbr", NULL, seed, &v1w) : 0;

		tap_diag("seed %llu: loss_mode=1 %.2f Mbit/s, deep buffer %s, bw_lo cuts in DOWN %u; bbr2_ref %.2f Mbit/s, bw_lo cuts in DOWN %u; BBRv1 %.2f Mbit/s",
			 (unsigned long long)seed, g_lm / 1e6,
			 lm.deep_buffer ? "noted" : "not noted", lm.down_cuts,
			 g_ref / 1e6, ref.down_cuts, g_v1 / 1e6);
		deep_seeds += lm.deep_buffer;
		lm_cuts += lm.down_cuts;
		ref_cuts += ref.down_cuts;
		ref_seeds_cut += ref.down_cuts > 0;
		if (g_v1 > 0) {
			worst_ratio = min(worst_ratio, g_lm / g_v1);
			v1_seeds_ok += g_lm >= MIN_V1_RATIO * g_v1;
		}
	}
	tap_ok(deep_seeds == NSEEDS,
	       "a 1-BDP buffer shows loss_mode=1 a deep queue on every seed (%u of %u)",
	       deep_seeds, NSEEDS);
	tap_ok(ref_seeds_cut == NSEEDS,
	       "bbr2_ref cuts bw_lo in PROBE_BW DOWN on every seed (%u of %u)",
	       ref_seeds_cut, NSEEDS);
	tap_ok(deep_seeds == NSEEDS && 4 * lm_cuts < ref_cuts,
	       "loss_mode=1 cuts bw_lo in PROBE_BW DOWN less than a quarter as often as bbr2_ref once its buffer has shown a queue (%u cuts, bbr2_ref %u)",
	       lm_cuts, ref_cuts);
	if (have_bbr1)
		tap_ok(v1_seeds_ok == NSEEDS,
		       "loss_mode=1 keeps %.2f x BBRv1's goodput at 1 %% random loss on every seed (worst %.3f)",
		       MIN_V1_RATIO, worst_ratio);
	else
		tap_skip("needs KSRC=<kernel source tree>",
			 "loss_mode=1 against BBRv1 at 1 %% random loss");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)",
	       shim_warn_count);
	return tap_done();
}
