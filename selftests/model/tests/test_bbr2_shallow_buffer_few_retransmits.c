// SPDX-License-Identifier: GPL-2.0
/*
 * Eight flows of one CC, started 100 ms apart, into a shallow buffer
 * (0.1 BDP, 50 Mbit/s, 40 ms).  BBRv1 keeps probing into the full buffer
 * and retransmits heavily; v2/v3's loss bounds (inflight_hi, and
 * bw_lo/inflight_lo) should keep bbr2's retransmit rate low, most of all
 * in steady state, while the link stays busy.  The kernel's bbr
 * (KSRC=...) is the same-run baseline; without it only the absolute
 * bounds are checked.  Low retransmits alone would not tell bbr2 from Reno,
 * which also loses little here but leaves the link 10% idle.
 */
#include "bbr2_util.h"

#define NFLOWS		8
#define STEADY_FROM_S	10
#define END_S		30

struct result {
	double retrans_pct;	/* whole run */
	double steady_pct;	/* from STEADY_FROM_S on: STARTUPs are over */
	double util;
};

static void count(struct linksim *sim, u64 *sent, u64 *retrans)
{
	int i;

	*sent = *retrans = 0;
	for (i = 0; i < NFLOWS; i++) {
		*sent += linksim_flow_stats(sim, i)->pkts_sent;
		*retrans += linksim_flow_stats(sim, i)->pkts_retrans;
	}
}

static struct result run(const char *cc, u64 seed)
{
	u64 sent0, retrans0, sent, retrans;
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct result r;
	int i;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	cfg.queue_pkts = max(linksim_bdp_pkts(&cfg) / 10, 2U);
	cfg.fq = true;
	cfg.seed = seed;
	cfg.nflows = NFLOWS;
	for (i = 0; i < NFLOWS; i++) {
		cfg.flow[i].cc = cc;
		cfg.flow[i].start_us = i * 100000;
	}
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, STEADY_FROM_S * USEC_PER_SEC);
	count(sim, &sent0, &retrans0);
	linksim_run_until(sim, END_S * USEC_PER_SEC);
	count(sim, &sent, &retrans);
	r.retrans_pct = 100.0 * retrans / max(sent, 1ULL);
	r.steady_pct = 100.0 * (retrans - retrans0) / max(sent - sent0, 1ULL);
	r.util = linksim_utilization(sim);
	tap_diag("%-5s seed %llu: retransmits %.2f%% (from %d s on %.2f%%), utilisation %.1f%%",
		 cc, seed, r.retrans_pct, STEADY_FROM_S, r.steady_pct, 100 * r.util);
	linksim_free(sim);
	return r;
}

int main(void)
{
	bool have_bbr;
	u64 seed;

	tap_plan(10);
	shim_modules_load();
	have_bbr = tcp_ca_find("bbr");
	for (seed = 1; seed <= 3; seed++) {
		struct result b2 = run("bbr2", seed);

		tap_ok(b2.steady_pct < 2.0 && b2.retrans_pct < 4.0,
		       "bbr2 seed %llu: retransmits %.2f%% in steady state (< 2%%), %.2f%% overall (< 4%%)",
		       seed, b2.steady_pct, b2.retrans_pct);
		/* A loss-based CC (Reno: 90%) cannot fill a 0.1-BDP buffer. */
		tap_ok(b2.util > 0.95, "bbr2 seed %llu keeps the link busy: %.1f%% > 95%%",
		       seed, 100 * b2.util);
		if (have_bbr) {
			struct result b1 = run("bbr", seed);

			tap_ok(b2.retrans_pct * 2 < b1.retrans_pct,
			       "bbr2 seed %llu retransmits under half of bbr's (%.2f%% vs %.2f%%)",
			       seed, b2.retrans_pct, b1.retrans_pct);
		} else {
			tap_skip("needs KSRC=<kernel source tree>",
				 "bbr2 seed %llu retransmits under half of bbr's", seed);
		}
	}
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
