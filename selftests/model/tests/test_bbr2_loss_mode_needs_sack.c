// SPDX-License-Identifier: GPL-2.0
/*
 * loss_mode=1 runs only on connections with SACK: a bbr2 socket whose peer
 * did not negotiate SACK runs v3's response to loss whatever the parameter
 * says.  Without SACK the sender learns of one hole per round trip and of
 * the rest at a timeout, and loss_mode 1's background loss rate, learnt
 * from those counts, would hold the flow's bounds through losses that v3
 * cuts for.
 *
 * One flow, 50 Mbit/s x 30 ms, 1-BDP buffer, 1 % random loss, 20 s, run
 * three times with the same seeds:
 *   A  loss_mode=0, SACK
 *   B  loss_mode=1, no SACK    must decide exactly as A, and never latch
 *                              mode 1
 *   C  loss_mode=1, SACK       must decide otherwise (the scenario tells
 *                              the two behaviours apart) and run mode 1
 *                              from init on
 * "Exactly" is a digest of the socket's whole state (struct bbr2, cwnd,
 * ssthresh, pacing rate) after every ACK.  The simulator's own sender and
 * receiver ignore the SACK option (they recover as with SACK in every
 * run); only what the congestion control reads of it differs.
 */
#include "bbr2_util.h"

#define SIM_SEED	0x5ac0ffULL
#define PRANDOM_SEED	0x5ac
#define RUN_SECONDS	20

struct run {
	u64 hash;
	u64 acks;
	u64 acks_init;		/* ACKs after init() */
	u64 acks_loss_mode;	/* ACKs after which the socket ran loss_mode 1 */
	bool ran;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs,
		   void *arg)
{
	struct sock *sk = linksim_sk(sim, flow);
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr2 *bbr = inet_csk_ca(sk);
	struct run *r = arg;
	u32 v[3] = { tcp_snd_cwnd(tp), tp->snd_ssthresh, (u32)sk->sk_pacing_rate };

	bbr2_fnv(&r->hash, bbr, sizeof(*bbr));
	bbr2_fnv(&r->hash, v, sizeof(v));
	r->acks++;
	r->acks_init += bbr->initialized;
	r->acks_loss_mode += bbr->loss_mode;
}

static void run(struct run *r, const char *loss_mode, bool sack)
{
	struct linksim_cfg cfg;
	struct linksim *sim;

	memset(r, 0, sizeof(*r));
	r->hash = BBR2_FNV_INIT;
	if (bbr2_set_param("loss_mode", loss_mode))
		return;
	shim_prandom_seed(PRANDOM_SEED);
	bbr2_cfg_digest_path(&cfg, SIM_SEED);
	cfg.nflows = 1;
	cfg.flow[0].cc = "bbr2";
	cfg.on_ack = on_ack;
	cfg.hook_arg = r;
	sim = linksim_new(&cfg, NULL);
	if (sim) {
		/* what the handshake negotiated, before init() reads it */
		tcp_sk(linksim_sk(sim, 0))->rx_opt.sack_ok = sack;
		linksim_run_until(sim, RUN_SECONDS * USEC_PER_SEC);
		linksim_free(sim);
		r->ran = true;
	}
	bbr2_set_param("loss_mode", "default");
}

int main(void)
{
	static struct run a, b, c;

	tap_plan(5);
	shim_quiet = 1;
	shim_modules_load();
	tap_diag("seeds: linksim 0x%llx, prandom 0x%x; %u s, 1 flow, 1 %% loss",
		 SIM_SEED, PRANDOM_SEED, RUN_SECONDS);

	run(&a, "0", true);
	run(&b, "1", false);
	run(&c, "1", true);

	tap_ok(a.ran && b.ran && c.ran && a.acks && b.acks && c.acks,
	       "three runs carried the flow (%llu, %llu, %llu ACKs)",
	       (unsigned long long)a.acks, (unsigned long long)b.acks,
	       (unsigned long long)c.acks);
	tap_ok(b.acks_init && !b.acks_loss_mode,
	       "without SACK, loss_mode=1 never latches mode 1 (%llu of %llu ACKs did)",
	       (unsigned long long)b.acks_loss_mode,
	       (unsigned long long)b.acks_init);
	tap_ok(a.acks == b.acks && a.hash == b.hash,
	       "without SACK, loss_mode=1 decides exactly as loss_mode=0 (%llu vs %llu ACKs, digest %016llx vs %016llx)",
	       (unsigned long long)b.acks, (unsigned long long)a.acks,
	       (unsigned long long)b.hash, (unsigned long long)a.hash);
	tap_ok(c.acks_init && c.acks_loss_mode == c.acks_init &&
	       c.hash != a.hash,
	       "with SACK, loss_mode=1 runs from init on (%llu of %llu ACKs) and decides otherwise (digest %016llx)",
	       (unsigned long long)c.acks_loss_mode,
	       (unsigned long long)c.acks_init, (unsigned long long)c.hash);
	tap_ok(shim_warn_count == 0, "no WARN (%lu)", (unsigned long)shim_warn_count);
	bbr2_params_reset();
	return tap_done();
}
