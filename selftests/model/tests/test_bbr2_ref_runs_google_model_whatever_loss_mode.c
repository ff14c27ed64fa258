// SPDX-License-Identifier: GPL-2.0
/*
 * The module's second name, "bbr2_ref", runs Google's model exactly: its
 * sockets never run the project's extensions (loss_mode), whatever the
 * shared parameters say, while "bbr2" sockets on the same host run them as
 * the parameters select.
 *
 * One scenario, two flows sharing a 50 Mbit/s x 30 ms path with 1 % random
 * loss (the second joins at 2 s), is run four times:
 *   A  loss_mode=0, bbr2 + bbr2          Google's model on both
 *   B  loss_mode=1, bbr2_ref + bbr2_ref  must be A exactly
 *   C  loss_mode=1, bbr2 + bbr2          must differ from A (the scenario
 *                                        can tell the two behaviours apart)
 *   D  loss_mode=1, bbr2_ref + bbr2      in the same run: the bbr2_ref
 *                                        socket never runs loss_mode 1 and
 *                                        never keeps its state, the bbr2
 *                                        socket does both
 * "Exactly" is a digest, per flow, of the socket's whole state (struct
 * bbr2, except the bit that records the name), cwnd, ssthresh and pacing
 * rate after every ACK: the first ACK at which two runs part fails it.
 * Seeds are fixed and printed.
 */
#include <stddef.h>
#include "bbr2_util.h"

#define SIM_SEED	0x5eed0bb2ULL
#define PRANDOM_SEED	0xb0b2
#define RUN_SECONDS	20

struct flow_digest {
	u64 hash;
	u64 acks;
	u64 acks_init;		/* ACKs after init() (one may come before) */
	u64 acks_loss_mode;	/* ACKs after which the socket ran loss_mode 1 */
	u64 acks_low_rtt;	/* ... and held loss_mode 1's low-RTT bit */
};

struct run {
	struct flow_digest flow[2];
	bool ran;
};

/*
 * Everything the socket decides, but the bit of the word holding
 * probe_wait_us that says which name the socket selected: the words before
 * it and after it whole, and that word's other fields by name.
 */
static void digest_sock(struct flow_digest *d, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr2 *bbr = inet_csk_ca(sk);
	size_t word = offsetof(struct bbr2, cycle_stamp_us) + sizeof(u32);
	size_t next = offsetof(struct bbr2, prior_cwnd);
	u32 v[5] = {
		bbr->probe_wait_us, bbr->loss_mode, tcp_snd_cwnd(tp),
		tp->snd_ssthresh, (u32)sk->sk_pacing_rate,
	};

	bbr2_fnv(&d->hash, bbr, word);
	bbr2_fnv(&d->hash, (const u8 *)bbr + next, sizeof(*bbr) - next);
	bbr2_fnv(&d->hash, v, sizeof(v));
	d->acks++;
	d->acks_init += bbr->initialized;
	d->acks_loss_mode += bbr->loss_mode;
	d->acks_low_rtt += bbr->low_rtt_in_round;
}

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs,
		   void *arg)
{
	struct run *r = arg;

	digest_sock(&r->flow[flow], linksim_sk(sim, flow));
}

static void run(struct run *r, const char *loss_mode, const char *cc0,
		const char *cc1)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 2; i++)
		r->flow[i].hash = BBR2_FNV_INIT;
	if (bbr2_set_param("loss_mode", loss_mode))
		return;
	shim_prandom_seed(PRANDOM_SEED);
	bbr2_cfg_digest_path(&cfg, SIM_SEED);
	cfg.nflows = 2;
	cfg.flow[0].cc = cc0;
	cfg.flow[1].cc = cc1;
	cfg.flow[1].start_us = 2 * USEC_PER_SEC;
	cfg.on_ack = on_ack;
	cfg.hook_arg = r;
	sim = linksim_new(&cfg, NULL);
	if (sim) {
		linksim_run_until(sim, RUN_SECONDS * USEC_PER_SEC);
		linksim_free(sim);
		r->ran = true;
	}
	bbr2_set_param("loss_mode", "default");
}

static bool same_flow(const struct flow_digest *a, const struct flow_digest *b)
{
	return a->acks && a->acks == b->acks && a->hash == b->hash;
}

int main(void)
{
	static struct run a, b, c, d;

	tap_plan(7);
	shim_quiet = 1;
	shim_modules_load();
	tap_diag("seeds: linksim 0x%llx, prandom 0x%x; %u s, 2 flows, 1 %% loss",
		 SIM_SEED, PRANDOM_SEED, RUN_SECONDS);

	run(&a, "0", "bbr2", "bbr2");
	run(&b, "1", "bbr2_ref", "bbr2_ref");
	run(&c, "1", "bbr2", "bbr2");
	run(&d, "1", "bbr2_ref", "bbr2");

	tap_ok(a.ran && b.ran && c.ran && d.ran,
	       "bbr2 and bbr2_ref are both registered and carry flows");
	tap_ok(same_flow(&a.flow[0], &b.flow[0]) &&
	       same_flow(&a.flow[1], &b.flow[1]),
	       "bbr2_ref with loss_mode=1 decides exactly as bbr2 with loss_mode=0 (%llu/%llu ACKs, digests %016llx %016llx vs %016llx %016llx)",
	       (unsigned long long)b.flow[0].acks,
	       (unsigned long long)b.flow[1].acks,
	       (unsigned long long)b.flow[0].hash,
	       (unsigned long long)b.flow[1].hash,
	       (unsigned long long)a.flow[0].hash,
	       (unsigned long long)a.flow[1].hash);
	tap_ok(b.flow[0].acks_init && !b.flow[0].acks_loss_mode &&
	       !b.flow[1].acks_loss_mode,
	       "bbr2_ref sockets never run loss_mode 1 (%llu, %llu ACKs did)",
	       (unsigned long long)b.flow[0].acks_loss_mode,
	       (unsigned long long)b.flow[1].acks_loss_mode);
	tap_ok(c.ran && !same_flow(&a.flow[0], &c.flow[0]),
	       "bbr2 with loss_mode=1 decides otherwise in the same scenario (digest %016llx vs %016llx)",
	       (unsigned long long)c.flow[0].hash,
	       (unsigned long long)a.flow[0].hash);
	tap_ok(d.flow[0].acks && !d.flow[0].acks_loss_mode &&
	       !d.flow[0].acks_low_rtt,
	       "in a run with both names, the bbr2_ref socket runs Google's model (loss_mode 1 after %llu of %llu ACKs, its low-RTT bit after %llu)",
	       (unsigned long long)d.flow[0].acks_loss_mode,
	       (unsigned long long)d.flow[0].acks,
	       (unsigned long long)d.flow[0].acks_low_rtt);
	tap_ok(d.flow[1].acks_init &&
	       d.flow[1].acks_loss_mode == d.flow[1].acks_init &&
	       d.flow[1].acks_low_rtt,
	       "in the same run, the bbr2 socket runs loss_mode 1 (after %llu of %llu ACKs, its low-RTT bit after %llu)",
	       (unsigned long long)d.flow[1].acks_loss_mode,
	       (unsigned long long)d.flow[1].acks_init,
	       (unsigned long long)d.flow[1].acks_low_rtt);
	tap_ok(shim_warn_count == 0, "no WARN (%lu)", (unsigned long)shim_warn_count);
	bbr2_params_reset();
	return tap_done();
}
