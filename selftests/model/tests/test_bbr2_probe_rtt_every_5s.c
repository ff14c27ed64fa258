// SPDX-License-Identifier: GPL-2.0
/*
 * PROBE_RTT cadence: a bulk flow whose min_rtt is not refreshed for
 * probe_rtt_win_ms (5 s) enters PROBE_RTT, holds cwnd at about half the
 * BDP (probe_rtt_cwnd_gain 0.5) for probe_rtt_mode_ms (200 ms) plus a
 * round, then returns to PROBE_BW. Over 60 s that is 10-12 visits, each
 * 200 ms to 200 ms + 3 RTT long, about 5 s apart. The same 60 s run at
 * 50 Mbit/s must simulate in well under a second of CPU.
 */
#include <time.h>
#include "bbr2_util.h"

#define MAX_VISITS 64

struct trace {
	u64 enter_us[MAX_VISITS], exit_us[MAX_VISITS];
	u32 max_cwnd[MAX_VISITS];
	int n;
	bool in;
};

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct trace *tr = arg;
	struct sock *sk = linksim_sk(sim, flow);
	const struct bbr2 *b = bbr2_state(sk);
	bool in = b->initialized && b->mode == BBR2_PROBE_RTT;

	if (in && !tr->in && tr->n < MAX_VISITS) {
		tr->enter_us[tr->n] = linksim_now_us(sim);
		tr->max_cwnd[tr->n] = 0;
		tr->n++;
	}
	if (!in && tr->in)
		tr->exit_us[tr->n - 1] = linksim_now_us(sim);
	/* cwnd after the first ACK in PROBE_RTT (it may take an ACK to cut) */
	if (in && tr->in)
		tr->max_cwnd[tr->n - 1] = max(tr->max_cwnd[tr->n - 1],
					      tcp_snd_cwnd(tcp_sk(sk)));
	tr->in = in;
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct trace tr = { 0 };
	u64 min_dur = ~0ULL, max_dur = 0, min_gap = ~0ULL, max_gap = 0;
	u32 bdp, max_cwnd = 0;
	int i, done;
	clock_t cpu;

	tap_plan(6);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.rtt_us = 40000;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 2 * bdp;
	cfg.on_ack = on_ack;
	cfg.hook_arg = &tr;
	sim = linksim_new(&cfg, "bbr2");
	cpu = clock();
	linksim_run_until(sim, 60 * USEC_PER_SEC);
	cpu = clock() - cpu;

	done = tr.in ? tr.n - 1 : tr.n;
	for (i = 0; i < done; i++) {
		u64 d = tr.exit_us[i] - tr.enter_us[i];

		min_dur = min(min_dur, d);
		max_dur = max(max_dur, d);
		max_cwnd = max(max_cwnd, tr.max_cwnd[i]);
		if (i) {
			u64 g = tr.enter_us[i] - tr.enter_us[i - 1];

			min_gap = min(min_gap, g);
			max_gap = max(max_gap, g);
		}
		tap_diag("PROBE_RTT %2d: %.3f s .. %.3f s, cwnd <= %u", i,
			 tr.enter_us[i] / 1e6, tr.exit_us[i] / 1e6, tr.max_cwnd[i]);
	}
	tap_ok(tr.n >= 10 && tr.n <= 12, "10-12 PROBE_RTT visits in 60 s (%d)", tr.n);
	tap_ok(done && min_dur >= 200000 && max_dur <= 200000 + 3 * 40000 + 3 * 81000,
	       "each lasts >= 200 ms and at most ~200 ms + 3 rounds (%.3f .. %.3f s)",
	       min_dur / 1e6, max_dur / 1e6);
	tap_ok(done > 1 && min_gap >= 4900000 && max_gap <= 5800000,
	       "they start about 5 s apart (%.3f .. %.3f s)", min_gap / 1e6, max_gap / 1e6);
	tap_ok(done && max_cwnd <= bdp / 2 + 4,
	       "cwnd in PROBE_RTT <= BDP/2 + 4 (%u <= %u)", max_cwnd, bdp / 2 + 4);
#if defined(__SANITIZE_ADDRESS__)
	tap_skip("timing is meaningless under sanitizers", "60 s at 50 Mbit/s in < 1 s of CPU");
#else
	tap_ok((double)cpu / CLOCKS_PER_SEC < 1.0, "60 s at 50 Mbit/s in < 1 s of CPU (%.3f s)",
	       (double)cpu / CLOCKS_PER_SEC);
#endif
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	linksim_free(sim);
	return tap_done();
}
