// SPDX-License-Identifier: GPL-2.0
/*
 * A loss that a tail-loss probe repairs is never marked lost: the stack
 * only learns from the ACK of the probe that the original was lost, and
 * then calls ssthresh() and set_state(TCP_CA_CWR) (tcp_process_tlp_ack()).
 * Google's v3 gets a TLP-recovery event and notes the loss round; bbr2 must
 * note it from the CWR entry.  An ECN CWR entry (the ACK carried ECE, which
 * in_ack_event() reports first) is not a loss.
 *
 * The simulator has no TLP, so the test makes those calls itself from the
 * ACK hook of a flow cruising at 20 Mbit/s, 40 ms, 2 BDP of buffer.
 */
#include "bbr2_util.h"

struct probe {
	int done;
	bool tlp_noted;		/* CWR without ECE: a loss round */
	bool ece_noted;		/* CWR with ECE: not one */
};

static bool quiet_cruise(struct sock *sk)
{
	const struct bbr2 *b = bbr2_state(sk);

	return b->mode == BBR2_PROBE_BW && b->cycle_idx == BBR2_BW_PROBE_CRUISE &&
	       !b->loss_in_round && inet_csk(sk)->icsk_ca_state == TCP_CA_Open;
}

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct probe *p = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct tcp_congestion_ops *ops = inet_csk(sk)->icsk_ca_ops;

	if (linksim_now_us(sim) < 5 * USEC_PER_SEC || p->done >= 2 || !quiet_cruise(sk))
		return;
	if (p->done++ == 0) {
		if (ops->in_ack_event)
			ops->in_ack_event(sk, CA_ACK_ECE);
		ops->ssthresh(sk);
		if (ops->set_state)
			ops->set_state(sk, TCP_CA_CWR);
		p->ece_noted = bbr2_state(sk)->loss_in_round;
		if (ops->set_state)
			ops->set_state(sk, TCP_CA_Open);
		return;
	}
	ops->ssthresh(sk);
	if (ops->set_state)
		ops->set_state(sk, TCP_CA_CWR);
	p->tlp_noted = bbr2_state(sk)->loss_in_round;
	if (ops->set_state)
		ops->set_state(sk, TCP_CA_Open);
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct probe p = { 0 };

	tap_plan(4);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	cfg.queue_pkts = 2 * linksim_bdp_pkts(&cfg);
	cfg.on_ack = on_ack;
	cfg.hook_arg = &p;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 15 * USEC_PER_SEC);
	linksim_free(sim);
	tap_ok(p.done == 2, "found two quiet CRUISE ACKs");
	tap_ok(p.tlp_noted,
	       "a loss repaired by a tail-loss probe (CWR without ECE) makes a loss round");
	tap_ok(!p.ece_noted, "an ECN CWR entry does not");
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
