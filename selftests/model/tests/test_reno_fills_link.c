// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the simulator with the shim's Reno: on 10 Mbit/s, 40 ms RTT and a
 * 1-BDP drop-tail buffer, Reno keeps the link > 85 % busy (a BDP of buffer
 * is exactly what AIMD needs to never drain it), and 1 % random loss
 * collapses it, as the Mathis response rate predicts
 * (MSS/RTT * 1.22/sqrt(p) ~ 3.5 Mbit/s here).
 */
#include <shim.h>
#include "linksim.h"
#include "tap.h"

static double run(u32 loss_ppm, u64 *retrans, u32 *recoveries)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double util;

	linksim_cfg_default(&cfg);
	cfg.loss_ppm = loss_ppm;
	sim = linksim_new(&cfg, "reno");
	if (!sim)
		return -1;
	linksim_run_until(sim, 60 * USEC_PER_SEC);
	util = linksim_utilization(sim);
	*retrans = linksim_flow_stats(sim, 0)->pkts_retrans;
	*recoveries = linksim_flow_stats(sim, 0)->recoveries;
	tap_diag("loss %u ppm: utilisation %.1f%%, goodput %.2f Mbit/s, %llu retransmits, %u recoveries, avg queue %.1f pkts",
		 loss_ppm, util * 100, linksim_goodput_bps(sim, 0) / 1e6,
		 *retrans, *recoveries, linksim_avg_queue_pkts(sim));
	linksim_free(sim);
	return util;
}

int main(void)
{
	u64 retrans;
	u32 rec;
	double clean, lossy;

	tap_plan(4);
	clean = run(0, &retrans, &rec);
	tap_ok(clean > 0.85, "reno fills a 1-BDP-buffered link (> 85%%): %.1f%%", clean * 100);
	tap_ok(rec > 5, "reno saw repeated loss recoveries from buffer overflow (%u)", rec);
	lossy = run(10000, &retrans, &rec);
	tap_ok(lossy >= 0 && lossy < 0.5, "1%% random loss collapses reno (< 50%%): %.1f%%", lossy * 100);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
