// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters as a user (or the ESnet harness's param-sweep)
 * sees them under /sys/module/tcp_bbr2/parameters/: every v2alpha name is
 * there with its v2alpha default, reads end in a newline, out-of-range or
 * malformed writes fail with -EINVAL and leave the old value, and valid
 * writes read back.
 */
#include "bbr2_util.h"

static const struct {
	const char *name;
	const char *dflt;	/* shared by v2alpha and v3; NULL: differs */
} v2alpha[] = {
	{ "min_rtt_win_sec", "10" },	{ "probe_rtt_mode_ms", "200" },
	{ "probe_rtt_win_ms", "5000" },	{ "loss_thresh", "5" },
	{ "beta", "76" },		{ "inflight_headroom", "38" },
	{ "pacing_gain", NULL },	{ "high_gain", NULL },
	{ "drain_gain", NULL },		{ "cwnd_gain", "512" },
	{ "full_bw_thresh", "320" },	{ "full_bw_cnt", "3" },
	{ "full_loss_cnt", NULL },	{ "ecn_enable", "0" },
	{ "ecn_thresh", "128" },	{ "ecn_alpha_gain", "16" },
	{ "extra_acked_gain", "256" },	{ "bw_probe_max_rounds", "63" },
	{ "bw_probe_base_us", "2000000" }, { "bw_probe_rand_us", "1000000" },
	{ "cwnd_min_target", "4" },	{ "probe_rtt_cwnd_gain", "128" },
};

static char buf[PAGE_SIZE], buf2[PAGE_SIZE];

static int get(const char *name, char *out)
{
	int n = shim_param_get("tcp_bbr2", name, out);

	if (n > 0 && out[n - 1] == '\n')
		out[n - 1] = 0;
	return n;
}

int main(void)
{
	unsigned int i, missing = 0, wrong = 0, bad_read = 0, nparams = 0;
	const struct kernel_param *kp;

	tap_plan(8);
	tap_ok(shim_modules_load() == 0 && tcp_ca_find("bbr2"),
	       "tcp_bbr2 loads and registers \"bbr2\"");

	for (i = 0; i < ARRAY_SIZE(v2alpha); i++) {
		if (get(v2alpha[i].name, buf) <= 0) {
			tap_diag("missing: %s", v2alpha[i].name);
			missing++;
		} else if (v2alpha[i].dflt && strcmp(buf, v2alpha[i].dflt)) {
			tap_diag("%s = %s, v2alpha default %s", v2alpha[i].name, buf,
				 v2alpha[i].dflt);
			wrong++;
		}
	}
	tap_ok(!missing, "all %zu v2alpha parameter names exist (%u missing)",
	       ARRAY_SIZE(v2alpha), missing);
	tap_ok(!wrong, "shared v2alpha/v3 defaults match (%u differ)", wrong);

	for (i = 0; (kp = shim_param_nth("tcp_bbr2", i)); i++) {
		int n = shim_param_get("tcp_bbr2", kp->name, buf);

		nparams++;
		if (n <= 0 || buf[n - 1] != '\n' || (size_t)n != strlen(buf))
			bad_read++;
	}
	tap_ok(nparams >= ARRAY_SIZE(v2alpha) && !bad_read,
	       "every parameter (%u) reads as one newline-terminated line (%u bad)",
	       nparams, bad_read);

	get("loss_thresh", buf);
	tap_ok(bbr2_set_param("loss_thresh", "100000") == -EINVAL &&
	       bbr2_set_param("loss_thresh", "abc") == -EINVAL &&
	       bbr2_set_param("loss_thresh", "-1") == -EINVAL &&
	       bbr2_set_param("loss_thresh", "") == -EINVAL &&
	       get("loss_thresh", buf2) > 0 && !strcmp(buf, buf2),
	       "malformed or out-of-range writes fail with -EINVAL, value kept (%s)", buf2);
	tap_ok(bbr2_set_param("loss_thresh", "10\n") == 0 && get("loss_thresh", buf2) > 0 &&
	       !strcmp(buf2, "10") && bbr2_set_param("loss_thresh", buf) == 0,
	       "a valid write (with echo's newline) reads back");

	get("pacing_gain", buf);
	tap_ok(bbr2_set_param("pacing_gain", "320,192,256,256,256,256,256,256") == 0 &&
	       get("pacing_gain", buf2) > 0 && !strncmp(buf2, "320,192,256,256", 15) &&
	       bbr2_set_param("pacing_gain", "1,2,3") == -EINVAL &&
	       bbr2_set_param("pacing_gain", buf) == 0,
	       "pacing_gain takes the v2alpha 8-gain array form (%s)", buf2);

	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
