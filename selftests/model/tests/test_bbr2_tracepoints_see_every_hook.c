// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoints report every change of the state they cover, whichever
 * hook makes it: each registered hook that can change that state must run
 * between a snapshot and a comparison when tracing is on.  Two hooks that
 * change it outside of an ACK, with tracing on:
 *
 *  - undo_cwnd() after a spurious recovery restores inflight_hi (a
 *    bbr2_bounds event);
 *  - the first send after idle (cwnd_event_tx_start() on 7.1+, built with
 *    KVER=7.1; cwnd_event(CA_EVENT_TX_START) before) ends a PROBE_RTT
 *    whose time is up (a bbr2_state event).
 */
#include <linux/tracepoint.h>
#include "bbr2_util.h"
#include "cc_harness.h"

#ifdef BBR2_HAVE_CWND_EVENT_TX_START
#define TX_START_HOOK	"cwnd_event_tx_start"
#define tx_start(sk)	h.ops->cwnd_event_tx_start(sk)
#else
#define TX_START_HOOK	"cwnd_event"
#define tx_start(sk)	h.ops->cwnd_event(sk, CA_EVENT_TX_START)
#endif

static struct cc_harness h;

/* A socket in PROBE_BW CRUISE after 40 crafted ACKs. */
static struct bbr2 *cruising(void)
{
	u32 i;

	harness_init(&h, "bbr2", true);
	for (i = 0; i < 40; i++)
		harness_ack(&h, 1000, 10, 0, 10, 1000, 20000, 100, false, 0);
	return (struct bbr2 *)inet_csk_ca(harness_sk(&h));
}

int main(void)
{
	struct sock *sk;
	struct bbr2 *bbr;
	u32 hi;

	tap_plan(5);
	bbr = cruising();
	sk = harness_sk(&h);
	tap_ok(bbr->mode == BBR2_PROBE_BW, "a socket in PROBE_BW (mode %u)", bbr->mode);

	/* recovery began with inflight_hi 200; a loss round cut it to 100 */
	bbr->inflight_hi = 100;
	bbr->undo_inflight_hi = 200;
	barrier();
	shim_trace_reset();
	shim_trace_on = true;
	h.ops->undo_cwnd(sk);
	shim_trace_on = false;
	hi = bbr->inflight_hi;
	tap_ok(hi == 200, "undo_cwnd() restores inflight_hi (%u)", hi);
	tap_ok(shim_trace_hits("bbr2_bounds") == 1,
	       "and bbr2_bounds reports it (%lu events)",
	       shim_trace_hits("bbr2_bounds"));

	/* PROBE_RTT whose 200 ms are over, then idle */
	bbr = cruising();
	bbr->mode = BBR2_PROBE_RTT;
	bbr->probe_rtt_done_stamp = tcp_jiffies32 - 1;
	barrier();
	h.tp.app_limited = 1;
	shim_trace_reset();
	shim_trace_on = true;
	tx_start(sk);
	shim_trace_on = false;
	tap_ok(bbr->mode == BBR2_PROBE_BW,
	       "the first send after idle ends PROBE_RTT (mode %u, via %s)", bbr->mode,
	       TX_START_HOOK);
	tap_ok(shim_trace_hits("bbr2_state") == 1,
	       "and bbr2_state reports it (%lu events)", shim_trace_hits("bbr2_state"));
	return tap_done();
}
