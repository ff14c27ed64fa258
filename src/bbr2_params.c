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

/*
 * BBR2_PARAM(name, v3 default, v2 default, min, max); the live value starts
 * at the v3 default.  Units and meaning: MODULE_PARM_DESC in
 * tcp_bbr2_main.c and Documentation/parameters.rst.
 */
#define BBR2_PARAM(_name, _v3, _v2, _min, _max)			\
	{ .name = _name, .value = _v3, .v3_default = _v3,		\
	  .v2_default = _v2, .min = _min, .max = _max }

struct bbr2_param bbr2_param_table[BBR2_NR_PARAMS] = {
	[BBR2_PARAM_HIGH_GAIN] = BBR2_PARAM("high_gain", 710, 739, 256, 2047),
	[BBR2_PARAM_STARTUP_CWND_GAIN] =
		BBR2_PARAM("startup_cwnd_gain", 512, 739, 256, 2047),
	[BBR2_PARAM_DRAIN_GAIN] = BBR2_PARAM("drain_gain", 88, 88, 1, 256),
	[BBR2_PARAM_CWND_GAIN] = BBR2_PARAM("cwnd_gain", 512, 512, 256, 2047),
	[BBR2_PARAM_BW_PROBE_CWND_GAIN] =
		BBR2_PARAM("bw_probe_cwnd_gain", 1, 0, 0, 3),
	[BBR2_PARAM_BW_PROBE_PIF_GAIN] =
		BBR2_PARAM("bw_probe_pif_gain", 320, 320, 256, 511),
	[BBR2_PARAM_CWND_MIN_TARGET] =
		BBR2_PARAM("cwnd_min_target", 4, 4, 2, 255),
	[BBR2_PARAM_PROBE_RTT_CWND_GAIN] =
		BBR2_PARAM("probe_rtt_cwnd_gain", 128, 128, 0, 256),
	[BBR2_PARAM_MIN_RTT_WIN_SEC] =
		BBR2_PARAM("min_rtt_win_sec", 10, 10, 1, 60),
	[BBR2_PARAM_PROBE_RTT_MODE_MS] =
		BBR2_PARAM("probe_rtt_mode_ms", 200, 200, 0, 2000),
	[BBR2_PARAM_PROBE_RTT_WIN_MS] =
		BBR2_PARAM("probe_rtt_win_ms", 5000, 5000, 100, 60000),
	[BBR2_PARAM_FULL_BW_THRESH] =
		BBR2_PARAM("full_bw_thresh", 320, 320, 257, 1023),
	[BBR2_PARAM_FULL_BW_CNT] = BBR2_PARAM("full_bw_cnt", 3, 3, 1, 7),
	[BBR2_PARAM_FULL_LOSS_CNT] = BBR2_PARAM("full_loss_cnt", 6, 8, 0, 15),
	[BBR2_PARAM_FULL_ECN_CNT] = BBR2_PARAM("full_ecn_cnt", 2, 2, 0, 3),
	[BBR2_PARAM_LOSS_THRESH] = BBR2_PARAM("loss_thresh", 5, 5, 1, 255),
	[BBR2_PARAM_BETA] = BBR2_PARAM("beta", 76, 76, 0, 255),
	[BBR2_PARAM_INFLIGHT_HEADROOM] =
		BBR2_PARAM("inflight_headroom", 38, 38, 0, 255),
	[BBR2_PARAM_ECN_ENABLE] = BBR2_PARAM("ecn_enable", 0, 0, 0, 1),
	[BBR2_PARAM_ECN_THRESH] = BBR2_PARAM("ecn_thresh", 128, 128, 0, 255),
	[BBR2_PARAM_ECN_ALPHA_GAIN] =
		BBR2_PARAM("ecn_alpha_gain", 16, 16, 0, 255),
	[BBR2_PARAM_ECN_ALPHA_INIT] =
		BBR2_PARAM("ecn_alpha_init", 256, 256, 0, 256),
	[BBR2_PARAM_ECN_FACTOR] = BBR2_PARAM("ecn_factor", 85, 85, 0, 255),
	[BBR2_PARAM_ECN_MAX_RTT_US] =
		BBR2_PARAM("ecn_max_rtt_us", 5000, 5000, 0, 524287),
	[BBR2_PARAM_ECN_REPROBE_GAIN] =
		BBR2_PARAM("ecn_reprobe_gain", 128, 0, 0, 511),
	[BBR2_PARAM_EXTRA_ACKED_GAIN] =
		BBR2_PARAM("extra_acked_gain", 256, 256, 0, 2047),
	[BBR2_PARAM_EXTRA_ACKED_WIN_RTTS] =
		BBR2_PARAM("extra_acked_win_rtts", 5, 5, 1, 31),
	[BBR2_PARAM_EXTRA_ACKED_MAX_US] =
		BBR2_PARAM("extra_acked_max_us", 100000, 100000, 0, 1000000),
	[BBR2_PARAM_BW_PROBE_MAX_ROUNDS] =
		BBR2_PARAM("bw_probe_max_rounds", 63, 63, 1, 255),
	[BBR2_PARAM_BW_PROBE_RAND_ROUNDS] =
		BBR2_PARAM("bw_probe_rand_rounds", 2, 2, 0, 15),
	[BBR2_PARAM_BW_PROBE_RENO_GAIN] =
		BBR2_PARAM("bw_probe_reno_gain", 256, 256, 0, 511),
	[BBR2_PARAM_BW_PROBE_BASE_US] =
		BBR2_PARAM("bw_probe_base_us", 2000000, 2000000, 0, 67108863),
	[BBR2_PARAM_BW_PROBE_RAND_US] =
		BBR2_PARAM("bw_probe_rand_us", 1000000, 1000000, 0, 67108863),
	[BBR2_PARAM_DRAIN_TO_TARGET] =
		BBR2_PARAM("drain_to_target", 1, 1, 0, 1),
	[BBR2_PARAM_UNDO] = BBR2_PARAM("undo", 1, 1, 0, 1),
	[BBR2_PARAM_MIN_TSO_RATE] =
		BBR2_PARAM("min_tso_rate", 1200000, 1200000, 0, 2147483647),
	[BBR2_PARAM_TSO_RTT_SHIFT] = BBR2_PARAM("tso_rtt_shift", 9, 9, 0, 15),
	[BBR2_PARAM_LOSS_MODE] = BBR2_PARAM("loss_mode", 0, 0, 0, 1),
};

u32 bbr2_version = 3;

static const u32 bbr2_pacing_gain_v3[BBR2_CYCLE_LEN] = {
	320, 232, 256, 256, 256, 256, 256, 256	/* UP 1.25, DOWN 0.91 */
};

static const u32 bbr2_pacing_gain_v2[BBR2_CYCLE_LEN] = {
	320, 192, 256, 256, 256, 256, 256, 256	/* UP 1.25, DOWN 0.75 */
};

u32 bbr2_pacing_gain_cycle[BBR2_CYCLE_LEN] = {
	320, 232, 256, 256, 256, 256, 256, 256
};

int bbr2_param_parse_u32(const struct bbr2_param *param, const char *buf,
			 u32 *out)
{
	unsigned int val;

	/* kstrtouint() takes one trailing newline, as echo writes it. */
	if (kstrtouint(buf, 0, &val))
		return -EINVAL;
	if (val < param->min || val > param->max)
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
	for (i = 0; i < BBR2_NR_PARAMS; i++) {
		struct bbr2_param *p = &bbr2_param_table[i];

		WRITE_ONCE(p->value, version == 2 ? p->v2_default :
						    p->v3_default);
	}
	gains = version == 2 ? bbr2_pacing_gain_v2 : bbr2_pacing_gain_v3;
	for (i = 0; i < BBR2_CYCLE_LEN; i++)
		WRITE_ONCE(bbr2_pacing_gain_cycle[i], gains[i]);
	WRITE_ONCE(bbr2_version, version);
	return 0;
}
