/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <net/inet_connection_sock.h>. The congestion control's
 * private area is the stock 104 bytes (ICSK_CA_PRIV_SIZE), u64-aligned.
 */
#ifndef _SHIM_NET_INET_CONNECTION_SOCK_H
#define _SHIM_NET_INET_CONNECTION_SOCK_H

#include <net/inet_sock.h>

struct tcp_congestion_ops;

enum inet_csk_ack_state_t {
	ICSK_ACK_SCHED	= 1,
	ICSK_ACK_TIMER	= 2,
	ICSK_ACK_PUSHED	= 4,
	ICSK_ACK_PUSHED2 = 8,
	ICSK_ACK_NOW	= 16,
};

#define ICSK_TIME_RETRANS	1
#define ICSK_TIME_DACK		2
#define ICSK_TIME_PROBE0	3
#define ICSK_TIME_LOSS_PROBE	5
#define ICSK_TIME_REO_TIMEOUT	6

struct inet_connection_sock {
	struct inet_sock		icsk_inet;	/* must be first */
	unsigned long			icsk_timeout;
	__u32				icsk_rto;	/* jiffies */
	__u32				icsk_rto_min;
	__u32				icsk_delack_max;
	__u32				icsk_pmtu_cookie;
	const struct tcp_congestion_ops	*icsk_ca_ops;
	__u8				icsk_ca_state:5,
					icsk_ca_initialized:1,
					icsk_ca_setsockopt:1,
					icsk_ca_dst_locked:1;
	__u8				icsk_retransmits;
	__u8				icsk_pending;
	__u8				icsk_backoff;
	__u8				icsk_syn_retries;
	__u8				icsk_probes_out;
	__u16				icsk_ext_hdr_len;
	struct {
		__u8	pending;
		__u8	quick;
		__u8	pingpong;
		__u8	retry;
		__u32	ato;
		unsigned long timeout;
		__u32	lrcvtime;
		__u16	last_seg_size;
		__u16	rcv_mss;
	} icsk_ack;
	struct {
		int	search_high;
		int	search_low;
		u32	probe_size:31,
			enabled:1;
		u32	probe_timestamp;
	} icsk_mtup;
	u32				icsk_probes_tstamp;
	u32				icsk_user_timeout;

	u64				icsk_ca_priv[104 / sizeof(u64)];
#define ICSK_CA_PRIV_SIZE	sizeof_field(struct inet_connection_sock, icsk_ca_priv)
};

static inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

static inline void *inet_csk_ca(const struct sock *sk)
{
	return (void *)inet_csk(sk)->icsk_ca_priv;
}

#endif
