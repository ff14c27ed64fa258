// SPDX-License-Identifier: GPL-2.0
/*
 * A sender that goes idle and starts again must be seen restarting by
 * bbr2 (idle_restart set, pacing held at bw), whichever way the kernel
 * reports it: through cwnd_event(CA_EVENT_TX_START) before 7.1, through
 * its own cwnd_event_tx_start() op since (build with KVER=7.1 to emulate
 * that).  An ops table that misses the new op would leave bbr2 blind to
 * idle restarts on 7.1 and later, and this test fails.
 */
#include "bbr2_util.h"

static unsigned int restarts_seen;
static bool was_restarting;

static void on_tick(struct linksim *sim, void *arg)
{
	bool restarting = bbr2_state(linksim_sk(sim, 0))->idle_restart;

	if (restarting && !was_restarting)
		restarts_seen++;
	was_restarting = restarting;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;

	tap_plan(2);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.queue_pkts = 4 * linksim_bdp_pkts(&cfg);
	/* 10 on/off cycles: 1 s sending, 1 s idle */
	cfg.flow[0].app_on_us = USEC_PER_SEC;
	cfg.flow[0].app_off_us = USEC_PER_SEC;
	cfg.on_tick = on_tick;
	cfg.tick_us = 100;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 20 * USEC_PER_SEC);
	tap_diag("idle restarts bbr2 saw: %u of 9", restarts_seen);
	tap_ok(restarts_seen >= 8, "bbr2 sees the restart after each idle period (%u of 9)",
	       restarts_seen);
	linksim_free(sim);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
