// SPDX-License-Identifier: GPL-2.0
/*
 * version=2 detects a full pipe as BBRv2 (v2alpha) does: once per round,
 * comparing the max-bw filter with the bw that last grew by
 * full_bw_thresh.  BBRv3 compares every ACK's sample instead and restarts
 * the count from the sample that grew; the two leave STARTUP in different
 * rounds when a mid-round sample grows by 25 % and the round-start samples
 * do not.  Crafted rate samples, 10 ms rounds:
 *
 *   round 1: 100            both: full_bw = 100
 *   round 2: 100, then 126  v3: reset at 126; v2: 1 round without growth
 *   round 3: 100            v3: 1; v2: max_bw 126 >= 125: reset
 *   round 4: 100            v3: 2; v2: 1
 *   round 5: 100            v3: 3, pipe full; v2: 2
 *   round 6: 100            v2: 3, pipe full
 */
#include "bbr2_util.h"
#include "cc_harness.h"

/* One ACK of @delivered packets over 10 ms; a round start or not. */
static void ack(struct cc_harness *h, u32 delivered, bool round_start)
{
	struct tcp_sock *tp = &h->tp;
	struct sock *sk = harness_sk(h);
	const struct bbr2 *b = bbr2_state(sk);
	struct rate_sample rs = { 0 };

	harness_set_time(h, h->now_us + (round_start ? 10000 : 100));
	rs.prior_delivered = round_start ? b->next_rtt_delivered :
			     b->next_rtt_delivered - 1;
	rs.prior_mstamp = h->now_us - 10000;
	rs.prior_in_flight = delivered;
	tp->delivered += delivered;
	tp->delivered_mstamp = h->now_us;
	rs.delivered = delivered;
	rs.acked_sacked = delivered;
	rs.interval_us = 10000;
	rs.snd_interval_us = 10000;
	rs.rcv_interval_us = 10000;
	rs.rtt_us = 10000;
	minmax_running_min(&tp->rtt_min, 300 * HZ, tcp_jiffies32, 10000);
	tp->srtt_us = 10000 << 3;
	tp->packets_out = delivered;
	tcp_snd_cwnd_set(tp, 1000);
	bbr2_feed_sample(sk, &rs);
}

/* Rounds until full_bw_reached, or 0 if not within the stream. */
static int rounds_to_full(void)
{
	static const u32 round_start_bw[] = { 100, 100, 100, 100, 100, 100 };
	struct cc_harness h;
	unsigned int r;

	if (harness_init(&h, "bbr2", true))
		return -1;
	for (r = 0; r < ARRAY_SIZE(round_start_bw); r++) {
		ack(&h, round_start_bw[r], true);
		if (r == 1)
			ack(&h, 126, false);
		if (bbr2_state(harness_sk(&h))->full_bw_reached) {
			harness_release(&h);
			return r + 1;
		}
	}
	harness_release(&h);
	return 0;
}

int main(void)
{
	int v3, v2;

	tap_plan(3);
	v3 = rounds_to_full();
	tap_ok(v3 == 5, "version=3: the pipe is full in round 5 (%d)", v3);
	bbr2_set_param("version", "2");
	v2 = rounds_to_full();
	bbr2_set_param("version", "3");
	tap_ok(v2 == 6,
	       "version=2: the pipe is full in round 6, counted per round on max_bw (%d)", v2);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
