/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <net/tcp.h>: the congestion-control interface of Linux
 * 6.1 (struct tcp_congestion_ops, struct rate_sample, CA states and events)
 * and the inline helpers a congestion control calls. The functions declared
 * here are implemented by lib/tcp_cong.c (registry, Reno) and by the
 * simulator (linksim.c: tcp_rate_check_app_limited, tcp_enter_cwr).
 *
 * Build with -DSHIM_LINUX_VERSION_CODE=KERNEL_VERSION(6,10,0) or later for
 * the 6.10 cong_control(sk, ack, flag, rs) signature.
 */
#ifndef _SHIM_NET_TCP_H
#define _SHIM_NET_TCP_H

#include <linux/kernel.h>
#include <linux/version.h>
#include <linux/tcp.h>
#include <linux/win_minmax.h>
#include <linux/inet_diag.h>
#include <linux/skbuff.h>
#include <net/sock.h>
#include <net/inet_connection_sock.h>
#include <net/inet_ecn.h>
#include <net/snmp.h>

#define MAX_TCP_HEADER		320	/* L1_CACHE_ALIGN(128 + MAX_HEADER) on x86_64 */
#define MAX_TCP_OPTION_SPACE	40
#define TCP_MIN_MSS		88U
#define TCP_BASE_MSS		1024
#define TCP_INIT_CWND		10
#define TCP_INFINITE_SSTHRESH	0x7fffffff
#define TCP_TS_HZ		1000
#define TCP_RTO_MAX		((unsigned)(120 * HZ))
#define TCP_RTO_MIN		((unsigned)(HZ / 5))
#define TCP_TIMEOUT_MIN		(2U)
#define TCP_TIMEOUT_INIT	((unsigned)(1 * HZ))
#define TCP_DELACK_MAX		((unsigned)(HZ / 5))
#define TCP_DELACK_MIN		((unsigned)(HZ / 25))
#define TCP_ATO_MIN		((unsigned)(HZ / 25))
#define TCP_RESOURCE_PROBE_INTERVAL ((unsigned)(HZ / 2U))

#define GSO_MAX_SEGS		65535u
#define GSO_LEGACY_MAX_SIZE	65536u
#define GSO_MAX_SIZE		GSO_LEGACY_MAX_SIZE	/* 6.1: 512 KiB with BIG TCP; legacy default */
#define TSO_LEGACY_MAX_SIZE	65536

/* Sequence number arithmetic, modulo 2^32. */
static inline bool before(__u32 seq1, __u32 seq2)
{
	return (__s32)(seq1 - seq2) < 0;
}
#define after(seq2, seq1)	before(seq1, seq2)

static inline bool between(__u32 seq1, __u32 seq2, __u32 seq3)
{
	return seq3 - seq2 >= seq1 - seq2;
}

#define tcp_jiffies32 ((u32)jiffies)

static inline u64 tcp_clock_ns(void)
{
	return ktime_get_ns();
}

static inline u64 tcp_clock_us(void)
{
	return div_u64(tcp_clock_ns(), NSEC_PER_USEC);
}

static inline u32 tcp_time_stamp(const struct tcp_sock *tp)
{
	return div_u64(tp->tcp_mstamp, USEC_PER_SEC / TCP_TS_HZ);
}

static inline u32 tcp_stamp_us_delta(u64 t1, u64 t0)
{
	return max_t(s64, t1 - t0, 0);
}

static inline u32 tcp_min_rtt(const struct tcp_sock *tp)
{
	return minmax_get(&tp->rtt_min);
}

enum tcp_ca_state {
	TCP_CA_Open = 0,
#define TCPF_CA_Open	(1<<TCP_CA_Open)
	TCP_CA_Disorder = 1,
#define TCPF_CA_Disorder (1<<TCP_CA_Disorder)
	TCP_CA_CWR = 2,
#define TCPF_CA_CWR	(1<<TCP_CA_CWR)
	TCP_CA_Recovery = 3,
#define TCPF_CA_Recovery (1<<TCP_CA_Recovery)
	TCP_CA_Loss = 4
#define TCPF_CA_Loss	(1<<TCP_CA_Loss)
};

/* Events passed to congestion control interface */
enum tcp_ca_event {
	CA_EVENT_TX_START,	/* first transmit when no packets in flight */
	CA_EVENT_CWND_RESTART,	/* congestion window restart */
	CA_EVENT_COMPLETE_CWR,	/* end of congestion recovery */
	CA_EVENT_LOSS,		/* loss timeout */
	CA_EVENT_ECN_NO_CE,	/* ECT set, but not CE marked */
	CA_EVENT_ECN_IS_CE,	/* received CE marked IP packet */
};

/* Information about inbound ACK, passed to cong_ops->in_ack_event() */
enum tcp_ca_ack_event_flags {
	CA_ACK_SLOWPATH		= (1 << 0),	/* In slow path processing */
	CA_ACK_WIN_UPDATE	= (1 << 1),	/* ACK updated window */
	CA_ACK_ECE		= (1 << 2),	/* ECE bit is set on ack */
};

#define TCP_CA_NAME_MAX	16
#define TCP_CA_MAX	128
#define TCP_CA_BUF_MAX	(TCP_CA_NAME_MAX*TCP_CA_MAX)
#define TCP_CA_UNSPEC	0

/* Algorithm can be set on socket without CAP_NET_ADMIN privileges */
#define TCP_CONG_NON_RESTRICTED 0x1
/* Requires ECN/ECT set on all packets */
#define TCP_CONG_NEEDS_ECN	0x2
#define TCP_CONG_MASK	(TCP_CONG_NON_RESTRICTED | TCP_CONG_NEEDS_ECN)

union tcp_cc_info;

struct ack_sample {
	u32 pkts_acked;
	s32 rtt_us;
	u32 in_flight;
};

/* A rate sample (Linux 6.1 layout): "delivered" packets over "interval_us".
 * Invalid if delivered or interval_us is negative. */
struct rate_sample {
	u64  prior_mstamp;	/* starting timestamp for interval */
	u32  prior_delivered;	/* tp->delivered at "prior_mstamp" */
	u32  prior_delivered_ce;/* tp->delivered_ce at "prior_mstamp" */
	s32  delivered;		/* number of packets delivered over interval */
	s32  delivered_ce;	/* number of packets delivered w/ CE marks*/
	long interval_us;	/* time for tp->delivered to incr "delivered" */
	u32 snd_interval_us;	/* snd interval for delivered packets */
	u32 rcv_interval_us;	/* rcv interval for delivered packets */
	long rtt_us;		/* RTT of last (S)ACKed packet (or -1) */
	int  losses;		/* number of packets marked lost upon ACK */
	u32  acked_sacked;	/* number of packets newly (S)ACKed upon ACK */
	u32  prior_in_flight;	/* in flight before this ACK */
	u32  last_end_seq;	/* end_seq of most recently ACKed packet */
	bool is_app_limited;	/* is sample from packet with bubble in pipe? */
	bool is_retrans;	/* is sample from retransmission? */
	bool is_ack_delayed;	/* is this (likely) a delayed ACK? */
};

/* 6.10 added (u32 ack, int flag) to cong_control(). Spelled through a macro
 * so that a header probe (include/compat-probe.sh) run on this shim sees the
 * 6.1 prototype unless the shim was built to emulate 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define SHIM_CONG_CONTROL_HAS_ACK_FLAG 1
#define __SHIM_CONG_CONTROL_ACK_FLAG u32 ack, int flag,
#else
#define __SHIM_CONG_CONTROL_ACK_FLAG
#endif

struct tcp_congestion_ops {
	/* return slow start threshold (required) */
	u32 (*ssthresh)(struct sock *sk);
	/* do new cwnd calculation (required) */
	void (*cong_avoid)(struct sock *sk, u32 ack, u32 acked);
	/* call before changing ca_state (optional) */
	void (*set_state)(struct sock *sk, u8 new_state);
	/* call when cwnd event occurs (optional) */
	void (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 1, 0)
	/* 7.1: CA_EVENT_TX_START comes here, no longer to cwnd_event() */
	void (*cwnd_event_tx_start)(struct sock *sk);
#endif
	/* call when ack arrives (optional) */
	void (*in_ack_event)(struct sock *sk, u32 flags);
	/* hook for packet ack accounting (optional) */
	void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
	/* override sysctl_tcp_min_tso_segs */
	u32 (*min_tso_segs)(struct sock *sk);
	/* called at the end of ACK processing with the rate sample (optional) */
	void (*cong_control)(struct sock *sk, __SHIM_CONG_CONTROL_ACK_FLAG
			     const struct rate_sample *rs);
	/* new value of cwnd after loss (required) */
	u32  (*undo_cwnd)(struct sock *sk);
	/* returns the multiplier used in tcp_sndbuf_expand (optional) */
	u32 (*sndbuf_expand)(struct sock *sk);
	/* get info for inet_diag (optional) */
	size_t (*get_info)(struct sock *sk, u32 ext, int *attr,
			   union tcp_cc_info *info);

	char			name[TCP_CA_NAME_MAX];
	struct module		*owner;
	struct list_head	list;
	u32			key;
	u32			flags;

	/* initialize private data (optional) */
	void (*init)(struct sock *sk);
	/* cleanup private data  (optional) */
	void (*release)(struct sock *sk);
} ____cacheline_aligned_in_smp;

/* lib/tcp_cong.c: a flat registry, like net/ipv4/tcp_cong.c. */
int tcp_register_congestion_control(struct tcp_congestion_ops *type);
void tcp_unregister_congestion_control(struct tcp_congestion_ops *type);
struct tcp_congestion_ops *tcp_ca_find(const char *name);
void tcp_get_available_congestion_control(char *buf, size_t len);
void tcp_set_ca_state(struct sock *sk, const u8 ca_state);
u32 tcp_slow_start(struct tcp_sock *tp, u32 acked);
void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked);
u32 tcp_reno_ssthresh(struct sock *sk);
u32 tcp_reno_undo_cwnd(struct sock *sk);
void tcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked);
extern struct tcp_congestion_ops tcp_reno;

/* Receiver-side ACK sending: the model's senders receive no data, so these
 * are no-ops (lib/tcp_cong.c). */
void __tcp_send_ack(struct sock *sk, u32 rcv_nxt);
void tcp_send_ack(struct sock *sk);

/* linksim.c: the emulated stack. */
void tcp_rate_check_app_limited(struct sock *sk);
void tcp_enter_cwr(struct sock *sk);

static inline bool tcp_ca_needs_ecn(const struct sock *sk)
{
	return inet_csk(sk)->icsk_ca_ops->flags & TCP_CONG_NEEDS_ECN;
}

static inline void tcp_ca_event(struct sock *sk, const enum tcp_ca_event event)
{
	const struct inet_connection_sock *icsk = inet_csk(sk);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 1, 0)
	if (event == CA_EVENT_TX_START) {
		if (icsk->icsk_ca_ops->cwnd_event_tx_start)
			icsk->icsk_ca_ops->cwnd_event_tx_start(sk);
		return;
	}
#endif
	if (icsk->icsk_ca_ops->cwnd_event)
		icsk->icsk_ca_ops->cwnd_event(sk, event);
}

static inline bool tcp_skb_sent_after(u64 t1, u64 t2, u32 seq1, u32 seq2)
{
	return t1 > t2 || (t1 == t2 && after(seq1, seq2));
}

static inline int tcp_is_sack(const struct tcp_sock *tp)
{
	return likely(tp->rx_opt.sack_ok);
}

static inline bool tcp_is_reno(const struct tcp_sock *tp)
{
	return !tcp_is_sack(tp);
}

static inline unsigned int tcp_left_out(const struct tcp_sock *tp)
{
	return tp->sacked_out + tp->lost_out;
}

/* "Packets sent once on transmission queue" MINUS "packets left network,
 * but not honestly ACKed yet" PLUS "packets fast retransmitted". */
static inline unsigned int tcp_packets_in_flight(const struct tcp_sock *tp)
{
	return tp->packets_out - tcp_left_out(tp) + tp->retrans_out;
}

static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

static inline void tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val)
{
	WARN_ON_ONCE((int)val <= 0);
	tp->snd_cwnd = val;
}

static inline bool tcp_in_slow_start(const struct tcp_sock *tp)
{
	return tcp_snd_cwnd(tp) < tp->snd_ssthresh;
}

static inline bool tcp_in_initial_slowstart(const struct tcp_sock *tp)
{
	return tp->snd_ssthresh >= TCP_INFINITE_SSTHRESH;
}

static inline bool tcp_in_cwnd_reduction(const struct sock *sk)
{
	return (TCPF_CA_CWR | TCPF_CA_Recovery) &
	       (1 << inet_csk(sk)->icsk_ca_state);
}

static inline __u32 tcp_current_ssthresh(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (tcp_in_cwnd_reduction(sk))
		return tp->snd_ssthresh;
	else
		return max(tp->snd_ssthresh,
			   ((tcp_snd_cwnd(tp) >> 1) +
			    (tcp_snd_cwnd(tp) >> 2)));
}

static inline u32 tcp_wnd_end(const struct tcp_sock *tp)
{
	return tp->snd_una + tp->snd_wnd;
}

static inline bool tcp_is_cwnd_limited(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (tp->is_cwnd_limited)
		return true;
	/* If in slow start, ensure cwnd grows to twice what was ACKed. */
	if (tcp_in_slow_start(tp))
		return tcp_snd_cwnd(tp) < 2 * tp->max_packets_out;
	return false;
}

static inline bool tcp_needs_internal_pacing(const struct sock *sk)
{
	return smp_load_acquire(&sk->sk_pacing_status) == SK_PACING_NEEDED;
}

static inline u32 tcp_max_tso_deferred_mss(const struct tcp_sock *tp)
{
	(void)tp;
	return 3;
}

static inline u32 tcp_rto_min_us(const struct sock *sk)
{
	(void)sk;
	return jiffies_to_usecs(TCP_RTO_MIN);
}

#endif
