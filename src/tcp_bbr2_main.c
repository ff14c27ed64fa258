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
#include "bbr2_trace.h"

#define BBR2_MODULE_VERSION	"1.0.0"

/* Is any bbr2 tracepoint on?  Static keys: free while none is. */
static inline bool bbr2_tracing(void)
{
	return trace_bbr2_state_enabled() || trace_bbr2_bw_enabled() ||
	       trace_bbr2_min_rtt_enabled() || trace_bbr2_bounds_enabled() ||
	       trace_bbr2_loss_ecn_enabled();
}

/*
 * With a tracepoint on, a hook runs between a snapshot of the state and a
 * comparison with it.  That path is kept out of line, so that with tracing
 * off each hook is only the static-key tests and a jump to the algorithm:
 * no stack frame, and no snapshot to clear, on every ACK.
 */
static noinline void bbr2_main_traced(struct sock *sk,
				      const struct rate_sample *rs)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_main(sk, rs);
	bbr2_trace_changes(sk, &snap, rs->losses);
}

static void bbr2_cong_control(BBR2_CONG_CONTROL_ARGS)
{
	if (unlikely(bbr2_tracing()))
		bbr2_main_traced(sk, rs);
	else
		bbr2_main(sk, rs);
}

static void bbr2_traced_init(struct sock *sk)
{
	struct bbr2_trace_snap snap = {};

	bbr2_init(sk);
	if (bbr2_tracing())
		bbr2_trace_changes(sk, &snap, 0);
}

static noinline void bbr2_cwnd_event_traced(struct sock *sk,
					    enum tcp_ca_event event)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_cwnd_event(sk, event);
	bbr2_trace_changes(sk, &snap, 0);
}

/* Idle restart may end PROBE_RTT, an RTO resets bounds: trace them too. */
static void bbr2_traced_cwnd_event(struct sock *sk, enum tcp_ca_event event)
{
	if (unlikely(bbr2_tracing()))
		bbr2_cwnd_event_traced(sk, event);
	else
		bbr2_cwnd_event(sk, event);
}

static noinline void bbr2_set_state_traced(struct sock *sk, u8 new_state)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_set_state(sk, new_state);
	bbr2_trace_changes(sk, &snap, 0);
}

static void bbr2_traced_set_state(struct sock *sk, u8 new_state)
{
	if (unlikely(bbr2_tracing()))
		bbr2_set_state_traced(sk, new_state);
	else
		bbr2_set_state(sk, new_state);
}

static struct tcp_congestion_ops tcp_bbr2_cong_ops __read_mostly = {
	/* Unprivileged users and containers may select bbr2, as with bbr. */
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= "bbr2",
	.owner		= THIS_MODULE,
	.init		= bbr2_traced_init,
	.cong_control	= bbr2_cong_control,
	.sndbuf_expand	= bbr2_sndbuf_expand,
	.undo_cwnd	= bbr2_undo_cwnd,
	.cwnd_event	= bbr2_traced_cwnd_event,
#ifdef BBR2_HAVE_CWND_EVENT_TX_START
	.cwnd_event_tx_start = bbr2_cwnd_event_tx_start,
#endif
	.in_ack_event	= bbr2_in_ack_event,
	.ssthresh	= bbr2_ssthresh,
#ifdef BBR2_HAVE_MIN_TSO_SEGS
	.min_tso_segs	= bbr2_min_tso_segs,
#endif
#ifdef BBR2_HAVE_TSO_SEGS
	.tso_segs	= bbr2_tso_segs,
#endif
	.get_info	= bbr2_get_info,
	.set_state	= bbr2_traced_set_state,
};

/* ---------------------------------------------------------------------- */
/* Scalar parameters.                                                      */

static int bbr2_scalar_param_set(const char *val, const struct kernel_param *kp)
{
	struct bbr2_param *param = kp->arg;
	u32 parsed;

	if (bbr2_param_parse_u32(param, val, &parsed)) {
		pr_warn_ratelimited("%s: rejected: not an integer in [%u, %u]\n",
				    param->name, param->min, param->max);
		return -EINVAL;
	}
	WRITE_ONCE(param->value, parsed);
	return 0;
}

static int bbr2_scalar_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct bbr2_param *param = kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%u\n", READ_ONCE(param->value));
}

static const struct kernel_param_ops bbr2_scalar_param_ops = {
	.set = bbr2_scalar_param_set,
	.get = bbr2_scalar_param_get,
};

module_param_cb(high_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_HIGH_GAIN], 0644);
MODULE_PARM_DESC(high_gain, "STARTUP pacing gain, 1/256 (710 = 2.77 = 4ln2; v2: 739 = 2.885) [256..2047; default 710, v2 739]");

module_param_cb(startup_cwnd_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_STARTUP_CWND_GAIN], 0644);
MODULE_PARM_DESC(startup_cwnd_gain, "STARTUP and DRAIN cwnd gain, 1/256 (512 = 2.0) [256..2047; default 512, v2 739]");

module_param_cb(drain_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_DRAIN_GAIN], 0644);
MODULE_PARM_DESC(drain_gain, "DRAIN pacing gain, 1/256 (88 = 0.344 = 1/2.885) [1..256; default 88, v2 88]");

module_param_cb(cwnd_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_CWND_GAIN], 0644);
MODULE_PARM_DESC(cwnd_gain, "PROBE_BW cwnd gain, 1/256 (512 = 2.0) [256..2047; default 512, v2 512]");

module_param_cb(bw_probe_cwnd_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_CWND_GAIN], 0644);
MODULE_PARM_DESC(bw_probe_cwnd_gain, "extra PROBE_BW UP cwnd gain, in quarters (1 = +0.25) [0..3; default 1, v2 0]");

module_param_cb(bw_probe_pif_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_PIF_GAIN], 0644);
MODULE_PARM_DESC(bw_probe_pif_gain, "v2 PROBE_BW UP ends when inflight reaches this BDP multiple, 1/256 [256..511; default 320, v2 320]");

module_param_cb(cwnd_min_target, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_CWND_MIN_TARGET], 0644);
MODULE_PARM_DESC(cwnd_min_target, "minimum cwnd, packets [2..255; default 4, v2 4]");

module_param_cb(probe_rtt_cwnd_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_PROBE_RTT_CWND_GAIN], 0644);
MODULE_PARM_DESC(probe_rtt_cwnd_gain, "PROBE_RTT cwnd as a fraction of BDP, 1/256 (0 = cwnd_min_target) [0..256; default 128, v2 128]");

module_param_cb(min_rtt_win_sec, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_MIN_RTT_WIN_SEC], 0644);
MODULE_PARM_DESC(min_rtt_win_sec, "min_rtt filter window, seconds [1..60; default 10, v2 10]");

module_param_cb(probe_rtt_mode_ms, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_PROBE_RTT_MODE_MS], 0644);
MODULE_PARM_DESC(probe_rtt_mode_ms, "time spent in PROBE_RTT, ms (0 = never enter PROBE_RTT) [0..2000; default 200, v2 200]");

module_param_cb(probe_rtt_win_ms, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_PROBE_RTT_WIN_MS], 0644);
MODULE_PARM_DESC(probe_rtt_win_ms, "interval between PROBE_RTTs, ms (capped at min_rtt_win_sec) [100..60000; default 5000, v2 5000]");

module_param_cb(full_bw_thresh, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_FULL_BW_THRESH], 0644);
MODULE_PARM_DESC(full_bw_thresh, "bw growth per round that means the pipe is not full, 1/256 [257..1023; default 320, v2 320]");

module_param_cb(full_bw_cnt, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_FULL_BW_CNT], 0644);
MODULE_PARM_DESC(full_bw_cnt, "rounds without full_bw_thresh growth that end STARTUP [1..7; default 3, v2 3]");

module_param_cb(full_loss_cnt, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_FULL_LOSS_CNT], 0644);
MODULE_PARM_DESC(full_loss_cnt, "loss events in a lossy round that end STARTUP (0 = off) [0..15; default 6, v2 8]");

module_param_cb(full_ecn_cnt, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_FULL_ECN_CNT], 0644);
MODULE_PARM_DESC(full_ecn_cnt, "rounds above ecn_thresh that end STARTUP (0 = off) [0..3; default 2, v2 2]");

module_param_cb(loss_thresh, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_LOSS_THRESH], 0644);
MODULE_PARM_DESC(loss_thresh, "loss rate per round that bounds inflight_hi, 1/256 (5 = 2%) [1..255; default 5, v2 5]");

module_param_cb(beta, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BETA], 0644);
MODULE_PARM_DESC(beta, "multiplicative cut of bw_lo/inflight_lo on loss, 1/256 (76 = 30%) [0..255; default 76, v2 76]");

module_param_cb(inflight_headroom, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_INFLIGHT_HEADROOM], 0644);
MODULE_PARM_DESC(inflight_headroom, "headroom left below inflight_hi when cruising, 1/256 (38 = 15%) [0..255; default 38, v2 38]");

module_param_cb(ecn_enable, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_ENABLE], 0644);
MODULE_PARM_DESC(ecn_enable, "react to ECN CE marks on ECN-capable connections (0/1) [0..1; default 0, v2 0]");

module_param_cb(ecn_thresh, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_THRESH], 0644);
MODULE_PARM_DESC(ecn_thresh, "CE ratio that bounds inflight_hi, 1/256 (0 = off) [0..255; default 128, v2 128]");

module_param_cb(ecn_alpha_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_ALPHA_GAIN], 0644);
MODULE_PARM_DESC(ecn_alpha_gain, "EWMA gain of the CE ratio estimate alpha, 1/256 [0..255; default 16, v2 16]");

module_param_cb(ecn_alpha_init, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_ALPHA_INIT], 0644);
MODULE_PARM_DESC(ecn_alpha_init, "initial alpha, 1/256 [0..256; default 256, v2 256]");

module_param_cb(ecn_factor, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_FACTOR], 0644);
MODULE_PARM_DESC(ecn_factor, "inflight_lo cut per CE round is alpha*ecn_factor, 1/256 (0 = off) [0..255; default 85, v2 85]");

module_param_cb(ecn_max_rtt_us, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_MAX_RTT_US], 0644);
MODULE_PARM_DESC(ecn_max_rtt_us, "use ECN only below this min_rtt, us (0 = any RTT) [0..524287; default 5000, v2 5000]");

module_param_cb(ecn_reprobe_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_ECN_REPROBE_GAIN], 0644);
MODULE_PARM_DESC(ecn_reprobe_gain, "after ECN clears, reprobe from this fraction of inflight_hi, 1/256 [0..511; default 128, v2 0]");

module_param_cb(extra_acked_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_EXTRA_ACKED_GAIN], 0644);
MODULE_PARM_DESC(extra_acked_gain, "gain on the ACK aggregation cwnd allowance, 1/256 [0..2047; default 256, v2 256]");

module_param_cb(extra_acked_win_rtts, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_EXTRA_ACKED_WIN_RTTS], 0644);
MODULE_PARM_DESC(extra_acked_win_rtts, "ACK aggregation filter window, round trips [1..31; default 5, v2 5]");

module_param_cb(extra_acked_max_us, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_EXTRA_ACKED_MAX_US], 0644);
MODULE_PARM_DESC(extra_acked_max_us, "cap on the ACK aggregation allowance, us of bw [0..1000000; default 100000, v2 100000]");

module_param_cb(bw_probe_max_rounds, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_MAX_ROUNDS], 0644);
MODULE_PARM_DESC(bw_probe_max_rounds, "most rounds between bw probes (Reno coexistence) [1..255; default 63, v2 63]");

module_param_cb(bw_probe_rand_rounds, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_RAND_ROUNDS], 0644);
MODULE_PARM_DESC(bw_probe_rand_rounds, "random rounds subtracted from that wait [0..15; default 2, v2 2]");

module_param_cb(bw_probe_reno_gain, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_RENO_GAIN], 0644);
MODULE_PARM_DESC(bw_probe_reno_gain, "Reno-style probe wait is this multiple of BDP rounds, 1/256 [0..511; default 256, v2 256]");

module_param_cb(bw_probe_base_us, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_BASE_US], 0644);
MODULE_PARM_DESC(bw_probe_base_us, "least wall-clock time between bw probes, us [0..67108863; default 2000000, v2 2000000]");

module_param_cb(bw_probe_rand_us, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_BW_PROBE_RAND_US], 0644);
MODULE_PARM_DESC(bw_probe_rand_us, "random extra wall-clock time between bw probes, us [0..67108863; default 1000000, v2 1000000]");

module_param_cb(drain_to_target, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_DRAIN_TO_TARGET], 0644);
MODULE_PARM_DESC(drain_to_target, "PROBE_BW DOWN lasts until inflight <= BDP (0: or one min_rtt) [0..1; default 1, v2 1]");

module_param_cb(undo, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_UNDO], 0644);
MODULE_PARM_DESC(undo, "undo the model's loss response after spurious recovery (0/1) [0..1; default 1, v2 1]");

module_param_cb(min_tso_rate, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_MIN_TSO_RATE], 0644);
MODULE_PARM_DESC(min_tso_rate, "below this pacing rate use 1-segment TSO bursts, bit/s [0..2147483647; default 1200000, v2 1200000]");

module_param_cb(tso_rtt_shift, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_TSO_RTT_SHIFT], 0644);
MODULE_PARM_DESC(tso_rtt_shift, "halve the RTT-based TSO allowance per 2^N us of min_rtt (0 = off) [0..15; default 9, v2 9]");

module_param_cb(loss_mode, &bbr2_scalar_param_ops,
		&bbr2_param_table[BBR2_PARAM_LOSS_MODE], 0644);
MODULE_PARM_DESC(loss_mode, "1: loss cuts inflight only with a standing queue or above the background loss rate, ends STARTUP with a queue, Reno-timed probes only with a queue, cruises 3 packets further below inflight_hi, lowers it a packet per cruising round that lost 3+, min_rtt follows a competitor's standing queue in 7.5 s (0: as BBRv3) [0..1; default 0, v2 0]");

/* ---------------------------------------------------------------------- */
/* pacing_gain: the PROBE_BW gain cycle, as in v2alpha.                    */

static int bbr2_pacing_gain_param_set(const char *val,
				      const struct kernel_param *kp)
{
	if (bbr2_param_parse_pacing_gain(val, bbr2_pacing_gain_cycle)) {
		pr_warn_ratelimited("pacing_gain: rejected: need 4 or 8 comma-separated gains in [%u, %u], UP > 256 > DOWN\n",
				    BBR2_PACING_GAIN_MIN, BBR2_PACING_GAIN_MAX);
		return -EINVAL;
	}
	return 0;
}

static int bbr2_pacing_gain_param_get(char *buffer,
				      const struct kernel_param *kp)
{
	const u32 *g = bbr2_pacing_gain_cycle;

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
	return scnprintf(buffer, PAGE_SIZE, "%u\n", READ_ONCE(bbr2_version));
}

static const struct kernel_param_ops bbr2_version_param_ops = {
	.set = bbr2_version_param_set,
	.get = bbr2_version_param_get,
};

module_param_cb(version, &bbr2_version_param_ops, NULL, 0644);
MODULE_PARM_DESC(version,
		 "algorithm: 3 = BBRv3, 2 = BBRv2 alpha; writing it loads that version's defaults into every other parameter [2..3; default 3]");

/* ---------------------------------------------------------------------- */

/* A default outside its own range is a bug in the table: refuse to load. */
static int __init bbr2_check_param_table(void)
{
	unsigned int i;

	for (i = 0; i < BBR2_NR_PARAMS; i++) {
		const struct bbr2_param *p = &bbr2_param_table[i];

		if (WARN_ON(!p->name || p->min > p->max ||
			    p->v3_default < p->min || p->v3_default > p->max ||
			    p->v2_default < p->min || p->v2_default > p->max))
			return -EINVAL;
	}
	return 0;
}

static int __init bbr2_register(void)
{
	int err;

	/* The whole per-socket state must fit the stock private area. */
	BUILD_BUG_ON(sizeof(struct bbr2) > ICSK_CA_PRIV_SIZE);
	err = bbr2_check_param_table();
	if (err)
		return err;
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
