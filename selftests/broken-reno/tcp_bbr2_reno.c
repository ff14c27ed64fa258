// SPDX-License-Identifier: GPL-2.0
/*
 * A deliberately broken "bbr2": it registers under the same name as the
 * real module but only delegates to Reno, and has none of its parameters.
 *
 * It exists to prove that the behavioural selftests can fail: running the
 * suite with BBR2_KO pointing at this module must produce failures (see
 * selftests/README.rst, "Proving the tests can fail").
 */
#include <linux/module.h>
#include <net/tcp.h>

static struct tcp_congestion_ops tcp_bbr2_reno_ops __read_mostly = {
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= "bbr2",
	.owner		= THIS_MODULE,
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
};

static int __init bbr2_reno_register(void)
{
	return tcp_register_congestion_control(&tcp_bbr2_reno_ops);
}

static void __exit bbr2_reno_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_bbr2_reno_ops);
}

module_init(bbr2_reno_register);
module_exit(bbr2_reno_unregister);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Broken bbr2 (plain Reno) for proving the selftests fail");
