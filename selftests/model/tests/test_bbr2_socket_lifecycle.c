// SPDX-License-Identifier: GPL-2.0
/*
 * A bbr2 socket's life as the stack drives it, beyond steady state:
 *  - its state fits the stock 104-byte private area;
 *  - cong_control() runs on the SYN-ACK before init() (SYN_SENT), on
 *    zeroed state, harmlessly;
 *  - release() on a socket that never left SYN_SENT, and CC switches by
 *    setsockopt(TCP_CONGESTION) mid-flow (reno -> bbr2 -> reno -> bbr2),
 *    leak nothing and keep the flow going;
 *  - get_info() answers INET_DIAG_BBRINFO and VEGASINFO requests (what ss
 *    asks) with sane bw and min_rtt;
 *  - module unload unregisters "bbr2", reload registers it again.
 */
#include "bbr2_util.h"

struct pre {
	u32 acks_before_init;
	u32 acks;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct pre *p = arg;
	struct sock *sk = linksim_sk(sim, flow);

	p->acks++;
	if (!inet_csk(sk)->icsk_ca_initialized)
		p->acks_before_init++;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct pre pre = { 0, 0 };
	union tcp_cc_info info;
	struct sock *sk;
	const struct tcp_congestion_ops *ops;
	u64 bytes[4];
	size_t sz;
	int attr = 0, i;
	u32 min_rtt = 0;
	u64 bw;

	tap_plan(9);
	tap_ok(sizeof(struct bbr2) <= ICSK_CA_PRIV_SIZE,
	       "struct bbr2 (%zu bytes) fits ICSK_CA_PRIV_SIZE (%zu)",
	       sizeof(struct bbr2), (size_t)ICSK_CA_PRIV_SIZE);

	linksim_cfg_default(&cfg);
	cfg.on_ack = on_ack;
	cfg.hook_arg = &pre;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 5 * USEC_PER_SEC);
	sk = linksim_sk(sim, 0);
	tap_ok(pre.acks_before_init == 1 && linksim_goodput_bps(sim, 0) > 0.8 * cfg.rate_bps,
	       "cong_control() on the SYN-ACK before init() (%u call), then a normal flow (%.1f Mbit/s)",
	       pre.acks_before_init, linksim_goodput_bps(sim, 0) / 1e6);

	ops = inet_csk(sk)->icsk_ca_ops;
	memset(&info, 0, sizeof(info));
	sz = ops->get_info ? ops->get_info(sk, 1U << (INET_DIAG_VEGASINFO - 1), &attr, &info) : 0;
	bw = (u64)info.bbr.bbr_bw_hi << 32 | info.bbr.bbr_bw_lo;
	min_rtt = info.bbr.bbr_min_rtt;
	tap_diag("get_info: %zu bytes, attr %d, bw %.2f Mbit/s, min_rtt %u us, pacing_gain %u, cwnd_gain %u",
		 sz, attr, bw * 8 / 1e6, min_rtt, info.bbr.bbr_pacing_gain,
		 info.bbr.bbr_cwnd_gain);
	tap_ok(sz == sizeof(struct tcp_bbr_info) && attr == INET_DIAG_BBRINFO &&
	       bw * 8 > 0.9 * cfg.rate_bps && bw * 8 < 1.1 * cfg.rate_bps &&
	       min_rtt >= cfg.rtt_us && min_rtt < cfg.rtt_us + 5000 &&
	       info.bbr.bbr_pacing_gain > 0 && info.bbr.bbr_cwnd_gain > 0,
	       "get_info() fills tcp_bbr_info for an ss (VEGASINFO) request");
	linksim_free(sim);

	/* A flow that never gets its SYN-ACK: release() on zeroed state. */
	linksim_cfg_default(&cfg);
	cfg.flow[0].start_us = 100 * USEC_PER_SEC;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, USEC_PER_SEC);
	linksim_free(sim);
	tap_ok(shim_kmalloc_live == 0, "release() of a never-initialized socket leaks nothing");

	/* CC switches mid-flow. */
	linksim_cfg_default(&cfg);
	sim = linksim_new(&cfg, "reno");
	for (i = 0; i < 4; i++) {
		u64 b0;

		linksim_run_until(sim, (u64)(2 * i + 1) * USEC_PER_SEC);
		b0 = linksim_flow_stats(sim, 0)->bytes_acked;
		linksim_run_until(sim, (u64)(2 * i + 2) * USEC_PER_SEC);
		bytes[i] = linksim_flow_stats(sim, 0)->bytes_acked - b0;
		linksim_set_cc(sim, 0, i % 2 ? "reno" : "bbr2");
	}
	tap_diag("per-second goodput after switches: %.1f %.1f %.1f %.1f Mbit/s",
		 bytes[0] * 8 / 1e6, bytes[1] * 8 / 1e6, bytes[2] * 8 / 1e6, bytes[3] * 8 / 1e6);
	tap_ok(bytes[1] * 8 > 0.5 * cfg.rate_bps && bytes[3] * 8 > 0.5 * cfg.rate_bps,
	       "switching reno -> bbr2 -> reno -> bbr2 keeps the flow going");
	linksim_free(sim);
	tap_ok(shim_kmalloc_live == 0, "CC switches leak nothing (%ld live)", shim_kmalloc_live);

	tap_ok(shim_module_unload("tcp_bbr2") == 0 && !tcp_ca_find("bbr2"),
	       "module unload unregisters bbr2");
	tap_ok(shim_module_load("tcp_bbr2") == 0 && tcp_ca_find("bbr2"),
	       "module reload registers bbr2 again");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
