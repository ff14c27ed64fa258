// SPDX-License-Identifier: GPL-2.0
/*
 * No set of parameter values the interface accepts may starve or stall a
 * flow on a clean path.  One bbr2 flow, 50 Mbit/s x 40 ms, a 1-BDP
 * drop-tail buffer, no random loss; the defaults' goodput over the same
 * path in the same run is the reference.  Parameter sets are drawn from
 * everything the module accepts (each parameter's range, pacing_gain's
 * four gains each in 1..1023, version 2 or 3): first every parameter alone
 * at its minimum and at its maximum, then random combinations of 2-8
 * parameters; half of the sets are written before the flow starts, half
 * 3 s into it.  A write the module rejects is skipped (that is the rule
 * doing its work).  Each set must leave the flow at least half of the
 * defaults' goodput over the 7 s after the write, and never a second
 * without data ACKed.
 *
 * Fixed seed, printed; a CPU-time cap keeps the random part to a couple of
 * seconds in each build (plain, ASan/UBSan): the number of sets run is
 * printed.
 */
#include <time.h>
#include "bbr2_util.h"
#include "xorshift.h"

#define RUN_US		(10 * USEC_PER_SEC)
#define WRITE_AT_US	(3 * USEC_PER_SEC)
#define TICK_US		(100 * USEC_PER_MSEC)
#define STALL_US	USEC_PER_SEC
#define RANDOM_CPU_S	2.0
#define MAX_PARAMS	64

struct watch {
	u64 last_acked, last_progress_us, worst_gap_us, from_us;
};

static void on_tick(struct linksim *sim, void *arg)
{
	struct watch *w = arg;
	u64 now = linksim_now_us(sim), acked = linksim_flow_stats(sim, 0)->bytes_acked;

	if (acked != w->last_acked) {
		w->last_acked = acked;
		w->last_progress_us = now;
	} else if (now >= w->from_us && now - max(w->last_progress_us, w->from_us) >
		   w->worst_gap_us) {
		w->worst_gap_us = now - max(w->last_progress_us, w->from_us);
	}
}

static char set_desc[512];

/* Write name=val; note it in set_desc if accepted. */
static bool write_param(const char *name, const char *val)
{
	if (bbr2_set_param(name, val))
		return false;
	snprintf(set_desc + strlen(set_desc), sizeof(set_desc) - strlen(set_desc),
		 "%s%s=%s", set_desc[0] ? " " : "", name, val);
	return true;
}

/* A value the interface's per-parameter form accepts for kp. */
static void draw_value(const char *name, int extreme, char *val, size_t len)
{
	unsigned int i;

	if (!strcmp(name, "version")) {
		snprintf(val, len, "%u", extreme ? 2 + (extreme > 0) : 2 + rnd(2));
		return;
	}
	if (!strcmp(name, "pacing_gain")) {
		val[0] = 0;
		for (i = 0; i < 4; i++)
			snprintf(val + strlen(val), len - strlen(val), "%s%u",
				 i ? "," : "", extreme < 0 ? (i ? 1 : 257) :
				 extreme > 0 ? (i == 1 ? 255 : 1023) :
				 chance(500) ? (rnd(2) ? 1 : 1023) : 1 + rnd(1023));
		return;
	}
	for (i = 0; i < BBR2_NR_PARAMS; i++) {
		const struct bbr2_param *p = &bbr2_param_table[i];

		if (strcmp(p->name, name))
			continue;
		if (extreme)
			snprintf(val, len, "%u", extreme < 0 ? p->min : p->max);
		else if (chance(500))
			snprintf(val, len, "%u", rnd(2) ? p->min : p->max);
		else
			snprintf(val, len, "%u", p->min + rnd(p->max - p->min + 1));
		return;
	}
	snprintf(val, len, "0");
}

static const struct kernel_param *params[MAX_PARAMS];
static unsigned int nparams;
/* name=value ... from the command line: that set only (a reproducer) */
static char **given;
static int ngiven;

static void write_given(void)
{
	char buf[256], *eq;
	int i;

	for (i = 0; i < ngiven; i++) {
		snprintf(buf, sizeof(buf), "%s", given[i]);
		eq = strchr(buf, '=');
		if (eq) {
			*eq = 0;
			if (!write_param(buf, eq + 1))
				tap_diag("%s=%s rejected", buf, eq + 1);
		}
	}
}

/*
 * The set under test: the command line's parameters, then one parameter at
 * an extreme (alone >= 0), then combo parameters at random values.
 */
static void write_set(int alone, int extreme, u32 combo)
{
	char val[128];
	u32 k;

	write_given();
	if (alone >= 0) {
		draw_value(params[alone]->name, extreme, val, sizeof(val));
		write_param(params[alone]->name, val);
	}
	for (k = 0; k < combo; k++) {
		const char *name = params[rnd(nparams)]->name;

		draw_value(name, 0, val, sizeof(val));
		write_param(name, val);
	}
}

/* Bytes ACKed from WRITE_AT_US (or 0) to the end, and the longest stall. */
static double last_queue, last_retrans;

static u64 run(bool midflow, int alone, int extreme, u32 combo, struct watch *w)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	u64 before = 0, got;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 20000000;
	cfg.rtt_us = 40000;
	cfg.queue_pkts = linksim_bdp_pkts(&cfg);
	cfg.fq = true;
	cfg.seed = 1;
	cfg.on_tick = on_tick;
	cfg.tick_us = TICK_US;
	*w = (struct watch){ .from_us = midflow ? WRITE_AT_US : 0 };
	cfg.hook_arg = w;
	set_desc[0] = 0;

	/* the set: one parameter at an extreme, or a random combination */
	if (!midflow) {
		write_set(alone, extreme, combo);
	}
	sim = linksim_new(&cfg, "bbr2");
	if (midflow) {
		linksim_run_until(sim, WRITE_AT_US);
		before = linksim_flow_stats(sim, 0)->bytes_acked;
		write_set(alone, extreme, combo);
	}
	linksim_run_until(sim, RUN_US);
	got = linksim_flow_stats(sim, 0)->bytes_acked - before;
	last_queue = linksim_avg_queue_pkts(sim);
	last_retrans = linksim_retrans_pct(sim);
	linksim_free(sim);
	bbr2_params_reset();
	return got;
}

struct tally {
	u32 sets, starved, stalled;
	char first[600];
};

static void judge(struct tally *t, u64 got, u64 ref, const struct watch *w,
		  bool midflow)
{
	bool starved = got * 2 < ref, stalled = w->worst_gap_us >= STALL_US;

	if (!set_desc[0])
		return;		/* every write rejected: nothing to judge */
	t->sets++;
	t->starved += starved;
	t->stalled += stalled;
	if ((starved || stalled) && (t->starved + t->stalled) <= 12)
		tap_diag("%s %s: %.1f%% of the defaults' goodput, longest stall %.1f s",
			 midflow ? "at 3 s:" : "from start:", set_desc,
			 100.0 * got / ref, w->worst_gap_us / 1e6);
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261130;
	u64 ref[2];
	struct watch w;
	struct tally alone = { 0 }, combos = { 0 };
	clock_t start;
	unsigned int i;
	int e;

	tap_plan(4);
	tap_ok(shim_modules_load() == 0, "tcp_bbr2 loads");
	shim_quiet = 1;
	while (nparams < MAX_PARAMS && (params[nparams] = shim_param_nth("tcp_bbr2", nparams)))
		nparams++;
	rng_state = seed;
	tap_diag("seed %llu (rerun: %s %llu)", (unsigned long long)seed, argv[0],
		 (unsigned long long)seed);

	ref[0] = run(false, -1, 0, 0, &w);
	ref[1] = run(true, -1, 0, 0, &w);
	tap_diag("defaults: %.1f Mbit/s over 10 s, %.1f Mbit/s over the last 7 s",
		 ref[0] * 8.0 / 10e6, ref[1] * 8.0 / 7e6);
	tap_ok(ref[0] * 8 > 10 * 16000000ULL && w.worst_gap_us < STALL_US,
	       "the defaults fill the link (%.1f Mbit/s)", ref[0] * 8.0 / 10e6);
	if (argc > 2) {
		given = argv + 2;
		ngiven = argc - 2;
		for (e = 0; e < 2; e++) {
			u64 got = run(e, -1, 0, 0, &w);

			tap_diag("%s: %.1f%% of the defaults' goodput, longest stall %.1f s, queue %.1f packets on average, %.2f%% retransmitted",
				 e ? "at 3 s" : "from start", 100.0 * got / ref[e],
				 w.worst_gap_us / 1e6, last_queue, last_retrans);
		}
		return 0;
	}

	for (i = 0; i < nparams; i++)
		for (e = -1; e <= 1; e += 2) {
			bool mid = (i + (e > 0)) & 1;

			judge(&alone, run(mid, i, e, 0, &w), ref[mid], &w, mid);
		}
	tap_ok(alone.sets && !alone.starved && !alone.stalled,
	       "every parameter alone at its minimum and maximum: no flow below half the defaults' goodput or stalled (%u starved, %u stalled of %u sets)",
	       alone.starved, alone.stalled, alone.sets);

	start = clock();
	while ((double)(clock() - start) / CLOCKS_PER_SEC < RANDOM_CPU_S) {
		bool mid = rnd(2);

		judge(&combos, run(mid, -1, 0, 2 + rnd(7), &w), ref[mid], &w, mid);
	}
	tap_ok(combos.sets && !combos.starved && !combos.stalled,
	       "random combinations: no flow below half the defaults' goodput or stalled (%u starved, %u stalled of %u sets)",
	       combos.starved, combos.stalled, combos.sets);
	return tap_done();
}
