// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2 sharing a 1-BDP buffer with the kernel's own CUBIC and BBRv1
 * (compiled from KSRC=<kernel source tree>; skipped without one): neither
 * side is starved (each keeps >= 10 % of the link). The shares themselves
 * are printed for the record; PAM'24 reports BBRv3 leaving CUBIC little
 * room, and BBRv1 is known to dominate v2/v3 in shallow buffers.
 */
#include "bbr2_util.h"

static void share(const char *a, const char *b)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double x0, x1;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.nflows = 2;
	cfg.flow[0].cc = a;
	cfg.flow[1].cc = b;
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 60 * USEC_PER_SEC);
	x0 = linksim_goodput_bps(sim, 0);
	x1 = linksim_goodput_bps(sim, 1);
	tap_diag("%s vs %s, 1 BDP buffer: %.1f vs %.1f Mbit/s, retransmits %llu / %llu", a, b,
		 x0 / 1e6, x1 / 1e6, linksim_flow_stats(sim, 0)->pkts_retrans,
		 linksim_flow_stats(sim, 1)->pkts_retrans);
	tap_ok(x0 >= 5e6 && x1 >= 5e6, "%s and %s both keep >= 10%% of the link", a, b);
	linksim_free(sim);
}

int main(void)
{
	tap_plan(3);
	shim_modules_load();
	if (!tcp_ca_find("bbr") || !tcp_ca_find("cubic")) {
		tap_skip("needs KSRC=<kernel source tree>", "bbr2 vs cubic");
		tap_skip("needs KSRC=<kernel source tree>", "bbr2 vs bbr");
		tap_skip("needs KSRC=<kernel source tree>", "no kernel WARN fired");
		return tap_done();
	}
	share("bbr2", "cubic");
	share("bbr2", "bbr");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
