// SPDX-License-Identifier: GPL-2.0
/* API: tso_segs */
/* Google's BBRv3 patch: tso_segs(sk, mss) chooses the whole TSO burst. */
#include <net/tcp.h>

static u32 bbr2_probe_op(struct sock *sk, unsigned int mss_now)
{
	return 2;
}

struct tcp_congestion_ops bbr2_probe_ops = {
	.tso_segs	= bbr2_probe_op,
};
