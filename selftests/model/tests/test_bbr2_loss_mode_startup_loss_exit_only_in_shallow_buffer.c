// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 ends STARTUP on a lossy round, however few ACKs reported the
 * loss (bbr2_loss_may_end_startup()), only while the buffer has shown no
 * deep queue.
 *
 * Crafted rate samples, one ACK a round, the flow's min_rtt 70 ms and its
 * delivery doubling: 10, 20, 40 packets a round.  The fourth round loses
 * 8 packets of 58, more than any background explains, and the fifth ends
 * that loss round.  Both rounds' RTT samples are either
 *  - 71 ms: no deep queue, as where many flows share a shallow buffer:
 *    STARTUP ends at the loss round's end, as it must for such flows;
 *  - 115 ms: a deep queue (over min_rtt/4 above min_rtt), as when a flow
 *    that joined a buffer another flow keeps near full meets that flow's
 *    probe: the round notes the deep buffer, and STARTUP goes on, to end
 *    as BBRv3's does (full_loss_cnt lossy ACKs in recovery, or the bw
 *    plateau), not at a fraction of the flow's share.
 */
#include "bbr2_util.h"
#include "cc_harness.h"

#define MIN_RTT_US	70000
#define ROUND_US	70000

struct round {
	u32 delivered, lost;
	bool queue;	/* RTT sample and smoothed RTT show the queue */
};

static const struct round rounds[] = {
	{ 10, 0, false },
	{ 20, 0, false },
	{ 40, 0, false },
	{ 50, 8, true },
	{ 60, 0, true },
};

/* Feed the rounds; @queue_rtt_us is the RTT of the rounds with a queue. */
static void run(long queue_rtt_us, bool *in_startup, bool *deep)
{
	struct cc_harness h;
	const struct bbr2 *bbr;
	u32 i;

	*in_startup = false;
	*deep = false;
	if (harness_init(&h, "bbr2", true)) {
		tap_diag("no bbr2");
		return;
	}
	bbr = bbr2_state(harness_sk(&h));
	for (i = 0; i < ARRAY_SIZE(rounds); i++) {
		const struct round *r = &rounds[i];
		long rtt = r->queue ? queue_rtt_us : MIN_RTT_US + 1000 * i;

		harness_ack(&h, rtt, r->delivered, r->lost, r->delivered,
			    ROUND_US, rtt, r->delivered + r->lost, false, 0);
	}
	*in_startup = bbr->mode == BBR2_STARTUP && !bbr->full_bw_reached;
	*deep = bbr->deep_buffer;
	harness_release(&h);
}

int main(void)
{
	bool in_startup, deep;

	tap_plan(5);
	bbr2_set_param("loss_mode", "1");

	run(MIN_RTT_US + 1000, &in_startup, &deep);
	tap_ok(!deep, "a loss round at min_rtt shows no deep buffer");
	tap_ok(!in_startup,
	       "without a deep queue, loss beyond any background ends STARTUP");

	run(115000, &in_startup, &deep);
	tap_ok(deep, "a loss round 45 ms above min_rtt notes a deep buffer");
	tap_ok(in_startup,
	       "with a deep queue, the same loss leaves STARTUP to BBRv3's exits");

	bbr2_set_param("loss_mode", "0");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)",
	       shim_warn_count);
	return tap_done();
}
