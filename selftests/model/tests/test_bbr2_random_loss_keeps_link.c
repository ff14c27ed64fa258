// SPDX-License-Identifier: GPL-2.0
/*
 * One flow, 50 Mbit/s, 50 ms, 1 BDP of buffer, random loss of 0.1 %, 0.5 %
 * and 1 %: below loss_thresh (2 %) BBR's model is not driven by loss, so
 * bbr2 must keep most of the link, where CUBIC's loss response collapses
 * (the Mathis bound at 1 % and 50 ms is ~3 Mbit/s).  CUBIC and BBRv1 come
 * from KSRC=<kernel source tree> when given; the absolute bound holds
 * without them.
 */
#include "bbr2_util.h"

static double goodput(const char *cc, u32 loss_ppm, u64 seed)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double bps;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 50000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.loss_ppm = loss_ppm;
	cfg.fq = true;
	cfg.seed = seed;
	cfg.flow[0].cc = cc;
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	bps = linksim_goodput_bps(sim, 0);
	linksim_free(sim);
	return bps;
}

int main(void)
{
	static const u32 loss_ppm[] = { 1000, 5000, 10000 };
	bool have_cubic;
	unsigned int i;

	tap_plan(2 * ARRAY_SIZE(loss_ppm) + 1);
	shim_modules_load();
	have_cubic = tcp_ca_find("cubic") && tcp_ca_find("bbr");
	for (i = 0; i < ARRAY_SIZE(loss_ppm); i++) {
		double b2 = goodput("bbr2", loss_ppm[i], 1);

		if (have_cubic) {
			double cu = goodput("cubic", loss_ppm[i], 1);
			double b1 = goodput("bbr", loss_ppm[i], 1);

			tap_diag("loss %.1f%%: bbr2 %.1f, bbr %.1f, cubic %.1f Mbit/s",
				 loss_ppm[i] / 1e4, b2 / 1e6, b1 / 1e6, cu / 1e6);
			tap_ok(b2 > 3 * cu, "loss %.1f%%: bbr2 more than 3x cubic (%.1f vs %.1f Mbit/s)",
			       loss_ppm[i] / 1e4, b2 / 1e6, cu / 1e6);
		} else {
			tap_diag("loss %.1f%%: bbr2 %.1f Mbit/s", loss_ppm[i] / 1e4, b2 / 1e6);
			tap_skip("needs KSRC=<kernel source tree>",
				 "loss %.1f%%: bbr2 more than 3x cubic", loss_ppm[i] / 1e4);
		}
		tap_ok(b2 > 0.75 * 50e6, "loss %.1f%%: bbr2 keeps > 75%% of the link (%.1f Mbit/s)",
		       loss_ppm[i] / 1e4, b2 / 1e6);
	}
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
