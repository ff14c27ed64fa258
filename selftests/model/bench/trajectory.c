// SPDX-License-Identifier: GPL-2.0
/*
 * State trajectory of bbr2 in the peer benchmark's deep-buffer and late-flow
 * scenarios, for reading next to Google's v3 code: a diagnostic, not a
 * test (prints, asserts nothing).
 *
 *   trajectory deep [CC]     1 flow, 50 Mbit/s x 40 ms, 16-BDP buffer, 20 s
 *   trajectory late [CC]     2 flows, the 2nd 3 s late, 2-BDP buffer, 40 s
 *   trajectory ... -q        the summary lines only
 *   trajectory ... -s SEED   the simulator's seed (default 1)
 *   trajectory ... -r MBIT -t RTT_MS -b BDPS   another path
 *   trajectory ... -a        receiver ACKs every 2nd packet (40 ms delack),
 *                            sender uses TSO: closer to a real host pair
 *   trajectory ... -l PCT    random loss, percent
 *   trajectory ... -j US     fq's pacing timer fires up to US late, as in
 *                            the QEMU/TCG test bed (linksim.h pace_late_us)
 *   trajectory ... -J US     the bottleneck is the test bed's tbf, its
 *                            watchdog up to US late (linksim.h link_late_us)
 *   trajectory ... -T        the QEMU/TCG test bed modelled: ACKs every 2nd
 *                            packet, -j 1000 -J 250 (no TSO, as lib.sh)
 *   trajectory ... -p NAME=V set a tcp_bbr2 module parameter
 *   trajectory late ... -x CC2  the second flow runs CC2 (e.g. cubic) and
 *                            starts with the first
 *   trajectory late ... -L MS   the second flow starts MS ms in (3000)
 *
 * CC is bbr2 (default), or bbr / cubic when built with KSRC.  Each line
 * is a bbr2 phase change of one flow (or, for other CCs, a 500 ms sample):
 * time, flow, mode.phase, cwnd, inflight, inflight_hi / inflight_lo,
 * max_bw / bw_lo (Mbit/s), min_rtt, and the bottleneck queue (packets and
 * ms).  The summary gives what the VM benchmark measures: the queueing
 * delay a ping would see (mean and 90th percentile of the queue over the
 * last 3/4 of the run) and, with two flows, Jain's index over the run
 * after the second flow's first 5 s, over the run's second half (what the
 * peer benchmark's late2 scores) and the worst 1-s Jain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbr2_util.h"

#define MAX_SAMPLES	4096

static const char * const phase_name[] = { "UP", "DOWN", "CRUISE", "REFILL" };

struct traj {
	bool quiet;
	u32 nflows;
	u32 last_key[LINKSIM_MAX_FLOWS];
	double mbit_per_unit;	/* Mbit/s per bbr2 bw unit */
	double ms_per_pkt;	/* queueing ms per queued packet */
	/* per 10 ms: queue; per second: per-flow bytes */
	u32 nq;
	u32 q[MAX_SAMPLES];
	u64 last_bytes[LINKSIM_MAX_FLOWS];
	u64 tick;
	double worst_jain;
	u64 judge_from_us;
	u64 queue_from_us;
};

static double bw_mbit(const struct traj *tr, u32 bw)
{
	return bw == ~0U ? -1 : bw * tr->mbit_per_unit;
}

static bool flow_is_bbr2(struct linksim *sim, int flow)
{
	return !strcmp(inet_csk(linksim_sk(sim, flow))->icsk_ca_ops->name, "bbr2");
}

static void print_state(struct linksim *sim, int flow, struct traj *tr)
{
	struct sock *sk = linksim_sk(sim, flow);
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 q = linksim_queue_pkts(sim);

	printf("%8.3f f%d ", linksim_now_us(sim) / 1e6, flow);
	if (flow_is_bbr2(sim, flow)) {
		const struct bbr2 *b = bbr2_state(sk);

		printf("%-9s %-6s cwnd %4u pif %4u hi %5d lo %5d max_bw %6.2f bw_lo %6.2f min_rtt %5u",
		       bbr2_mode_name(b->mode),
		       b->mode == BBR2_PROBE_BW ? phase_name[b->cycle_idx] : "",
		       tcp_snd_cwnd(tp), tcp_packets_in_flight(tp),
		       (int)b->inflight_hi, (int)b->inflight_lo,
		       bw_mbit(tr, bbr2_max_bw(b)), bw_mbit(tr, b->bw_lo),
		       b->min_rtt_us);
	} else {
		printf("cwnd %4u pif %4u", tcp_snd_cwnd(tp), tcp_packets_in_flight(tp));
	}
	printf(" queue %4u (%5.1f ms)\n", q, q * tr->ms_per_pkt);
}

static void on_ack(struct linksim *sim, int flow, const struct rate_sample *rs, void *arg)
{
	struct traj *tr = arg;
	const struct bbr2 *b;
	u32 key;

	if (tr->quiet || !flow_is_bbr2(sim, flow))
		return;
	b = bbr2_state(linksim_sk(sim, flow));
	if (!b->initialized)
		return;
	key = b->mode << 4 | b->cycle_idx;
	if (key == tr->last_key[flow])
		return;
	tr->last_key[flow] = key;
	print_state(sim, flow, tr);
}

static void on_tick(struct linksim *sim, void *arg)
{
	struct traj *tr = arg;
	u64 now = linksim_now_us(sim);
	double x[LINKSIM_MAX_FLOWS];
	u32 i;

	if (now >= tr->queue_from_us && tr->nq < MAX_SAMPLES)
		tr->q[tr->nq++] = linksim_queue_pkts(sim);
	if (++tr->tick % 100)
		return;
	/* once a second */
	for (i = 0; i < tr->nflows; i++) {
		u64 b = linksim_flow_stats(sim, i)->bytes_acked;

		x[i] = (double)(b - tr->last_bytes[i]);
		tr->last_bytes[i] = b;
	}
	if (tr->nflows > 1 && now > tr->judge_from_us &&
	    jain_index(x, tr->nflows) < tr->worst_jain)
		tr->worst_jain = jain_index(x, tr->nflows);
	if (!tr->quiet && !(tr->tick % 50))
		for (i = 0; i < tr->nflows; i++)
			if (!flow_is_bbr2(sim, i))
				print_state(sim, i, tr);
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const char *scenario = argc > 1 ? argv[1] : "deep";
	const char *cc = "bbr2";
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct traj tr;
	u32 rate_mbit = 50, rtt_ms = 40, bdps = 0, late_ms = 3000;
	bool host_like = false, testbed = false;
	const char *param = NULL, *cc2 = NULL;
	double loss_pct = 0;
	u32 pace_late_us = 0, link_late_us = 0;
	u64 seed = 1, end_us, b0[2] = { 0 }, bh[2] = { 0 }, b1[2];
	double mean = 0, x[2];
	bool late;
	u32 i;

	memset(&tr, 0, sizeof(tr));
	for (i = 2; i < (u32)argc; i++) {
		if (!strcmp(argv[i], "-q"))
			tr.quiet = true;
		else if (!strcmp(argv[i], "-s") && i + 1 < (u32)argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-r") && i + 1 < (u32)argc)
			rate_mbit = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-t") && i + 1 < (u32)argc)
			rtt_ms = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-b") && i + 1 < (u32)argc)
			bdps = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-a"))
			host_like = true;
		else if (!strcmp(argv[i], "-T"))
			testbed = true;
		else if (!strcmp(argv[i], "-l") && i + 1 < (u32)argc)
			loss_pct = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "-j") && i + 1 < (u32)argc)
			pace_late_us = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-J") && i + 1 < (u32)argc)
			link_late_us = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-p") && i + 1 < (u32)argc)
			param = argv[++i];
		else if (!strcmp(argv[i], "-x") && i + 1 < (u32)argc)
			cc2 = argv[++i];
		else if (!strcmp(argv[i], "-L") && i + 1 < (u32)argc)
			late_ms = strtoul(argv[++i], NULL, 0);
		else
			cc = argv[i];
	}
	late = !strcmp(scenario, "late");
	if (!late && strcmp(scenario, "deep")) {
		fprintf(stderr, "usage: %s deep|late [CC] [-q] [-s SEED] [-r MBIT] [-t RTT_MS] [-b BDPS] [-a] [-l PCT] [-j US] [-J US] [-T] [-p NAME=V] [-x CC2] [-L MS]\n",
			argv[0]);
		return 2;
	}
	if (param) {
		char name[64];
		const char *eq = strchr(param, '=');

		if (!eq || eq - param >= (long)sizeof(name)) {
			fprintf(stderr, "-p wants NAME=VALUE\n");
			return 2;
		}
		memcpy(name, param, eq - param);
		name[eq - param] = '\0';
		if (shim_param_set("tcp_bbr2", name, eq + 1)) {
			fprintf(stderr, "bad parameter %s\n", param);
			return 2;
		}
	}

	linksim_cfg_default(&cfg);
	cfg.rate_bps = (u64)rate_mbit * 1000000;
	cfg.rtt_us = rtt_ms * 1000;
	cfg.fq = true;
	cfg.seed = seed;
	cfg.loss_ppm = (u32)(loss_pct * 1e4 + 0.5);
	cfg.pace_late_us = pace_late_us;
	cfg.link_late_us = link_late_us;
	if (host_like) {
		cfg.ack_every = 2;
		cfg.delack_us = 40000;
		cfg.tso = true;
	}
	if (testbed)
		linksim_cfg_testbed(&cfg);
	cfg.queue_pkts = (bdps ? bdps : late ? 2 : 16) * linksim_bdp_pkts(&cfg);
	cfg.flow[0].cc = cc;
	if (late) {
		cfg.nflows = 2;
		cfg.flow[1].cc = cc2 ? cc2 : cc;
		cfg.flow[1].start_us = cc2 ? 0 : (u64)late_ms * 1000;
	}
	tr.nflows = late ? 2 : 1;
	end_us = (late ? 40 : 20) * USEC_PER_SEC;
	tr.judge_from_us = 8 * USEC_PER_SEC;
	tr.queue_from_us = end_us / 4;
	tr.worst_jain = 1.0;
	tr.mbit_per_unit = (double)cfg.mss * 8 * USEC_PER_SEC / BW_UNIT / 1e6;
	tr.ms_per_pkt = (cfg.mss + cfg.hdr_bytes) * 8 * 1e3 / cfg.rate_bps;
	cfg.on_ack = on_ack;
	cfg.on_tick = on_tick;
	cfg.tick_us = 10000;
	cfg.hook_arg = &tr;
	sim = linksim_new(&cfg, NULL);
	if (!sim)
		return 2;
	if (late) {
		linksim_run_until(sim, tr.judge_from_us);
		for (i = 0; i < 2; i++)
			b0[i] = linksim_flow_stats(sim, i)->bytes_acked;
		linksim_run_until(sim, end_us / 2);
		for (i = 0; i < 2; i++)
			bh[i] = linksim_flow_stats(sim, i)->bytes_acked;
	}
	linksim_run_until(sim, end_us);

	for (i = 0; i < tr.nq; i++)
		mean += tr.q[i];
	mean = tr.nq ? mean / tr.nq : 0;
	qsort(tr.q, tr.nq, sizeof(tr.q[0]), cmp_u32);
	printf("summary %s %s seed %llu: queue from %.0f s: mean %.1f ms, p90 %.1f ms (buffer %u pkts = %.0f ms); utilisation %.1f%%; retransmits",
	       scenario, cc, seed, tr.queue_from_us / 1e6, mean * tr.ms_per_pkt,
	       tr.nq ? tr.q[tr.nq * 9 / 10] * tr.ms_per_pkt : 0,
	       cfg.queue_pkts, cfg.queue_pkts * tr.ms_per_pkt,
	       linksim_utilization(sim) * 100);
	for (i = 0; i < tr.nflows; i++) {
		const struct linksim_flow_stats *st = linksim_flow_stats(sim, i);

		printf(" %.2f%%", st->pkts_sent ? 100.0 * st->pkts_retrans / st->pkts_sent : 0);
	}
	if (late) {
		double half[2];

		for (i = 0; i < 2; i++) {
			b1[i] = linksim_flow_stats(sim, i)->bytes_acked;
			x[i] = (double)(b1[i] - b0[i]);
			half[i] = (double)(b1[i] - bh[i]);
		}
		printf("; Jain from %.0f s %.3f, from %.0f s %.3f, worst 1-s %.3f (%.1f / %.1f Mbit/s)",
		       tr.judge_from_us / 1e6, jain_index(x, 2),
		       end_us / 2 / 1e6, jain_index(half, 2), tr.worst_jain,
		       x[0] * 8 / ((end_us - tr.judge_from_us) / 1e6) / 1e6,
		       x[1] * 8 / ((end_us - tr.judge_from_us) / 1e6) / 1e6);
	}
	printf("\n");
	linksim_free(sim);
	return 0;
}
