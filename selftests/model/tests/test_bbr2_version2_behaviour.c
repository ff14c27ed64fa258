// SPDX-License-Identifier: GPL-2.0
/*
 * version=2 selects BBRv2 (v2alpha) behaviour: writing it loads the v2
 * constants (STARTUP gain 2.885, PROBE_BW DOWN 0.75, 8 loss events to leave
 * STARTUP, no ECN reprobe) and PROBE_UP ends when 1.25 x BDP is queued for
 * a min_rtt rather than on a bw plateau.  A v2 flow must still fill the
 * link, show the v2 DOWN gain in get_info(), and bound inflight_hi under
 * loss above loss_thresh; writing version=3 must restore every v3 default.
 */
#include "bbr2_util.h"

/* The parameter's value as sysfs shows it, without the newline. */
static void param(const char *name, char buf[128])
{
	if (shim_param_get("tcp_bbr2", name, buf) < 0)
		strcpy(buf, "?");
	buf[strcspn(buf, "\n")] = '\0';
}

static bool param_is(const char *name, const char *want)
{
	char buf[128];

	param(name, buf);
	if (!strcmp(buf, want))
		return true;
	tap_diag("%s is %s, expected %s", name, buf, want);
	return false;
}

struct probe {
	u32 min_pacing_gain_in_probe_bw;
	u32 modes_seen;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct probe *p = arg;
	struct sock *sk = linksim_sk(sim, flow);
	union tcp_cc_info info;
	int attr;

	p->modes_seen |= 1U << bbr2_state(sk)->mode;
	if (bbr2_state(sk)->mode != BBR2_PROBE_BW)
		return;
	tcp_ca_find("bbr2")->get_info(sk, 1U << (INET_DIAG_VEGASINFO - 1), &attr, &info);
	p->min_pacing_gain_in_probe_bw = min(p->min_pacing_gain_in_probe_bw,
					     info.bbr.bbr_pacing_gain);
}

static double run(u32 loss_ppm, struct probe *p, u32 *min_inflight_hi, u32 *bdp)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double bps;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.loss_ppm = loss_ppm;
	cfg.fq = true;
	cfg.flow[0].cc = "bbr2";
	cfg.on_ack = on_ack;
	cfg.hook_arg = p;
	*bdp = linksim_bdp_pkts(&cfg);
	sim = linksim_new(&cfg, NULL);
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	bps = linksim_goodput_bps(sim, 0);
	*min_inflight_hi = bbr2_state(linksim_sk(sim, 0))->inflight_hi;
	linksim_free(sim);
	return bps;
}

int main(void)
{
	struct probe p = { .min_pacing_gain_in_probe_bw = ~0U };
	u32 hi, bdp;
	double bps;

	tap_plan(9);
	shim_modules_load();

	tap_ok(bbr2_set_param("version", "2") == 0, "version=2 accepted");
	tap_ok(param_is("high_gain", "739") && param_is("startup_cwnd_gain", "739") &&
	       param_is("full_loss_cnt", "8") && param_is("ecn_reprobe_gain", "0") &&
	       param_is("bw_probe_cwnd_gain", "0"),
	       "v2 constants loaded (high_gain, startup_cwnd_gain, full_loss_cnt, ecn_reprobe_gain, bw_probe_cwnd_gain)");
	tap_ok(param_is("pacing_gain", "320,192,256,256,256,256,256,256"),
	       "v2 PROBE_BW gains loaded (DOWN 192 = 0.75)");

	bps = run(0, &p, &hi, &bdp);
	tap_diag("v2, no loss: %.1f Mbit/s, modes seen 0x%x, min PROBE_BW pacing gain %u",
		 bps / 1e6, p.modes_seen, p.min_pacing_gain_in_probe_bw);
	tap_ok(bps > 0.9 * 50e6, "v2 flow fills the link (%.1f Mbit/s)", bps / 1e6);
	tap_ok(p.modes_seen == 0xF, "v2 flow visits STARTUP, DRAIN, PROBE_BW, PROBE_RTT (0x%x)",
	       p.modes_seen);
	tap_ok(p.min_pacing_gain_in_probe_bw == 192,
	       "v2 PROBE_BW DOWN paces at 0.75 (%u/256)", p.min_pacing_gain_in_probe_bw);

	p.modes_seen = 0;
	bps = run(30000, &p, &hi, &bdp);
	tap_ok(hi != ~0U && hi < 2 * bdp,
	       "v2 at 3%% loss bounds inflight_hi (%u, BDP %u; %.1f Mbit/s)", hi, bdp, bps / 1e6);

	bbr2_set_param("version", "3");
	tap_ok(param_is("high_gain", "710") && param_is("startup_cwnd_gain", "512") &&
	       param_is("full_loss_cnt", "6") && param_is("ecn_reprobe_gain", "128") &&
	       param_is("pacing_gain", "320,232,256,256,256,256,256,256"),
	       "version=3 restores the v3 defaults");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
