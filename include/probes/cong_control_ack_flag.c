// SPDX-License-Identifier: GPL-2.0
/* API: cong_control rate_sample */
/* 6.10: cong_control() also gets the ACK's sequence number and flags. */
#include <net/tcp.h>

static void bbr2_probe_op(struct sock *sk, u32 ack, int flag,
			  const struct rate_sample *rs)
{
}

struct tcp_congestion_ops bbr2_probe_ops = {
	.cong_control	= bbr2_probe_op,
};
