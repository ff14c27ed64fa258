// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr2 tunables: storage, defaults of each BBR version, and validation.
 *
 * This file holds no sysfs glue (see tcp_bbr2_main.c), so the same checks
 * run in the userspace model tests.  Every parse function either stores a
 * fully validated value or returns -EINVAL and stores nothing.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#include "bbr2_params.h"

struct bbr2_params bbr2_params = {
	.version = BBR2_DEFAULT_VERSION,
#define BBR2_PARAM_V3_INIT(name, v3, v2, lo, hi, desc) .name = v3,
	BBR2_SCALAR_PARAMS(BBR2_PARAM_V3_INIT)
#undef BBR2_PARAM_V3_INIT
	.pacing_gain = BBR2_PACING_GAIN_V3,
};

const struct bbr2_param_desc bbr2_param_descs[BBR2_NR_SCALAR_PARAMS] = {
#define BBR2_PARAM_DESC(pname, v3, v2, lo, hi, desc)			\
	[BBR2_PARAM_##pname] = {					\
		.name = #pname,						\
		.value = &bbr2_params.pname,				\
		.v3_default = v3,					\
		.v2_default = v2,					\
		.min = lo,						\
		.max = hi,						\
	},
	BBR2_SCALAR_PARAMS(BBR2_PARAM_DESC)
#undef BBR2_PARAM_DESC
};

static const u32 bbr2_pacing_gain_v3[BBR2_CYCLE_LEN] = BBR2_PACING_GAIN_V3;
static const u32 bbr2_pacing_gain_v2[BBR2_CYCLE_LEN] = BBR2_PACING_GAIN_V2;

int bbr2_param_parse_u32(const struct bbr2_param_desc *desc, const char *buf,
			 u32 *out)
{
	unsigned int val;

	/* kstrtouint() takes one trailing newline, as echo writes it. */
	if (kstrtouint(buf, 0, &val))
		return -EINVAL;
	if (val < desc->min || val > desc->max)
		return -EINVAL;
	*out = val;
	return 0;
}

static bool bbr2_pacing_gain_valid(u32 gain)
{
	return gain >= BBR2_PACING_GAIN_MIN && gain <= BBR2_PACING_GAIN_MAX;
}

/*
 * A pacing_gain write is a comma-separated list of either the 4 PROBE_BW
 * phase gains (UP, DOWN, CRUISE, REFILL) or 8 values in the v2alpha layout,
 * whose last 4 entries are kept for compatibility but never used.  The UP
 * gain must probe (> 1.0) and the DOWN gain must drain (< 1.0), or the
 * state machine could never make progress.
 */
int bbr2_param_parse_pacing_gain(const char *buf, u32 gains[BBR2_CYCLE_LEN])
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
		    !bbr2_pacing_gain_valid(val))
			return -EINVAL;
		parsed[n++] = val;
	}
	if (n != BBR2_PHASES && n != BBR2_CYCLE_LEN)
		return -EINVAL;
	/* Indices follow enum bbr2_cycle_phase: UP = 0, DOWN = 1. */
	if (parsed[0] <= 256 || parsed[1] >= 256)
		return -EINVAL;
	for (i = n; i < BBR2_CYCLE_LEN; i++)
		parsed[i] = 256;
	for (i = 0; i < BBR2_CYCLE_LEN; i++)
		WRITE_ONCE(gains[i], parsed[i]);
	return 0;
}

/*
 * Select the algorithm version and load its constant set.  Parameters
 * written after this keep their new values; parameters written before it
 * are overwritten, which is why "version" must come first on an insmod
 * command line.
 */
int bbr2_param_set_version(u32 version)
{
	const u32 *gains;
	unsigned int i;

	if (version != 2 && version != 3)
		return -EINVAL;
	for (i = 0; i < BBR2_NR_SCALAR_PARAMS; i++) {
		const struct bbr2_param_desc *d = &bbr2_param_descs[i];

		WRITE_ONCE(*d->value,
			   version == 2 ? d->v2_default : d->v3_default);
	}
	gains = version == 2 ? bbr2_pacing_gain_v2 : bbr2_pacing_gain_v3;
	for (i = 0; i < BBR2_CYCLE_LEN; i++)
		WRITE_ONCE(bbr2_params.pacing_gain[i], gains[i]);
	WRITE_ONCE(bbr2_params.version, version);
	return 0;
}
