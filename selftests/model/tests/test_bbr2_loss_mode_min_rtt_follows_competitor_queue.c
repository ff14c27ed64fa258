// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 lets min_rtt follow a queue that a PROBE_RTT could not
 * drain after 7.5 s instead of v3's 10 s, when that queue is more than a
 * quarter of min_rtt (bbr2_min_rtt_expired(); design.rst, "The min_rtt
 * window"), and only then:
 *
 *  - against one CUBIC flow at 50 Mbit/s x 40 ms with 2 BDP of buffer
 *    (CUBIC keeps a queue of about a BDP that never drains), over 20 s and
 *    three seeds, the test bed modelled as in the VM benchmark: v3 mode's
 *    cwnd cap binds on CUBIC's queue and its share stays below 0.45 (the
 *    VM measured 0.36-0.45 for every BBRv3 there); loss_mode=1 must hold
 *    a mean share of at least 0.43 and 0.04 more than v3 mode on the same
 *    seeds, and its min_rtt at 9 s, before v3's window could expire, must
 *    be above 1.25 x the path's 40 ms;
 *  - where the queue is the BBR flows' own it must not move: 16 flows in
 *    a 5 %-BDP buffer (a standing queue of 2 ms, 5 % of min_rtt) keep
 *    every flow's min_rtt within 1/8 of the path's at the end of 20 s,
 *    and four flows alone in a 16-BDP buffer (they drain their queue
 *    together in PROBE_RTT) keep a mean queue no longer than v3 mode's
 *    plus 10 %.
 */
#include "bbr2_util.h"

#define NSEEDS		3
#define RTT_US		40000
#define RATE_BPS	50000000ULL

struct probe {
	u32 min_rtt_at_9s;
	bool taken;
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct probe *p = arg;

	if (p->taken || linksim_now_us(sim) < 9 * USEC_PER_SEC)
		return;
	p->taken = true;
	p->min_rtt_at_9s = bbr2_state(linksim_sk(sim, 0))->min_rtt_us;
}

static void path(struct linksim_cfg *cfg, u64 seed, double buf_bdp)
{
	linksim_cfg_dumbbell(cfg, RATE_BPS, RTT_US, buf_bdp, seed);
}

/*
 * bbr2's share of the link against one CUBIC flow, 2 BDP, 20 s; its
 * min_rtt at 9 s into *min_rtt_9s unless that is NULL.
 */
static double cubic_share(const char *loss_mode, u64 seed, u32 *min_rtt_9s)
{
	struct probe p = { 0 };
	struct linksim_cfg cfg;
	struct linksim *sim;
	double a, b;

	if (bbr2_set_param("loss_mode", loss_mode))
		tap_diag("cannot set loss_mode=%s", loss_mode);
	path(&cfg, seed, 2);
	linksim_cfg_testbed(&cfg);
	cfg.nflows = 2;
	cfg.flow[0].cc = "bbr2";
	cfg.flow[1].cc = "cubic";
	cfg.on_tick = on_tick;
	cfg.tick_us = 1000;
	cfg.hook_arg = &p;
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 20 * USEC_PER_SEC);
	a = linksim_goodput_bps(sim, 0);
	b = linksim_goodput_bps(sim, 1);
	linksim_free(sim);
	bbr2_set_param("loss_mode", "0");
	if (min_rtt_9s)
		*min_rtt_9s = p.min_rtt_at_9s;
	return a + b > 0 ? a / (a + b) : 0;
}

static void against_cubic(void)
{
	double v3 = 0, m1 = 0;
	u32 rtt, lowest_rtt = ~0U;
	u64 seed;

	for (seed = 1; seed <= NSEEDS; seed++) {
		v3 += cubic_share("0", seed, NULL) / NSEEDS;
		m1 += cubic_share("1", seed, &rtt) / NSEEDS;
		lowest_rtt = min(lowest_rtt, rtt);
	}
	tap_ok(m1 >= 0.43 && m1 >= v3 + 0.04,
	       "vs CUBIC, 2 BDP, 20 s: loss_mode=1's share >= 0.43 and >= v3 mode's + 0.04 (%.3f vs %.3f)",
	       m1, v3);
	tap_ok(lowest_rtt > RTT_US + RTT_US / 4 && lowest_rtt != ~0U,
	       "vs CUBIC, 2 BDP: loss_mode=1's min_rtt at 9 s includes CUBIC's queue (lowest of %d seeds %u us, path %u us)",
	       NSEEDS, lowest_rtt, RTT_US);
}

/* 16 flows, 5 %-BDP buffer: the highest min_rtt of any flow at 20 s. */
static u32 shallow_max_min_rtt(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	u32 i, worst = 0;

	bbr2_set_param("loss_mode", "1");
	path(&cfg, 1, 0.05);
	linksim_cfg_flows(&cfg, 16, "bbr2");
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 20 * USEC_PER_SEC);
	for (i = 0; i < cfg.nflows; i++)
		worst = max(worst, bbr2_state(linksim_sk(sim, i))->min_rtt_us);
	linksim_free(sim);
	bbr2_set_param("loss_mode", "0");
	return worst;
}

/* Four bbr2 flows alone in a 16-BDP buffer: mean queueing delay, ms. */
static double deep_queue_ms(const char *loss_mode, u64 seed)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double ms;

	bbr2_set_param("loss_mode", loss_mode);
	path(&cfg, seed, 16);
	linksim_cfg_flows(&cfg, 4, "bbr2");
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	ms = linksim_avg_queue_pkts(sim) * (cfg.mss + cfg.hdr_bytes) * 8 *
	     1000 / RATE_BPS;
	linksim_free(sim);
	bbr2_set_param("loss_mode", "0");
	return ms;
}

static void own_queue_stays(void)
{
	double v3 = 0, m1 = 0;
	u32 worst = shallow_max_min_rtt();
	u64 seed;

	tap_ok(worst <= RTT_US + RTT_US / 8,
	       "16 flows, 5 %%-BDP buffer: loss_mode=1 keeps every flow's min_rtt within 1/8 of the path's (highest %u us)",
	       worst);
	for (seed = 1; seed <= NSEEDS; seed++) {
		v3 += deep_queue_ms("0", seed) / NSEEDS;
		m1 += deep_queue_ms("1", seed) / NSEEDS;
	}
	tap_ok(m1 <= v3 * 1.1,
	       "4 flows alone, 16-BDP buffer: loss_mode=1's mean queue <= 1.1 x v3 mode's (%.1f vs %.1f ms)",
	       m1, v3);
}

int main(void)
{
	tap_plan(5);
	shim_modules_load();
	if (tcp_ca_find("cubic")) {
		against_cubic();
	} else {
		tap_skip("needs KSRC=<kernel source tree>",
			 "vs CUBIC, 2 BDP, 20 s: loss_mode=1's share");
		tap_skip("needs KSRC=<kernel source tree>",
			 "vs CUBIC, 2 BDP: loss_mode=1's min_rtt includes CUBIC's queue");
	}
	own_queue_stays();
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
