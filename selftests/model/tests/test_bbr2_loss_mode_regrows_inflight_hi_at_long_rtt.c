// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 regrows inflight_hi after a probe that ended on loss, at
 * DTN scale: one flow, 10 Gbit/s x 200 ms (a BDP of ~165000 packets),
 * drop-tail buffer of 0.1 BDP, 0.1 % random loss, frame mode (64 KB
 * GSO frames, as tools/bbr2-lab --where sim runs it), 40 s, the first
 * 10 s not counted.
 *
 * There a probe that fills the buffer for several rounds loses a
 * retransmission now and then; the window stalls behind it, and the
 * probe ends on the burst of loss that follows with inflight_hi cut to
 * (1 - beta) of the path.  PROBE_UP regrows it on a slope that doubles
 * every round, ~16 rounds for this shortfall, more than fit between two
 * PROBE_RTTs at 200 ms; in v3, PROBE_RTT ends each probe early and the
 * next one starts its slope from one packet again, so that inflight_hi
 * stays near 0.7 BDP for tens of seconds, and so does the flow's goodput.
 *
 *  - in loss_mode=1, no PROBE_RTT begins in PROBE_BW UP, and PROBE_RTT
 *    still comes at least every 2 x probe_rtt_win (10 s) of the run;
 *  - loss_mode=1's goodput is at least v3 mode's (loss_mode=0), measured
 *    in the same run;
 *  - with the kernel's bbr (KSRC=...), at least 0.95 x BBRv1's;
 *  - no kernel WARN fired.
 */
#include "bbr2_util.h"

#define START_S		10
#define END_S		40

struct probe_rtt_log {
	u32 prev_mode;
	u32 from_up;		/* PROBE_RTTs that cut PROBE_BW UP short */
	u32 entries;		/* PROBE_RTTs begun after START_S */
	u64 last_us;		/* when the last one began */
	u64 longest_gap_us;	/* between PROBE_RTTs, after START_S */
};

static void on_ack(struct linksim *sim, int flow,
		   const struct rate_sample *rs, void *arg)
{
	const struct bbr2 *b = bbr2_state(linksim_sk(sim, flow));
	struct probe_rtt_log *log = arg;
	u64 now = linksim_now_us(sim);

	if (!b->initialized)
		return;
	/*
	 * PROBE_RTT leaves cycle_idx as it found it; an UP that ended on this
	 * ACK has moved it to DOWN first.
	 */
	if (b->mode == BBR2_PROBE_RTT && log->prev_mode != BBR2_PROBE_RTT) {
		if (log->prev_mode == BBR2_PROBE_BW &&
		    b->cycle_idx == BBR2_BW_PROBE_UP)
			log->from_up++;
		if (now >= START_S * USEC_PER_SEC) {
			log->entries++;
			log->longest_gap_us = max(log->longest_gap_us,
						  now - log->last_us);
		}
		log->last_us = now;
	}
	log->prev_mode = b->mode;
}

/* Goodput in Gbit/s after START_S of one flow of @cc (bbr2: @loss_mode). */
static double goodput_gbit(const char *cc, const char *loss_mode,
			   struct probe_rtt_log *log)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	u64 bytes0;
	double gp;

	if (loss_mode && bbr2_set_param("loss_mode", loss_mode))
		tap_diag("cannot set loss_mode=%s", loss_mode);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 10000000000ULL;
	cfg.rtt_us = 200000;
	cfg.frame_segs = 45;
	cfg.hdr_bytes = 66;
	cfg.fq = true;
	cfg.seed = 1;
	cfg.loss_ppm = 1000;
	cfg.queue_pkts = 0;
	cfg.queue_bytes = linksim_bdp_pkts(&cfg) / 10 *
			  (u64)(cfg.mss + cfg.hdr_bytes);
	if (log) {
		cfg.on_ack = on_ack;
		cfg.hook_arg = log;
	}
	sim = linksim_new(&cfg, cc);
	linksim_run_until(sim, START_S * USEC_PER_SEC);
	bytes0 = linksim_flow_stats(sim, 0)->bytes_acked;
	linksim_run_until(sim, END_S * USEC_PER_SEC);
	gp = (linksim_flow_stats(sim, 0)->bytes_acked - bytes0) * 8.0 /
	     (END_S - START_S) / 1e9;
	linksim_free(sim);
	bbr2_set_param("loss_mode", "0");
	return gp;
}

int main(void)
{
	struct probe_rtt_log m1_log = { 0 }, v3_log = { 0 };
	double v3, m1, v1;
	u64 win_us;

	tap_plan(5);
	shim_modules_load();
	win_us = (u64)bbr2_get_param("probe_rtt_win_ms") * 1000;
	v3 = goodput_gbit("bbr2", "0", &v3_log);
	m1 = goodput_gbit("bbr2", "1", &m1_log);
	tap_diag("10 Gbit/s x 200 ms, 0.1-BDP buffer, 0.1 %% loss, %d-%d s: v3 mode %.2f Gbit/s (%u PROBE_RTTs began in PROBE_UP), loss_mode=1 %.2f Gbit/s (%u)",
		 START_S, END_S, v3, v3_log.from_up, m1, m1_log.from_up);
	tap_ok(m1_log.from_up == 0,
	       "loss_mode=1: no PROBE_RTT begins in PROBE_BW UP (%u did)",
	       m1_log.from_up);
	tap_ok(m1_log.entries >= 2 &&
	       m1_log.longest_gap_us <= 2 * win_us + 500000,
	       "loss_mode=1: PROBE_RTT still comes every 2 x probe_rtt_win (%.0f s) or sooner (%u after %d s, longest gap %.1f s)",
	       2 * win_us / 1e6, m1_log.entries, START_S,
	       m1_log.longest_gap_us / 1e6);
	tap_ok(v3 > 0 && m1 >= v3,
	       "loss_mode=1 keeps at least v3 mode's goodput (%.2f vs %.2f Gbit/s)",
	       m1, v3);
	if (tcp_ca_find("bbr")) {
		v1 = goodput_gbit("bbr", NULL, NULL);
		tap_ok(m1 >= 0.95 * v1,
		       "loss_mode=1 keeps >= 0.95 x BBRv1's goodput (%.2f vs %.2f Gbit/s)",
		       m1, v1);
	} else {
		tap_skip("needs KSRC=<kernel source tree>",
			 "loss_mode=1 keeps >= 0.95 x BBRv1's goodput");
	}
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)",
	       shim_warn_count);
	return tap_done();
}
