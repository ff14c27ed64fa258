// SPDX-License-Identifier: GPL-2.0
/*
 * Per-ACK CPU cost of the congestion control hooks: bbr2 (src/) against the
 * kernel's own tcp_bbr.c and tcp_cubic.c, all compiled by the same compiler
 * with the same flags through the same shim, fed the same sequence of ACKs.
 *
 * A benchmark, not a test: it prints numbers and ratios and asserts nothing
 * about time.  Each CC gets exactly the hooks tcp_ack() would call for it:
 * in_ack_event(), pkts_acked(), then cong_control() or cong_avoid().
 *
 * The ACK stream: a 100 Mbit/s, 20 ms path (173 packets per round), one ACK
 * per packet, RTT jittering by up to 2 ms, a loss burst every ~1000 ACKs
 * with a recovery episode (ssthresh, set_state) -- the steady state of a
 * busy bulk flow, where every ACK pays.  The loop's own cost (building the
 * rate sample) is measured with an empty CC and subtracted;
 * the runs interleave the CCs and the best of each is kept, in thread CPU
 * time.
 *
 *   bench_per_ack [ACKS [REPEATS]]
 */
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include "cc_harness.h"

#define RTT_US		20000
#define PKTS_PER_RTT	173

struct ack_in {
	u32 dt_us;
	u32 rtt_us;
	u8 lost;
	u8 event;	/* 1: enter recovery, 2: leave it */
};

static struct ack_in *acks;
static u32 nacks;

static void make_acks(u32 n)
{
	u64 x = 88172645463325252ULL;
	u32 i;

	acks = calloc(n, sizeof(*acks));
	if (!acks)
		exit(2);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acks[i].dt_us = RTT_US / PKTS_PER_RTT;
		acks[i].rtt_us = RTT_US + (u32)(x % 2000);
		if (i % 1000 == 999) {
			acks[i].lost = 3;
			acks[i].event = 1;
		} else if (i % 1000 == 200) {
			acks[i].event = 2;
		}
	}
	nacks = n;
}

static void null_hook(struct sock *sk, const struct rate_sample *rs)
{
	(void)sk;
	(void)rs;
}

static u32 null_ssthresh(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static struct tcp_congestion_ops null_ops = {
	.ssthresh	= null_ssthresh,
#ifndef SHIM_CONG_CONTROL_HAS_ACK_FLAG
	.cong_control	= null_hook,
#endif
	.name		= "null",
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Runs the whole ACK stream through ops; returns ns per ACK. */
static double run(const struct tcp_congestion_ops *ops, u32 *final_cwnd)
{
	struct cc_harness h;
	struct tcp_sock *tp = &h.tp;
	struct sock *sk = harness_sk(&h);
	struct rate_sample rs = { 0 };
	double t0, t1;
	u32 i;

	harness_init(&h, "reno", false);
	h.ops = ops;
	inet_csk(sk)->icsk_ca_ops = ops;
	if (ops->init)
		ops->init(sk);
	t0 = now_ns();
	for (i = 0; i < nacks; i++) {
		const struct ack_in *a = &acks[i];
		u32 cwnd = tcp_snd_cwnd(tp);

		harness_set_time(&h, h.now_us + a->dt_us);
		if (a->event == 1) {
			tp->snd_ssthresh = ops->ssthresh(sk);
			if (ops->set_state)
				ops->set_state(sk, TCP_CA_Recovery);
			inet_csk(sk)->icsk_ca_state = TCP_CA_Recovery;
		} else if (a->event == 2) {
			if (ops->set_state)
				ops->set_state(sk, TCP_CA_Open);
			inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
		}
		rs.prior_delivered = tp->delivered - PKTS_PER_RTT;
		rs.prior_mstamp = h.now_us - RTT_US;
		rs.prior_in_flight = tp->packets_out;
		tp->delivered++;
		tp->lost += a->lost;
		tp->delivered_mstamp = h.now_us;
		rs.delivered = PKTS_PER_RTT;
		rs.interval_us = RTT_US;
		rs.rtt_us = a->rtt_us;
		rs.losses = a->lost;
		rs.acked_sacked = 1;
		minmax_running_min(&tp->rtt_min, 300 * HZ, tcp_jiffies32, a->rtt_us);
		tp->srtt_us = a->rtt_us << 3;
		tp->packets_out = min(cwnd, 2U * PKTS_PER_RTT);
		tp->is_cwnd_limited = 1;	/* a bulk sender */
		if (ops->in_ack_event)
			ops->in_ack_event(sk, CA_ACK_WIN_UPDATE);
		if (ops->pkts_acked) {
			struct ack_sample s = { .pkts_acked = 1, .rtt_us = (s32)a->rtt_us,
						.in_flight = tp->packets_out };

			ops->pkts_acked(sk, &s);
		}
		if (ops->cong_control) {
#ifdef SHIM_CONG_CONTROL_HAS_ACK_FLAG
			ops->cong_control(sk, tp->snd_una, 0, &rs);
#else
			ops->cong_control(sk, &rs);
#endif
		} else if (ops->cong_avoid) {
			ops->cong_avoid(sk, tp->snd_una, 1);
		}
		tp->snd_una += 1448;
	}
	t1 = now_ns();
	*final_cwnd = tcp_snd_cwnd(tp);
	return (t1 - t0) / nacks;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "bbr2", "bbr", "cubic" };
	u32 n = argc > 1 ? (u32)strtoul(argv[1], NULL, 0) : 2000000;
	int repeats = argc > 2 ? atoi(argv[2]) : 7;
	const struct tcp_congestion_ops *ops[3];
	double base, ns[3];
	u32 cwnd, cwnds[3];
	unsigned int i;
	int r;

	if (repeats < 1 || repeats > 64)
		repeats = 7;
	shim_quiet = 1;
	shim_modules_load();
	make_acks(n);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		ops[i] = tcp_ca_find(names[i]);
	/* Interleaved, best of `repeats`: a shared machine only ever adds
	 * time, so the minimum is the cost closest to the code's own. */
	base = 1e30;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		ns[i] = 1e30;
	for (r = 0; r < repeats; r++) {
		base = min(base, run(&null_ops, &cwnd));
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (ops[i])
				ns[i] = min(ns[i], run(ops[i], &cwnds[i]));
	}
	printf("per-ACK CPU cost of the CC hooks (userspace, same compiler and flags; best of %d interleaved runs of %u ACKs; loop overhead %.1f ns subtracted)\n",
	       repeats, n, base);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		ns[i] = ops[i] ? max(ns[i] - base, 0.1) : 0;
	printf("%-8s %10s %10s %12s\n", "cc", "ns/ACK", "x bbr", "final cwnd");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!ns[i])
			printf("%-8s %10s (not linked: build with KSRC=)\n", names[i], "-");
		else if (ns[1])
			printf("%-8s %10.1f %10.2f %12u\n", names[i], ns[i], ns[i] / ns[1], cwnds[i]);
		else
			printf("%-8s %10.1f %10s %12u\n", names[i], ns[i], "-", cwnds[i]);
	}
	if (ns[1] && ns[2])
		printf("ratio bbr2/bbr %.2f, bbr2/cubic %.2f\n", ns[0] / ns[1], ns[0] / ns[2]);
	free(acks);
	return 0;
}
