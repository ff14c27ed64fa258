// SPDX-License-Identifier: GPL-2.0
/*
 * loss_sources: where the drops of N bbr2 flows in a shallow buffer come
 * from: each drop of a flow's packet is charged to the phase
 * that flow was in when the packet was dropped (polled every 1 ms), and
 * to the second it happened in; and the entries into PROBE_UP and the cuts
 * of inflight_lo (one per lossy loss round), to set beside the kernel's
 * bbr2_state / bbr2_loss_ecn tracepoints.  A diagnostic: prints, asserts
 * nothing.
 *
 *   loss_sources [-n FLOWS] [-r MBIT] [-t RTT_MS] [-B BUF_BDP_PERCENT]
 *                [-P BUF_PKTS] [-d SECONDS] [-s SEED] [-p NAME=V ...]
 *                [-x CC] [-T 1] [-L LOSS_PERCENT] [-g MS]
 *
 * -L: random loss of data packets, percent (e.g. 3 or 0.5); its drops are
 * counted apart from the buffer's.
 *
 * -g MS: the flows join MS apart (flow i at i x MS), as the streams of a
 * parallel-stream tool do: iperf3 -P opens each connection once the one
 * before it has completed its handshake, about an RTT later.
 *
 * -T 1: the QEMU/TCG test bed modelled, as the validation's testbed
 * column (ACKs every 2nd packet, fq's watchdog up to 1000 us late, the
 * tbf's up to 250 us; linksim.h).  -T 3: its delayed ACKs only.
 *
 * Defaults: 16 flows, 50 Mbit/s x 40 ms, a 5 %-BDP buffer (bytes, with
 * 66 bytes of headers per packet, as bench/linksim_run), 30 s, seed 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbr2_util.h"

#define NKEYS	32

static const char * const phase_name[] = { "UP", "DOWN", "CRUISE", "REFILL" };

struct src {
	u32 nflows;
	u64 last_drops[LINKSIM_MAX_FLOWS];
	u64 by_key[NKEYS];
	u64 by_sec[600];
	u64 by_ctx[4];		/* STARTUP/DRAIN anywhere, UP, REFILL, none */
	u64 by_tenth[20];	/* the first 2 s, per 100 ms */
	bool bbr2;
	bool in_up[LINKSIM_MAX_FLOWS];
	u64 probes;		/* entries into PROBE_UP, all flows */
	u32 last_lo[LINKSIM_MAX_FLOWS];
	u64 lo_cuts;		/* inflight_lo lowered (1-ms ticks), all flows */
	double bw_sum;		/* sum over ticks from 2 s of the flows' bbr2_bw() */
	u64 bw_ticks;
	u64 init_us[LINKSIM_MAX_FLOWS], pbw_us[LINKSIM_MAX_FLOWS];
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct src *s = arg;
	u64 sec = linksim_now_us(sim) / USEC_PER_SEC;
	u32 i, key, ctx = 3;

	if (s->bbr2 && linksim_now_us(sim) >= 2 * USEC_PER_SEC) {
		for (i = 0; i < s->nflows; i++)
			s->bw_sum += bbr2_bw(bbr2_state(linksim_sk(sim, i)));
		s->bw_ticks++;
	}
	for (i = 0; s->bbr2 && i < s->nflows; i++) {
		const struct bbr2 *b = bbr2_state(linksim_sk(sim, i));

		if (!b->initialized)
			continue;
		if (!s->init_us[i])
			s->init_us[i] = linksim_now_us(sim);
		if (!s->pbw_us[i] && b->mode == BBR2_PROBE_BW)
			s->pbw_us[i] = linksim_now_us(sim);
		if (b->inflight_lo < s->last_lo[i] && s->last_lo[i] != ~0U &&
		    b->inflight_lo != 0)
			s->lo_cuts++;
		s->last_lo[i] = b->inflight_lo;
		if (b->mode == BBR2_PROBE_BW && b->cycle_idx == BBR2_BW_PROBE_UP) {
			s->probes += !s->in_up[i];
			s->in_up[i] = true;
		} else {
			s->in_up[i] = false;
		}
		if (b->mode == BBR2_STARTUP || b->mode == BBR2_DRAIN)
			ctx = 0;
		else if (b->mode == BBR2_PROBE_BW && ctx > 1 &&
			 b->cycle_idx == BBR2_BW_PROBE_UP)
			ctx = 1;
		else if (b->mode == BBR2_PROBE_BW && ctx > 2 &&
			 b->cycle_idx == BBR2_BW_PROBE_REFILL)
			ctx = 2;
	}
	for (i = 0; i < s->nflows; i++) {
		u64 d = linksim_flow_stats(sim, i)->pkts_dropped;
		const struct bbr2 *b;

		if (d == s->last_drops[i])
			continue;
		key = 0;
		if (s->bbr2) {
			b = bbr2_state(linksim_sk(sim, i));
			key = b->mode << 2;
			if (b->mode == BBR2_PROBE_BW)
				key |= b->cycle_idx;
		}
		s->by_ctx[ctx] += d - s->last_drops[i];
		s->by_key[key] += d - s->last_drops[i];
		if (sec < 600)
			s->by_sec[sec] += d - s->last_drops[i];
		if (linksim_now_us(sim) < 2 * USEC_PER_SEC)
			s->by_tenth[linksim_now_us(sim) / 100000] +=
				d - s->last_drops[i];
		s->last_drops[i] = d;
	}
}

int main(int argc, char **argv)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	struct src s;
	u32 nflows = 16, rate_mbit = 50, rtt_ms = 40, buf_pct = 5, dur = 30;
	u32 buf_pkts = 0, testbed = 0, loss_ppm = 0, gap_ms = 0, deep = 0;
	const char *cc = "bbr2";
	u64 seed = 1, sent = 0, retr = 0, total = 0;
	u32 i, m;

	memset(&s, 0, sizeof(s));
	for (i = 1; i < (u32)argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < (u32)argc ? argv[i + 1] : NULL;

		if (!v)
			goto usage;
		i++;
		if (!strcmp(a, "-n"))
			nflows = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-r"))
			rate_mbit = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-t"))
			rtt_ms = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-B"))
			buf_pct = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-P"))
			buf_pkts = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-d"))
			dur = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-s"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "-x"))
			cc = v;
		else if (!strcmp(a, "-T"))
			testbed = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-L"))
			loss_ppm = (u32)(strtod(v, NULL) * 10000 + 0.5);
		else if (!strcmp(a, "-g"))
			gap_ms = strtoul(v, NULL, 0);
		else if (!strcmp(a, "-p")) {
			char name[64];
			const char *eq = strchr(v, '=');

			if (!eq || eq - v >= (long)sizeof(name))
				goto usage;
			memcpy(name, v, eq - v);
			name[eq - v] = '\0';
			if (shim_param_set("tcp_bbr2", name, eq + 1))
				goto usage;
		} else {
			goto usage;
		}
	}
	if (!nflows || nflows > LINKSIM_MAX_FLOWS || dur > 600)
		goto usage;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = (u64)rate_mbit * 1000000;
	cfg.rtt_us = rtt_ms * 1000;
	cfg.fq = true;
	cfg.seed = seed;
	cfg.hdr_bytes = 66;
	cfg.loss_ppm = loss_ppm;
	if (testbed)
		linksim_cfg_testbed(&cfg);
	if (testbed & 2)	/* its delayed ACKs only, timers on time */
		cfg.pace_late_us = cfg.link_late_us = 0;
	cfg.queue_pkts = 0;
	cfg.queue_bytes = (u64)linksim_bdp_pkts(&cfg) * (cfg.mss + cfg.hdr_bytes) *
			  buf_pct / 100;
	if (cfg.queue_bytes < cfg.mss + cfg.hdr_bytes)
		cfg.queue_bytes = cfg.mss + cfg.hdr_bytes;
	if (buf_pkts) {		/* a buffer of packets, no header bytes */
		cfg.hdr_bytes = 0;
		cfg.queue_pkts = buf_pkts;
	}
	cfg.nflows = nflows;
	for (i = 0; i < nflows; i++) {
		cfg.flow[i].cc = cc;
		cfg.flow[i].start_us = (u64)i * gap_ms * USEC_PER_MSEC;
	}
	s.nflows = nflows;
	s.bbr2 = !strcmp(cc, "bbr2");
	cfg.on_tick = on_tick;
	cfg.tick_us = 1000;
	cfg.hook_arg = &s;
	sim = linksim_new(&cfg, NULL);
	if (!sim)
		return 2;
	linksim_run_until(sim, (u64)dur * USEC_PER_SEC);
	for (i = 0; i < nflows; i++) {
		sent += linksim_flow_stats(sim, i)->pkts_sent;
		retr += linksim_flow_stats(sim, i)->pkts_retrans;
	}
	for (i = 0; i < NKEYS; i++)
		total += s.by_key[i];
	printf("%s x%u seed %llu: util %.3f retransmits %.2f %%, drops %llu\n",
	       cc, nflows, seed, linksim_utilization(sim),
	       sent ? 100.0 * retr / sent : 0, total);
	for (i = 0; i < NKEYS; i++) {
		if (!s.by_key[i])
			continue;
		m = i >> 2;
		printf("  %-9s %-6s %6llu (%.1f %%)\n",
		       s.bbr2 ? bbr2_mode_name(m) : cc,
		       s.bbr2 && m == BBR2_PROBE_BW ? phase_name[i & 3] : "",
		       s.by_key[i], 100.0 * s.by_key[i] / total);
	}
	if (s.bbr2)
		printf("  while some flow was in: STARTUP/DRAIN %llu, else UP %llu, else REFILL %llu, else none %llu\n"
		       "  probes (entries into PROBE_UP, all flows): %llu, inflight_lo cuts: %llu\n",
		       s.by_ctx[0], s.by_ctx[1], s.by_ctx[2], s.by_ctx[3], s.probes, s.lo_cuts);
	if (s.bbr2) {
		for (i = 0; i < nflows; i++)
			deep += bbr2_state(linksim_sk(sim, i))->deep_buffer;
		printf("  flows that noted a deep buffer (loss_mode 1): %u of %u\n", deep, nflows);
	}
	if (s.bw_ticks)		/* the bw that paces them, against the link's payload rate */
		printf("  sum of the flows' bw from 2 s: %.1f Mbit/s (link payload %.1f)\n",
		       s.bw_sum / s.bw_ticks * cfg.mss * 8 * USEC_PER_SEC / BW_UNIT / 1e6,
		       rate_mbit * (double)cfg.mss / (cfg.mss + cfg.hdr_bytes));
	printf("  STARTUP+DRAIN from-to s:");
	for (i = 0; s.bbr2 && i < nflows; i++)
		printf(" %.2f-%.2f", s.init_us[i] / 1e6, s.pbw_us[i] / 1e6);
	printf("\n  first 2 s, per 100 ms:");
	for (i = 0; i < 20; i++)
		printf(" %llu", s.by_tenth[i]);
	printf("\n  per second:");
	for (i = 0; i < dur; i++)
		printf(" %llu", s.by_sec[i]);
	printf("\n");
	linksim_free(sim);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-n FLOWS] [-r MBIT] [-t RTT_MS] [-B BUF_PCT] [-P BUF_PKTS] [-d S] [-s SEED] [-p NAME=V] [-x CC] [-T 1] [-L LOSS_PCT] [-g MS]\n",
		argv[0]);
	return 2;
}
