// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr2 module glue: registers the congestion controls "bbr2" and
 * "bbr2_ref" and exposes every tunable, shared by both, under
 * /sys/module/tcp_bbr2/parameters/.  The algorithm itself is in
 * bbr2_model.c.
 *
 * Each parameter has its own range (src/bbr2_params.c), and the set as a
 * whole must pass bbr2_tunables_check().  A write that fails either check
 * fails with -EINVAL, says why in the kernel log and leaves the old set: a
 * tunable read by every ACK of every bbr2 socket must never hold a value
 * the algorithm was not written for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "bbr2.h"
#include "bbr2_trace.h"

#define BBR2_MODULE_VERSION	"1.0.0"

/*
 * The active tunables: one immutable set, replaced whole by a parameter
 * write (bbr2_tunables_publish()).  Each hook loads the pointer once, at
 * its entry, inside an RCU read-side section, and hands the set down the
 * model: one hook invocation sees one set, never half of a switch.
 */
static const struct bbr2_tunables __rcu *bbr2_tunables_active =
	RCU_INITIALIZER(&bbr2_tunables_boot);

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
 * off each hook is only the static-key tests and a call into the
 * algorithm: no snapshot to clear on every ACK.
 */
static noinline void bbr2_main_traced(struct sock *sk,
				      const struct rate_sample *rs,
				      const struct bbr2_tunables *t)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_main(sk, rs, t);
	bbr2_trace_changes(sk, &snap, rs->losses);
}

static void bbr2_cong_control(BBR2_CONG_CONTROL_ARGS)
{
	const struct bbr2_tunables *t;

	rcu_read_lock();
	t = rcu_dereference(bbr2_tunables_active);
	if (unlikely(bbr2_tracing()))
		bbr2_main_traced(sk, rs, t);
	else
		bbr2_main(sk, rs, t);
	rcu_read_unlock();
}

static void bbr2_glue_init(struct sock *sk, bool reference)
{
	struct bbr2_trace_snap snap = {};

	rcu_read_lock();
	bbr2_init(sk, rcu_dereference(bbr2_tunables_active), reference);
	rcu_read_unlock();
	if (bbr2_tracing())
		bbr2_trace_changes(sk, &snap, 0);
}

/* init() is the one hook that differs between the names: it sets the flavour. */
static void bbr2_traced_init(struct sock *sk)
{
	bbr2_glue_init(sk, false);
}

static void bbr2_ref_traced_init(struct sock *sk)
{
	bbr2_glue_init(sk, true);
}

static noinline void bbr2_cwnd_event_traced(struct sock *sk,
					    enum tcp_ca_event event,
					    const struct bbr2_tunables *t)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_cwnd_event(sk, event, t);
	bbr2_trace_changes(sk, &snap, 0);
}

/* Idle restart may end PROBE_RTT, an RTO resets bounds: trace them too. */
static void bbr2_traced_cwnd_event(struct sock *sk, enum tcp_ca_event event)
{
	const struct bbr2_tunables *t;

	rcu_read_lock();
	t = rcu_dereference(bbr2_tunables_active);
	if (unlikely(bbr2_tracing()))
		bbr2_cwnd_event_traced(sk, event, t);
	else
		bbr2_cwnd_event(sk, event, t);
	rcu_read_unlock();
}

static noinline void bbr2_set_state_traced(struct sock *sk, u8 new_state,
					   const struct bbr2_tunables *t)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_set_state(sk, new_state, t);
	bbr2_trace_changes(sk, &snap, 0);
}

static void bbr2_traced_set_state(struct sock *sk, u8 new_state)
{
	const struct bbr2_tunables *t;

	rcu_read_lock();
	t = rcu_dereference(bbr2_tunables_active);
	if (unlikely(bbr2_tracing()))
		bbr2_set_state_traced(sk, new_state, t);
	else
		bbr2_set_state(sk, new_state, t);
	rcu_read_unlock();
}

static noinline u32
bbr2_undo_cwnd_traced(struct sock *sk, const struct bbr2_tunables *t)
{
	struct bbr2_trace_snap snap;
	u32 ret;

	bbr2_trace_snap(sk, &snap);
	ret = bbr2_undo_cwnd(sk, t);
	bbr2_trace_changes(sk, &snap, 0);
	return ret;
}

/* A spurious recovery's undo restores the bounds: trace it. */
static u32 bbr2_traced_undo_cwnd(struct sock *sk)
{
	const struct bbr2_tunables *t;
	u32 ret;

	rcu_read_lock();
	t = rcu_dereference(bbr2_tunables_active);
	if (unlikely(bbr2_tracing()))
		ret = bbr2_undo_cwnd_traced(sk, t);
	else
		ret = bbr2_undo_cwnd(sk, t);
	rcu_read_unlock();
	return ret;
}

#ifdef BBR2_HAVE_CWND_EVENT_TX_START
static noinline void bbr2_tx_start_traced(struct sock *sk,
					  const struct bbr2_tunables *t)
{
	struct bbr2_trace_snap snap;

	bbr2_trace_snap(sk, &snap);
	bbr2_cwnd_event_tx_start(sk, t);
	bbr2_trace_changes(sk, &snap, 0);
}

/* 7.1+: the idle restart's own op; it may end PROBE_RTT, as above. */
static void bbr2_traced_cwnd_event_tx_start(struct sock *sk)
{
	const struct bbr2_tunables *t;

	rcu_read_lock();
	t = rcu_dereference(bbr2_tunables_active);
	if (unlikely(bbr2_tracing()))
		bbr2_tx_start_traced(sk, t);
	else
		bbr2_cwnd_event_tx_start(sk, t);
	rcu_read_unlock();
}
#endif

#ifdef BBR2_HAVE_MIN_TSO_SEGS
static u32 bbr2_glue_min_tso_segs(struct sock *sk)
{
	u32 ret;

	rcu_read_lock();
	ret = bbr2_min_tso_segs(sk, rcu_dereference(bbr2_tunables_active));
	rcu_read_unlock();
	return ret;
}
#endif

#ifdef BBR2_HAVE_TSO_SEGS
static u32 bbr2_glue_tso_segs(struct sock *sk, unsigned int mss_now)
{
	u32 ret;

	rcu_read_lock();
	ret = bbr2_tso_segs(sk, mss_now, rcu_dereference(bbr2_tunables_active));
	rcu_read_unlock();
	return ret;
}
#endif

static size_t bbr2_glue_get_info(struct sock *sk, u32 ext, int *attr,
				 union tcp_cc_info *info)
{
	size_t ret;

	rcu_read_lock();
	ret = bbr2_get_info(sk, ext, attr, info,
			    rcu_dereference(bbr2_tunables_active));
	rcu_read_unlock();
	return ret;
}

/*
 * Two names, one model and one set of tunables.  "bbr2" runs the model with
 * the project's extensions as the parameters select them (loss_mode);
 * "bbr2_ref" runs Google's model exactly, whatever those parameters say.
 * version=2 applies to both.  A socket's flavour is fixed by the name it
 * selected, at init(); every other hook is shared.
 */
#ifdef BBR2_HAVE_CWND_EVENT_TX_START
#define BBR2_OPS_CWND_EVENT_TX_START					\
	.cwnd_event_tx_start = bbr2_traced_cwnd_event_tx_start,
#else
#define BBR2_OPS_CWND_EVENT_TX_START
#endif
#ifdef BBR2_HAVE_MIN_TSO_SEGS
#define BBR2_OPS_MIN_TSO_SEGS	.min_tso_segs = bbr2_glue_min_tso_segs,
#else
#define BBR2_OPS_MIN_TSO_SEGS
#endif
#ifdef BBR2_HAVE_TSO_SEGS
#define BBR2_OPS_TSO_SEGS	.tso_segs = bbr2_glue_tso_segs,
#else
#define BBR2_OPS_TSO_SEGS
#endif

#define BBR2_CONG_OPS(ops_name, init_fn)				\
	/* Unprivileged users and containers may select it, as bbr. */	\
	.flags		= TCP_CONG_NON_RESTRICTED,			\
	.name		= ops_name,					\
	.owner		= THIS_MODULE,					\
	.init		= init_fn,					\
	.cong_control	= bbr2_cong_control,				\
	.sndbuf_expand	= bbr2_sndbuf_expand,				\
	.undo_cwnd	= bbr2_traced_undo_cwnd,			\
	.cwnd_event	= bbr2_traced_cwnd_event,			\
	BBR2_OPS_CWND_EVENT_TX_START					\
	.in_ack_event	= bbr2_in_ack_event,				\
	.ssthresh	= bbr2_ssthresh,				\
	BBR2_OPS_MIN_TSO_SEGS						\
	BBR2_OPS_TSO_SEGS						\
	.get_info	= bbr2_glue_get_info,				\
	.set_state	= bbr2_traced_set_state

static struct tcp_congestion_ops tcp_bbr2_cong_ops __read_mostly = {
	BBR2_CONG_OPS("bbr2", bbr2_traced_init),
};

static struct tcp_congestion_ops tcp_bbr2_ref_cong_ops __read_mostly = {
	BBR2_CONG_OPS("bbr2_ref", bbr2_ref_traced_init),
};

/* ---------------------------------------------------------------------- */
/* Writing the tunables.                                                   */

/* A published set, with what kfree_rcu() needs. */
struct bbr2_tunables_box {
	struct bbr2_tunables	t;
	struct rcu_head		rcu;
};

/* Serializes writers; readers take no lock. */
static DEFINE_MUTEX(bbr2_tunables_lock);
/* The box of the active set; NULL while that is bbr2_tunables_boot. */
static struct bbr2_tunables_box *bbr2_tunables_box;
/* Set at module exit: no write may publish a set after it. */
static bool bbr2_tunables_closed;

/*
 * Write NAME=VAL: copy the active set, change the copy, validate it whole,
 * publish it with one pointer store, and free the old set once no hook can
 * still be reading it.  Process context only (sysfs, insmod arguments,
 * which are parsed before module_init() and go through here too).
 */
static int bbr2_tunables_publish(const char *name, const char *val)
{
	struct bbr2_tunables_box *box, *old;
	char why[BBR2_WHY_LEN];
	int err;

	box = kmalloc(sizeof(*box), GFP_KERNEL);
	if (!box)
		return -ENOMEM;
	mutex_lock(&bbr2_tunables_lock);
	if (bbr2_tunables_closed) {
		err = -ENODEV;
		goto fail;
	}
	box->t = *rcu_dereference_protected(bbr2_tunables_active,
				lockdep_is_held(&bbr2_tunables_lock));
	err = bbr2_tunables_write(&box->t, name, val, why, sizeof(why));
	if (err) {
		pr_warn_ratelimited("%s=%.*s rejected: %s\n", name,
				    (int)strcspn(val, "\n"), val, why);
		goto fail;
	}
	old = bbr2_tunables_box;
	bbr2_tunables_box = box;
	rcu_assign_pointer(bbr2_tunables_active, &box->t);
	mutex_unlock(&bbr2_tunables_lock);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
fail:
	mutex_unlock(&bbr2_tunables_lock);
	kfree(box);
	return err;
}

/* Module exit: back to the static set, and free the last published one. */
static void bbr2_tunables_release(void)
{
	struct bbr2_tunables_box *old;

	mutex_lock(&bbr2_tunables_lock);
	bbr2_tunables_closed = true;
	old = bbr2_tunables_box;
	bbr2_tunables_box = NULL;
	rcu_assign_pointer(bbr2_tunables_active, &bbr2_tunables_boot);
	mutex_unlock(&bbr2_tunables_lock);
	if (old)
		kfree_rcu(old, rcu);
}

/* Every parameter's kernel_param carries its name; sysfs gives it here. */
static const char *bbr2_tunable_name(const struct kernel_param *kp)
{
	const char *dot = strrchr(kp->name, '.');	/* built in: "tcp_bbr2." */

	return dot ? dot + 1 : kp->name;
}

static int bbr2_tunable_param_set(const char *val,
				  const struct kernel_param *kp)
{
	return bbr2_tunables_publish(bbr2_tunable_name(kp), val);
}

static int bbr2_tunable_param_get(char *buffer, const struct kernel_param *kp)
{
	int n;

	rcu_read_lock();
	n = bbr2_tunables_read(rcu_dereference(bbr2_tunables_active),
			       bbr2_tunable_name(kp), buffer, PAGE_SIZE);
	rcu_read_unlock();
	return n;
}

static const struct kernel_param_ops bbr2_tunable_param_ops = {
	.set = bbr2_tunable_param_set,
	.get = bbr2_tunable_param_get,
};

/* ---------------------------------------------------------------------- */
/* Scalar parameters.                                                      */

module_param_cb(high_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(high_gain, "STARTUP pacing gain, 1/256 (710 = 2.77 = 4ln2; v2: 739 = 2.885) [256..2047; default 710, v2 739]");

module_param_cb(startup_cwnd_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(startup_cwnd_gain, "STARTUP and DRAIN cwnd gain, 1/256 (512 = 2.0) [256..2047; default 512, v2 739]");

module_param_cb(drain_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(drain_gain, "DRAIN pacing gain, 1/256 (88 = 0.344 = 1/2.885) [1..230; default 88, v2 88]");

module_param_cb(cwnd_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(cwnd_gain, "PROBE_BW cwnd gain, 1/256 (512 = 2.0) [256..2047; default 512, v2 512]");

module_param_cb(bw_probe_cwnd_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_cwnd_gain, "extra PROBE_BW UP cwnd gain, in quarters (1 = +0.25) [0..3; default 1, v2 0]");

module_param_cb(bw_probe_pif_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_pif_gain, "v2 PROBE_BW UP ends when inflight reaches this BDP multiple, 1/256 [256..511; default 320, v2 320]");

module_param_cb(cwnd_min_target, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(cwnd_min_target, "minimum cwnd, packets [2..255; default 4, v2 4]");

module_param_cb(probe_rtt_cwnd_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(probe_rtt_cwnd_gain, "PROBE_RTT cwnd as a fraction of BDP, 1/256 (0 = cwnd_min_target) [0..256; default 128, v2 128]");

module_param_cb(min_rtt_win_sec, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(min_rtt_win_sec, "min_rtt filter window, seconds [1..60; default 10, v2 10]");

module_param_cb(probe_rtt_mode_ms, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(probe_rtt_mode_ms, "time spent in PROBE_RTT, ms (0 = never enter PROBE_RTT) [0..2000; default 200, v2 200]");

module_param_cb(probe_rtt_win_ms, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(probe_rtt_win_ms, "interval between PROBE_RTTs, ms (capped at min_rtt_win_sec) [100..60000; default 5000, v2 5000]");

module_param_cb(full_bw_thresh, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(full_bw_thresh, "bw growth per round that means the pipe is not full, 1/256 [257..1023; default 320, v2 320]");

module_param_cb(full_bw_cnt, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(full_bw_cnt, "rounds without full_bw_thresh growth that end STARTUP [1..7; default 3, v2 3]");

module_param_cb(full_loss_cnt, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(full_loss_cnt, "loss events in a lossy round that end STARTUP (0 = off) [0..15; default 6, v2 8]");

module_param_cb(full_ecn_cnt, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(full_ecn_cnt, "rounds above ecn_thresh that end STARTUP (0 = off) [0..3; default 2, v2 2]");

module_param_cb(loss_thresh, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(loss_thresh, "loss rate per round that bounds inflight_hi, 1/256 (5 = 2%) [1..255; default 5, v2 5]");

module_param_cb(beta, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(beta, "multiplicative cut of bw_lo/inflight_lo on loss, 1/256 (76 = 30%) [0..255; default 76, v2 76]");

module_param_cb(inflight_headroom, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(inflight_headroom, "headroom left below inflight_hi when cruising, 1/256 (38 = 15%) [0..255; default 38, v2 38]");

module_param_cb(ecn_enable, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_enable, "react to ECN CE marks on ECN-capable connections (0/1) [0..1; default 0, v2 0]");

module_param_cb(ecn_thresh, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_thresh, "CE ratio that bounds inflight_hi, 1/256 (0 = off) [0..255; default 128, v2 128]");

module_param_cb(ecn_alpha_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_alpha_gain, "EWMA gain of the CE ratio estimate alpha, 1/256 [0..255; default 16, v2 16]");

module_param_cb(ecn_alpha_init, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_alpha_init, "initial alpha, 1/256 [0..256; default 256, v2 256]");

module_param_cb(ecn_factor, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_factor, "inflight_lo cut per CE round is alpha*ecn_factor, 1/256 (0 = off) [0..255; default 85, v2 85]");

module_param_cb(ecn_max_rtt_us, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_max_rtt_us, "use ECN only below this min_rtt, us (0 = any RTT) [0..524287; default 5000, v2 5000]");

module_param_cb(ecn_reprobe_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(ecn_reprobe_gain, "after ECN clears, reprobe from this fraction of inflight_hi, 1/256 [0..511; default 128, v2 0]");

module_param_cb(extra_acked_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(extra_acked_gain, "gain on the ACK aggregation cwnd allowance, 1/256 [0..2047; default 256, v2 256]");

module_param_cb(extra_acked_win_rtts, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(extra_acked_win_rtts, "ACK aggregation filter window, round trips [1..31; default 5, v2 5]");

module_param_cb(extra_acked_max_us, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(extra_acked_max_us, "cap on the ACK aggregation allowance, us of bw [0..1000000; default 100000, v2 100000]");

module_param_cb(bw_probe_max_rounds, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_max_rounds, "most rounds between bw probes (Reno coexistence) [1..255; default 63, v2 63]");

module_param_cb(bw_probe_rand_rounds, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_rand_rounds, "random rounds subtracted from that wait [0..15; default 2, v2 2]");

module_param_cb(bw_probe_reno_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_reno_gain, "Reno-style probe wait is this multiple of BDP rounds, 1/256 [0..511; default 256, v2 256]");

module_param_cb(bw_probe_base_us, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_base_us, "least wall-clock time between bw probes, us [0..33554431; default 2000000, v2 2000000]");

module_param_cb(bw_probe_rand_us, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(bw_probe_rand_us, "random extra wall-clock time between bw probes, us [0..33554431; default 1000000, v2 1000000]");

module_param_cb(drain_to_target, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(drain_to_target, "PROBE_BW DOWN lasts until inflight <= BDP (0: or one min_rtt) [0..1; default 1, v2 1]");

module_param_cb(undo, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(undo, "undo the model's loss response after spurious recovery (0/1) [0..1; default 1, v2 1]");

module_param_cb(min_tso_rate, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(min_tso_rate, "below this pacing rate use 1-segment TSO bursts, bit/s [0..2147483647; default 1200000, v2 1200000]");

module_param_cb(tso_rtt_shift, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(tso_rtt_shift, "halve the RTT-based TSO allowance per 2^N us of min_rtt (0 = off) [0..15; default 9, v2 9]");

module_param_cb(loss_mode, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(loss_mode, "1: loss cuts inflight only with a standing queue or above the background loss rate, ends STARTUP on loss beyond any background in a shallow buffer, Reno-timed probes only with a queue, cruises 3 packets further below inflight_hi, lowers it a packet per cruising round that lost 2+, min_rtt follows a competitor's standing queue in 7.5 s (0: as BBRv3); bbr2 sockets with SACK only, bbr2_ref runs 0 [0..1; default 0, v2 0]");

/* ---------------------------------------------------------------------- */
/* pacing_gain: the PROBE_BW gain cycle, as in v2alpha.                    */

module_param_cb(pacing_gain, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(pacing_gain,
		 "PROBE_BW pacing gains UP,DOWN,CRUISE,REFILL[,4 unused], 1/256; UP > 256 > DOWN, CRUISE and REFILL >= 192 [1..1023; v3 default 320,232,256,256,256,256,256,256, v2 320,192,256,...]");

/* ---------------------------------------------------------------------- */
/* version: BBRv3 or BBRv2 behaviour, with that version's constants.      */

module_param_cb(version, &bbr2_tunable_param_ops, NULL, 0644);
MODULE_PARM_DESC(version,
		 "algorithm of bbr2 and bbr2_ref: 3 = BBRv3, 2 = BBRv2 alpha; every parameter not set explicitly follows this version's default, explicitly set ones keep their values (write default to a parameter to make it follow again) [2..3; default 3]");

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
	/* struct bbr2's probe_wait_us is 26 bits: base + random part */
	if (WARN_ON(bbr2_param_table[BBR2_PARAM_BW_PROBE_BASE_US].max +
		    bbr2_param_table[BBR2_PARAM_BW_PROBE_RAND_US].max >=
		    BIT(26)))
		return -EINVAL;
	return 0;
}

static int __init bbr2_register(void)
{
	int err;

	/* The whole per-socket state must fit the stock private area. */
	BUILD_BUG_ON(sizeof(struct bbr2) > ICSK_CA_PRIV_SIZE);
	err = bbr2_check_param_table();
	if (err)
		goto out;
	err = tcp_register_congestion_control(&tcp_bbr2_cong_ops);
	if (err)
		goto out;
	err = tcp_register_congestion_control(&tcp_bbr2_ref_cong_ops);
	if (err)
		tcp_unregister_congestion_control(&tcp_bbr2_cong_ops);
out:
	if (err)
		bbr2_tunables_release();
	return err;
}

static void __exit bbr2_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_bbr2_ref_cong_ops);
	tcp_unregister_congestion_control(&tcp_bbr2_cong_ops);
	bbr2_tunables_release();
}

module_init(bbr2_register);
module_exit(bbr2_unregister);

MODULE_AUTHOR("tcp_bbr2 developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP BBRv3/BBRv2 congestion control for unmodified kernels");
MODULE_VERSION(BBR2_MODULE_VERSION);
