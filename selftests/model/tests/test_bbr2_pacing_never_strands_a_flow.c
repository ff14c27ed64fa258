// SPDX-License-Identifier: GPL-2.0
/*
 * Valid but hostile parameters (beta 255: a congestion round cuts bw_lo to
 * what the round delivered; a DOWN gain of 1/256, the lowest CRUISE and
 * REFILL gains the rules allow, a DRAIN gain of 1/256) on a crowded lossy
 * path, where RTO-stalled rounds deliver a packet per second or less, must
 * not strand a flow.  TCP moves a socket's send clock (tcp_wstamp_ns) on
 * by len / pacing_rate per packet and never back; at a few bytes per
 * second it ran minutes ahead in the VM, sch_fq dropped every packet
 * stamped beyond its 10 s horizon, and the flows stayed silent long after
 * the defaults came back (the stress suite's "no result" stall).
 *
 * 16 bbr2 flows through fq, hostile for 20 s, then the defaults for 10 s,
 * beside the same path with the defaults throughout:
 *  - the pacing rate never drops below one segment per 100 ms;
 *  - no flow's send clock ever runs more than a second ahead;
 *  - after the defaults, no more flows stay silent than in the control
 *    (a flow whose SYN or retransmissions keep being lost backs off for
 *    seconds in either run: that is TCP's doing), and the link is used.
 */
#include "bbr2_util.h"

#define FLOWS		16
#define HOSTILE_US	(20 * USEC_PER_SEC)
#define RECOVER_US	(10 * USEC_PER_SEC)

struct watch {
	u64 min_pacing;		/* B/s, over all flows, all ticks */
	u64 max_lead_ns;	/* send clock ahead of the kernel clock */
	u64 recovered_bytes;	/* delivered in the RECOVER_US after */
	int silent;		/* flows that delivered nothing then */
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct watch *w = arg;
	int i;

	for (i = 0; i < FLOWS; i++) {
		struct sock *sk = linksim_sk(sim, i);
		const struct tcp_sock *tp = tcp_sk(sk);
		u64 now_ns = tcp_clock_ns();

		w->min_pacing = min_t(u64, w->min_pacing, sk->sk_pacing_rate);
		if (tp->tcp_wstamp_ns > now_ns)
			w->max_lead_ns = max(w->max_lead_ns, tp->tcp_wstamp_ns - now_ns);
	}
}

static void run(struct linksim_cfg *cfg, bool hostile, struct watch *w)
{
	u64 before[FLOWS];
	struct linksim *sim;
	int i;

	*w = (struct watch){ .min_pacing = ~0ULL };
	cfg->hook_arg = w;
	if (hostile) {
		bbr2_set_param("beta", "255");
		bbr2_set_param("pacing_gain", "257,1,192,192");
		bbr2_set_param("drain_gain", "1");
	}
	sim = linksim_new(cfg, "bbr2");
	linksim_run_until(sim, HOSTILE_US);
	bbr2_params_reset();			/* every default back */
	for (i = 0; i < FLOWS; i++)
		before[i] = linksim_flow_stats(sim, i)->bytes_acked;
	linksim_run_until(sim, HOSTILE_US + RECOVER_US);
	for (i = 0; i < FLOWS; i++) {
		u64 got = linksim_flow_stats(sim, i)->bytes_acked - before[i];

		w->recovered_bytes += got;
		w->silent += !got;
	}
	tap_diag("%s: slowest pacing %llu B/s, send clock up to %.3f s ahead; in the 10 s after: %.2f Mbit/s, %d of %d flows silent",
		 hostile ? "hostile, then defaults" : "defaults throughout",
		 w->min_pacing, w->max_lead_ns / 1e9,
		 w->recovered_bytes * 8.0 / RECOVER_US, w->silent, FLOWS);
	linksim_free(sim);
}

int main(void)
{
	struct watch hostile, control;
	struct linksim_cfg cfg;
	double link_bytes;

	tap_plan(5);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	cfg.rtt_us = 10000;
	cfg.queue_pkts = 8;
	cfg.loss_ppm = 30000;
	cfg.fq = true;
	cfg.nflows = FLOWS;
	cfg.on_tick = on_tick;
	cfg.tick_us = 1000;
	link_bytes = cfg.rate_bps / 8.0 * RECOVER_US / USEC_PER_SEC;

	run(&cfg, false, &control);
	run(&cfg, true, &hostile);
	tap_ok(hostile.min_pacing >= 10 * cfg.mss,
	       "pacing never below one segment per 100 ms (%llu B/s)", hostile.min_pacing);
	tap_ok(hostile.max_lead_ns <= NSEC_PER_SEC,
	       "no send clock more than 1 s ahead (%.3f s)", hostile.max_lead_ns / 1e9);
	tap_ok(hostile.silent <= control.silent,
	       "after the defaults, no more flows silent than with the defaults throughout (%d, %d)",
	       hostile.silent, control.silent);
	tap_ok(hostile.recovered_bytes >= 0.8 * link_bytes,
	       "after the defaults, the flows use the link (%.0f %%)",
	       100.0 * hostile.recovered_bytes / link_bytes);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
