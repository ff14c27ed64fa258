// SPDX-License-Identifier: GPL-2.0
/* API: tcp_ecn_mode_any */
/*
 * 6.18 (AccECN): TCP_ECN_OK became TCP_ECN_MODE_RFC3168, and whether a
 * connection negotiated ECN of either kind is tcp_ecn_mode_any().
 */
#include <net/tcp.h>

bool bbr2_probe(const struct tcp_sock *tp);
bool bbr2_probe(const struct tcp_sock *tp)
{
	return tcp_ecn_mode_any(tp);
}
