// SPDX-License-Identifier: GPL-2.0
/*
 * Parameter churn under live flows (the model's side of the VM stress's
 * churn, cheap enough for ASan/UBSan): 8 bbr2 flows share 50 Mbit/s x
 * 30 ms with an ECN-marking, 1-BDP buffer and 0.5 % random loss, while
 * every 20 ms version, loss_mode or ecn_enable flips, or a random
 * parameter gets a random in-range value (refused whole if a rule between
 * parameters says no), for 20 s.  After every ACK: cwnd >= 1, a pacing
 * rate, and a socket that runs loss_mode 1 in DOWN or CRUISE keeps a
 * valid pool (pool_tx below 1024, pool_lost <= pool_tx).
 * No flow may go a second without data ACKed, and nothing may WARN.
 */
#include "bbr2_util.h"
#include "xorshift.h"

#define FLOWS		8
#define RUN_US		(20 * USEC_PER_SEC)
#define CHURN_US	(20 * USEC_PER_MSEC)
#define MAX_PARAMS	64

struct churn {
	const struct kernel_param *params[MAX_PARAMS];
	unsigned int nparams;
	u64 flips, writes, refused, acks, bad_state, bad_pool;
	u64 last_acked[FLOWS], last_progress[FLOWS], worst_gap;
};

static void flip(const char *name, const char *a, const char *b)
{
	char buf[PAGE_SIZE];

	shim_param_get("tcp_bbr2", name, buf);
	bbr2_set_param(name, buf[0] == a[0] ? b : a);
}

static void on_tick(struct linksim *sim, void *arg)
{
	struct churn *c = arg;
	u64 now = linksim_now_us(sim);
	char val[64];
	int i;

	for (i = 0; i < FLOWS; i++) {
		u64 acked = linksim_flow_stats(sim, i)->bytes_acked;

		if (acked != c->last_acked[i]) {
			c->last_acked[i] = acked;
			c->last_progress[i] = now;
		} else if (now - c->last_progress[i] > c->worst_gap) {
			c->worst_gap = now - c->last_progress[i];
		}
	}
	switch (rnd(4)) {
	case 0:
		flip("version", "2", "3");
		c->flips++;
		break;
	case 1:
		flip("loss_mode", "0", "1");
		c->flips++;
		break;
	case 2:
		flip("ecn_enable", "0", "1");
		c->flips++;
		break;
	default: {
		const struct kernel_param *kp = c->params[rnd(c->nparams)];
		unsigned int j;

		if (!strcmp(kp->name, "version") || !strcmp(kp->name, "pacing_gain"))
			break;
		for (j = 0; j < BBR2_NR_PARAMS; j++) {
			const struct bbr2_param *p = &bbr2_param_table[j];

			if (strcmp(p->name, kp->name))
				continue;
			snprintf(val, sizeof(val), "%u",
				 chance(200) ? p->v3_default : p->min + rnd(p->max - p->min + 1));
			c->writes++;
			c->refused += !!kp->ops->set(val, kp);
		}
		if (chance(100))
			bbr2_params_reset();
	}
	}
}

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs,
		   void *arg)
{
	struct churn *c = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *bbr = bbr2_state(sk);

	c->acks++;
	if (tcp_snd_cwnd(tcp_sk(sk)) < 1 || !sk->sk_pacing_rate)
		c->bad_state++;
	if (bbr->initialized && bbr->loss_mode && bbr->mode == BBR2_PROBE_BW &&
	    (bbr->cycle_idx == BBR2_BW_PROBE_DOWN ||
	     bbr->cycle_idx == BBR2_BW_PROBE_CRUISE) &&
	    (bbr->cruise.pool_tx >= 1024 ||
	     bbr->cruise.pool_lost > bbr->cruise.pool_tx))
		c->bad_pool++;
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261201;
	static struct churn c;
	struct linksim_cfg cfg;
	struct linksim *sim;
	double util;
	int i;

	tap_plan(5);
	tap_ok(shim_modules_load() == 0, "tcp_bbr2 loads");
	shim_quiet = 1;
	rng_state = seed;
	tap_diag("seed %llu (rerun: %s %llu)", (unsigned long long)seed, argv[0],
		 (unsigned long long)seed);
	while (c.nparams < MAX_PARAMS &&
	       (c.params[c.nparams] = shim_param_nth("tcp_bbr2", c.nparams)))
		c.nparams++;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 30000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.ecn_k_pkts = cfg.queue_pkts / 4;
	cfg.loss_ppm = 5000;
	cfg.fq = true;
	cfg.seed = seed;
	linksim_cfg_flows(&cfg, FLOWS, "bbr2");
	for (i = 0; i < FLOWS; i++)
		cfg.flow[i].ecn = true;
	cfg.on_ack = on_ack;
	cfg.on_tick = on_tick;
	cfg.tick_us = CHURN_US;
	cfg.hook_arg = &c;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, RUN_US);
	util = linksim_utilization(sim);
	linksim_free(sim);
	bbr2_params_reset();

	tap_diag("%llu flips, %llu other writes (%llu refused by a rule), %llu ACKs, link %.0f %% used",
		 (unsigned long long)c.flips, (unsigned long long)c.writes,
		 (unsigned long long)c.refused, (unsigned long long)c.acks, util * 100);
	tap_ok(c.flips > 500 && c.acks > 10000,
	       "version, loss_mode and ecn_enable flipped %llu times under %d flows",
	       (unsigned long long)c.flips, FLOWS);
	tap_ok(!c.bad_state && !c.bad_pool,
	       "every ACK: cwnd and pacing set (%llu bad), a loss_mode 1 socket's pool valid (%llu bad)",
	       (unsigned long long)c.bad_state, (unsigned long long)c.bad_pool);
	tap_ok(c.worst_gap < USEC_PER_SEC,
	       "no flow a second without data ACKed (longest %.2f s)", c.worst_gap / 1e6);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
