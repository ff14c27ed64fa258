// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzing of everything that reaches the module from outside, seeded so a
 * failure reproduces (the seed is printed):
 *
 *  1. Rate samples and socket state no sane path produces but a buggy
 *     driver, a middlebox or the stack's own corner cases can: zero and
 *     negative intervals, absurd RTTs (0, 2^31 us, -1), "delivered" going
 *     backwards, tp->delivered/lost wrapping 2^32, u32 us timestamps
 *     wrapping (hour-long idle jumps), huge losses, CA state changes, cwnd
 *     events, undo, MSS changes, a max pacing rate of 1 B/s, parameters and
 *     the version rewritten mid-flow, the CC re-initialised on a live socket
 *     (setsockopt TCP_CONGESTION).  After every hook: 1 <= cwnd <= clamp,
 *     0 < pacing rate <= max pacing rate, no WARN.  Under
 *     `make check SANITIZE=1` ASan and UBSan abort on any overflow, shift or
 *     out-of-bounds access.
 *
 *  2. Parameter writes: for every parameter the module registers (listed
 *     from the module, not from this file), random bytes, numbers out of
 *     range, huge, negative, empty, signs and whitespace, and pacing_gain
 *     arrays of every wrong length.  A rejected write must return an error
 *     and leave every parameter as it was; an accepted one must read back
 *     in range.
 */
#include <limits.h>
#include "bbr2_util.h"
#include "cc_harness.h"
#include "xorshift.h"

#define FUZZ_SEEDS		48
#define FUZZ_ACKS_PER_SEED	20000
#define PARAM_FUZZ_PER_PARAM	3000

/* ------------------------------------------------------------------ */
/* 1. Rate samples.                                                    */

struct fuzz_stats {
	u64 acks, events, bad;
	u32 seed_failed;
	char first_bad[256];
};

static long pick_interval(u32 rtt_us)
{
	static const long odd[] = { 0, -1, 1, LONG_MAX, LONG_MIN, INT_MAX, -1000000,
				    0x100000000L, 2 };

	if (!chance(300))
		return rtt_us / 4 + rnd(rtt_us + 1);
	if (chance(500))
		return odd[rnd(ARRAY_SIZE(odd))];
	return (long)rnd64();
}

static long pick_rtt(u32 rtt_us)
{
	static const long odd[] = { -1, 0, 1, INT_MAX, 0x7fffffffL * 4, 120000000 };

	if (!chance(250))
		return rtt_us + rnd(rtt_us / 2 + 1);
	return odd[rnd(ARRAY_SIZE(odd))];
}

static s32 pick_delivered(u32 acked)
{
	static const s32 odd[] = { -1, 0, 1, INT_MAX, INT_MIN, 0x10000 };

	if (!chance(250))
		return (s32)(acked + rnd(64));
	if (chance(500))
		return odd[rnd(ARRAY_SIZE(odd))];
	return (s32)rnd64();
}

/* The stack takes undo_cwnd()'s answer without clamping it (as it does
 * Reno's and CUBIC's), so the clamp is the module's to keep only on ACKs. */
static void check_invariants(struct cc_harness *h, const char *after,
			     bool clamped, struct fuzz_stats *st)
{
	struct sock *sk = harness_sk(h);
	u32 cwnd = tcp_snd_cwnd(&h->tp);
	const struct bbr2 *bbr = bbr2_state(sk);
	const char *bad = NULL;

	if (cwnd < 1)
		bad = "cwnd 0";
	else if (clamped && cwnd > h->tp.snd_cwnd_clamp)
		bad = "cwnd above snd_cwnd_clamp";
	else if (!sk->sk_pacing_rate)
		bad = "pacing rate 0";
	else if (sk->sk_pacing_rate > sk->sk_max_pacing_rate)
		bad = "pacing rate above sk_max_pacing_rate";
	else if (shim_warn_count)
		bad = "WARN";
	if (!bad)
		return;
	if (!st->bad++)
		snprintf(st->first_bad, sizeof(st->first_bad),
			 "%s after %s (ack %llu: cwnd %u clamp %u pacing %lu max %lu mode %u)",
			 bad, after, (unsigned long long)st->acks, cwnd,
			 h->tp.snd_cwnd_clamp, sk->sk_pacing_rate,
			 sk->sk_max_pacing_rate, bbr->mode);
	shim_warn_count = 0;
}

static const u8 ca_states[] = { TCP_CA_Open, TCP_CA_Disorder, TCP_CA_CWR,
				TCP_CA_Recovery, TCP_CA_Loss };
static const enum tcp_ca_event ca_events[] = {
	CA_EVENT_TX_START, CA_EVENT_CWND_RESTART, CA_EVENT_COMPLETE_CWR,
	CA_EVENT_LOSS, CA_EVENT_ECN_NO_CE, CA_EVENT_ECN_IS_CE,
};

/* A random in-range write to a random scalar parameter (or the version). */
static void fuzz_param_in_range(void)
{
	char val[32];
	unsigned int i = rnd(BBR2_NR_PARAMS + 1);

	if (i == BBR2_NR_PARAMS) {
		bbr2_set_param("version", chance(500) ? "2" : "3");
		return;
	}
	snprintf(val, sizeof(val), "%u", bbr2_param_table[i].min +
		 rnd(bbr2_param_table[i].max - bbr2_param_table[i].min + 1));
	if (bbr2_set_param(bbr2_param_table[i].name, val))
		tap_diag("in-range write %s=%s rejected", bbr2_param_table[i].name, val);
}

/* One ACK with a rate sample built field by field, as tcp_ack() would pass
 * it, but with each field drawn from the adversarial pools above. */
static void fuzz_ack(struct cc_harness *h, u32 rtt_us)
{
	struct tcp_sock *tp = &h->tp;
	struct sock *sk = harness_sk(h);
	struct rate_sample rs = { 0 };
	u32 cwnd = tcp_snd_cwnd(tp);
	u32 acked = chance(50) ? 0 : 1 + rnd(chance(20) ? 1U << 20 : 2 * cwnd + 2);
	u32 lost = chance(900) ? 0 : rnd(chance(100) ? U32_MAX : acked + 100);
	u64 dt;

	if (chance(10))
		dt = 0;
	else if (chance(5))
		dt = rnd64() % (1ULL << 33);	/* up to 2.4 h: u32 us wraps */
	else
		dt = rnd((u32)(2ULL * rtt_us / ((u64)cwnd + 1)) + 2);
	harness_set_time(h, h->now_us + dt);

	rs.prior_in_flight = tp->packets_out;
	rs.prior_delivered = chance(20) ? (u32)rnd64() : tp->delivered;
	rs.prior_delivered_ce = tp->delivered_ce;
	if (chance(20))		/* the counters going backwards */
		tp->delivered -= rnd(100000);
	else
		tp->delivered += acked;
	tp->lost += lost;
	if (chance(100)) {
		u32 ce = rnd(acked + 1);

		tp->delivered_ce += ce;
		rs.delivered_ce = chance(50) ? (s32)rnd64() : (s32)ce;
	}
	if (acked)
		tp->delivered_mstamp = h->now_us;
	rs.delivered = pick_delivered(acked);
	rs.interval_us = pick_interval(rtt_us);
	rs.prior_mstamp = h->now_us - (chance(20) ? rnd64() % (h->now_us + 1) : rtt_us);
	rs.snd_interval_us = (u32)rs.interval_us;
	rs.rcv_interval_us = chance(50) ? (u32)rnd64() : rs.snd_interval_us;
	rs.rtt_us = pick_rtt(rtt_us);
	rs.losses = chance(20) ? (int)rnd64() : (int)lost;
	rs.acked_sacked = acked;
	rs.is_app_limited = chance(100);
	rs.is_retrans = chance(50);
	rs.is_ack_delayed = chance(100);
	rs.last_end_seq = (u32)rnd64();
	if (rs.rtt_us >= 0) {
		u32 r = (u32)min_t(u64, (u64)rs.rtt_us, U32_MAX);

		minmax_running_min(&tp->rtt_min, 300 * HZ, tcp_jiffies32, r ? r : 1);
		tp->srtt_us = max_t(u32, (u32)min_t(u64, (u64)r << 3, U32_MAX), 1);
	}
	tp->packets_out = chance(20) ? (u32)rnd64() : rnd(2 * cwnd + 4);
	tp->retrans_out = chance(20) ? rnd(tp->packets_out + 1) : 0;
	tp->app_limited = chance(50) ? tp->delivered + rnd(100) : 0;
	if (h->ops->in_ack_event)
		h->ops->in_ack_event(sk, rnd(8));
#ifdef SHIM_CONG_CONTROL_HAS_ACK_FLAG
	h->ops->cong_control(sk, tp->snd_una, 0, &rs);
#else
	h->ops->cong_control(sk, &rs);
#endif
}

/* Anything else the stack may do to a socket between ACKs. */
static const char *fuzz_event(struct cc_harness *h)
{
	struct tcp_sock *tp = &h->tp;
	struct sock *sk = harness_sk(h);
	struct inet_connection_sock *icsk = inet_csk(sk);
	u8 state;

	switch (rnd(9)) {
	case 0:		/* recovery or RTO, in tcp_input.c's order */
		state = ca_states[rnd(ARRAY_SIZE(ca_states))];
		if (state >= TCP_CA_CWR)
			tp->snd_ssthresh = h->ops->ssthresh(sk);
		if (state == TCP_CA_Loss) {
			h->ops->cwnd_event(sk, CA_EVENT_LOSS);
			tcp_snd_cwnd_set(tp, min(tcp_packets_in_flight(tp), 1U << 20) + 1);
		}
		if (h->ops->set_state)
			h->ops->set_state(sk, state);
		icsk->icsk_ca_state = state;
		return "set_state";
	case 1:
		h->ops->cwnd_event(sk, ca_events[rnd(ARRAY_SIZE(ca_events))]);
		return "cwnd_event";
	case 2:
		tcp_snd_cwnd_set(tp, max(h->ops->undo_cwnd(sk), 1U));
		return "undo_cwnd";
	case 3:
		tp->mss_cache = (u32[]){ 88, 536, 1448, 8948, 65483 }[rnd(5)];
		return "mss change";
	case 4:
		sk->sk_max_pacing_rate = chance(500) ? 1 + rnd(1000) : ~0UL;
		sk->sk_pacing_rate = min(sk->sk_pacing_rate, sk->sk_max_pacing_rate);
		return "SO_MAX_PACING_RATE";
	case 5:
		fuzz_param_in_range();
		return "parameter write";
	case 6:		/* setsockopt(TCP_CONGESTION, "bbr2") on a live socket */
		if (h->ops->release)
			h->ops->release(sk);
		memset(icsk->icsk_ca_priv, 0, sizeof(icsk->icsk_ca_priv));
		h->ops->init(sk);
		return "re-init";
	case 7: {
		union tcp_cc_info info;
		int attr = 0;

		h->ops->get_info(sk, ~0U, &attr, &info);
		if (h->ops->min_tso_segs)
			h->ops->min_tso_segs(sk);
		h->ops->sndbuf_expand(sk);
		return "get_info";
	}
	default:
		tp->snd_cwnd_clamp = chance(500) ? 1 + rnd(100) : ~0U;
		tcp_snd_cwnd_set(tp, min(tcp_snd_cwnd(tp), tp->snd_cwnd_clamp));
		return "cwnd clamp";
	}
}

static void fuzz_seed(u64 seed, struct fuzz_stats *st)
{
	struct cc_harness h;
	u64 bad_before = st->bad;
	u32 rtt_us;
	int i;

	rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
	shim_prandom_seed(seed);
	if (harness_init(&h, "bbr2", false)) {
		st->bad++;
		snprintf(st->first_bad, sizeof(st->first_bad), "bbr2 not registered");
		return;
	}
	/* counters about to wrap, as on a long-lived connection */
	if (chance(500)) {
		h.tp.delivered = U32_MAX - rnd(1000);
		h.tp.lost = U32_MAX - rnd(1000);
		h.tp.delivered_ce = U32_MAX - rnd(1000);
	}
	h.ops->init(harness_sk(&h));
	rtt_us = (u32[]){ 1, 50, 1000, 20000, 300000, 10000000 }[rnd(6)];
	check_invariants(&h, "init", true, st);
	for (i = 0; i < FUZZ_ACKS_PER_SEED; i++) {
		const char *what = "ack";
		bool ack = !chance(30);

		if (!ack) {
			what = fuzz_event(&h);
			st->events++;
		} else {
			fuzz_ack(&h, rtt_us);
			st->acks++;
		}
		check_invariants(&h, what, ack, st);
	}
	harness_release(&h);
	if (st->bad > bad_before && !st->seed_failed)
		st->seed_failed = (u32)seed;
	bbr2_params_reset();	/* back to the v3 defaults */
}

static void fuzz_rate_samples(u64 base)
{
	struct fuzz_stats st = { 0 };
	u64 s;

	for (s = base; s < base + FUZZ_SEEDS; s++)
		fuzz_seed(s, &st);
	tap_diag("%llu adversarial ACKs and %llu other events over %d seeds from %llu",
		 (unsigned long long)st.acks, (unsigned long long)st.events,
		 FUZZ_SEEDS, (unsigned long long)base);
	if (st.bad)
		tap_diag("first violation (seed %u): %s", st.seed_failed, st.first_bad);
	tap_ok(!st.bad, "adversarial rate samples and events: cwnd in [1, clamp], pacing in (0, max], no WARN (%llu violations)",
	       (unsigned long long)st.bad);
}

/* ------------------------------------------------------------------ */
/* 2. Parameter writes.                                                */

#define MAX_PARAMS	64

static const struct kernel_param *params[MAX_PARAMS];
static unsigned int nparams;

static void snapshot(char (*out)[PAGE_SIZE])
{
	unsigned int i;

	for (i = 0; i < nparams; i++)
		params[i]->ops->get(out[i], params[i]);
}

static const struct bbr2_param *table_entry(const char *name)
{
	unsigned int i;

	for (i = 0; i < BBR2_NR_PARAMS; i++)
		if (!strcmp(bbr2_param_table[i].name, name))
			return &bbr2_param_table[i];
	return NULL;
}

/* Does the value read back lie in the parameter's documented range? */
static bool value_in_range(const char *name, const char *val)
{
	const struct bbr2_param *p = table_entry(name);
	unsigned long long v;
	char *end;
	int n = 0;

	if (!strcmp(name, "version"))
		return !strcmp(val, "2\n") || !strcmp(val, "3\n");
	if (!strcmp(name, "pacing_gain")) {
		const char *s = val;

		while (*s) {
			v = strtoull(s, &end, 10);
			if (end == s || v < BBR2_PACING_GAIN_MIN || v > BBR2_PACING_GAIN_MAX)
				return false;
			n++;
			s = end;
			if (*s == ',')
				s++;
			else if (*s == '\n' && !s[1])
				break;
			else
				return false;
		}
		return n == BBR2_CYCLE_LEN;
	}
	if (!p)
		return false;
	v = strtoull(val, &end, 10);
	return end != val && *end == '\n' && v >= p->min && v <= p->max;
}

/* One random input: what users, scripts and attackers write to sysfs. */
static void random_input(const char *name, char *buf, size_t len)
{
	const struct bbr2_param *p = table_entry(name);
	u32 lo = p ? p->min : 0, hi = p ? p->max : 1023;
	unsigned int i, n;

	switch (rnd(12)) {
	case 0:		/* random bytes, NULs excepted (sysfs strings end there) */
		n = rnd(len - 1);
		for (i = 0; i < n; i++)
			buf[i] = (char)(1 + rnd(255));
		buf[n] = 0;
		break;
	case 1:
		buf[0] = 0;
		break;
	case 2:		/* just out of range */
		snprintf(buf, len, "%llu", (unsigned long long)hi + 1 + rnd(3));
		break;
	case 3:
		if (lo)
			snprintf(buf, len, "%u", lo - 1 - rnd(lo));
		else
			snprintf(buf, len, "-%u", 1 + rnd(10));
		break;
	case 4:
		snprintf(buf, len, "%s", (const char *[]){ "18446744073709551616",
			 "4294967296", "4294967295", "99999999999999999999999",
			 "-0", "-4294967295", "0x", "1e3", "+", "-", " ", "\n",
			 "1 2", "١٢", "nan", "0x100000000" }[rnd(16)]);
		break;
	case 5:		/* a valid number with junk around it */
		snprintf(buf, len, "%s%u%s", (const char *[]){ " ", "\t", "", "+", "--" }[rnd(5)],
			 lo + rnd(hi - lo + 1), (const char *[]){ " ", "x", "\n\n", ",", ".5" }[rnd(5)]);
		break;
	case 6:		/* arrays of every length, in and out of range */
	case 7:
		n = rnd(12);
		buf[0] = 0;
		for (i = 0; i < n; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%u",
				 i ? (chance(900) ? "," : ";") : "",
				 chance(900) ? 64 + rnd(512) : rnd(1u << 31));
		break;
	case 8:		/* a huge string of digits */
		n = 100 + rnd(len - 101);
		for (i = 0; i < n; i++)
			buf[i] = (char)('0' + rnd(10));
		buf[n] = 0;
		break;
	default:	/* in range (for arrays: mostly malformed) */
		snprintf(buf, len, "%u%s", lo + rnd(hi - lo + 1), chance(500) ? "\n" : "");
		break;
	}
}

static void fuzz_params(u64 seed)
{
	static char before[MAX_PARAMS][PAGE_SIZE], after[MAX_PARAMS][PAGE_SIZE];
	char input[1024];
	unsigned int i, j, k, rejected = 0, accepted = 0, changed = 0, off_range = 0;
	unsigned int missing = 0;

	rng_state = seed;
	while (nparams < MAX_PARAMS && (params[nparams] = shim_param_nth("tcp_bbr2", nparams)))
		nparams++;
	for (i = 0; i < BBR2_NR_PARAMS; i++) {
		for (j = 0; j < nparams; j++)
			if (!strcmp(params[j]->name, bbr2_param_table[i].name))
				break;
		missing += j == nparams;
	}
	tap_ok(nparams >= BBR2_NR_PARAMS + 2 && !missing,
	       "%u parameters registered: every table entry, version and pacing_gain (%u missing)",
	       nparams, missing);

	for (i = 0; i < nparams; i++) {
		for (k = 0; k < PARAM_FUZZ_PER_PARAM; k++) {
			int rc;

			random_input(params[i]->name, input, sizeof(input));
			snapshot(before);
			rc = params[i]->ops->set(input, params[i]);
			snapshot(after);
			if (rc) {
				rejected++;
				for (j = 0; j < nparams; j++) {
					if (strcmp(before[j], after[j]) && changed++ < 5)
						tap_diag("%s='%.40s' rejected (%d) but %s changed: %s -> %s",
							 params[i]->name, input, rc,
							 params[j]->name, before[j], after[j]);
				}
				continue;
			}
			accepted++;
			for (j = 0; j < nparams; j++) {
				if (!value_in_range(params[j]->name, after[j]) && off_range++ < 5)
					tap_diag("%s='%.40s' accepted: %s reads '%s', out of range",
						 params[i]->name, input, params[j]->name, after[j]);
			}
			/* keep the next inputs' baseline sane */
			if (!strcmp(params[i]->name, "version") || chance(100))
				bbr2_params_reset();
		}
	}
	tap_diag("%u writes rejected, %u accepted", rejected, accepted);
	tap_ok(rejected > accepted && !changed,
	       "rejected writes fail and change nothing (%u changes)", changed);
	tap_ok(accepted > 0 && !off_range,
	       "accepted writes read back in range (%u out of range)", off_range);
	bbr2_params_reset();
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261122;

	tap_fail_on_sigfpe();
	tap_plan(5);
	tap_ok(shim_modules_load() == 0 && tcp_ca_find("bbr2"),
	       "tcp_bbr2 loads and registers \"bbr2\"");
	shim_quiet = 1;		/* ~100k "rejected" warnings */
	tap_diag("seed %llu (rerun: %s %llu)", (unsigned long long)seed, argv[0],
		 (unsigned long long)seed);
	fuzz_rate_samples(seed);
	fuzz_params(seed);
	return tap_done();
}
