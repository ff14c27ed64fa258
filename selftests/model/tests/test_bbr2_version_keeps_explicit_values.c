// SPDX-License-Identifier: GPL-2.0
/*
 * What a version switch keeps: a parameter the admin set explicitly keeps
 * its value whatever the order of the writes ("version=2 beta=100" on a
 * modprobe line is "beta=100 version=2"), ecn_enable and loss_mode survive
 * a runtime switch, every other parameter follows the version's defaults,
 * and writing "default" makes a parameter follow them again.  Parameters
 * given before the module's init() (insmod arguments) count the same.  A
 * switch whose defaults would break a rule between parameters with an
 * explicit value is refused, as any write that would.
 */
#include "bbr2_util.h"

#define MAX_PARAMS	64

static char snap_a[MAX_PARAMS][PAGE_SIZE], snap_b[MAX_PARAMS][PAGE_SIZE];

static void snapshot(char (*out)[PAGE_SIZE])
{
	const struct kernel_param *kp;
	unsigned int i;

	for (i = 0; i < MAX_PARAMS && (kp = shim_param_nth("tcp_bbr2", i)); i++)
		kp->ops->get(out[i], kp);
}

/* Is every parameter the same in a and b?  Names the first that is not. */
static bool same_params(void)
{
	const struct kernel_param *kp;
	unsigned int i;

	for (i = 0; i < MAX_PARAMS && (kp = shim_param_nth("tcp_bbr2", i)); i++)
		if (strcmp(snap_a[i], snap_b[i])) {
			tap_diag("%s: %.20s vs %.20s", kp->name, snap_a[i], snap_b[i]);
			return false;
		}
	return true;
}

static bool is(const char *name, const char *want)
{
	char buf[PAGE_SIZE];
	int n = shim_param_get("tcp_bbr2", name, buf);

	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	if (n <= 0 || strcmp(buf, want)) {
		tap_diag("%s = %s, expected %s", name, n > 0 ? buf : "?", want);
		return false;
	}
	return true;
}

int main(void)
{
	bool ok;

	tap_plan(9);
	shim_quiet = 1;

	/* insmod tcp_bbr2 beta=100 version=2: both before init() */
	ok = !bbr2_set_param("beta", "100") && !bbr2_set_param("version", "2");
	tap_ok(shim_modules_load() == 0 && ok && is("beta", "100") &&
	       is("version", "2") && is("high_gain", "739"),
	       "insmod arguments beta=100 version=2 give v2 with beta 100");
	snapshot(snap_a);
	bbr2_params_reset();

	ok = !bbr2_set_param("version", "2") && !bbr2_set_param("beta", "100");
	snapshot(snap_b);
	tap_ok(ok && same_params(),
	       "version=2 beta=100 and beta=100 version=2 give the same set");
	bbr2_params_reset();

	ok = !bbr2_set_param("ecn_enable", "1") && !bbr2_set_param("loss_mode", "1") &&
	     !bbr2_set_param("version", "2");
	tap_ok(ok && is("ecn_enable", "1") && is("loss_mode", "1") &&
	       is("full_loss_cnt", "8"),
	       "ecn_enable and loss_mode survive a switch to v2, which loads v2's other defaults");
	ok = !bbr2_set_param("version", "3");
	tap_ok(ok && is("ecn_enable", "1") && is("loss_mode", "1") &&
	       is("full_loss_cnt", "6"),
	       "and the switch back to v3");
	bbr2_params_reset();

	ok = !bbr2_set_param("high_gain", "800") && !bbr2_set_param("version", "2");
	tap_ok(ok && is("high_gain", "800") && is("startup_cwnd_gain", "739"),
	       "an explicit high_gain stays across a switch, startup_cwnd_gain follows it");
	ok = !bbr2_set_param("high_gain", "default");
	tap_ok(ok && is("high_gain", "739") && !bbr2_set_param("version", "3") &&
	       is("high_gain", "710"),
	       "high_gain=default follows the version's default again (739, then 710 under v3)");
	bbr2_params_reset();

	ok = !bbr2_set_param("pacing_gain", "300,200,256,256") &&
	     !bbr2_set_param("version", "2");
	tap_ok(ok && is("pacing_gain", "300,200,256,256,256,256,256,256") &&
	       !bbr2_set_param("pacing_gain", "default\n") &&
	       is("pacing_gain", "320,192,256,256,256,256,256,256"),
	       "an explicit pacing_gain stays across a switch; default gives v2's gains");
	bbr2_params_reset();

	/* a switch is checked as a whole, as any write */
	ok = !bbr2_set_param("version", "2") &&
	     !bbr2_set_param("full_bw_thresh", "720") &&
	     bbr2_set_param("version", "3") == -EINVAL;
	tap_ok(ok && is("version", "2") && is("high_gain", "739"),
	       "a switch to v3 whose high_gain (710) would not exceed an explicit full_bw_thresh of 720 is refused, nothing changed");
	bbr2_params_reset();

	snapshot(snap_a);
	tap_ok(is("version", "3") && is("beta", "76") && is("ecn_enable", "0") &&
	       is("pacing_gain", "320,232,256,256,256,256,256,256"),
	       "writing default everywhere gives the v3 defaults back");
	return tap_done();
}
