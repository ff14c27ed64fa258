// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 lowers inflight_hi a packet for each cruising round that lost
 * three or more packets beyond the background with no standing queue
 * (bbr2_trim_cruising_cap(); design.rst, "Trimming the cruising cap"),
 * the test bed modelled as in the VM benchmark:
 *
 *  - 16 flows in a 5 %-BDP buffer, 50 Mbit/s x 40 ms, 20 s, three seeds:
 *    loss_mode=1 flows lower inflight_hi while cruising, v3 mode's hardly
 *    ever do (a probe's late losses, reported after CRUISE began, can), so
 *    the count tells the two apart; loss_mode=1 retransmits at most half
 *    of v3 mode's at >= 95 % of the link;
 *  - one flow at 10 Mbit/s x 10 ms (a BDP of 8.6 packets), 1 BDP of
 *    buffer, 3 % random loss, four seeds: a lost packet or two in a round,
 *    which is what random loss mostly gives such a flow, does not trim;
 *    it trims at most 0.6 times a second (0.46; at two losses 0.80) and
 *    keeps >= 0.85 x v3 mode's goodput (0.94; at two losses 0.74, without
 *    the trim 0.86).
 */
#include "bbr2_util.h"

#define SHALLOW_NFLOWS		16
#define SHALLOW_SEEDS		3
#define SMALL_SEEDS		4
#define END_S			20

struct trim_count {
	u32 nflows;
	u32 last_hi[LINKSIM_MAX_FLOWS];
	bool last_cruise[LINKSIM_MAX_FLOWS];
	u64 trims;		/* inflight_hi lowered between two CRUISE ticks */
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct trim_count *c = arg;
	u32 i;

	for (i = 0; i < c->nflows; i++) {
		const struct bbr2 *b = bbr2_state(linksim_sk(sim, i));
		bool cruise = b->initialized && b->mode == BBR2_PROBE_BW &&
			      b->cycle_idx == BBR2_BW_PROBE_CRUISE;

		if (cruise && c->last_cruise[i] && b->inflight_hi != ~0U &&
		    b->inflight_hi < c->last_hi[i])
			c->trims++;
		c->last_cruise[i] = cruise;
		c->last_hi[i] = b->inflight_hi;
	}
}

struct result {
	double goodput;		/* bit/s, all flows */
	double retrans_pct;
	double util;
	u64 trims;
};

static struct result run(const char *loss_mode, u32 nflows, u64 rate_bps,
			 u32 rtt_us, double buf_bdp, u32 loss_ppm, u64 seed)
{
	struct trim_count c = { .nflows = nflows };
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct result r = { 0 };
	u32 i;

	if (bbr2_set_param("loss_mode", loss_mode))
		tap_diag("cannot set loss_mode=%s", loss_mode);
	linksim_cfg_dumbbell(&cfg, rate_bps, rtt_us, buf_bdp, seed);
	linksim_cfg_testbed(&cfg);
	cfg.loss_ppm = loss_ppm;
	linksim_cfg_flows(&cfg, nflows, "bbr2");
	cfg.on_tick = on_tick;
	cfg.tick_us = 1000;
	cfg.hook_arg = &c;
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, END_S * USEC_PER_SEC);
	for (i = 0; i < nflows; i++)
		r.goodput += linksim_goodput_bps(sim, i);
	r.retrans_pct = linksim_retrans_pct(sim);
	r.util = linksim_utilization(sim);
	r.trims = c.trims;
	linksim_free(sim);
	bbr2_set_param("loss_mode", "0");
	return r;
}

/* means of goodput, retransmits and utilisation; the trims summed */
static struct result over_seeds(const char *loss_mode, u32 nflows,
				u64 rate_bps, u32 rtt_us, double buf_bdp,
				u32 loss_ppm, u32 nseeds)
{
	struct result sum = { 0 }, r;
	u64 seed;

	for (seed = 1; seed <= nseeds; seed++) {
		r = run(loss_mode, nflows, rate_bps, rtt_us, buf_bdp, loss_ppm,
			seed);
		sum.goodput += r.goodput / nseeds;
		sum.retrans_pct += r.retrans_pct / nseeds;
		sum.util += r.util / nseeds;
		sum.trims += r.trims;
	}
	return sum;
}

int main(void)
{
	struct result v3, m1, small_v3, small_m1;
	double shallow_s = (double)SHALLOW_NFLOWS * END_S * SHALLOW_SEEDS;
	double small_s = (double)END_S * SMALL_SEEDS;

	tap_plan(5);
	shim_modules_load();
	v3 = over_seeds("0", SHALLOW_NFLOWS, 50000000, 40000, 0.05, 0,
			SHALLOW_SEEDS);
	m1 = over_seeds("1", SHALLOW_NFLOWS, 50000000, 40000, 0.05, 0,
			SHALLOW_SEEDS);
	small_v3 = over_seeds("0", 1, 10000000, 10000, 1.0, 30000,
			      SMALL_SEEDS);
	small_m1 = over_seeds("1", 1, 10000000, 10000, 1.0, 30000,
			      SMALL_SEEDS);

	tap_ok(m1.trims >= 10 * (v3.trims + 1),
	       "16 flows, 5 %%-BDP buffer: loss_mode=1 lowers inflight_hi while cruising (%.2f times per flow-second), >= 10 x v3 mode (%.3f)",
	       m1.trims / shallow_s, v3.trims / shallow_s);
	tap_ok(2 * m1.retrans_pct <= v3.retrans_pct && m1.util >= 0.95,
	       "16 flows, 5 %%-BDP buffer: loss_mode=1 retransmits at most half of v3 mode's (%.2f%% vs %.2f%%) at >= 95 %% of the link (%.3f)",
	       m1.retrans_pct, v3.retrans_pct, m1.util);
	tap_ok(small_m1.trims <= 0.6 * small_s,
	       "10 Mbit/s x 10 ms, 3 %% random loss: loss_mode=1 trims inflight_hi at most 0.6 times a second (%.3f)",
	       small_m1.trims / small_s);
	tap_ok(small_m1.goodput >= 0.85 * small_v3.goodput,
	       "10 Mbit/s x 10 ms, 3 %% random loss: loss_mode=1 keeps >= 0.85 x v3 mode's goodput (%.2f vs %.2f Mbit/s)",
	       small_m1.goodput / 1e6, small_v3.goodput / 1e6);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)",
	       shim_warn_count);
	return tap_done();
}
