// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 cruises BBR2_CRUISE_OVERSHOOT_PKTS (3) packets further below
 * inflight_hi than v3 (design.rst, "Cruising headroom"), the test bed
 * modelled as in the VM benchmark, 16 flows in a 5 %-BDP buffer at
 * 50 Mbit/s x 40 ms, 20 s, three seeds:
 *
 *  - in CRUISE, a loss_mode=1 flow's cwnd never exceeds inflight_hi less
 *    v3's headroom and the three packets (nor cwnd_min_target, if that
 *    is more), while v3 mode's flows do go above that line: the
 *    check can tell the two caps apart;
 *  - the flows retransmit at most 3 % and less than v3 mode
 *    at >= 95 % of the link.
 */
#include "bbr2_util.h"

#define NSEEDS		3
#define END_S		20
#define OVERSHOOT_PKTS	3

struct cap_check {
	u32 nflows;
	u64 cruise_ticks;	/* flow-ticks in CRUISE with inflight_hi set */
	u64 above_line;		/* of them, cwnd above the loss_mode=1 cap */
};

/*
 * inflight_hi less v3's headroom (inflight_headroom) and the overshoot, as
 * a flow cruises, never below cwnd_min_target
 */
static u32 loss_mode_cap(u32 inflight_hi)
{
	u32 min_cwnd = bbr2_get_param("cwnd_min_target");
	u32 headroom = (u32)(((u64)inflight_hi *
			      bbr2_get_param("inflight_headroom")) >> 8);

	if (headroom < 1)
		headroom = 1;
	headroom += OVERSHOOT_PKTS;
	if (headroom >= inflight_hi)
		return min_cwnd;
	return inflight_hi - headroom > min_cwnd ? inflight_hi - headroom :
						   min_cwnd;
}

static void on_tick(struct linksim *sim, void *arg)
{
	struct cap_check *c = arg;
	u32 i;

	for (i = 0; i < c->nflows; i++) {
		struct sock *sk = linksim_sk(sim, i);
		const struct bbr2 *b = bbr2_state(sk);

		if (!b->initialized || b->mode != BBR2_PROBE_BW ||
		    b->cycle_idx != BBR2_BW_PROBE_CRUISE ||
		    b->inflight_hi == ~0U)
			continue;
		c->cruise_ticks++;
		if (tcp_snd_cwnd(tcp_sk(sk)) > loss_mode_cap(b->inflight_hi))
			c->above_line++;
	}
}

struct result {
	double retrans_pct;
	double util;
	u64 cruise_ticks;
	u64 above_line;
};

static struct result run(const char *loss_mode, u64 seed)
{
	struct cap_check c = { .nflows = 16 };
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct result r;

	if (bbr2_set_param("loss_mode", loss_mode))
		tap_diag("cannot set loss_mode=%s", loss_mode);
	linksim_cfg_dumbbell(&cfg, 50000000, 40000, 0.05, seed);
	linksim_cfg_testbed(&cfg);
	linksim_cfg_flows(&cfg, c.nflows, "bbr2");
	cfg.on_tick = on_tick;
	cfg.tick_us = 1000;
	cfg.hook_arg = &c;
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, END_S * USEC_PER_SEC);
	r.retrans_pct = linksim_retrans_pct(sim);
	r.util = linksim_utilization(sim);
	r.cruise_ticks = c.cruise_ticks;
	r.above_line = c.above_line;
	linksim_free(sim);
	bbr2_set_param("loss_mode", "0");
	return r;
}

static struct result over_seeds(const char *loss_mode)
{
	struct result sum = { 0 }, r;
	u64 seed;

	for (seed = 1; seed <= NSEEDS; seed++) {
		r = run(loss_mode, seed);
		sum.retrans_pct += r.retrans_pct / NSEEDS;
		sum.util += r.util / NSEEDS;
		sum.cruise_ticks += r.cruise_ticks;
		sum.above_line += r.above_line;
	}
	return sum;
}

int main(void)
{
	struct result v3, m1;

	tap_plan(4);
	shim_modules_load();
	v3 = over_seeds("0");
	m1 = over_seeds("1");

	tap_ok(m1.cruise_ticks > 1000 && m1.above_line == 0,
	       "loss_mode=1: cwnd in CRUISE never above inflight_hi less 15 %% and 3 packets (%llu of %llu flow-ms)",
	       (unsigned long long)m1.above_line,
	       (unsigned long long)m1.cruise_ticks);
	tap_ok(v3.cruise_ticks > 1000 && v3.above_line * 20 > v3.cruise_ticks,
	       "v3 mode: cwnd in CRUISE above that line in more than 5 %% of the time (%llu of %llu flow-ms)",
	       (unsigned long long)v3.above_line,
	       (unsigned long long)v3.cruise_ticks);
	tap_ok(m1.retrans_pct <= 3 && m1.retrans_pct < v3.retrans_pct &&
	       m1.util >= 0.95,
	       "16 flows, 5 %%-BDP buffer: loss_mode=1 retransmits at most 3 %% and less than v3 mode (%.2f%% vs %.2f%%) at >= 95 %% of the link (%.3f)",
	       m1.retrans_pct, v3.retrans_pct, m1.util);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
