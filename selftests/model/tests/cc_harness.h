/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bare socket for feeding crafted rate samples straight to a congestion
 * control, without the link model: the test decides every field of the
 * rate sample and of tcp_sock that the stack would have filled in. Used for
 * arithmetic edge cases no real path produces on demand (400 Gbit/s x 1 s,
 * 1 kbit/s, zero and all-ones RTTs).
 */
#ifndef _CC_HARNESS_H
#define _CC_HARNESS_H

#include <shim.h>
#include <net/tcp.h>

struct cc_harness {
	struct tcp_sock tp;		/* first: the struct sock */
	const struct tcp_congestion_ops *ops;
	u64 now_us;
};

static inline struct sock *harness_sk(struct cc_harness *h)
{
	return (struct sock *)&h->tp;
}

static inline void harness_set_time(struct cc_harness *h, u64 now_us)
{
	h->now_us = now_us;
	shim_clock_set_ns(now_us * NSEC_PER_USEC);
	h->tp.tcp_mstamp = now_us;
	h->tp.tcp_clock_cache = now_us * NSEC_PER_USEC;
	if (h->tp.tcp_wstamp_ns < h->tp.tcp_clock_cache)
		h->tp.tcp_wstamp_ns = h->tp.tcp_clock_cache;
}

/* An established socket as tcp_init_sock() + the handshake leave it, with
 * the CC's init() run unless init is false. */
static inline int harness_init(struct cc_harness *h, const char *cc, bool init)
{
	struct sock *sk = harness_sk(h);
	struct tcp_sock *tp = &h->tp;

	memset(h, 0, sizeof(*h));
	shim_modules_load();
	h->ops = tcp_ca_find(cc);
	if (!h->ops)
		return -ENOENT;
	harness_set_time(h, 1000000000ULL);
	sk->sk_state = TCP_ESTABLISHED;
	sk->sk_pacing_rate = ~0UL;
	sk->sk_max_pacing_rate = ~0UL;
	sk->sk_pacing_shift = 10;
	sk->sk_gso_max_size = GSO_LEGACY_MAX_SIZE;
	sk->sk_gso_max_segs = GSO_MAX_SEGS;
	sk->sk_route_caps = 1;
	tp->mss_cache = 1448;
	tp->snd_cwnd = TCP_INIT_CWND;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	tp->snd_cwnd_clamp = ~0U;
	tp->reordering = 3;
	tp->rx_opt.sack_ok = 1;
	minmax_reset(&tp->rtt_min, tcp_jiffies32, ~0U);
	inet_csk(sk)->icsk_ca_ops = h->ops;
	if (init && h->ops->init) {
		h->ops->init(sk);
		inet_csk(sk)->icsk_ca_initialized = 1;
	}
	return 0;
}

/* One ACK: time advances by dt_us, "acked" packets are newly delivered
 * ("lost" newly marked lost), the rate sample says "delivered" packets in
 * "interval_us" (either may be -1 or 0, as crafted), RTT rtt_us (-1: none).
 * inflight is what tcp_packets_in_flight() will return. */
static inline void harness_ack(struct cc_harness *h, u64 dt_us, u32 acked, u32 lost,
			       s32 delivered, long interval_us, long rtt_us,
			       u32 inflight, bool app_limited, u32 ack_flags)
{
	struct tcp_sock *tp = &h->tp;
	struct sock *sk = harness_sk(h);
	struct rate_sample rs = { 0 };

	harness_set_time(h, h->now_us + dt_us);
	rs.prior_in_flight = tp->packets_out;
	rs.prior_delivered = tp->delivered;
	rs.prior_mstamp = h->now_us - (interval_us > 0 ? (u64)interval_us : 0);
	tp->delivered += acked;
	tp->lost += lost;
	if (acked)
		tp->delivered_mstamp = h->now_us;
	rs.delivered = delivered;
	rs.interval_us = interval_us;
	rs.snd_interval_us = interval_us > 0 ? (u32)interval_us : 0;
	rs.rcv_interval_us = rs.snd_interval_us;
	rs.rtt_us = rtt_us;
	rs.losses = lost;
	rs.acked_sacked = acked;
	rs.is_app_limited = app_limited;
	if (rtt_us >= 0) {
		minmax_running_min(&tp->rtt_min, 300 * HZ, tcp_jiffies32,
				   rtt_us ? (u32)rtt_us : 1);
		tp->srtt_us = max_t(u32, (u32)min_t(u64, (u64)rtt_us << 3, U32_MAX), 1);
	}
	tp->packets_out = inflight;
	if (h->ops->in_ack_event)
		h->ops->in_ack_event(sk, ack_flags);
#ifdef SHIM_CONG_CONTROL_HAS_ACK_FLAG
	h->ops->cong_control(sk, tp->snd_una, 0, &rs);
#else
	h->ops->cong_control(sk, &rs);
#endif
}

static inline void harness_release(struct cc_harness *h)
{
	if (h->ops && h->ops->release)
		h->ops->release(harness_sk(h));
}

#endif
