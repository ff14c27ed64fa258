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
 *
 * And one hook call may make more than one change: an ACK that ends
 * STARTUP with inflight already below the BDP enters DRAIN and leaves it
 * for PROBE_BW, and bbr2_state reports both steps.
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

/*
 * The ACKs of cruising(), one by one with tracing on, up to the one that
 * leaves STARTUP (inflight 100 < BDP 200: DRAIN is over on that ACK too);
 * returns the bbr2_state events of that ACK.
 */
static unsigned long state_events_leaving_startup(struct bbr2 **bbrp)
{
	struct bbr2 *bbr;
	unsigned long hits = 0;
	u32 i;

	harness_init(&h, "bbr2", true);
	bbr = (struct bbr2 *)inet_csk_ca(harness_sk(&h));
	shim_trace_on = true;
	for (i = 0; i < 40 && bbr->mode == BBR2_STARTUP; i++) {
		shim_trace_reset();
		harness_ack(&h, 1000, 10, 0, 10, 1000, 20000, 100, false, 0);
		hits = shim_trace_hits("bbr2_state");
	}
	shim_trace_on = false;
	*bbrp = bbr;
	return hits;
}

int main(void)
{
	struct sock *sk;
	struct bbr2 *bbr;
	unsigned long hits;
	u32 hi;

	tap_plan(7);
	hits = state_events_leaving_startup(&bbr);
	tap_ok(bbr->mode == BBR2_PROBE_BW,
	       "one ACK takes STARTUP to PROBE_BW (mode %u)", bbr->mode);
	tap_ok(hits == 2, "bbr2_state reports STARTUP -> DRAIN and DRAIN -> PROBE_BW (%lu events)",
	       hits);

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
