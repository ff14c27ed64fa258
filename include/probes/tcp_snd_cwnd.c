// SPDX-License-Identifier: GPL-2.0
/* API: tcp_snd_cwnd */
/* 5.19: the congestion window is read and set through accessors. */
#include <net/tcp.h>

u32 bbr2_probe(struct tcp_sock *tp);
u32 bbr2_probe(struct tcp_sock *tp)
{
	tcp_snd_cwnd_set(tp, tcp_snd_cwnd(tp));
	return tcp_snd_cwnd(tp);
}
