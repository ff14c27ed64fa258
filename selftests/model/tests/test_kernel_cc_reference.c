// SPDX-License-Identifier: GPL-2.0
/*
 * Reference points from the kernel's own congestion controls, compiled
 * unchanged from a kernel source tree (make check KSRC=/path/to/linux, e.g.
 * Debian's linux-source-6.1 unpacked); skipped without one. They prove the
 * simulator against code whose behaviour is well known, and place bbr2
 * next to it:
 *  - kernel BBRv1 fills the link and finds its bw;
 *  - CUBIC at 100 ms RTT follows its loss response (spec notes: ~4.5 Mbit/s
 *    at 0.1 % loss, ~1.4 Mbit/s at 1 %; within a factor of 1.5 here).
 * bbr2 next to these is test_bbr2_shares_with_kernel_ccs.
 */
#include "model_util.h"

static double goodput(const char *cc, u64 rate, u32 rtt_us, u32 loss_ppm, u32 secs,
		      double *util)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double g;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = rate;
	cfg.rtt_us = rtt_us;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.loss_ppm = loss_ppm;
	sim = linksim_new(&cfg, cc);
	linksim_run_until(sim, (u64)secs * USEC_PER_SEC);
	g = linksim_goodput_bps(sim, 0);
	*util = linksim_utilization(sim);
	tap_diag("%s, %llu Mbit/s, %u ms, %.2f%% loss: %.2f Mbit/s (%.1f%% busy)", cc,
		 rate / 1000000, rtt_us / 1000, loss_ppm / 1e4, g / 1e6, *util * 100);
	linksim_free(sim);
	return g;
}

int main(void)
{
	double util, g;
	bool have;

	tap_plan(4);
	shim_modules_load();
	have = tcp_ca_find("bbr") && tcp_ca_find("cubic");
	if (!have) {
		for (int i = 0; i < 4; i++)
			tap_skip("needs KSRC=<kernel source tree> (kernel bbr, cubic)",
				 "kernel CC reference %d", i + 1);
		return tap_done();
	}
	g = goodput("bbr", 50000000, 40000, 0, 30, &util);
	tap_ok(util > 0.9, "kernel BBRv1 keeps the link > 90%% busy (%.1f%%)", util * 100);
	g = goodput("cubic", 100000000, 100000, 1000, 120, &util);
	tap_ok(g > 4.5e6 / 1.5 && g < 4.5e6 * 1.5,
	       "CUBIC, 100 ms, 0.1%% loss: ~4.5 Mbit/s (%.2f)", g / 1e6);
	g = goodput("cubic", 100000000, 100000, 10000, 120, &util);
	tap_ok(g > 1.4e6 / 1.5 && g < 1.4e6 * 1.5,
	       "CUBIC, 100 ms, 1%% loss: ~1.4 Mbit/s (%.2f)", g / 1e6);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
