// SPDX-License-Identifier: GPL-2.0
/*
 * A connection becomes ECN-eligible once (Google's v3 and v2alpha set
 * ecn_eligible when ECN was negotiated and min_rtt was within
 * ecn_max_rtt_us, and never clear it): a path whose min_rtt later grows
 * past ecn_max_rtt_us keeps its ECN response, rather than switching it
 * off and on as the min_rtt filter moves.  ecn_enable=0 still switches it
 * off (a module parameter v3 does not have).
 *
 * Crafted rate samples, one per round: 2 s at 1 ms RTT, then 12 s at
 * 20 ms (the 10-s min_rtt window expires), then ecn_enable=0.
 */
#include "bbr2_util.h"
#include "cc_harness.h"

static void rounds(struct cc_harness *h, u32 rtt_us, u64 secs)
{
	u64 end = h->now_us + secs * USEC_PER_SEC;

	while (h->now_us < end)
		harness_ack(h, rtt_us, 10, 0, 10, rtt_us, rtt_us, 10, false, 0);
}

int main(void)
{
	struct cc_harness h;
	const struct bbr2 *b;
	bool early, late, off;

	tap_plan(4);
	bbr2_set_param("ecn_enable", "1");
	if (harness_init(&h, "bbr2", false))
		return 1;
	h.tp.ecn_flags = TCP_ECN_OK;
	h.ops->init(harness_sk(&h));
	b = bbr2_state(harness_sk(&h));
	rounds(&h, 1000, 2);
	early = b->ecn_eligible;
	rounds(&h, 20000, 12);
	late = b->ecn_eligible;
	tap_diag("min_rtt %u us after the RTT grew", b->min_rtt_us);
	bbr2_set_param("ecn_enable", "0");
	rounds(&h, 20000, 1);
	off = b->ecn_eligible;
	harness_release(&h);

	tap_ok(early, "ECN-eligible at 1 ms RTT with ECN negotiated");
	tap_ok(late, "still eligible after min_rtt grew to 20 ms (above ecn_max_rtt_us)");
	tap_ok(!off, "ecn_enable=0 switches the ECN response off");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
