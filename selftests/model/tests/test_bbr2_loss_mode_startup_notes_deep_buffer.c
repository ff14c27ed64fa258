// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 notes a deep buffer that its STARTUP filled, whichever way
 * STARTUP ended.
 *
 * One flow, 1-BDP drop-tail buffer, random loss, the test bed modelled
 * (ACKs every second packet, fq's and the tbf's watchdogs late), 20 s,
 * seeds 1-16, on paths whose BDP is a few dozen packets: 50 Mbit/s x
 * 10 ms (43 packets) at 1 % and 3 %, 20 Mbit/s x 20 ms (35) at 1 %.
 *
 * STARTUP's last rounds fill the buffer, but a round counts as one that
 * kept a queue only if none of its RTT samples came close to min_rtt, and
 * the last round's first samples do when the queue builds within it.  A
 * flow whose STARTUP then ends on the bw plateau, before any loss round
 * showed the queue, took the buffer for a shallow one: its probes, ended
 * by the first random loss against a limit rounded down to whole packets,
 * never showed the queue again, and cruising rounds with two random losses
 * trimmed inflight_hi a packet at a time, until the flow held a fraction
 * of the link (one seed in sixteen at 50 Mbit/s x 10 ms and 1 %: 0.44 of
 * the link).  Checked, per path:
 *  - every seed's flow has noted the deep buffer by the end of its first
 *    second;
 *  - every seed's goodput is at least 0.8 of the link rate (headers and
 *    the loss itself take ~9 % of it; loss-free the flow keeps 0.93);
 *  - no kernel WARN fired.
 */
#include "bbr2_util.h"

#define NSEEDS		16
#define END_S		20
#define NOTE_BY_US	USEC_PER_SEC

static const struct lossy_path paths[] = {
	{ 50000000, 10000, 10000 },
	{ 50000000, 10000, 30000 },
	{ 20000000, 20000, 10000 },
};

int main(void)
{
	u32 i;

	tap_plan(2 * ARRAY_SIZE(paths) + 1);
	shim_modules_load();
	if (bbr2_set_param("loss_mode", "1"))
		tap_diag("cannot set loss_mode=1");
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		const struct lossy_path *p = &paths[i];
		double worst = 1e9, rate_mbit = p->rate_bps / 1e6;
		u32 noted = 0;
		u64 seed;

		for (seed = 1; seed <= NSEEDS; seed++) {
			struct linksim_cfg cfg;
			struct linksim *sim;
			bool deep_by_1s;
			double gp;

			linksim_cfg_dumbbell(&cfg, p->rate_bps, p->rtt_us, 1.0,
					     seed);
			linksim_cfg_testbed(&cfg);
			cfg.loss_ppm = p->loss_ppm;
			sim = linksim_new(&cfg, "bbr2");
			/* the note, once made, stays: look at 1 s */
			linksim_run_until(sim, NOTE_BY_US);
			deep_by_1s = bbr2_state(linksim_sk(sim, 0))->deep_buffer;
			linksim_run_until(sim, END_S * USEC_PER_SEC);
			gp = linksim_goodput_bps(sim, 0) / 1e6;
			linksim_free(sim);
			noted += deep_by_1s;
			worst = min(worst, gp);
			tap_diag("%.0f Mbit/s x %u ms, %u %% loss, seed %llu: %.2f Mbit/s, deep buffer noted in the first second: %s",
				 rate_mbit, p->rtt_us / 1000,
				 p->loss_ppm / 10000,
				 (unsigned long long)seed, gp,
				 deep_by_1s ? "yes" : "no");
		}
		tap_ok(noted == NSEEDS,
		       "%.0f Mbit/s x %u ms, 1-BDP buffer, %u %% loss: the flow notes the deep buffer within 1 s in every seed (%u of %d)",
		       rate_mbit, p->rtt_us / 1000, p->loss_ppm / 10000,
		       noted, NSEEDS);
		tap_ok(worst >= 0.8 * rate_mbit,
		       "%.0f Mbit/s x %u ms, 1-BDP buffer, %u %% loss: every seed keeps >= 0.8 of the link (worst %.2f Mbit/s)",
		       rate_mbit, p->rtt_us / 1000, p->loss_ppm / 10000,
		       worst);
	}
	bbr2_set_param("loss_mode", "0");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)",
	       shim_warn_count);
	return tap_done();
}
