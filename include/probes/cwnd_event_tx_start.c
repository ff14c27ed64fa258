// SPDX-License-Identifier: GPL-2.0
/* API: cwnd_event_tx_start */
/*
 * 7.1: CA_EVENT_TX_START (first send after idle) goes to its own op and no
 * longer reaches cwnd_event().
 */
#include <net/tcp.h>

static void bbr2_probe_op(struct sock *sk)
{
}

struct tcp_congestion_ops bbr2_probe_ops = {
	.cwnd_event_tx_start	= bbr2_probe_op,
};
