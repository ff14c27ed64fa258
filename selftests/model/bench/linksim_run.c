// SPDX-License-Identifier: GPL-2.0
/*
 * linksim_run: one simulated experiment point from the command line, as a
 * JSON line (the simulator backend of tools/bbr2-lab --where sim, and the
 * way to run DTN-scale points by hand).
 *
 *   linksim_run rate=100G rtt_ms=200 buf_bdp=1 loss=0.01 mix=bbr2:1 dur=60
 *
 *   rate=R[k|M|G]     bottleneck rate, bit/s (default 10G)
 *   rtt_ms=N          base RTT (default 50)
 *   buf_bdp=X         drop-tail buffer in BDPs (default 1), or
 *   buf_bytes=N[k|M|G] in bytes (MB = 10^6, as ESnet's port buffers)
 *   loss=P            random loss, percent (default 0)
 *   mix=CC:N[@S][/MS],...  flow groups: N flows of CC starting at S seconds
 *                     with MS ms of extra RTT; CC is bbr2, bbr2v2 (the
 *                     module with version=2), bbr2v3, bbr (kernel BBRv1),
 *                     cubic, reno
 *   dur=S             simulated seconds (default 60)
 *   skip=S            also report goodput from S seconds on (default 10)
 *   frame=N           frame mode with frames of up to N MSS (default 45,
 *                     one 64 KB GSO frame); frame=0: per-packet mode
 *   ack_every=N       receiver ACKs every N frames (packets) (default 1)
 *   hdr=N             wire bytes per packet besides the 1448-byte payload
 *                     (default 66: TCP with timestamps, IPv4, Ethernet, as
 *                     tbf counts them on the netns dumbbell)
 *   fq=0|1            sender paces every flow (fq qdisc; default 1)
 *   pace_late_us=N    fq's pacing timer fires up to N us late (uniform),
 *                     as in the QEMU/TCG test bed (default 0: on time)
 *   link_late_us=N    the bottleneck is the test bed's tbf, whose watchdog
 *                     fires up to N us late (default 0: an exact link)
 *   link_burst_us=N   that tbf's bucket depth (default 4000)
 *   ack_late_us=N     the receiving host is busy: its ACKs leave late by a
 *                     lag drawn from 0..N us (default 0: at once)
 *   ack_late_hold_us=N  every N us a new lag is drawn (default 10000)
 *   seed=N            random loss seed (default 1)
 *   ts=S              add a time series with S-second samples
 *   param.NAME=V      tcp_bbr2 module parameter
 *
 * Output: one JSON object: the config, per flow and per group goodput,
 * retransmits, drops and RTT, link utilisation and mean queueing delay,
 * CPU seconds, and with ts= the per-flow throughput series.  Goodput is
 * given twice: from the bytes cumulatively ACKed (goodput_bps,
 * goodput_tail_bps, series_bps) and from the packets that reached the
 * receiver for the first time (goodput_rcv_tail_bps, series_rcv_bps),
 * which over a window is what the path delivered in it: the cumulative
 * ACK stands still behind a hole and then jumps past everything received
 * since, so a window that starts behind a hole counts what the path
 * delivered before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model_util.h"

#define MAX_SAMPLES	4096

struct group {
	char cc[16];
	const char *simcc;
	u32 n;
	u32 first;
	double start_s;
	u32 extra_ms;
};

static u64 parse_si(const char *s, u64 unit)
{
	char *end;
	double v = strtod(s, &end);

	if (*end == 'k' || *end == 'K')
		v *= unit;
	else if (*end == 'M')
		v *= (double)unit * unit;
	else if (*end == 'G')
		v *= (double)unit * unit * unit;
	return (u64)(v + 0.5);
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "linksim_run: %s%s\n", msg, arg ? arg : "");
	exit(2);
}

/* ', "NAME": [[v, ...], ...]': one list of samples per flow. */
static void print_series(const char *name, float series[][MAX_SAMPLES], u32 nflows,
			 u32 nsamples, const char *fmt)
{
	u32 k, i;

	printf(", \"%s\": [", name);
	for (k = 0; k < nflows; k++) {
		printf("%s[", k ? ", " : "");
		for (i = 0; i < nsamples; i++) {
			if (i)
				putchar(',');
			printf(fmt, series[k][i]);
		}
		printf("]");
	}
	printf("]");
}

int main(int argc, char **argv)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct group g[LINKSIM_MAX_FLOWS];
	u32 ngroups = 0, nflows = 0, i, k, version = 0;
	double buf_bdp = 1, loss = 0, dur = 60, skip = 10, ts = 0;
	u64 buf_bytes = 0, skip_bytes[LINKSIM_MAX_FLOWS] = { 0 };
	u64 skip_rcvd[LINKSIM_MAX_FLOWS] = { 0 };
	const char *mix = "bbr2:1";
	static float series[LINKSIM_MAX_FLOWS][MAX_SAMPLES];
	static float vseries[LINKSIM_MAX_FLOWS][MAX_SAMPLES];	/* received */
	static float rseries[LINKSIM_MAX_FLOWS][MAX_SAMPLES];	/* retransmits */
	static float sseries[LINKSIM_MAX_FLOWS][MAX_SAMPLES];	/* srtt, ms */
	static float cseries[LINKSIM_MAX_FLOWS][MAX_SAMPLES];	/* cwnd */
	static float pseries[LINKSIM_MAX_FLOWS][MAX_SAMPLES];	/* pacing, Mbit/s */
	static float oseries[LINKSIM_MAX_FLOWS][MAX_SAMPLES];	/* packets sent so far */
	static float qseries[MAX_SAMPLES];
	u32 nsamples = 0;
	double c0, cpu;
	char mixbuf[512], *tok, *save;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 10000000000ULL;
	cfg.rtt_us = 50000;
	cfg.frame_segs = 45;
	cfg.fq = true;
	cfg.hdr_bytes = 66;
	for (i = 1; i < (u32)argc; i++) {
		char *a = argv[i], *v = strchr(a, '=');

		if (!v)
			die("expected key=value: ", a);
		*v++ = 0;
		if (!strcmp(a, "rate"))
			cfg.rate_bps = parse_si(v, 1000);
		else if (!strcmp(a, "rtt_ms"))
			cfg.rtt_us = (u32)(atof(v) * 1000);
		else if (!strcmp(a, "buf_bdp"))
			buf_bdp = atof(v);
		else if (!strcmp(a, "buf_bytes"))
			buf_bytes = parse_si(v, 1000);
		else if (!strcmp(a, "loss"))
			loss = atof(v);
		else if (!strcmp(a, "mix"))
			mix = v;
		else if (!strcmp(a, "dur"))
			dur = atof(v);
		else if (!strcmp(a, "skip"))
			skip = atof(v);
		else if (!strcmp(a, "frame"))
			cfg.frame_segs = atoi(v);
		else if (!strcmp(a, "hdr"))
			cfg.hdr_bytes = atoi(v);
		else if (!strcmp(a, "ack_every"))
			cfg.ack_every = atoi(v);
		else if (!strcmp(a, "fq"))
			cfg.fq = atoi(v);
		else if (!strcmp(a, "pace_late_us"))
			cfg.pace_late_us = strtoul(v, NULL, 0);
		else if (!strcmp(a, "link_late_us"))
			cfg.link_late_us = strtoul(v, NULL, 0);
		else if (!strcmp(a, "link_burst_us"))
			cfg.link_burst_us = strtoul(v, NULL, 0);
		else if (!strcmp(a, "ack_late_us"))
			cfg.ack_late_us = strtoul(v, NULL, 0);
		else if (!strcmp(a, "ack_late_hold_us"))
			cfg.ack_late_hold_us = strtoul(v, NULL, 0);
		else if (!strcmp(a, "seed"))
			cfg.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "ts"))
			ts = atof(v);
		else if (!strncmp(a, "param.", 6)) {
			if (shim_param_set("tcp_bbr2", a + 6, v))
				die("bad parameter ", a + 6);
		} else {
			die("unknown key ", a);
		}
	}

	snprintf(mixbuf, sizeof(mixbuf), "%s", mix);
	for (tok = strtok_r(mixbuf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct group *gr = &g[ngroups];
		char *p;

		if (ngroups == LINKSIM_MAX_FLOWS)
			die("too many groups", NULL);
		memset(gr, 0, sizeof(*gr));
		gr->n = 1;
		p = strchr(tok, '/');
		if (p) {
			*p++ = 0;
			gr->extra_ms = atoi(p);
		}
		p = strchr(tok, '@');
		if (p) {
			*p++ = 0;
			gr->start_s = atof(p);
		}
		p = strchr(tok, ':');
		if (p) {
			*p++ = 0;
			gr->n = atoi(p);
		}
		snprintf(gr->cc, sizeof(gr->cc), "%s", tok);
		gr->simcc = gr->cc;
		if (!strcmp(gr->cc, "bbr2v2") || !strcmp(gr->cc, "bbr2v3")) {
			u32 ver = gr->cc[5] - '0';

			if (version && version != ver)
				die("bbr2v2 and bbr2v3 share one module parameter", NULL);
			version = ver;
			gr->simcc = "bbr2";
		}
		gr->first = nflows;
		if (!gr->n || nflows + gr->n > LINKSIM_MAX_FLOWS)
			die("too many flows in ", mix);
		for (k = 0; k < gr->n; k++, nflows++) {
			cfg.flow[nflows].cc = gr->simcc;
			cfg.flow[nflows].start_us = (u64)(gr->start_s * 1e6);
			cfg.flow[nflows].extra_rtt_us = gr->extra_ms * 1000;
		}
		ngroups++;
	}
	if (version)
		shim_param_set("tcp_bbr2", "version", version == 2 ? "2" : "3");
	cfg.nflows = nflows;
	cfg.queue_pkts = 0;
	cfg.queue_bytes = buf_bytes ? buf_bytes :
		(u64)(buf_bdp * linksim_bdp_pkts(&cfg) * (cfg.mss + cfg.hdr_bytes));
	if (cfg.queue_bytes < cfg.mss + cfg.hdr_bytes)
		cfg.queue_bytes = cfg.mss + cfg.hdr_bytes;
	cfg.loss_ppm = (u32)(loss * 10000 + 0.5);

	c0 = cpu_s();
	sim = linksim_new(&cfg, NULL);
	if (!sim)
		die("linksim_new failed", NULL);
	if (ts > 0) {
		u64 step = (u64)(ts * 1e6), t;
		u64 prev[LINKSIM_MAX_FLOWS] = { 0 }, prev_r[LINKSIM_MAX_FLOWS] = { 0 };
		u64 prev_v[LINKSIM_MAX_FLOWS] = { 0 };

		for (t = step; t <= (u64)(dur * 1e6) && nsamples < MAX_SAMPLES; t += step) {
			linksim_run_until(sim, t);
			for (k = 0; k < nflows; k++) {
				u64 b = linksim_flow_stats(sim, k)->bytes_acked;

				u64 r = linksim_flow_stats(sim, k)->pkts_retrans;
				const struct tcp_sock *tp = tcp_sk(linksim_sk(sim, k));

				u64 v = linksim_flow_stats(sim, k)->pkts_rcvd * cfg.mss;

				series[k][nsamples] = (float)((b - prev[k]) * 8.0 / ts);
				prev[k] = b;
				vseries[k][nsamples] = (float)((v - prev_v[k]) * 8.0 / ts);
				prev_v[k] = v;
				rseries[k][nsamples] = (float)(r - prev_r[k]);
				prev_r[k] = r;
				sseries[k][nsamples] = (tp->srtt_us >> 3) / 1000.0f;
				cseries[k][nsamples] = (float)tcp_snd_cwnd(tp);
				pseries[k][nsamples] =	/* bytes/s to Mbit/s */
					linksim_sk(sim, k)->sk_pacing_rate / 125000.0f;
				oseries[k][nsamples] = linksim_flow_stats(sim, k)->pkts_sent;
				if (t <= (u64)(skip * 1e6)) {
					skip_bytes[k] = b;
					skip_rcvd[k] = v;
				}
			}
			qseries[nsamples] = (float)linksim_queue_pkts(sim);
			nsamples++;
		}
	} else {
		linksim_run_until(sim, (u64)(skip * 1e6));
		for (k = 0; k < nflows; k++) {
			skip_bytes[k] = linksim_flow_stats(sim, k)->bytes_acked;
			skip_rcvd[k] = linksim_flow_stats(sim, k)->pkts_rcvd * cfg.mss;
		}
	}
	linksim_run_until(sim, (u64)(dur * 1e6));
	cpu = cpu_s() - c0;

	{
		const struct linksim_link_stats *ls = linksim_link_stats(sim);
		double wire_s = (double)(cfg.mss + cfg.hdr_bytes) * 8 / cfg.rate_bps;

		printf("{\"rate_bps\": %llu, \"rtt_ms\": %.3f, \"buf_bytes\": %llu, "
		       "\"bdp_pkts\": %u, \"hdr\": %u, \"loss_pct\": %g, \"mix\": \"%s\", \"dur\": %g, "
		       "\"skip\": %g, \"frame\": %u, \"ack_every\": %u, \"seed\": %llu, "
		       "\"cpu_s\": %.2f, \"util\": %.5f, \"queue_delay_ms\": %.3f, "
		       "\"max_queue_pkts\": %u, \"drops_queue\": %llu, \"drops_random\": %llu, ",
		       cfg.rate_bps, cfg.rtt_us / 1000.0, cfg.queue_bytes,
		       linksim_bdp_pkts(&cfg), cfg.hdr_bytes, loss, mix, dur, skip, cfg.frame_segs,
		       cfg.ack_every, cfg.seed, cpu, linksim_utilization(sim),
		       linksim_avg_queue_pkts(sim) * wire_s * 1e3, ls->max_queue_pkts,
		       ls->drops_queue, ls->drops_random);
		printf("\"groups\": [");
		for (i = 0; i < ngroups; i++) {
			double gp = 0, gp_tail = 0, gp_rcv = 0, rtt_sum = 0;
			u64 sent = 0, retr = 0, rtt_n = 0;

			for (k = g[i].first; k < g[i].first + g[i].n; k++) {
				const struct linksim_flow_stats *st = linksim_flow_stats(sim, k);

				gp += linksim_goodput_bps(sim, k);
				if (dur > skip) {
					gp_tail += (st->bytes_acked - skip_bytes[k]) * 8.0 /
						   (dur - skip);
					gp_rcv += (st->pkts_rcvd * cfg.mss - skip_rcvd[k]) * 8.0 /
						  (dur - skip);
				}
				sent += st->pkts_sent;
				retr += st->pkts_retrans;
				rtt_sum += st->rtt_sum_us;
				rtt_n += st->rtt_samples;
			}
			printf("%s{\"cc\": \"%s\", \"n\": %u, \"goodput_bps\": %.0f, "
			       "\"goodput_tail_bps\": %.0f, \"goodput_rcv_tail_bps\": %.0f, "
			       "\"sent\": %llu, \"retrans\": %llu, "
			       "\"retrans_pct\": %.4f, \"rtt_mean_ms\": %.3f, \"flows_bps\": [",
			       i ? ", " : "", g[i].cc, g[i].n, gp, gp_tail, gp_rcv, sent, retr,
			       sent ? 100.0 * retr / sent : 0.0,
			       rtt_n ? rtt_sum / rtt_n / 1e3 : 0.0);
			for (k = g[i].first; k < g[i].first + g[i].n; k++)
				printf("%s%.0f", k > g[i].first ? ", " : "",
				       linksim_goodput_bps(sim, k));
			printf("]}");
		}
		printf("], \"flows\": [");
		for (k = 0; k < nflows; k++) {
			const struct linksim_flow_stats *st = linksim_flow_stats(sim, k);

			printf("%s{\"goodput_bps\": %.0f, \"bytes_acked\": %llu, \"sent\": %llu, "
			       "\"retrans\": %llu, \"recoveries\": %u, \"rtos\": %u, "
			       "\"rtt_mean_ms\": %.3f}", k ? ", " : "",
			       linksim_goodput_bps(sim, k), st->bytes_acked, st->pkts_sent,
			       st->pkts_retrans, st->recoveries, st->rtos,
			       st->rtt_samples ? st->rtt_sum_us / st->rtt_samples / 1e3 : 0.0);
		}
		printf("]");
		if (nsamples) {
			printf(", \"ts\": %g", ts);
			print_series("series_bps", series, nflows, nsamples, "%.4g");
			print_series("series_rcv_bps", vseries, nflows, nsamples, "%.4g");
			print_series("series_retrans", rseries, nflows, nsamples, "%.0f");
			print_series("series_srtt_ms", sseries, nflows, nsamples, "%.2f");
			print_series("series_cwnd", cseries, nflows, nsamples, "%.0f");
			print_series("series_pacing_mbps", pseries, nflows, nsamples, "%.4g");
			print_series("series_segs_out", oseries, nflows, nsamples, "%.0f");
			printf(", \"queue_pkts\": [");
			for (i = 0; i < nsamples; i++)
				printf("%s%.0f", i ? "," : "", qseries[i]);
			printf("]");
		}
		printf("}\n");
	}
	linksim_free(sim);
	return 0;
}
