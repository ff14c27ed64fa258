// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 keeps its shallow-buffer defences when the receiving host,
 * not the buffer, delays the ACKs.
 *
 * 16 flows share a 5 %-BDP buffer at 50 Mbit/s x 40 ms (the test bed
 * modelled, TSO on), 20 s, seeds 1-6.  The receiving host is busy: every
 * ACK leaves up to 4 ms late, one lag for all flows, drawn afresh every
 * 10 ms or every 40 ms (linksim's ack_late_us), as a loaded virtual
 * machine does.  The lag shows in every RTT sample of some rounds, on top
 * of a queue that never exceeds 2.2 ms.  A flow whose bounds hold it at a
 * few packets sends in the bursts its ACKs release, and the receiver,
 * ACKing every second segment, holds the older packet of a pair for its
 * partner or its delayed-ACK timer: TCP's smoothed RTT, taken from the
 * oldest packet an ACK covers, then runs 20 ms above the path's RTT while
 * each ACK's own sample stays within the lag and the queue.  Checked:
 *  - no loss_mode=1 flow takes the buffer for a deep one (bbr->deep_buffer;
 *    judged on smoothed RTT alone, a flow of the 96 did);
 *  - its retransmits stay within 1.15 x those of the same seeds without
 *    the lag: a flow that drops the defences probes on the Reno timer and
 *    overfills the buffer;
 *  - the lag does not hide a buffer that is deep: one flow at 10 Mbit/s x
 *    10 ms with a 1-BDP buffer and 1 % random loss, with the same lag,
 *    notes it within 5 s in every seed (the defences would hold a flow of
 *    a few packets below its BDP).
 */
#include "bbr2_util.h"

#define NFLOWS		16
#define END_S		20
#define NSEEDS		6
#define LAG_US		4000

struct result {
	double retrans_pct;
	double util;
	u32 deep_flows;		/* flows that noted a deep buffer, all seeds */
};

static void run(struct linksim_cfg *cfg, u32 nflows, u32 end_s,
		struct result *sum)
{
	struct linksim *sim;
	u32 i;

	linksim_cfg_flows(cfg, nflows, "bbr2");
	sim = linksim_new(cfg, NULL);
	linksim_run_until(sim, (u64)end_s * USEC_PER_SEC);
	for (i = 0; i < nflows; i++)
		sum->deep_flows += bbr2_state(linksim_sk(sim, i))->deep_buffer;
	sum->retrans_pct += linksim_retrans_pct(sim) / NSEEDS;
	sum->util += linksim_utilization(sim) / NSEEDS;
	linksim_free(sim);
}

static struct result shallow_runs(u32 lag_us, u32 hold_us)
{
	struct result sum = { 0 };
	struct linksim_cfg cfg;
	u64 seed;

	for (seed = 1; seed <= NSEEDS; seed++) {
		linksim_cfg_default(&cfg);
		linksim_cfg_testbed(&cfg);
		cfg.rate_bps = 50000000ULL;
		cfg.rtt_us = 40000;
		cfg.hdr_bytes = 66;
		cfg.queue_pkts = 0;
		cfg.queue_bytes = (u64)linksim_bdp_pkts(&cfg) *
				  (cfg.mss + cfg.hdr_bytes) / 20;
		cfg.fq = true;
		cfg.tso = true;
		cfg.ack_late_us = lag_us;
		cfg.ack_late_hold_us = hold_us;
		cfg.seed = seed;
		run(&cfg, NFLOWS, END_S, &sum);
	}
	return sum;
}

static void busy_receiver(struct result calm, u32 hold_us)
{
	struct result busy = shallow_runs(LAG_US, hold_us);

	tap_diag("16 flows, 5%% BDP, ACKs up to %u ms late, held %u ms: %u flows noted a deep buffer; retransmits %.2f%% (%.2f%% without the lag), util %.3f",
		 LAG_US / 1000, hold_us / 1000, busy.deep_flows,
		 busy.retrans_pct, calm.retrans_pct, busy.util);
	tap_ok(busy.deep_flows == 0,
	       "ACKs up to %u ms late, held %u ms: no flow takes the 5%%-BDP buffer for a deep one (%u of %u)",
	       LAG_US / 1000, hold_us / 1000, busy.deep_flows,
	       NFLOWS * NSEEDS);
	tap_ok(busy.retrans_pct <= 1.15 * calm.retrans_pct && busy.util >= 0.95,
	       "ACKs up to %u ms late, held %u ms: retransmits within 1.15 x those without the lag (%.2f%% vs %.2f%%, util %.3f)",
	       LAG_US / 1000, hold_us / 1000, busy.retrans_pct,
	       calm.retrans_pct, busy.util);
}

static void deep_buffer_still_seen(void)
{
	struct linksim_cfg cfg;
	u32 noted = 0;
	u64 seed;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct result r = { 0 };

		linksim_cfg_default(&cfg);
		linksim_cfg_testbed(&cfg);
		cfg.rate_bps = 10000000ULL;
		cfg.rtt_us = 10000;
		cfg.queue_pkts = linksim_bdp_pkts(&cfg);
		cfg.loss_ppm = 10000;
		cfg.fq = true;
		cfg.ack_late_us = LAG_US;
		cfg.ack_late_hold_us = 10000;
		cfg.seed = seed;
		run(&cfg, 1, 5, &r);
		noted += r.deep_flows;
	}
	tap_ok(noted == NSEEDS,
	       "10 Mbit/s x 10 ms, 1-BDP buffer, 1 %% loss, the same lag: the flow notes the deep buffer within 5 s (%u of %u seeds)",
	       noted, NSEEDS);
}

int main(void)
{
	struct result calm;

	tap_plan(6);
	shim_modules_load();
	if (bbr2_set_param("loss_mode", "1"))
		tap_diag("cannot set loss_mode=1");
	calm = shallow_runs(0, 0);
	busy_receiver(calm, 10000);
	busy_receiver(calm, 40000);
	deep_buffer_still_seen();
	bbr2_set_param("loss_mode", "0");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
