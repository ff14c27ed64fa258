// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr2 module glue: registers the "bbr2" congestion control and exposes
 * every tunable under /sys/module/tcp_bbr2/parameters/.  The algorithm
 * itself is in bbr2_model.c.
 *
 * Each parameter has its own range (src/bbr2_params.h).  A write that is not
 * a number in range fails with -EINVAL and leaves the old value: a tunable
 * read by every ACK of every bbr2 socket must never hold a value the
 * algorithm was not written for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include "bbr2.h"

#define BBR2_MODULE_VERSION	"0.1.0"

static void bbr2_cong_control(BBR2_CONG_CONTROL_ARGS)
{
	bbr2_main(sk, rs);
}

static struct tcp_congestion_ops tcp_bbr2_cong_ops __read_mostly = {
	/* Unprivileged users and containers may select bbr2, as with bbr. */
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= "bbr2",
	.owner		= THIS_MODULE,
	.init		= bbr2_init,
	.cong_control	= bbr2_cong_control,
	.sndbuf_expand	= bbr2_sndbuf_expand,
	.undo_cwnd	= bbr2_undo_cwnd,
	.cwnd_event	= bbr2_cwnd_event,
	.in_ack_event	= bbr2_in_ack_event,
	.ssthresh	= bbr2_ssthresh,
#ifdef BBR2_HAVE_MIN_TSO_SEGS
	.min_tso_segs	= bbr2_min_tso_segs,
#endif
	.get_info	= bbr2_get_info,
	.set_state	= bbr2_set_state,
};

/* ---------------------------------------------------------------------- */
/* Scalar parameters.                                                      */

static int bbr2_scalar_param_set(const char *val, const struct kernel_param *kp)
{
	const struct bbr2_param_desc *desc = kp->arg;
	u32 parsed;

	if (bbr2_param_parse_u32(desc, val, &parsed)) {
		pr_warn_ratelimited("%s: rejected: not an integer in [%u, %u]\n",
				    desc->name, desc->min, desc->max);
		return -EINVAL;
	}
	WRITE_ONCE(*desc->value, parsed);
	return 0;
}

static int bbr2_scalar_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct bbr2_param_desc *desc = kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%u\n", READ_ONCE(*desc->value));
}

static const struct kernel_param_ops bbr2_scalar_param_ops = {
	.set = bbr2_scalar_param_set,
	.get = bbr2_scalar_param_get,
};

#define BBR2_MODULE_PARAM(pname, v3, v2, lo, hi, desc)			\
	module_param_cb(pname, &bbr2_scalar_param_ops,			\
			(void *)&bbr2_param_descs[BBR2_PARAM_##pname], 0644); \
	MODULE_PARM_DESC(pname, desc " [" #lo ".." #hi			\
			 "; v3 default " #v3 ", v2 " #v2 "]");
BBR2_SCALAR_PARAMS(BBR2_MODULE_PARAM)
#undef BBR2_MODULE_PARAM

/* ---------------------------------------------------------------------- */
/* pacing_gain: the PROBE_BW gain cycle, as in v2alpha.                    */

static int bbr2_pacing_gain_param_set(const char *val,
				      const struct kernel_param *kp)
{
	if (bbr2_param_parse_pacing_gain(val, bbr2_params.pacing_gain)) {
		pr_warn_ratelimited("pacing_gain: rejected: need 4 or 8 comma-separated gains in [%u, %u], UP > 256 > DOWN\n",
				    BBR2_PACING_GAIN_MIN, BBR2_PACING_GAIN_MAX);
		return -EINVAL;
	}
	return 0;
}

static int bbr2_pacing_gain_param_get(char *buffer,
				      const struct kernel_param *kp)
{
	const u32 *g = bbr2_params.pacing_gain;

	BUILD_BUG_ON(BBR2_CYCLE_LEN != 8);
	return scnprintf(buffer, PAGE_SIZE, "%u,%u,%u,%u,%u,%u,%u,%u\n",
			 READ_ONCE(g[0]), READ_ONCE(g[1]), READ_ONCE(g[2]),
			 READ_ONCE(g[3]), READ_ONCE(g[4]), READ_ONCE(g[5]),
			 READ_ONCE(g[6]), READ_ONCE(g[7]));
}

static const struct kernel_param_ops bbr2_pacing_gain_param_ops = {
	.set = bbr2_pacing_gain_param_set,
	.get = bbr2_pacing_gain_param_get,
};

module_param_cb(pacing_gain, &bbr2_pacing_gain_param_ops, NULL, 0644);
MODULE_PARM_DESC(pacing_gain,
		 "PROBE_BW pacing gains UP,DOWN,CRUISE,REFILL[,4 unused], 1/256 [1..1023; v3 default 320,232,256,256,256,256,256,256, v2 320,192,256,...]");

/* ---------------------------------------------------------------------- */
/* version: BBRv3 or BBRv2 behaviour, with that version's constants.      */

static int bbr2_version_param_set(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int version;

	if (kstrtouint(val, 0, &version) || bbr2_param_set_version(version)) {
		pr_warn_ratelimited("version: rejected: must be 2 or 3\n");
		return -EINVAL;
	}
	return 0;
}

static int bbr2_version_param_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%u\n", bbr2_param(version));
}

static const struct kernel_param_ops bbr2_version_param_ops = {
	.set = bbr2_version_param_set,
	.get = bbr2_version_param_get,
};

module_param_cb(version, &bbr2_version_param_ops, NULL, 0644);
MODULE_PARM_DESC(version,
		 "algorithm: 3 = BBRv3, 2 = BBRv2 alpha; writing it loads that version's defaults into every other parameter [2..3; default 3]");

/* ---------------------------------------------------------------------- */

static void __init bbr2_check_param_defaults(void)
{
#define BBR2_CHECK_DEFAULT(pname, v3, v2, lo, hi, desc)			\
	BUILD_BUG_ON((v3) < (lo) || (v3) > (hi) ||			\
		     (v2) < (lo) || (v2) > (hi));
	BBR2_SCALAR_PARAMS(BBR2_CHECK_DEFAULT)
#undef BBR2_CHECK_DEFAULT
}

static int __init bbr2_register(void)
{
	/* The whole per-socket state must fit the stock private area. */
	BUILD_BUG_ON(sizeof(struct bbr2) > ICSK_CA_PRIV_SIZE);
	bbr2_check_param_defaults();
	return tcp_register_congestion_control(&tcp_bbr2_cong_ops);
}

static void __exit bbr2_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_bbr2_cong_ops);
}

module_init(bbr2_register);
module_exit(bbr2_unregister);

MODULE_AUTHOR("tcp_bbr2 developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP BBRv3/BBRv2 congestion control for unmodified kernels");
MODULE_VERSION(BBR2_MODULE_VERSION);
