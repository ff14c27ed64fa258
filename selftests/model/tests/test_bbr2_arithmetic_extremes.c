// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2's fixed-point arithmetic at the edges, fed crafted rate samples:
 *  - 400 Gbit/s x 1 s RTT (a 34.5 M-packet BDP): no u64/u32 overflow, the
 *    pacing rate and cwnd come out at the right magnitude;
 *  - 1 kbit/s: pacing rate stays positive and near the rate, cwnd at its
 *    floor;
 *  - bw = 0, min_rtt = 0 and ~0U, invalid (-1) samples, cong_control()
 *    before init(): no division by zero, no WARN, cwnd never 0.
 * Build with SANITIZE=1 to also catch signed overflow and shifts out of
 * range (UBSan aborts the test).
 */
#include "bbr2_util.h"
#include "cc_harness.h"

/* Drive `rounds` round trips at a constant rate: one ACK per round carrying
 * a whole round of deliveries (a stretch ACK, the hardest case for the
 * arithmetic), the flow cwnd-limited. Tracks the largest cwnd outside
 * PROBE_RTT; returns false if cwnd or the pacing rate ever hit 0. */
static bool steady(struct cc_harness *h, double rate_Bps, u32 rtt_us, int rounds,
		   u32 *max_cwnd)
{
	double pkts = rate_Bps * rtt_us / 1e6 / 1448;
	u32 per_round = pkts < 1 ? 1 : (u32)pkts;
	u32 interval = pkts < 1 ? (u32)(1448 / rate_Bps * 1e6) : rtt_us;
	struct sock *sk = harness_sk(h);
	int i;

	*max_cwnd = 0;
	for (i = 0; i < rounds; i++) {
		u32 cwnd = tcp_snd_cwnd(&h->tp);

		harness_ack(h, interval, per_round, 0, per_round, interval, rtt_us,
			    min(cwnd, per_round * 3), false, CA_ACK_WIN_UPDATE);
		if (!tcp_snd_cwnd(&h->tp) || !sk->sk_pacing_rate)
			return false;
		if (bbr2_state(sk)->mode != BBR2_PROBE_RTT)
			*max_cwnd = max(*max_cwnd, tcp_snd_cwnd(&h->tp));
	}
	return true;
}

static void check_rate(const char *what, double rate_Bps, u32 rtt_us, int rounds,
		       double bw_tol, double pacing_hi, double cwnd_lo, double cwnd_hi)
{
	struct cc_harness h;
	struct sock *sk;
	double pacing, bdp = rate_Bps * rtt_us / 1e6 / 1448;
	u64 bw;
	u32 max_cwnd, min_rtt = 0;
	bool ok;

	if (harness_init(&h, "bbr2", true)) {
		tap_ok(false, "%s: bbr2 registered", what);
		return;
	}
	sk = harness_sk(&h);
	ok = steady(&h, rate_Bps, rtt_us, rounds, &max_cwnd);
	pacing = (double)sk->sk_pacing_rate;
	bw = cc_info_bw(sk, &min_rtt);
	tap_diag("%s: mode %s, bw %.4g B/s (link %.4g), pacing %.4g B/s, max cwnd %u (BDP %.4g), min_rtt %u us",
		 what, bbr2_mode_name(bbr2_state(sk)->mode), (double)bw, rate_Bps,
		 pacing, max_cwnd, bdp, min_rtt);
	tap_ok(ok && (double)bw >= rate_Bps / bw_tol && (double)bw <= rate_Bps * bw_tol,
	       "%s: cwnd and pacing never 0, bw estimate within x%.2f of the rate", what, bw_tol);
	tap_ok(pacing > 0 && pacing <= pacing_hi,
	       "%s: pacing rate in (0, %.3g] B/s (%.3g)", what, pacing_hi, pacing);
	tap_ok(max_cwnd >= cwnd_lo && max_cwnd <= cwnd_hi,
	       "%s: cwnd %u within [%.4g, %.4g]", what, max_cwnd, cwnd_lo, cwnd_hi);
	harness_release(&h);
}

/* A hostile sample sequence; returns the number of ACKs survived. */
static int hostile(bool init)
{
	struct cc_harness h;
	struct sock *sk;
	int n = 0;

	if (harness_init(&h, "bbr2", init))
		return -1;
	sk = harness_sk(&h);
	/* no RTT ever seen: tcp_min_rtt() == ~0U, invalid samples */
	harness_ack(&h, 1000, 1, 0, -1, -1, -1, 1, false, CA_ACK_SLOWPATH); n++;
	/* bw = 0: a valid interval with nothing delivered */
	harness_ack(&h, 1000, 0, 0, 0, 1000, -1, 1, false, 0); n++;
	harness_ack(&h, 1000, 0, 1, 0, 1000, 5000, 1, false, CA_ACK_SLOWPATH); n++;
	/* RTT 0 and interval 0 */
	harness_ack(&h, 0, 1, 0, 1, 0, 0, 1, false, 0); n++;
	harness_ack(&h, 1, 2, 0, 2, 1, 0, 2, true, CA_ACK_ECE | CA_ACK_SLOWPATH); n++;
	/* RTT ~0U (71 minutes) and a huge interval */
	harness_ack(&h, 1000, 1, 0, 1, (long)U32_MAX, (long)U32_MAX, 1, false, 0); n++;
	harness_ack(&h, 1000, 1, 0, 1, LONG_MAX, -1, 0, false, 0); n++;
	/* more lost than delivered, all in one ACK */
	harness_ack(&h, 1000, 1, 1000, 1, 1000, 1000, 0, false, CA_ACK_SLOWPATH); n++;
	/* events and state changes on top */
	if (h.ops->cwnd_event) {
		h.ops->cwnd_event(sk, CA_EVENT_TX_START);
		h.ops->cwnd_event(sk, CA_EVENT_LOSS);
	}
	if (h.ops->set_state) {
		h.ops->set_state(sk, TCP_CA_Recovery);
		h.ops->set_state(sk, TCP_CA_Loss);
		h.ops->set_state(sk, TCP_CA_Open);
	}
	h.ops->ssthresh(sk);
	h.ops->undo_cwnd(sk);
	if (h.ops->min_tso_segs)
		h.ops->min_tso_segs(sk);
	cc_info_bw(sk, NULL);
	harness_ack(&h, 1000, 1, 0, 1, 1000, 1000, 1, false, 0); n++;
	if (!tcp_snd_cwnd(&h.tp) || !sk->sk_pacing_rate)
		n = -n;
	harness_release(&h);
	return n;
}

int main(void)
{
	unsigned long warns;
	int n;

	tap_fail_on_sigfpe();
	tap_plan(9);

	warns = shim_warn_count;
	n = hostile(false);
	tap_ok(n == 9 && shim_warn_count == warns,
	       "cong_control() before init(): hostile samples survive, cwnd and pacing > 0 (%d, %lu warns)",
	       n, shim_warn_count - warns);
	warns = shim_warn_count;
	n = hostile(true);
	tap_ok(n == 9 && shim_warn_count == warns,
	       "after init(): bw = 0, min_rtt = 0 / ~0U, invalid samples survive (%d, %lu warns)",
	       n, shim_warn_count - warns);

	/* 400 Gbit/s, 1 s RTT: BDP 34.5 M packets; 12 rounds span STARTUP,
	 * DRAIN, PROBE_BW and a PROBE_RTT (min_rtt is 5 rounds old by then). */
	check_rate("400 Gbit/s x 1 s", 400e9 / 8, 1000000, 12, 1.05, 3.0 * 400e9 / 8,
		   1.0 * 400e9 / 8 / 1448, 3.5 * 400e9 / 8 / 1448);
	/* 1 kbit/s, 100 ms: a packet per 11.6 s. Sane means: bw within the
	 * BW_UNIT quantum (~89 B/s), pacing no faster than the initial rate
	 * (10 packets per 100 ms x high_gain), cwnd near its floor. */
	check_rate("1 kbit/s x 100 ms", 1000.0 / 8, 100000, 40, 2.0,
		   2.9 * 10 * 1448 / 0.1, 4, 64);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
