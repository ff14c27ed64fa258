// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator is a test instrument, so: the same config and seed give a
 * bit-identical run; another seed gives another run; and a 60 s flow at
 * 50 Mbit/s (~260 k packets) simulates in well under a second of CPU
 * (with Reno; test_bbr2_probe_rtt_every_5s times the same run with bbr2).
 */
#include <time.h>
#include "model_util.h"

struct fingerprint {
	u64 bytes, retrans, drops, ce;
	u32 cwnd, delivered, lost;
	unsigned long pacing;
};

static struct fingerprint run(const char *cc, u64 seed, u32 loss_ppm, double *cpu_s)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct fingerprint fp;
	clock_t c0 = clock();
	struct tcp_sock *tp;

	memset(&fp, 0, sizeof(fp));	/* padding too: runs are compared bytewise */
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.seed = seed;
	cfg.loss_ppm = loss_ppm;
	cfg.ecn_k_pkts = 50;
	cfg.flow[0].ecn = true;
	sim = linksim_new(&cfg, cc);
	linksim_run_until(sim, 60 * USEC_PER_SEC);
	*cpu_s = (double)(clock() - c0) / CLOCKS_PER_SEC;
	tp = tcp_sk(linksim_sk(sim, 0));
	fp.bytes = linksim_flow_stats(sim, 0)->bytes_acked;
	fp.retrans = linksim_flow_stats(sim, 0)->pkts_retrans;
	fp.drops = linksim_link_stats(sim)->drops_queue + linksim_link_stats(sim)->drops_random;
	fp.ce = linksim_link_stats(sim)->ce_marks;
	fp.cwnd = tcp_snd_cwnd(tp);
	fp.delivered = tp->delivered;
	fp.lost = tp->lost;
	fp.pacing = linksim_sk(sim, 0)->sk_pacing_rate;
	tap_diag("%s seed %llu: %llu bytes, %llu retrans, %llu drops, %llu CE, cwnd %u, %.3f s CPU",
		 cc, seed, fp.bytes, fp.retrans, fp.drops, fp.ce, fp.cwnd, *cpu_s);
	linksim_free(sim);
	return fp;
}

int main(void)
{
	const char *cc;
	struct fingerprint a, b, c;
	double t1, t2, t3;
	bool sanitized = false;

#if defined(__SANITIZE_ADDRESS__)
	sanitized = true;
#endif
	cc = "reno";
	tap_plan(4);
	a = run(cc, 7, 5000, &t1);
	b = run(cc, 7, 5000, &t2);
	c = run(cc, 8, 5000, &t3);
	tap_ok(!memcmp(&a, &b, sizeof(a)), "same seed, same run (%s)", cc);
	tap_ok(memcmp(&a, &c, sizeof(a)), "another seed, another run");
	if (sanitized)
		tap_skip("timing is meaningless under sanitizers",
			 "60 s at 50 Mbit/s simulates in < 1 s of CPU");
	else
		tap_ok(t1 < 1.0 && t2 < 1.0, "60 s at 50 Mbit/s simulates in < 1 s of CPU (%.3f s)",
		       t1);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
