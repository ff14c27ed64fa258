// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode written under a live socket takes effect where the socket's
 * state is valid for it: at the start of its next PROBE_BW cycle, never in
 * the middle of one.  In CRUISE and DOWN, loss_mode 1 keeps its cruising
 * pool in the word PROBE_UP uses for bw_probe_up_acks; a flip to 1 while
 * cruising would read what PROBE_UP left there as pool counters.
 *
 * Two copies of one socket in CRUISE, whose shared word holds what a
 * PROBE_UP at a cwnd of a million packets (a 100 Gbit/s x 100 ms DTN flow)
 * can leave there, take the same lossy ACKs; loss_mode=1 is written before
 * the first ACK of one of them.  Until that copy starts a new PROBE_BW
 * cycle, both must decide exactly alike (state, cwnd, pacing); after it,
 * the flipped copy must run loss_mode 1 on a valid pool (pool_tx below
 * 1024 / loss_thresh packets, pool_lost <= pool_tx).
 */
#include "bbr2_util.h"
#include "cc_harness.h"

/* bw_probe_up_acks PROBE_UP can leave at cwnd 2^20: it is below cnt =
 * cwnd >> (rounds - 1); read as the pool: pool_tx 524272, pool_lost 1. */
#define DTN_LEFTOVER	0xFFFF0U

static struct cc_harness a, b;

static void ack(struct cc_harness *h, u32 i)
{
	/* the same random draws for both copies */
	shim_prandom_seed(i);
	/* 10 packets per ms, 1 in 20 ACKs reports a loss; RTT 20 ms */
	harness_ack(h, 1000, 10, i % 20 == 0, 10, 1000, 20000, 200, false, 0);
}

static bool same(void)
{
	return !memcmp(inet_csk_ca(harness_sk(&a)), inet_csk_ca(harness_sk(&b)),
		       sizeof(struct bbr2)) &&
	       tcp_snd_cwnd(&a.tp) == tcp_snd_cwnd(&b.tp) &&
	       harness_sk(&a)->sk_pacing_rate == harness_sk(&b)->sk_pacing_rate;
}

int main(void)
{
	struct bbr2 *bbr;
	u32 i, diverged = 0, cycle_at = 0, bad_pool = 0, pool_acks = 0;
	u32 parted_after = 0;
	u32 first_tx = 0, first_lost = 0;

	tap_plan(5);
	shim_quiet = 1;
	tap_ok(harness_init(&a, "bbr2", true) == 0, "bbr2 socket");
	/* to PROBE_BW CRUISE: STARTUP sees no bw growth, DRAIN finds no queue */
	for (i = 0; i < 40; i++)
		harness_ack(&a, 1000, 10, 0, 10, 1000, 20000, 100, false, 0);
	bbr = (struct bbr2 *)inet_csk_ca(harness_sk(&a));
	tap_ok(bbr->mode == BBR2_PROBE_BW && bbr->cycle_idx == BBR2_BW_PROBE_CRUISE,
	       "in PROBE_BW CRUISE (mode %u, phase %u)", bbr->mode, bbr->cycle_idx);
	bbr->bw_probe_up_acks = DTN_LEFTOVER;
	barrier();	/* the store through bbr, before the copy of a */
	b = a;

	bbr2_set_param("loss_mode", "1");
	for (i = 1; i <= 400; i++) {
		ack(&a, i);
		bbr2_set_param("loss_mode", "0");
		ack(&b, i);
		bbr2_set_param("loss_mode", "1");
		bbr = (struct bbr2 *)inet_csk_ca(harness_sk(&a));
		if (!cycle_at && bbr->mode == BBR2_PROBE_BW &&
		    bbr->cycle_idx != BBR2_BW_PROBE_CRUISE)
			cycle_at = i;	/* the cruise the flip happened in is over */
		if (!cycle_at && !diverged && !same()) {
			diverged = i;
			first_tx = bbr->cruise.pool_tx;
			first_lost = bbr->cruise.pool_lost;
		}
		if (cycle_at && !parted_after && !same())
			parted_after = i;
		if (cycle_at && bbr->mode == BBR2_PROBE_BW &&
		    (bbr->cycle_idx == BBR2_BW_PROBE_CRUISE ||
		     bbr->cycle_idx == BBR2_BW_PROBE_DOWN) &&
		    bbr->cycle_idx != BBR2_BW_PROBE_REFILL) {
			pool_acks++;
			if (bbr->cruise.pool_tx * 5 >= 1024 ||
			    bbr->cruise.pool_lost > bbr->cruise.pool_tx)
				bad_pool++;
		}
	}
	bbr2_params_reset();
	if (diverged)
		tap_diag("the flipped copy parted from the other at ACK %u, mid-cruise; its pool then read pool_tx %u, pool_lost %u",
			 diverged, first_tx, first_lost);
	tap_ok(cycle_at && !diverged,
	       "the flipped socket decides as the unflipped one until its next PROBE_BW cycle (ACK %u; parted at %u)",
	       cycle_at, diverged);
	tap_ok(parted_after && pool_acks > 0 && !bad_pool,
	       "from its next cycle it runs loss_mode 1 (parts at ACK %u) on a valid pool (%u of %u ACKs in DOWN/CRUISE bad)",
	       parted_after, bad_pool, pool_acks);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
