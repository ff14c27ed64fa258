// SPDX-License-Identifier: GPL-2.0
/* API: min_tso_segs */
/* Stock kernels: min_tso_segs(sk) sets the floor of a TSO burst. */
#include <net/tcp.h>

static u32 bbr2_probe_op(struct sock *sk)
{
	return 2;
}

struct tcp_congestion_ops bbr2_probe_ops = {
	.min_tso_segs	= bbr2_probe_op,
};
