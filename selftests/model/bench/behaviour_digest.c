// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour digest of bbr2: a fingerprint of everything the module decides,
 * ACK by ACK, over a fixed set of scenarios.  It is a tool for changes that
 * must not change behaviour (performance work, refactoring): run it on the
 * code before and after, and the digests must be equal.  behaviour-diff.sh
 * does exactly that against a git revision.
 *
 * Not a test: a digest only says "same" or "different", and any intended
 * change of the algorithm changes it, so there is no golden value to keep.
 *
 * After every ACK (and after every other hook in the crafted streams) the
 * digest takes in, for each bbr2 socket: the whole private state (struct
 * bbr2, all 104 bytes, unused bits included, which init() zeroes), cwnd,
 * ssthresh, sk_pacing_rate and tp->app_limited.  The per-scenario digest is
 * a 64-bit FNV-1a over that stream; -d NAME prints the stream itself as
 * text, one line per step, so two runs that differ can be diffed to the
 * first ACK where they part.
 *
 * Scenarios: linksim paths covering STARTUP, DRAIN, every PROBE_BW phase,
 * PROBE_RTT, random and queue-overflow loss, ECN (both receiver kinds),
 * shallow buffers, app-limited and on/off senders, two flows, fq and TSO,
 * version=2, loss_mode=1, and non-default parameters that switch code paths
 * on or off;
 * then crafted rate samples: the benchmark's ACK stream and an adversarial
 * one with extreme rates (to 400 Gbit/s), RTTs (to 1 s and beyond),
 * counters that wrap or go backwards, and the other hooks interleaved.
 *
 *   behaviour_digest            one line per scenario: name, steps, digest
 *   behaviour_digest -d NAME    that scenario's steps as text
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbr2_util.h"
#include "cc_harness.h"
#include "xorshift.h"

struct digest {
	u64 hash;
	u64 steps;
	FILE *dump;		/* text of every step, or NULL */
};

static void digest_bytes(struct digest *d, const void *p, size_t n)
{
	const u8 *b = p;

	while (n--) {
		d->hash ^= *b++;
		d->hash *= 0x100000001b3ULL;
	}
}

static void digest_sock(struct digest *d, struct sock *sk, int flow)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr2 *bbr = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp), ssthresh = tp->snd_ssthresh;
	u32 app_limited = tp->app_limited;
	u64 pacing = sk->sk_pacing_rate;

	if (strcmp(inet_csk(sk)->icsk_ca_ops->name, "bbr2"))
		return;
	digest_bytes(d, bbr, sizeof(*bbr));
	digest_bytes(d, &cwnd, sizeof(cwnd));
	digest_bytes(d, &ssthresh, sizeof(ssthresh));
	digest_bytes(d, &pacing, sizeof(pacing));
	digest_bytes(d, &app_limited, sizeof(app_limited));
	d->steps++;
	if (!d->dump)
		return;
	fprintf(d->dump,
		"%llu f%d mode %u.%u ack %u cwnd %u ssth %u pace %llu bw %u/%u lo %u ifl %u/%u rtt %u full %u/%u/%u al %u",
		(unsigned long long)d->steps, flow, bbr->mode, bbr->cycle_idx,
		bbr->ack_phase, cwnd, ssthresh, (unsigned long long)pacing,
		bbr->bw_hi[0], bbr->bw_hi[1], bbr->bw_lo, bbr->inflight_hi,
		bbr->inflight_lo, bbr->min_rtt_us, bbr->full_bw,
		bbr->full_bw_cnt, bbr->full_bw_reached, app_limited);
	fprintf(d->dump, " raw");
	for (size_t i = 0; i < sizeof(*bbr); i += 4) {
		u32 w;

		memcpy(&w, (const u8 *)bbr + i, sizeof(w));
		fprintf(d->dump, " %x", w);
	}
	fprintf(d->dump, "\n");
}

/* ------------------------------------------------------------------ */
/* linksim paths.                                                      */

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs,
		   void *arg)
{
	digest_sock(arg, linksim_sk(sim, flow), flow);
}

enum path_kind {
	PATH_BULK,		/* 1 BDP buffer: startup, probe_bw, probe_rtt */
	PATH_RANDOM_LOSS,	/* 1% random loss, fq */
	PATH_SHALLOW,		/* 0.1 BDP buffer, TSO: overflow loss */
	PATH_ECN_PER_PACKET,	/* DCTCP-style CE echo, short RTT */
	PATH_ECN_RFC3168,	/* stock receiver: ECE until CWR */
	PATH_APP_LIMITED,	/* app at half the link */
	PATH_ON_OFF,		/* idle restarts */
	PATH_TWO_FLOWS,		/* second flow joins; delayed ACKs */
	PATH_DEEP,		/* 8 BDP buffer, a rate drop mid-run */
};

static void run_path(struct digest *d, enum path_kind kind, u32 seconds)
{
	struct linksim_cfg cfg;
	struct linksim *sim;

	linksim_cfg_default(&cfg);
	cfg.flow[0].cc = "bbr2";
	cfg.on_ack = on_ack;
	cfg.hook_arg = d;
	cfg.seed = 0x5eed0000 + kind;
	switch (kind) {
	case PATH_BULK:
		break;
	case PATH_RANDOM_LOSS:
		cfg.rate_bps = 50000000;
		cfg.rtt_us = 30000;
		cfg.loss_ppm = 10000;
		cfg.fq = true;
		break;
	case PATH_SHALLOW:
		cfg.rate_bps = 100000000;
		cfg.rtt_us = 20000;
		cfg.queue_pkts = linksim_bdp_pkts(&cfg) / 10;
		cfg.tso = true;
		cfg.fq = true;
		break;
	case PATH_ECN_PER_PACKET:
	case PATH_ECN_RFC3168:
		cfg.rate_bps = 100000000;
		cfg.rtt_us = 2000;
		cfg.ecn_k_pkts = 8;
		cfg.ece_mode = kind == PATH_ECN_RFC3168 ? LINKSIM_ECE_RFC3168 :
							  LINKSIM_ECE_PER_PACKET;
		cfg.flow[0].ecn = true;
		break;
	case PATH_APP_LIMITED:
		cfg.flow[0].app_rate_bps = cfg.rate_bps / 2;
		break;
	case PATH_ON_OFF:
		cfg.flow[0].app_on_us = 700000;
		cfg.flow[0].app_off_us = 300000;
		cfg.fq = true;
		break;
	case PATH_TWO_FLOWS:
		cfg.rate_bps = 20000000;
		cfg.nflows = 2;
		cfg.flow[1].cc = "bbr2";
		cfg.flow[1].start_us = 2 * USEC_PER_SEC;
		cfg.flow[1].extra_rtt_us = 10000;
		cfg.ack_every = 2;
		cfg.delack_us = 40000;
		break;
	case PATH_DEEP:
		cfg.rate_bps = 50000000;
		cfg.queue_pkts = 8 * linksim_bdp_pkts(&cfg);
		break;
	}
	if (!cfg.queue_pkts && !cfg.queue_bytes)
		cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	sim = linksim_new(&cfg, NULL);
	if (!sim)
		exit(2);
	if (kind == PATH_DEEP) {
		linksim_run_until(sim, seconds * USEC_PER_SEC / 2);
		linksim_set_rate(sim, cfg.rate_bps / 5);
	}
	linksim_run_until(sim, seconds * USEC_PER_SEC);
	linksim_free(sim);
}

/* ------------------------------------------------------------------ */
/* Crafted rate samples.                                               */

static void call_cong_control(struct cc_harness *h, struct rate_sample *rs)
{
	struct sock *sk = harness_sk(h);

#ifdef SHIM_CONG_CONTROL_HAS_ACK_FLAG
	h->ops->cong_control(sk, h->tp.snd_una, 0, rs);
#else
	h->ops->cong_control(sk, rs);
#endif
}

/* The ACK stream of bench_per_ack.c: a busy 100 Mbit/s, 20 ms bulk flow. */
static void run_bench_stream(struct digest *d, u32 nacks)
{
	struct cc_harness h;
	struct tcp_sock *tp = &h.tp;
	struct sock *sk = harness_sk(&h);
	struct rate_sample rs = { 0 };
	u64 x = 88172645463325252ULL;
	u32 i;

	harness_init(&h, "bbr2", true);
	for (i = 0; i < nacks; i++) {
		u32 rtt_us, lost = i % 1000 == 999 ? 3 : 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		rtt_us = 20000 + (u32)(x % 2000);
		harness_set_time(&h, h.now_us + 20000 / 173);
		if (i % 1000 == 999) {
			tp->snd_ssthresh = h.ops->ssthresh(sk);
			h.ops->set_state(sk, TCP_CA_Recovery);
			inet_csk(sk)->icsk_ca_state = TCP_CA_Recovery;
		} else if (i % 1000 == 200) {
			h.ops->set_state(sk, TCP_CA_Open);
			inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
		}
		rs.prior_delivered = tp->delivered - 173;
		rs.prior_mstamp = h.now_us - 20000;
		rs.prior_in_flight = tp->packets_out;
		tp->delivered++;
		tp->lost += lost;
		tp->delivered_mstamp = h.now_us;
		rs.delivered = 173;
		rs.interval_us = 20000;
		rs.rtt_us = rtt_us;
		rs.losses = lost;
		rs.acked_sacked = 1;
		minmax_running_min(&tp->rtt_min, 300 * HZ, tcp_jiffies32, rtt_us);
		tp->srtt_us = rtt_us << 3;
		tp->packets_out = min(tcp_snd_cwnd(tp), 2U * 173);
		tp->is_cwnd_limited = 1;
		h.ops->in_ack_event(sk, CA_ACK_WIN_UPDATE);
		call_cong_control(&h, &rs);
		digest_sock(d, sk, 0);
		tp->snd_una += 1448;
	}
	harness_release(&h);
}

/*
 * Rate samples with every field drawn, mostly from a plausible path of
 * path_bw_pkts_per_ms and rtt_us, sometimes from the edges: the code paths
 * that only extreme or broken input reaches must not change either.
 */
static void run_crafted_stream(struct digest *d, u64 seed, u32 rtt_us,
			       u32 path_pkts_per_ms, u32 nacks)
{
	static const long odd_interval[] = { 0, -1, 1, INT_MAX, 1000000000L };
	static const long odd_rtt[] = { -1, 0, 1, INT_MAX, 1000000 };
	static const u8 ca_states[] = { TCP_CA_Open, TCP_CA_Disorder,
					TCP_CA_CWR, TCP_CA_Recovery,
					TCP_CA_Loss };
	struct cc_harness h;
	struct tcp_sock *tp = &h.tp;
	struct sock *sk = harness_sk(&h);
	u32 i;

	rng_state = seed;
	harness_init(&h, "bbr2", true);
	tp->ecn_flags = TCP_ECN_OK;
	for (i = 0; i < nacks; i++) {
		struct rate_sample rs = { 0 };
		u32 cwnd = tcp_snd_cwnd(tp);
		u32 acked = chance(30) ? 0 : 1 + rnd(chance(20) ? 1U << 16 : 4);
		u32 lost = chance(950) ? 0 : rnd(chance(100) ? 1U << 20 : 8);
		u32 interval = rtt_us / 2 + rnd(rtt_us);
		u32 ca = rnd(1000);

		harness_set_time(&h, h.now_us + (chance(5) ? rnd64() % (1ULL << 33) :
					     1 + rnd(2000 / path_pkts_per_ms + 1)));
		if (chance(20))
			tp->tcp_wstamp_ns = tp->tcp_clock_cache + rnd(50000000);
		rs.prior_in_flight = tp->packets_out;
		rs.prior_delivered = chance(10) ? (u32)rnd64() : tp->delivered - rnd(cwnd + 1);
		if (chance(10))
			tp->delivered -= rnd(100000);
		else
			tp->delivered += acked;
		tp->lost += lost;
		if (acked)
			tp->delivered_mstamp = h.now_us;
		rs.delivered = chance(30) ? (s32)rnd64() :
			       (s32)min_t(u64, (u64)interval * path_pkts_per_ms / 1000 +
					  rnd(64), INT_MAX);
		rs.interval_us = chance(30) ? odd_interval[rnd(ARRAY_SIZE(odd_interval))] :
			       interval;
		rs.rtt_us = chance(30) ? odd_rtt[rnd(ARRAY_SIZE(odd_rtt))] :
			    rtt_us + rnd(rtt_us / 4 + 1);
		if (i < 4)	/* a BDP before the first RTT sample */
			rs.rtt_us = -1;
		rs.losses = lost;
		rs.acked_sacked = acked;
		rs.is_app_limited = chance(100);
		rs.is_ack_delayed = chance(100);
#ifdef BBR2_HAVE_RS_DELIVERED_CE
		rs.delivered_ce = chance(100) ? (s32)rnd(acked + 1) : 0;
#endif
		if (rs.rtt_us >= 0) {
			u32 r = (u32)min_t(u64, (u64)rs.rtt_us, U32_MAX);

			minmax_running_min(&tp->rtt_min, 300 * HZ, tcp_jiffies32,
					   r ? r : 1);
			tp->srtt_us = max_t(u32, (u32)min_t(u64, (u64)r << 3, U32_MAX), 1);
		}
		tp->packets_out = chance(20) ? rnd(1U << 24) : cwnd + rnd(3) - 1;
		tp->is_cwnd_limited = !chance(100);
		if (chance(2))
			tp->mss_cache = 536 + rnd(9000 - 536);
		if (chance(2))
			sk->sk_max_pacing_rate = chance(500) ? ~0UL : 1 + rnd64() % (1ULL << 36);

		if (ca < 5) {
			u8 st = ca_states[rnd(ARRAY_SIZE(ca_states))];

			if (st == TCP_CA_Recovery || st == TCP_CA_Loss)
				tp->snd_ssthresh = h.ops->ssthresh(sk);
			h.ops->set_state(sk, st);
			inet_csk(sk)->icsk_ca_state = st;
			digest_sock(d, sk, 0);
		} else if (ca < 8) {
			tcp_snd_cwnd_set(tp, max(h.ops->undo_cwnd(sk), 1U));
			digest_sock(d, sk, 0);
		} else if (ca < 12) {
			tp->app_limited = chance(500) ? tp->delivered : 0;
#ifdef BBR2_HAVE_CWND_EVENT_TX_START
			h.ops->cwnd_event_tx_start(sk);
#else
			h.ops->cwnd_event(sk, CA_EVENT_TX_START);
#endif
			digest_sock(d, sk, 0);
		}
		h.ops->in_ack_event(sk, chance(50) ? CA_ACK_ECE : 0);
		call_cong_control(&h, &rs);
		digest_sock(d, sk, 0);
		if (i % 64 == 0) {	/* what the stack and ss ask for */
			u32 segs = h.ops->min_tso_segs ? h.ops->min_tso_segs(sk) : 0;
			union tcp_cc_info info;
			int attr = 0;

#ifdef BBR2_HAVE_TSO_SEGS
			segs += h.ops->tso_segs(sk, tp->mss_cache);
#endif
			digest_bytes(d, &segs, sizeof(segs));
			memset(&info, 0, sizeof(info));
			h.ops->get_info(sk, 1U << (INET_DIAG_BBRINFO - 1), &attr, &info);
			digest_bytes(d, &info.bbr, sizeof(info.bbr));
		}
	}
	harness_release(&h);
}

/* ------------------------------------------------------------------ */

struct scenario {
	const char *name;
	/* "name=value ..." written before the run, defaults restored after */
	const char *params;
	int path;		/* enum path_kind, or -1: crafted stream */
	u32 seconds;
	int stream;		/* crafted: 0 bench, 1..: adversarial kinds */
};

static const struct scenario scenarios[] = {
	{ "bulk",		"",			PATH_BULK, 30, 0 },
	{ "random-loss",	"",			PATH_RANDOM_LOSS, 20, 0 },
	{ "shallow",		"",			PATH_SHALLOW, 15, 0 },
	{ "ecn-per-packet",	"ecn_enable=1",		PATH_ECN_PER_PACKET, 8, 0 },
	{ "ecn-rfc3168",	"ecn_enable=1",		PATH_ECN_RFC3168, 8, 0 },
	{ "app-limited",	"",			PATH_APP_LIMITED, 15, 0 },
	{ "on-off",		"",			PATH_ON_OFF, 12, 0 },
	{ "two-flows",		"",			PATH_TWO_FLOWS, 15, 0 },
	{ "deep",		"",			PATH_DEEP, 20, 0 },
	{ "v2-bulk",		"version=2",		PATH_BULK, 30, 0 },
	{ "v2-random-loss",	"version=2",		PATH_RANDOM_LOSS, 20, 0 },
	{ "v2-shallow",		"version=2",		PATH_SHALLOW, 15, 0 },
	{ "v2-ecn",		"version=2 ecn_enable=1", PATH_ECN_PER_PACKET, 8, 0 },
	{ "params-shallow",
	  "extra_acked_gain=0 tso_rtt_shift=0 drain_to_target=0 bw_probe_reno_gain=0 probe_rtt_cwnd_gain=0 inflight_headroom=0",
	  PATH_SHALLOW, 15, 0 },
	{ "params-loss",
	  "full_loss_cnt=0 probe_rtt_mode_ms=0 undo=0 min_tso_rate=0 beta=128 loss_thresh=2",
	  PATH_RANDOM_LOSS, 20, 0 },
	{ "params-ecn",
	  "ecn_enable=1 ecn_reprobe_gain=0 ecn_max_rtt_us=0 ecn_factor=255 full_ecn_cnt=0",
	  PATH_ECN_RFC3168, 8, 0 },
	{ "loss-mode-random-loss", "loss_mode=1",	PATH_RANDOM_LOSS, 20, 0 },
	{ "loss-mode-shallow",	"loss_mode=1",		PATH_SHALLOW, 15, 0 },
	{ "loss-mode-two-flows", "loss_mode=1",		PATH_TWO_FLOWS, 15, 0 },
	{ "bench-stream",	"",			-1, 0, 0 },
	{ "crafted-100M-20ms",	"ecn_enable=1",		-1, 0, 1 },
	{ "crafted-400G-1s",	"",			-1, 0, 2 },
	{ "crafted-1k-200ms",	"",			-1, 0, 3 },
	{ "v2-crafted-400G-1s",	"version=2",		-1, 0, 2 },
	{ "params-crafted",
	  "undo=0 extra_acked_gain=0 tso_rtt_shift=0 ecn_enable=1 ecn_max_rtt_us=0",
	  -1, 0, 1 },
};

static int set_params(const char *list, bool restore)
{
	char buf[512], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		char def[32];
		unsigned int i;

		if (!eq)
			return -1;
		*eq = '\0';
		if (!restore) {
			if (bbr2_set_param(tok, eq + 1))
				return -1;
			continue;
		}
		/* back to following the version's default, where that exists */
		if (!bbr2_set_param(tok, "default"))
			continue;
		if (!strcmp(tok, "version")) {
			if (bbr2_set_param("version", "3"))
				return -1;
			continue;
		}
		for (i = 0; i < BBR2_NR_PARAMS; i++)
			if (!strcmp(bbr2_param_table[i].name, tok))
				break;
		if (i == BBR2_NR_PARAMS)
			return -1;
		if (shim_param_get("tcp_bbr2", "version", def) <= 0)
			return -1;
		snprintf(def, sizeof(def), "%u", atoi(def) == 2 ?
			 bbr2_param_table[i].v2_default : bbr2_param_table[i].v3_default);
		if (bbr2_set_param(tok, def))
			return -1;
	}
	return 0;
}

static void run_scenario(const struct scenario *s, struct digest *d)
{
	d->hash = 0xcbf29ce484222325ULL;	/* FNV-1a offset basis */
	d->steps = 0;
	shim_prandom_seed(0xb0b2);
	if (set_params(s->params, false)) {
		fprintf(stderr, "%s: cannot set %s\n", s->name, s->params);
		exit(2);
	}
	if (s->path >= 0) {
		run_path(d, s->path, s->seconds);
	} else if (s->stream == 0) {
		run_bench_stream(d, 300000);
	} else {
		/* packets per ms: 100 Mbit/s, 400 Gbit/s, 1 kbit/s-ish */
		static const u32 pkts_per_ms[] = { 0, 8, 34500, 1 };
		static const u32 rtts_us[] = { 0, 20000, 1000000, 200000 };

		run_crafted_stream(d, 0xfeed + s->stream, rtts_us[s->stream],
				   pkts_per_ms[s->stream], 200000);
	}
	/* version=3 (if written) reloads every v3 default, then the rest */
	if (set_params(s->params, true)) {
		fprintf(stderr, "%s: cannot restore %s\n", s->name, s->params);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	const char *dump_name = NULL;
	struct digest d = { 0 };
	unsigned int i;

	if (argc == 3 && !strcmp(argv[1], "-d")) {
		dump_name = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [-d SCENARIO]\n", argv[0]);
		return 2;
	}
	shim_quiet = 1;
	shim_modules_load();
	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		const struct scenario *s = &scenarios[i];

		if (dump_name && strcmp(dump_name, s->name))
			continue;
		d.dump = dump_name ? stdout : NULL;
		run_scenario(s, &d);
		if (!dump_name)
			printf("%-20s %9llu steps  digest %016llx\n", s->name,
			       (unsigned long long)d.steps,
			       (unsigned long long)d.hash);
		if (shim_warn_count) {
			fprintf(stderr, "%s: WARN fired\n", s->name);
			return 1;
		}
	}
	return 0;
}
