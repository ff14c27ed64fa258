// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep over paths no single scenario covers: 100 kbit/s to 1 Gbit/s,
 * 1 ms to 500 ms, buffers of 0.1 to 4 BDP, 0 to 10 % random loss, ECN on
 * and off, delayed ACKs, TSO. On every ACK of every run bbr2 must keep the
 * stack's invariants (cwnd >= 1, a pacing rate > 0, a valid mode) and no
 * WARN may fire; every run must make progress, and without random loss and
 * with >= 1 BDP of buffer it must keep the link >= 70 % busy over the second
 * half of the run. Build with SANITIZE=1 to add UBSan.
 */
#include "bbr2_util.h"

struct inv {
	u64 acks, bad_cwnd, bad_pacing, bad_mode;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct inv *iv = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *b = bbr2_state(sk);

	if (!b->initialized)
		return;
	iv->acks++;
	if (tcp_snd_cwnd(tcp_sk(sk)) < 1)
		iv->bad_cwnd++;
	if (!sk->sk_pacing_rate)
		iv->bad_pacing++;
	if (b->mode != BBR2_STARTUP && b->mode != BBR2_DRAIN &&
	    b->mode != BBR2_PROBE_BW && b->mode != BBR2_PROBE_RTT)
		iv->bad_mode++;
}

int main(void)
{
	static const u64 rates[] = { 100000, 1000000, 10000000, 100000000, 1000000000 };
	static const u32 rtts[] = { 1000, 10000, 100000, 500000 };
	static const u32 bufs_pct[] = { 10, 100, 400 };
	static const u32 losses[] = { 0, 10000, 100000 };
	u32 runs = 0, stalled = 0, broken = 0, underused = 0, warned = 0;
	u32 r, t, b, l;
	unsigned long warns;

	tap_plan(5);
	for (r = 0; r < ARRAY_SIZE(rates); r++)
	for (t = 0; t < ARRAY_SIZE(rtts); t++)
	for (b = 0; b < ARRAY_SIZE(bufs_pct); b++)
	for (l = 0; l < ARRAY_SIZE(losses); l++) {
		struct linksim_cfg cfg;
		struct linksim *sim;
		struct inv iv = { 0, 0, 0, 0 };
		u64 pkts_per_s, secs, busy0;
		double util;

		linksim_cfg_default(&cfg);
		cfg.rate_bps = rates[r];
		cfg.rtt_us = rtts[t];
		cfg.queue_pkts = max(linksim_bdp_pkts(&cfg) * bufs_pct[b] / 100, 2U);
		cfg.loss_ppm = losses[l];
		cfg.seed = runs + 1;
		cfg.ack_every = 1 + (runs & 1);
		cfg.tso = runs & 2;
		cfg.ecn_k_pkts = (runs & 4) ? max(cfg.queue_pkts / 2, 1U) : 0;
		cfg.flow[0].ecn = runs & 4;
		cfg.on_ack = on_ack;
		cfg.hook_arg = &iv;
		/* ~40 k packets per run, at least 20 RTTs, at most 30 s */
		pkts_per_s = rates[r] / 8 / 1448 + 1;
		secs = clamp_t(u64, 40000 / pkts_per_s, 1, 30);
		secs = max_t(u64, secs, 20ULL * rtts[t] / USEC_PER_SEC + 1);
		/* runs judged on utilisation: at least 40 RTTs, judged on the
		 * second half (STARTUP at 500 ms takes several seconds) */
		if (!losses[l] && bufs_pct[b] >= 100)
			secs = max_t(u64, secs, 40ULL * rtts[t] / USEC_PER_SEC + 1);
		secs = min_t(u64, secs, 30);
		warns = shim_warn_count;
		shim_modules_load();
		bbr2_set_param("ecn_enable", (runs & 4) ? "1" : "0");
		sim = linksim_new(&cfg, "bbr2");
		linksim_run_until(sim, secs * USEC_PER_SEC / 2);
		busy0 = linksim_link_stats(sim)->busy_ns;
		linksim_run_until(sim, secs * USEC_PER_SEC);
		util = (double)(linksim_link_stats(sim)->busy_ns - busy0) /
		       (secs * NSEC_PER_SEC - secs * USEC_PER_SEC / 2 * NSEC_PER_USEC);
		runs++;
		if (!linksim_flow_stats(sim, 0)->bytes_acked) {
			stalled++;
			tap_diag("stalled: %llu bit/s %u us buf %u loss %u", rates[r], rtts[t],
				 cfg.queue_pkts, losses[l]);
		}
		if (iv.bad_cwnd || iv.bad_pacing || iv.bad_mode) {
			broken++;
			tap_diag("invariant broken: %llu bit/s %u us buf %u loss %u: cwnd %llu pacing %llu mode %llu",
				 rates[r], rtts[t], cfg.queue_pkts, losses[l], iv.bad_cwnd,
				 iv.bad_pacing, iv.bad_mode);
		}
		if (!losses[l] && bufs_pct[b] >= 100 && util < 0.7) {
			underused++;
			tap_diag("underused: %llu bit/s %u us buf %u pkts: %.1f%% in the last %llu s",
				 rates[r], rtts[t], cfg.queue_pkts, util * 100, secs / 2);
		}
		if (shim_warn_count != warns)
			warned++;
		linksim_free(sim);
	}
	bbr2_set_param("ecn_enable", "0");
	tap_ok(!stalled, "all %u runs make progress (%u stalled)", runs, stalled);
	tap_ok(!broken, "cwnd >= 1, pacing rate > 0, valid mode on every ACK (%u runs broke one)",
	       broken);
	tap_ok(!underused, "loss-free runs with >= 1 BDP of buffer use >= 70%% of the link (%u did not)",
	       underused);
	tap_ok(!warned, "no run fired a kernel WARN (%u did)", warned);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
