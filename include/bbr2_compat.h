/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the series tcp_bbr2 builds against.
 *
 * The BBR2_HAVE_* flags come from compat-probe.sh, which compiles the small
 * programs in include/probes/ against the target kernel (see Kbuild).
 * Everything version-dependent is resolved here so that the algorithm in
 * src/ reads the same on every kernel.
 */
#ifndef _BBR2_COMPAT_H
#define _BBR2_COMPAT_H

#include <linux/inet_diag.h>
#include <linux/math64.h>
#include <linux/random.h>
#include <net/tcp.h>

/* Before 5.19 the congestion window was a plain field. */
#ifndef BBR2_HAVE_TCP_SND_CWND
static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

static inline void tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val)
{
	tp->snd_cwnd = val;
}
#endif

/* Before 5.19 the 64 KB GSO limit was called GSO_MAX_SIZE. */
#ifndef GSO_LEGACY_MAX_SIZE
#define GSO_LEGACY_MAX_SIZE	65536u
#endif

/*
 * CE-marked packets delivered over this rate sample's interval, or -1 when
 * the kernel (before 5.16) does not count them per sample.
 */
static inline s32 bbr2_rs_delivered_ce(const struct rate_sample *rs)
{
#ifdef BBR2_HAVE_RS_DELIVERED_CE
	return rs->delivered_ce;
#else
	return -1;
#endif
}

/* Did this connection negotiate ECN (classic RFC 3168, or AccECN)? */
static inline bool bbr2_ecn_negotiated(const struct tcp_sock *tp)
{
#ifdef BBR2_HAVE_TCP_ECN_MODE_ANY
	return tcp_ecn_mode_any(tp);
#else
	return tp->ecn_flags & TCP_ECN_OK;
#endif
}

/* A uniform random number in [0, ceil); 0 when ceil is 0. */
static inline u32 bbr2_random_below(u32 ceil)
{
	if (!ceil)
		return 0;
#ifdef BBR2_HAVE_GET_RANDOM_U32_BELOW
	return get_random_u32_below(ceil);
#else
	return prandom_u32_max(ceil);
#endif
}

/*
 * The pacing rate is read locklessly by the qdisc and TCP's internal pacer;
 * since 6.8 the kernel annotates that, and the annotation is harmless before.
 */
static inline unsigned long bbr2_pacing_rate(const struct sock *sk)
{
	return READ_ONCE(sk->sk_pacing_rate);
}

static inline void bbr2_set_sk_pacing_rate(struct sock *sk, unsigned long rate)
{
	WRITE_ONCE(sk->sk_pacing_rate, rate);
}

/*
 * Since 7.1 the first transmit after idle (CA_EVENT_TX_START) has its own op
 * and cwnd_event() no longer sees it; the ops table registers
 * bbr2_cwnd_event_tx_start() there when BBR2_HAVE_CWND_EVENT_TX_START.
 *
 * Stock kernels ask for the least TSO burst through min_tso_segs(sk);
 * kernels carrying Google's BBRv3 patch replace it with tso_segs(sk, mss)
 * (BBR2_HAVE_TSO_SEGS), which returns the whole burst.
 */

/* 6.10 passed the ACK's sequence and flags to cong_control(); we use neither. */
#ifdef BBR2_HAVE_CONG_CONTROL_ACK_FLAG
#define BBR2_CONG_CONTROL_ARGS	struct sock *sk, u32 ack, int flag, \
				const struct rate_sample *rs
#else
#define BBR2_CONG_CONTROL_ARGS	struct sock *sk, const struct rate_sample *rs
#endif

#endif /* _BBR2_COMPAT_H */
