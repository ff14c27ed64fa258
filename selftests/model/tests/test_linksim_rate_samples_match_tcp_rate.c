// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's rate samples behave like net/ipv4/tcp_rate.c's:
 *  - a cwnd-limited flow that keeps the bottleneck busy gets delivery-rate
 *    samples equal to the link rate (within 1 %), and no valid sample has
 *    interval_us < min_rtt;
 *  - an application-limited flow gets samples marked is_app_limited, never
 *    above what the app offered;
 *  - every packet the network dropped is eventually counted in tp->lost,
 *    and rs->losses never counts more than tp->lost;
 *  - with a per-packet ECE receiver, tp->delivered_ce counts exactly the
 *    packets the link CE-marked;
 *  - the sequence space wraps (ISN near 2^32) without harm.
 * The CC here is a test-local "fixedcwnd" module: cwnd pinned, no pacing.
 */
#define KBUILD_MODNAME "test_fixedcwnd"
#include <linux/module.h>
#include "model_util.h"

static u32 fixed_cwnd = 10;
module_param(fixed_cwnd, uint, 0644);

struct stats {
	u64 valid, app_limited, bad_interval, wrong_rate, checked;
	double max_app_rate;
	u64 losses_sum;
	u32 last_delivered;
	bool non_monotonic;
	double link_Bps;
	u64 check_after_us;
	struct linksim *sim;
} st;

static void fc_init(struct sock *sk)
{
	tcp_snd_cwnd_set(tcp_sk(sk), fixed_cwnd);
}

static void fc_cong_control(struct sock *sk, __SHIM_CONG_CONTROL_ACK_FLAG
			    const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);

	tcp_snd_cwnd_set(tp, fixed_cwnd);
	st.losses_sum += rs->losses;
	if (after(st.last_delivered, tp->delivered))
		st.non_monotonic = true;
	st.last_delivered = tp->delivered;
	if (rs->delivered <= 0 || rs->interval_us <= 0)
		return;
	st.valid++;
	if (rs->interval_us < tcp_min_rtt(tp))
		st.bad_interval++;
	if (rs->is_app_limited) {
		double r = (double)rs->delivered * tp->mss_cache * 1e6 / rs->interval_us;

		st.app_limited++;
		if (r > st.max_app_rate)
			st.max_app_rate = r;
	} else if (sk->sk_state == TCP_ESTABLISHED && st.link_Bps &&
		   st.sim && linksim_now_us(st.sim) > st.check_after_us) {
		double r = (double)rs->delivered * tp->mss_cache * 1e6 / rs->interval_us;

		st.checked++;
		if (r < 0.99 * st.link_Bps || r > 1.01 * st.link_Bps) {
			if (st.wrong_rate++ < 5)
				tap_diag("off: delivered %d interval %ld (snd %u rcv %u) = %.3f Mbit/s",
					 rs->delivered, rs->interval_us, rs->snd_interval_us,
					 rs->rcv_interval_us, r * 8 / 1e6);
		}
	}
}

static u32 fc_ssthresh(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static u32 fc_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static struct tcp_congestion_ops fixedcwnd = {
	.name		= "fixedcwnd",
	.init		= fc_init,
	.cong_control	= fc_cong_control,
	.ssthresh	= fc_ssthresh,
	.undo_cwnd	= fc_undo_cwnd,
};

static int __init fc_register(void)
{
	return tcp_register_congestion_control(&fixedcwnd);
}
module_init(fc_register);
MODULE_LICENSE("GPL");

static struct linksim *start(struct linksim_cfg *cfg, u32 cwnd)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", cwnd);
	shim_modules_load();
	shim_param_set(KBUILD_MODNAME, "fixed_cwnd", buf);
	memset(&st, 0, sizeof(st));
	st.sim = linksim_new(cfg, "fixedcwnd");
	return st.sim;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct tcp_sock *tp;
	u32 bdp;

	tap_plan(9);

	/* 1. saturated: cwnd = 1.5 BDP into a 2 BDP buffer (the unpaced first
	 * flight lands in the queue at once), no loss */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 2 * bdp;
	sim = start(&cfg, bdp * 3 / 2);
	st.link_Bps = link_payload_Bps(&cfg);
	st.check_after_us = 1000000;
	linksim_run_until(sim, 10 * USEC_PER_SEC);
	tp = tcp_sk(linksim_sk(sim, 0));
	tap_diag("saturated: %llu valid samples, %llu checked, %llu off the link rate, %llu with interval < min_rtt; util %.1f%%",
		 st.valid, st.checked, st.wrong_rate, st.bad_interval,
		 linksim_utilization(sim) * 100);
	tap_ok(st.checked > 1000 && st.wrong_rate == 0,
	       "cwnd-limited samples equal the link rate within 1%% (%llu/%llu off)",
	       st.wrong_rate, st.checked);
	tap_ok(st.bad_interval == 0 && !st.non_monotonic,
	       "no valid sample has interval_us < min_rtt; tp->delivered only grows");
	tap_ok(linksim_flow_stats(sim, 0)->pkts_dropped == 0 && tp->lost == 0,
	       "no loss when cwnd fits BDP + buffer");
	linksim_free(sim);

	/* 2. overflowing: cwnd = 3 BDP into a 1 BDP buffer; the app stops at
	 * 9 s so that every loss is resolved by 12 s */
	cfg.queue_pkts = bdp;
	cfg.flow[0].stop_us = 9 * USEC_PER_SEC;
	sim = start(&cfg, bdp * 3);
	linksim_run_until(sim, 12 * USEC_PER_SEC);
	tp = tcp_sk(linksim_sk(sim, 0));
	tap_diag("overflowing: %llu dropped, tp->lost %u, sum(rs->losses) %llu, %llu retransmits, %u RTOs",
		 linksim_flow_stats(sim, 0)->pkts_dropped, tp->lost, st.losses_sum,
		 linksim_flow_stats(sim, 0)->pkts_retrans, linksim_flow_stats(sim, 0)->rtos);
	tap_ok(linksim_flow_stats(sim, 0)->pkts_dropped > 0 &&
	       tp->lost >= linksim_flow_stats(sim, 0)->pkts_dropped &&
	       st.losses_sum <= tp->lost && tp->packets_out == 0,
	       "every drop is counted in tp->lost; rs->losses never exceeds it");
	linksim_free(sim);

	/* 3. application-limited at 5 of 20 Mbit/s */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	cfg.flow[0].app_rate_bps = 5000000;
	sim = start(&cfg, 1000);
	linksim_run_until(sim, 10 * USEC_PER_SEC);
	tap_diag("app-limited: %llu of %llu valid samples app-limited, max %.2f Mbit/s",
		 st.app_limited, st.valid, st.max_app_rate * 8 / 1e6);
	tap_ok(st.valid && st.app_limited * 2 > st.valid,
	       "an app-limited sender's samples are marked is_app_limited (%llu/%llu)",
	       st.app_limited, st.valid);
	tap_ok(st.max_app_rate * 8 < 5000000 * 1.1,
	       "app-limited samples do not exceed the app's rate (%.2f Mbit/s)",
	       st.max_app_rate * 8 / 1e6);
	linksim_free(sim);

	/* 4. ECN: per-packet echo counts CE exactly */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 4 * bdp;
	cfg.ecn_k_pkts = 10;
	cfg.ece_mode = LINKSIM_ECE_PER_PACKET;
	cfg.flow[0].ecn = true;
	cfg.flow[0].stop_us = 5 * USEC_PER_SEC;
	sim = start(&cfg, 2 * bdp);
	linksim_run_until(sim, 7 * USEC_PER_SEC);
	tp = tcp_sk(linksim_sk(sim, 0));
	tap_ok(linksim_flow_stats(sim, 0)->pkts_ce > 0 &&
	       tp->delivered_ce == linksim_flow_stats(sim, 0)->pkts_ce,
	       "per-packet ECE: tp->delivered_ce == packets CE-marked (%u == %llu)",
	       tp->delivered_ce, linksim_flow_stats(sim, 0)->pkts_ce);
	linksim_free(sim);

	/* 5. sequence wrap: ISN 1 MB below 2^32, 1% loss, still delivers all */
	linksim_cfg_default(&cfg);
	cfg.isn = 0xffffffffu - 1000000;
	cfg.loss_ppm = 10000;
	cfg.flow[0].app_bytes = 20000 * 1448ULL;
	sim = start(&cfg, 50);
	linksim_run_until(sim, 60 * USEC_PER_SEC);
	tp = tcp_sk(linksim_sk(sim, 0));
	tap_ok(linksim_flow_stats(sim, 0)->bytes_acked == 20000 * 1448ULL &&
	       tp->snd_una == (u32)(cfg.isn + 1 + 20000 * 1448U) && tp->packets_out == 0,
	       "a transfer across the 2^32 sequence wrap completes (%llu bytes, snd_una %#x)",
	       linksim_flow_stats(sim, 0)->bytes_acked, tp->snd_una);
	linksim_free(sim);

	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
