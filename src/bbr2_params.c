// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr2 tunables: the defaults of each BBR version, and the validation
 * of a write.
 *
 * This file holds no sysfs glue and no storage (see tcp_bbr2_main.c), so
 * the same code runs in the userspace model tests and the bbr2-bpf loader
 * (which gives it only what bpf/cli/linux/ provides: no min(), no
 * DIV_ROUND_UP()).
 * bbr2_tunables_write() works on a private copy of a set: it either leaves
 * a fully validated set there or returns -EINVAL and says why.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#include "bbr2_params.h"

#define P(_id, _name, _v3, _v2, _min, _max)				\
	[BBR2_PARAM_##_id] = { .name = _name, .v3_default = _v3,	\
			       .v2_default = _v2, .min = _min, .max = _max },
const struct bbr2_param bbr2_param_table[BBR2_NR_PARAMS] = {
#include "bbr2_params_list.h"
};

#undef P

static const u32 bbr2_pacing_gain_v3[BBR2_CYCLE_LEN] = {
	320, 232, 256, 256, 256, 256, 256, 256	/* UP 1.25, DOWN 0.91 */
};

static const u32 bbr2_pacing_gain_v2[BBR2_CYCLE_LEN] = {
	320, 192, 256, 256, 256, 256, 256, 256	/* UP 1.25, DOWN 0.75 */
};

#define P(_id, _name, _v3, _v2, _min, _max)				\
	[BBR2_PARAM_##_id] = _v3,
const struct bbr2_tunables bbr2_tunables_boot = {
	.param		= {
#include "bbr2_params_list.h"
	},
	.pacing_gain	= { 320, 232, 256, 256, 256, 256, 256, 256 },
	.version	= 3,
};

#undef P

static u32 bbr2_param_default(unsigned int id, u32 version)
{
	const struct bbr2_param *p = &bbr2_param_table[id];

	return version == 2 ? p->v2_default : p->v3_default;
}

static bool bbr2_is_explicit(const struct bbr2_tunables *t, unsigned int bit)
{
	return t->explicit_mask & (1ULL << bit);
}

static void bbr2_set_explicit(struct bbr2_tunables *t, unsigned int bit,
			      bool on)
{
	if (on)
		t->explicit_mask |= 1ULL << bit;
	else
		t->explicit_mask &= ~(1ULL << bit);
}

/*
 * Give every value the admin has not set explicitly its default in the
 * set's version; explicit values stay as they are.
 */
static void bbr2_follow_version(struct bbr2_tunables *t)
{
	const u32 *gains;
	unsigned int i;

	for (i = 0; i < BBR2_NR_PARAMS; i++)
		if (!bbr2_is_explicit(t, i))
			t->param[i] = bbr2_param_default(i, t->version);
	if (bbr2_is_explicit(t, BBR2_EXPLICIT_PACING_GAIN))
		return;
	gains = t->version == 2 ? bbr2_pacing_gain_v2 : bbr2_pacing_gain_v3;
	for (i = 0; i < BBR2_CYCLE_LEN; i++)
		t->pacing_gain[i] = gains[i];
}

/* The word "default" (with echo's newline or not). */
static bool bbr2_is_default_word(const char *buf)
{
	size_t len = strlen(buf);

	if (len && buf[len - 1] == '\n')
		len--;
	return len == 7 && !strncmp(buf, "default", 7);
}

/*
 * A pacing_gain write is a comma-separated list of either the 4 PROBE_BW
 * phase gains (UP, DOWN, CRUISE, REFILL) or 8 values in the v2alpha layout,
 * whose last 4 entries are kept for compatibility but never used.  Only
 * the form and each gain's range are checked here; what the gains must be
 * relative to each other is bbr2_tunables_check()'s.
 */
static int bbr2_parse_pacing_gain(const char *buf, u32 gains[BBR2_CYCLE_LEN])
{
	u32 parsed[BBR2_CYCLE_LEN];
	char copy[16 * BBR2_CYCLE_LEN];
	char *cur, *tok;
	unsigned int n = 0, i;
	size_t len;

	len = strlen(buf);
	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(copy))
		return -EINVAL;
	memcpy(copy, buf, len);
	copy[len] = '\0';

	cur = copy;
	while ((tok = strsep(&cur, ",")) != NULL) {
		unsigned int val;

		if (n == BBR2_CYCLE_LEN || kstrtouint(tok, 0, &val) ||
		    val < BBR2_PACING_GAIN_MIN || val > BBR2_PACING_GAIN_MAX)
			return -EINVAL;
		parsed[n++] = val;
	}
	if (n != BBR2_PHASES && n != BBR2_CYCLE_LEN)
		return -EINVAL;
	for (i = n; i < BBR2_CYCLE_LEN; i++)
		parsed[i] = 256;
	memcpy(gains, parsed, sizeof(parsed));
	return 0;
}

static int bbr2_find_param(const char *name)
{
	unsigned int i;

	for (i = 0; i < BBR2_NR_PARAMS; i++)
		if (!strcmp(bbr2_param_table[i].name, name))
			return i;
	return -ENOENT;
}

/*
 * Write NAME=VAL into the set t, as a write to
 * /sys/module/tcp_bbr2/parameters/NAME does.  VAL "default" makes the
 * parameter follow the version's default again.  "version" loads that
 * version's defaults into every value not set explicitly and keeps the
 * others, so that the order of writes does not matter.  The result must
 * pass bbr2_tunables_check() as a whole.  On error t may be half-written
 * (the caller discards it), and why says what was wrong.
 */
int bbr2_tunables_write(struct bbr2_tunables *t, const char *name,
			const char *val, char *why, size_t why_len)
{
	bool dflt = bbr2_is_default_word(val);
	const struct bbr2_param *p;
	unsigned int v;
	int id;

	why[0] = '\0';
	if (!strcmp(name, "version")) {
		if (dflt) {
			v = 3;
		} else if (kstrtouint(val, 0, &v) || (v != 2 && v != 3)) {
			snprintf(why, why_len, "2 or 3");
			return -EINVAL;
		}
		t->version = v;
	} else if (!strcmp(name, "pacing_gain")) {
		if (!dflt && bbr2_parse_pacing_gain(val, t->pacing_gain)) {
			snprintf(why, why_len,
				 "4 or 8 comma-separated gains in %u..%u",
				 BBR2_PACING_GAIN_MIN, BBR2_PACING_GAIN_MAX);
			return -EINVAL;
		}
		bbr2_set_explicit(t, BBR2_EXPLICIT_PACING_GAIN, !dflt);
	} else {
		id = bbr2_find_param(name);
		if (id < 0) {
			snprintf(why, why_len, "no such parameter");
			return -ENOENT;
		}
		p = &bbr2_param_table[id];
		if (!dflt) {
			/* kstrtouint() takes echo's trailing newline */
			if (kstrtouint(val, 0, &v) || v < p->min ||
			    v > p->max) {
				snprintf(why, why_len, "range %u..%u",
					 p->min, p->max);
				return -EINVAL;
			}
			t->param[id] = v;
		}
		bbr2_set_explicit(t, id, !dflt);
	}
	bbr2_follow_version(t);
	return bbr2_tunables_check(t, why, why_len);
}

/* NAME's value in t as sysfs shows it, newline-terminated; its length. */
int bbr2_tunables_read(const struct bbr2_tunables *t, const char *name,
		       char *buf, size_t len)
{
	const u32 *g = t->pacing_gain;
	int id;

	if (!strcmp(name, "version"))
		return scnprintf(buf, len, "%u\n", t->version);
	if (!strcmp(name, "pacing_gain"))
		return scnprintf(buf, len, "%u,%u,%u,%u,%u,%u,%u,%u\n", g[0],
				 g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
	id = bbr2_find_param(name);
	if (id < 0)
		return -ENOENT;
	return scnprintf(buf, len, "%u\n", t->param[id]);
}

/*
 * Rules a set must keep as a whole: values that each lie in their range but
 * together starve a flow or fill the bottleneck's buffer, found by drawing
 * parameter sets from everything the interface accepts and running them in
 * the userspace model (selftests/model, test_bbr2_params_never_starve_a_flow;
 * Documentation/parameters.rst has the rules for admins).  On a violation
 * returns -EINVAL, and why names the parameters in conflict and a value
 * that would be accepted.
 */
int bbr2_tunables_check(const struct bbr2_tunables *t, char *why,
			size_t why_len)
{
	const u32 *g = t->pacing_gain;
	u32 mode_ms = bbr2_param(t, PROBE_RTT_MODE_MS);
	u32 win_ms = bbr2_param(t, PROBE_RTT_WIN_MS);
	u32 min_rtt_ms = bbr2_param(t, MIN_RTT_WIN_SEC) * 1000;
	u32 wait_us = bbr2_param(t, BW_PROBE_BASE_US) +
		      bbr2_param(t, BW_PROBE_RAND_US);

	/* Indices follow enum bbr2_cycle_phase: UP, DOWN, CRUISE, REFILL. */
	if (g[0] <= 256) {
		snprintf(why, why_len,
			 "pacing_gain: UP gain %u must be above 256 to probe",
			 g[0]);
		return -EINVAL;
	}
	if (g[1] >= 256) {
		snprintf(why, why_len,
			 "pacing_gain: DOWN gain %u must be below 256 to drain",
			 g[1]);
		return -EINVAL;
	}
	/* below 0.75 the flow gives up the bandwidth it cruises at */
	if (g[2] < BBR2_CRUISE_GAIN_MIN || g[3] < BBR2_CRUISE_GAIN_MIN) {
		snprintf(why, why_len,
			 "pacing_gain: CRUISE and REFILL gains (%u, %u) must be at least %u",
			 g[2], g[3], BBR2_CRUISE_GAIN_MIN);
		return -EINVAL;
	}
	/* STARTUP must be able to grow bw faster than what ends it */
	if (bbr2_param(t, HIGH_GAIN) <= bbr2_param(t, FULL_BW_THRESH)) {
		snprintf(why, why_len,
			 "high_gain %u must be above full_bw_thresh %u, or STARTUP ends at its first rate",
			 bbr2_param(t, HIGH_GAIN), bbr2_param(t, FULL_BW_THRESH));
		return -EINVAL;
	}
	/* PROBE_RTT at most a quarter of the time */
	if (mode_ms * 4 > win_ms || mode_ms * 4 > min_rtt_ms) {
		snprintf(why, why_len,
			 "probe_rtt_mode_ms %u needs probe_rtt_win_ms >= %u and min_rtt_win_sec >= %u (now %u and %u), or probe_rtt_mode_ms <= %u",
			 mode_ms, mode_ms * 4, (mode_ms * 4 + 999) / 1000,
			 win_ms, min_rtt_ms / 1000,
			 (win_ms < min_rtt_ms ? win_ms : min_rtt_ms) / 4);
		return -EINVAL;
	}
	/* probing more often keeps the bottleneck's buffer full */
	if (wait_us < BBR2_PROBE_WAIT_MIN_US) {
		snprintf(why, why_len,
			 "bw_probe_base_us + bw_probe_rand_us is %u, must be at least %u",
			 wait_us, BBR2_PROBE_WAIT_MIN_US);
		return -EINVAL;
	}
	return 0;
}
