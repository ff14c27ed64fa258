/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <net/sock.h>: the struct sock fields a congestion
 * control reads or writes (6.1 names and types), and the per-netns sysctls
 * the emulated TCP stack uses (one global namespace, init_net).
 */
#ifndef _SHIM_NET_SOCK_H
#define _SHIM_NET_SOCK_H

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/slab.h>

enum sk_pacing {
	SK_PACING_NONE		= 0,
	SK_PACING_NEEDED	= 1,	/* TCP paces itself (no fq qdisc) */
	SK_PACING_FQ		= 2,	/* an fq qdisc paces this socket */
};

enum {
	TCP_ESTABLISHED = 1,
	TCP_SYN_SENT,
	TCP_SYN_RECV,
	TCP_FIN_WAIT1,
	TCP_FIN_WAIT2,
	TCP_TIME_WAIT,
	TCP_CLOSE,
	TCP_CLOSE_WAIT,
	TCP_LAST_ACK,
	TCP_LISTEN,
	TCP_CLOSING,
	TCP_NEW_SYN_RECV,
	TCP_MAX_STATES
};

/* The sysctls of net.ipv4 that the emulated stack honours. */
struct netns_ipv4 {
	u8  sysctl_tcp_ecn;
	int sysctl_tcp_min_tso_segs;		/* 2 */
	int sysctl_tcp_tso_rtt_log;		/* 9 */
	int sysctl_tcp_pacing_ss_ratio;		/* 200 */
	int sysctl_tcp_pacing_ca_ratio;		/* 120 */
	int sysctl_tcp_reordering;		/* 3 */
	int sysctl_tcp_min_rtt_wlen;		/* 300 s */
	u8  sysctl_tcp_slow_start_after_idle;	/* 1 */
	u8  sysctl_tcp_recovery;		/* 1: RACK */
};

struct net {
	struct netns_ipv4 ipv4;
};
extern struct net init_net;

struct sock {
	/* from sock_common */
	unsigned short		sk_family;
	volatile unsigned char	sk_state;
	__be32			sk_daddr;
	__be32			sk_rcv_saddr;
	__be16			sk_dport;
	__u16			sk_num;
	struct net		*sk_net;

	int			sk_sndbuf;
	int			sk_rcvbuf;
	int			sk_wmem_queued;
	int			sk_err_soft;
	u8			sk_userlocks;
	u32			sk_pacing_status; /* see enum sk_pacing */
	unsigned long		sk_pacing_rate;	  /* bytes per second */
	unsigned long		sk_max_pacing_rate;
	u8			sk_pacing_shift;
	unsigned int		sk_gso_max_size;
	u16			sk_gso_max_segs;
	int			sk_gso_type;
	u64			sk_route_caps;	  /* non-zero: GSO capable */
	u32			sk_mark;
	void			*sk_user_data;
};

static inline struct net *sock_net(const struct sock *sk)
{
	return sk->sk_net ? sk->sk_net : &init_net;
}

static inline bool sk_can_gso(const struct sock *sk)
{
	return sk->sk_route_caps != 0;
}

static inline int sk_wmem_alloc_get(const struct sock *sk)
{
	(void)sk;
	return 0;
}

#define SOCK_SNDBUF_LOCK	1

#endif
