/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_NET_INET_SOCK_H
#define _SHIM_NET_INET_SOCK_H

#include <net/sock.h>

struct inet_sock {
	struct sock	sk;	/* must be first */
	__be32		inet_saddr;
	__be16		inet_sport;
	__u8		tos;
};

#define inet_daddr	sk.sk_daddr
#define inet_rcv_saddr	sk.sk_rcv_saddr
#define inet_dport	sk.sk_dport
#define inet_num	sk.sk_num

static inline struct inet_sock *inet_sk(const struct sock *sk)
{
	return (struct inet_sock *)sk;
}

#endif
