// SPDX-License-Identifier: GPL-2.0
/*
 * A version switch is seen whole by the ACK path.  The tunables of one
 * version are a set (v2's STARTUP gains 739/739, v3's 710/512, ...); a
 * socket on another CPU must never run with part of one and part of the
 * other.  The shim runs code at exactly the points another CPU could:
 *
 *  1. a reader between every two stores of the writer: the shim's
 *     WRITE_ONCE() hook calls get_info() on a socket in STARTUP after each
 *     store of "version=2" (and of "version=3" back), and the gains it
 *     reports must be v3's pair or v2's, never a mix;
 *  2. a writer between every two loads of one ACK: the shim's READ_ONCE()
 *     hook switches the version at the k-th load of the ACK's hooks, for
 *     every k, and the ACK's outcome (the socket's whole state, cwnd and
 *     pacing rate) must be the outcome of the same ACK under v3 alone or
 *     under v2 alone.
 */
#include "bbr2_util.h"
#include "cc_harness.h"

static struct cc_harness reader_h;
static unsigned int reads, mixed;
static u32 mixed_pacing, mixed_cwnd;

static void startup_gains(struct sock *sk, u32 *pacing, u32 *cwnd)
{
	union tcp_cc_info info;
	int attr = 0;

	memset(&info, 0, sizeof(info));
	inet_csk(sk)->icsk_ca_ops->get_info(sk, 1U << (INET_DIAG_BBRINFO - 1),
					    &attr, &info);
	*pacing = info.bbr.bbr_pacing_gain;
	*cwnd = info.bbr.bbr_cwnd_gain;
}

static void reader(void)
{
	u32 pacing, cwnd;

	startup_gains(harness_sk(&reader_h), &pacing, &cwnd);
	reads++;
	if (!((pacing == 710 && cwnd == 512) || (pacing == 739 && cwnd == 739))) {
		if (!mixed++) {
			mixed_pacing = pacing;
			mixed_cwnd = cwnd;
		}
	}
}

/* ---- 2: a switch between two loads of one ACK ---- */

struct outcome {
	u8 priv[ICSK_CA_PRIV_SIZE];
	u32 cwnd;
	unsigned long pacing;
};

static struct cc_harness ack_h, saved_h, base_h;
static unsigned int loads, switch_at;
static bool switched;

static void switch_on_load(void)
{
	if (loads++ == switch_at && !switched) {
		switched = true;
		bbr2_set_param("version", "2");
	}
}

/* The ACK under test, from the saved state, with a switch at load k (or
 * none: ~0U); the version before it is v3. */
static void one_ack(unsigned int k, const char *version, struct outcome *o)
{
	struct sock *sk = harness_sk(&ack_h);

	bbr2_set_param("version", version);
	ack_h = saved_h;
	harness_set_time(&ack_h, ack_h.now_us);
	loads = 0;
	switch_at = k;
	switched = false;
	shim_read_hook = switch_on_load;
	/* 10 packets delivered over 10 ms: 1 packet/ms, RTT 20 ms */
	harness_ack(&ack_h, 1000, 10, 0, 10, 10000, 20000, 60, false, 0);
	shim_read_hook = NULL;
	memcpy(o->priv, inet_csk_ca(sk), sizeof(o->priv));
	o->cwnd = tcp_snd_cwnd(tcp_sk(sk));
	o->pacing = sk->sk_pacing_rate;
	bbr2_set_param("version", "3");
}

static bool same(const struct outcome *a, const struct outcome *b)
{
	return !memcmp(a->priv, b->priv, sizeof(a->priv)) &&
	       a->cwnd == b->cwnd && a->pacing == b->pacing;
}

int main(void)
{
	struct outcome v3, v2, o;
	unsigned int k, mixes = 0, first_mix = 0, nloads, nswitches = 0;
	u32 pacing, cwnd;
	int i;

	tap_plan(6);
	tap_ok(harness_init(&reader_h, "bbr2", true) == 0, "bbr2 socket in STARTUP");
	shim_quiet = 1;
	startup_gains(harness_sk(&reader_h), &pacing, &cwnd);
	tap_ok(pacing == 710 && cwnd == 512,
	       "v3's STARTUP gains before the switch (%u, %u)", pacing, cwnd);

	shim_write_hook = reader;
	bbr2_set_param("version", "2");
	bbr2_set_param("version", "3");
	shim_write_hook = NULL;
	tap_diag("%u reads after stores of two switches", reads);
	if (mixed)
		tap_diag("first mixed read: pacing gain %u, cwnd gain %u",
			 mixed_pacing, mixed_cwnd);
	tap_ok(reads > 0 && !mixed,
	       "a reader between any two stores of a switch sees v3's or v2's gains, never a mix (%u of %u reads mixed)",
	       mixed, reads);

	/*
	 * A socket in STARTUP with 1 packet/ms x 20 ms (BDP 20), and the
	 * smallest cwnd above v3's cwnd target (2 x BDP and allowances) and
	 * below v2's (2.885 x BDP and the same): there the ACK grows cwnd
	 * under v2 only, and paces at 2.77 or 2.885 x bw.
	 */
	harness_init(&ack_h, "bbr2", true);
	for (i = 0; i < 2; i++)
		harness_ack(&ack_h, 1000, 1, 0, 10, 10000, 20000, 10, false, 0);
	/* below both versions' STARTUP rate, which never slows down */
	harness_sk(&ack_h)->sk_pacing_rate = 1000;
	base_h = ack_h;
	for (cwnd = 20; cwnd < 200; cwnd++) {
		saved_h = base_h;
		tcp_snd_cwnd_set(&saved_h.tp, cwnd);
		one_ack(~0U, "3", &v3);
		nloads = loads;
		one_ack(~0U, "2", &v2);
		if (v3.cwnd != v2.cwnd)
			break;
	}
	tap_diag("mode %s, cwnd %u before the ACK",
		 bbr2_mode_name(bbr2_state(harness_sk(&saved_h))->mode), cwnd);
	tap_ok(v3.pacing != v2.pacing && v3.cwnd != v2.cwnd,
	       "the ACK's outcome under v3 and v2 differ in pacing (%lu, %lu) and cwnd (%u, %u)",
	       v3.pacing, v2.pacing, v3.cwnd, v2.cwnd);
	for (k = 0; k <= nloads; k++) {
		one_ack(k, "3", &o);
		nswitches += switched;
		if (!same(&o, &v3) && !same(&o, &v2) && !mixes++) {
			first_mix = k;
			tap_diag("switch at load %u of %u: pacing %lu, cwnd %u (v3: %lu, %u; v2: %lu, %u)",
				 k, nloads, o.pacing, o.cwnd, v3.pacing, v3.cwnd,
				 v2.pacing, v2.cwnd);
		}
	}
	tap_ok(nswitches == nloads && !mixes,
	       "a switch at any of the ACK's %u loads gives v3's outcome or v2's, never a mix (%u mixed, first at load %u)",
	       nloads, mixes, first_mix);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	bbr2_params_reset();
	return tap_done();
}
