// SPDX-License-Identifier: GPL-2.0
/*
 * A sender never has more than the largest TCP window in flight: 65535
 * bytes scaled by 2^14 (RFC 7323 caps the window scale at 14), about
 * 1 GiB. Sequence numbers are 32 bits and the kernel orders packets with
 * before()/after(), which is right only within 2^31 bytes; a path whose
 * BDP is beyond that (100 Gbit/s x 200 ms is 2.5 GB) must be
 * window-limited, as a Linux sender is, or RACK and tcp_rate.c compare
 * sequence numbers half the sequence space apart and get them backwards.
 *
 * The CC is a test-local "bigpipe" module: cwnd pinned at one BDP plus
 * the buffer, paced at the link rate. On a 100 Gbit/s x 200 ms path with
 * jumbo frames (fewer packets for the same bytes) and 1 % random loss:
 *  - snd_nxt - snd_una never exceeds the largest window, and the flow's
 *    goodput is at most that window per RTT;
 *  - the sender retransmits what the network dropped, not more (the model
 *    has no reordering, so RACK has no reason to mark a packet in flight
 *    lost);
 *  - packet-timed rounds (a round ends when a packet sent after it began
 *    is delivered: rs->prior_delivered reaches the tp->delivered of the
 *    round's start, in a sample with interval_us > 0) last at least a
 *    min_rtt each.
 */
#define KBUILD_MODNAME "test_bigpipe"
#include <linux/module.h>
#include "model_util.h"

#define LARGEST_WINDOW	(65535ULL << 14)

static u32 pinned_cwnd = 10;
module_param(pinned_cwnd, uint, 0644);
static u64 pace_Bps;

struct stats {
	u64 max_flight_bytes;
	u64 rounds;
	u32 next_rtt_delivered;
	u64 first_round_us, last_round_us;
	struct linksim *sim;
} st;

static void bp_init(struct sock *sk)
{
	tcp_snd_cwnd_set(tcp_sk(sk), pinned_cwnd);
	sk->sk_pacing_rate = pace_Bps;
}

static void bp_cong_control(struct sock *sk, __SHIM_CONG_CONTROL_ACK_FLAG
			    const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 flight = (u64)tp->packets_out * tp->mss_cache;

	tcp_snd_cwnd_set(tp, pinned_cwnd);
	sk->sk_pacing_rate = pace_Bps;
	if (flight > st.max_flight_bytes)
		st.max_flight_bytes = flight;
	if (sk->sk_state != TCP_ESTABLISHED || !st.sim)
		return;
	if (rs->interval_us > 0 &&
	    !before(rs->prior_delivered, st.next_rtt_delivered)) {
		u64 now = linksim_now_us(st.sim);

		st.next_rtt_delivered = tp->delivered;
		if (!st.rounds++)
			st.first_round_us = now;
		st.last_round_us = now;
	}
}

static u32 bp_ssthresh(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static u32 bp_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static struct tcp_congestion_ops bigpipe = {
	.name		= "bigpipe",
	.init		= bp_init,
	.cong_control	= bp_cong_control,
	.ssthresh	= bp_ssthresh,
	.undo_cwnd	= bp_undo_cwnd,
};

static int __init bp_register(void)
{
	return tcp_register_congestion_control(&bigpipe);
}
module_init(bp_register);
MODULE_LICENSE("GPL");

int main(void)
{
	struct linksim_cfg cfg;
	const struct linksim_flow_stats *fs;
	struct linksim *sim;
	double goodput_Bps, window_Bps, secs;
	u64 max_rounds;
	char buf[16];
	u32 bdp;

	tap_plan(3);

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 100000000000ULL;
	cfg.rtt_us = 200000;
	cfg.mss = 8948;			/* 9000-byte MTU */
	cfg.fq = true;
	cfg.frame_segs = 45;
	cfg.loss_ppm = 10000;		/* 1 % */
	cfg.seed = 1;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = bdp;
	pace_Bps = cfg.rate_bps / 8;
	snprintf(buf, sizeof(buf), "%u", 2 * bdp);
	shim_modules_load();
	shim_param_set(KBUILD_MODNAME, "pinned_cwnd", buf);
	tap_diag("100 Gbit/s x 200 ms, MSS %u, BDP %u packets (%.2f GB), cwnd %s, 1 %% loss, seed %llu",
		 cfg.mss, bdp, (double)bdp * cfg.mss / 1e9, buf,
		 (unsigned long long)cfg.seed);
	memset(&st, 0, sizeof(st));
	sim = linksim_new(&cfg, "bigpipe");
	st.sim = sim;
	linksim_run_until(sim, 4 * USEC_PER_SEC);
	fs = linksim_flow_stats(sim, 0);

	goodput_Bps = linksim_goodput_bps(sim, 0) / 8;
	window_Bps = (double)LARGEST_WINDOW * USEC_PER_SEC / cfg.rtt_us;
	tap_ok(st.max_flight_bytes <= LARGEST_WINDOW && goodput_Bps <= window_Bps,
	       "at most the largest window in flight: %.3f GB (limit %.3f), goodput %.2f Gbit/s (window/RTT %.2f)",
	       st.max_flight_bytes / 1e9, LARGEST_WINDOW / 1e9, goodput_Bps * 8 / 1e9,
	       window_Bps * 8 / 1e9);

	tap_ok(fs->pkts_dropped > 1000 &&
	       fs->pkts_retrans <= fs->pkts_dropped + fs->pkts_dropped / 100,
	       "retransmits what was dropped: %llu retransmitted, %llu dropped, %u RTOs",
	       fs->pkts_retrans, fs->pkts_dropped, fs->rtos);

	secs = (st.last_round_us - st.first_round_us) / 1e6;
	max_rounds = (u64)(secs * USEC_PER_SEC / cfg.rtt_us) + 2;
	tap_ok(st.rounds > 5 && st.rounds <= max_rounds,
	       "packet-timed rounds last a min_rtt: %llu rounds in %.2f s (at most %llu)",
	       st.rounds, secs, max_rounds);

	linksim_free(sim);
	return tap_done();
}
