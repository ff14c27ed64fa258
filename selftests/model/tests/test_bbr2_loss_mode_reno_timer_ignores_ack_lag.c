// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1's Reno-coexistence timer starts probes only on a queue a
 * loss-based flow could keep, not on a busy receiver's ACK lag.
 *
 * 16 flows share a 5 %-BDP buffer at 50 Mbit/s x 40 ms (the test bed
 * modelled, TSO on), 20 s, seeds 1-3.  Its queue never exceeds a few
 * milliseconds, and nothing there is for a Reno flow to take: the timer
 * is off (bbr2_queue_lets_reno_in()), and the flows probe on the
 * wall-clock wait.  The receiving host is then made busy: every ACK
 * leaves up to 10 ms late, one lag for all flows, drawn afresh every
 * 10 ms (linksim's ack_late_us), as a loaded virtual machine does.  The
 * lag lifts smoothed RTT by milliseconds, past min_rtt/16; judged
 * there, the timer would let each flow probe every ten-odd rounds and
 * keep the buffer overflowing.  Checked: the flows start at most 1.25 x
 * the probes they start without the lag, and retransmit at most 1.15 x
 * as much.
 */
#include "bbr2_util.h"

#define NFLOWS		16
#define END_S		20
#define NSEEDS		3
#define LAG_US		10000
#define HOLD_US		10000

struct result {
	u32 probes;		/* PROBE_BW UP entries, all flows and seeds */
	double retrans_pct;	/* mean over the seeds */
	bool probing[NFLOWS];
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs,
		   void *arg)
{
	struct result *r = arg;
	const struct bbr2 *bbr = bbr2_state(linksim_sk(sim, flow));
	bool up = bbr->mode == BBR2_PROBE_BW &&
		  bbr->cycle_idx == BBR2_BW_PROBE_UP;

	if (up && !r->probing[flow])
		r->probes++;
	r->probing[flow] = up;
}

static struct result runs(u32 lag_us)
{
	struct result r;
	struct linksim_cfg cfg;
	struct linksim *sim;
	u64 seed;

	memset(&r, 0, sizeof(r));
	for (seed = 1; seed <= NSEEDS; seed++) {
		memset(r.probing, 0, sizeof(r.probing));
		linksim_cfg_dumbbell(&cfg, 50000000, 40000, 0.05, seed);
		linksim_cfg_testbed(&cfg);
		cfg.tso = true;
		cfg.ack_late_us = lag_us;
		cfg.ack_late_hold_us = HOLD_US;
		cfg.on_ack = on_ack;
		cfg.hook_arg = &r;
		linksim_cfg_flows(&cfg, NFLOWS, "bbr2");
		sim = linksim_new(&cfg, NULL);
		linksim_run_until(sim, END_S * USEC_PER_SEC);
		r.retrans_pct += linksim_retrans_pct(sim) / NSEEDS;
		linksim_free(sim);
	}
	return r;
}

int main(void)
{
	struct result calm, busy;

	tap_plan(3);
	shim_modules_load();
	if (bbr2_set_param("loss_mode", "1"))
		tap_diag("cannot set loss_mode=1");
	calm = runs(0);
	busy = runs(LAG_US);
	tap_diag("16 flows, 5%% BDP: %u probes, retransmits %.2f%%; ACKs up to %u ms late: %u probes, retransmits %.2f%%",
		 calm.probes, calm.retrans_pct, LAG_US / 1000, busy.probes,
		 busy.retrans_pct);
	tap_ok(busy.probes * 4 <= calm.probes * 5,
	       "ACKs up to %u ms late: at most 1.25 x the probes without the lag (%u vs %u)",
	       LAG_US / 1000, busy.probes, calm.probes);
	tap_ok(busy.retrans_pct <= 1.15 * calm.retrans_pct,
	       "ACKs up to %u ms late: retransmits within 1.15 x those without the lag (%.2f%% vs %.2f%%)",
	       LAG_US / 1000, busy.retrans_pct, calm.retrans_pct);
	bbr2_set_param("loss_mode", "0");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
