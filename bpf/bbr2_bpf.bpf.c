// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2_bpf: tcp_bbr2's algorithm as a BPF struct_ops TCP congestion
 * control.  src/bbr2_model.c is compiled here unchanged; bbr2_bpf_shim.h
 * maps the kernel API it uses onto what a BPF congestion control may use.
 *
 * The tunables are this object's initialised global data (the .data map),
 * which starts as the module's defaults (bbr2_bpf_defaults.h, generated
 * from src/bbr2_params.c), so that the object runs as the module does
 * however it is registered; the loader (bbr2-bpf) writes them, validated
 * by src/bbr2_params.c in userspace.
 *
 * get_info() is not available to a BPF congestion control, so ss -ti shows
 * no bbr fields; the "sockets" iterator below prints the model's state of
 * every bbr2_bpf socket instead (bbr2-bpf show).
 */
#include "bbr2_bpf_shim.h"
#include "bbr2.h"
#include <bpf/bpf_endian.h>

/*
 * The tunables: two complete sets (struct bbr2_tunables, src/bbr2_params.h)
 * in initialised data, both the module's boot set (bbr2_bpf_defaults.h,
 * generated from bbr2_tunables_boot), and the index of the active one.
 * Each hook reads the index once and uses that one set throughout.  The
 * loader writes a new set into the inactive slot, then flips the index, and
 * waits a grace period before it may write that slot again (bpf.rst).
 */
#include "bbr2_bpf_defaults.h"
struct bbr2_tunables bbr2_tunables_set[2] = {
	BBR2_BPF_TUNABLES_INIT, BBR2_BPF_TUNABLES_INIT
};

u64 bbr2_tunables_idx SEC(".data");

/* The set this hook invocation uses, chosen once at its entry. */
static __always_inline const struct bbr2_tunables *bbr2_bpf_tunables(void)
{
	return &bbr2_tunables_set[READ_ONCE(bbr2_tunables_idx) & 1];
}

/* The per-CPU working copies of the private area (bbr2_bpf_shim.h). */
struct bbr2_bpf_cpu bbr2_bpf_cpus[BBR2_BPF_MAX_CPUS];

#ifndef BBR2_BPF_DIAG_NO_PREEMPT
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;
#else
/*
 * Diagnostic build only (make BPF_DIAG=1): without the 6.10 kfunc, libbpf
 * passes the program to an older kernel's verifier, which then says what
 * else it refuses.  Not for use: the per-CPU slots need preemption off.
 */
static __always_inline void bpf_preempt_disable(void) { }
static __always_inline void bpf_preempt_enable(void) { }
#endif

/* struct bbr2 must fit the stock private area (a division by 0 if not). */
enum { BBR2_BPF_PRIV_FITS = 1 / (sizeof(struct bbr2) <= BBR2_BPF_PRIV_WORDS * 8) };

/*
 * Take this CPU's next slot for the socket (bbr2_bpf_cpu.h), with
 * preemption off until bbr2_bpf_exit(); false, and preemption on again,
 * if there is none.
 */
static __always_inline bool bbr2_bpf_enter(struct sock *sk)
{
	u64 *priv = (u64 *)(inet_csk(sk)->icsk_ca_priv);
	u32 cpu;

	bpf_preempt_disable();
	cpu = bpf_get_smp_processor_id();
	if (cpu < BBR2_BPF_MAX_CPUS &&
	    bbr2_bpf_slot_take(&bbr2_bpf_cpus[cpu], priv))
		return true;
	bpf_preempt_enable();
	return false;
}

/* Copy the slot back to the socket and release it. */
static __always_inline void bbr2_bpf_exit(struct sock *sk)
{
	u64 *priv = (u64 *)(inet_csk(sk)->icsk_ca_priv);

	bbr2_bpf_slot_put(&bbr2_bpf_cpus[bpf_get_smp_processor_id() &
					 (BBR2_BPF_MAX_CPUS - 1)], priv);
	bpf_preempt_enable();
}

/*
 * The model's entry points have external linkage; the verifier checks a
 * global BPF function on its own, without the socket types of its caller,
 * so each is inlined into the program that calls it instead.
 */
#define BBR2_BPF_INLINE	__attribute__((always_inline))
void bbr2_init(struct sock *sk, const struct bbr2_tunables *t) BBR2_BPF_INLINE;
void bbr2_main(struct sock *sk, const struct rate_sample *rs,
	       const struct bbr2_tunables *t) BBR2_BPF_INLINE;
u32 bbr2_ssthresh(struct sock *sk) BBR2_BPF_INLINE;
u32 bbr2_undo_cwnd(struct sock *sk, const struct bbr2_tunables *t) BBR2_BPF_INLINE;
void bbr2_set_state(struct sock *sk, u8 new_state,
		    const struct bbr2_tunables *t) BBR2_BPF_INLINE;
void bbr2_cwnd_event(struct sock *sk, enum tcp_ca_event event,
		     const struct bbr2_tunables *t) BBR2_BPF_INLINE;
void bbr2_cwnd_event_tx_start(struct sock *sk,
			      const struct bbr2_tunables *t) BBR2_BPF_INLINE;
void bbr2_in_ack_event(struct sock *sk, u32 flags) BBR2_BPF_INLINE;
u32 bbr2_min_tso_segs(struct sock *sk,
		      const struct bbr2_tunables *t) BBR2_BPF_INLINE;
u32 bbr2_sndbuf_expand(struct sock *sk) BBR2_BPF_INLINE;

#include "../src/bbr2_model.c"

static __always_inline struct bbr2_bpf_cpu *bbr2_bpf_this_cpu(void)
{
	return &bbr2_bpf_cpus[bpf_get_smp_processor_id() &
			      (BBR2_BPF_MAX_CPUS - 1)];
}

/* An init() that finds no slot is counted; cong_control() recovers it. */
SEC("struct_ops/bbr2_bpf_init")
void BPF_PROG(bbr2_bpf_init, struct sock *sk)
{
	if (!bbr2_bpf_enter(sk)) {
		__sync_fetch_and_add(&bbr2_bpf_this_cpu()->init_failures, 1);
		return;
	}
	bbr2_init(sk, bbr2_bpf_tunables());
	bbr2_bpf_exit(sk);
}

/* cong_control(sk, ack, flag, rs): the 6.10+ signature. */
SEC("struct_ops/bbr2_bpf_cong_control")
void BPF_PROG(bbr2_bpf_cong_control, struct sock *sk, u32 ack, int flag,
	      const struct rate_sample *rs)
{
	const struct bbr2_tunables *t;
	const struct bbr2 *bbr;

	if (!bbr2_bpf_enter(sk))
		return;
	t = bbr2_bpf_tunables();
	bbr = inet_csk_ca(sk);
	if (bbr2_bpf_late_init_due(bbr->initialized, sk->__sk_common.skc_state)) {
		bbr2_init(sk, t);
		__sync_fetch_and_add(&bbr2_bpf_this_cpu()->late_inits, 1);
	}
	bbr2_main(sk, rs, t);
	bbr2_bpf_exit(sk);
}

SEC("struct_ops/bbr2_bpf_ssthresh")
u32 BPF_PROG(bbr2_bpf_ssthresh, struct sock *sk)
{
	u32 ret;

	if (!bbr2_bpf_enter(sk))
		return tcp_sk(sk)->snd_ssthresh;
	ret = bbr2_ssthresh(sk);
	bbr2_bpf_exit(sk);
	return ret;
}

SEC("struct_ops/bbr2_bpf_undo_cwnd")
u32 BPF_PROG(bbr2_bpf_undo_cwnd, struct sock *sk)
{
	u32 ret;

	if (!bbr2_bpf_enter(sk))
		return tcp_snd_cwnd(tcp_sk(sk));
	ret = bbr2_undo_cwnd(sk, bbr2_bpf_tunables());
	bbr2_bpf_exit(sk);
	return ret;
}

SEC("struct_ops/bbr2_bpf_set_state")
void BPF_PROG(bbr2_bpf_set_state, struct sock *sk, u8 new_state)
{
	if (!bbr2_bpf_enter(sk))
		return;
	bbr2_set_state(sk, new_state, bbr2_bpf_tunables());
	bbr2_bpf_exit(sk);
}

SEC("struct_ops/bbr2_bpf_cwnd_event")
void BPF_PROG(bbr2_bpf_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	if (!bbr2_bpf_enter(sk))
		return;
	bbr2_cwnd_event(sk, event, bbr2_bpf_tunables());
	bbr2_bpf_exit(sk);
}

SEC("struct_ops/bbr2_bpf_in_ack_event")
void BPF_PROG(bbr2_bpf_in_ack_event, struct sock *sk, u32 flags)
{
	if (!bbr2_bpf_enter(sk))
		return;
	bbr2_in_ack_event(sk, flags);
	bbr2_bpf_exit(sk);
}

SEC("struct_ops/bbr2_bpf_min_tso_segs")
u32 BPF_PROG(bbr2_bpf_min_tso_segs, struct sock *sk)
{
	u32 ret;

	if (!bbr2_bpf_enter(sk))
		return 2;
	ret = bbr2_min_tso_segs(sk, bbr2_bpf_tunables());
	bbr2_bpf_exit(sk);
	return ret;
}

SEC("struct_ops/bbr2_bpf_sndbuf_expand")
u32 BPF_PROG(bbr2_bpf_sndbuf_expand, struct sock *sk)
{
	return bbr2_sndbuf_expand(sk);
}

SEC(".struct_ops")
struct tcp_congestion_ops bbr2_bpf = {
	.init		= (void *)bbr2_bpf_init,
	.cong_control	= (void *)bbr2_bpf_cong_control,
	.ssthresh	= (void *)bbr2_bpf_ssthresh,
	.undo_cwnd	= (void *)bbr2_bpf_undo_cwnd,
	.set_state	= (void *)bbr2_bpf_set_state,
	.cwnd_event	= (void *)bbr2_bpf_cwnd_event,
	.in_ack_event	= (void *)bbr2_bpf_in_ack_event,
	.min_tso_segs	= (void *)bbr2_bpf_min_tso_segs,
	.sndbuf_expand	= (void *)bbr2_bpf_sndbuf_expand,
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= "bbr2_bpf",
};

/* ---------------------------------------------------------------------- */
/* Observability: one line per bbr2_bpf socket (what ss -ti shows for     */
/* the module, and more of the model).                                    */

static const char bbr2_bpf_mode_names[4][10] = {
	"STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT",
};

static const char bbr2_bpf_phase_names[4][8] = {
	"UP", "DOWN", "CRUISE", "REFILL",
};

static bool bbr2_bpf_is_ours(const struct tcp_sock *tp)
{
	static const char name[] = "bbr2_bpf";
	char buf[sizeof(name)];
	const struct tcp_congestion_ops *ops = tp->inet_conn.icsk_ca_ops;
	unsigned int i;

	if (!ops || bpf_probe_read_kernel(buf, sizeof(buf), ops->name))
		return false;
	for (i = 0; i < sizeof(name); i++)
		if (buf[i] != name[i])
			return false;
	return true;
}

SEC("iter/tcp")
int bbr2_bpf_sockets(struct bpf_iter__tcp *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct sock_common *skc = ctx->sk_common;
	struct tcp_sock *tp;
	struct sock *sk;
	const struct bbr2_tunables *t = bbr2_bpf_tunables();
	const struct bbr2 *bbr;
	u64 bw, max_bw;

	if (!skc)
		return 0;
	tp = bpf_skc_to_tcp_sock(skc);
	if (!tp || !bbr2_bpf_is_ours(tp))
		return 0;
	sk = (struct sock *)tp;
	bbr = (const struct bbr2 *)tp->inet_conn.icsk_ca_priv;

	bw = bbr2_rate_bytes_per_sec(sk, bbr2_bw(bbr), BBR_UNIT, 0);
	max_bw = bbr2_rate_bytes_per_sec(sk, bbr2_max_bw(bbr), BBR_UNIT, 0);
	if (skc->skc_family == 2 /* AF_INET */)
		BPF_SEQ_PRINTF(seq, "%pI4:%u %pI4:%u ", &skc->skc_rcv_saddr,
			       skc->skc_num, &skc->skc_daddr,
			       bpf_ntohs(skc->skc_dport));
	else
		BPF_SEQ_PRINTF(seq, "[%pI6]:%u [%pI6]:%u ",
			       &skc->skc_v6_rcv_saddr, skc->skc_num,
			       &skc->skc_v6_daddr, bpf_ntohs(skc->skc_dport));
	if (!bbr->initialized) {
		BPF_SEQ_PRINTF(seq, "uninitialized cwnd:%u\n", tp->snd_cwnd);
		return 0;
	}
	BPF_SEQ_PRINTF(seq, "mode:%s phase:%s bw:%llu max_bw:%llu ",
		       bbr2_bpf_mode_names[bbr->mode & 3],
		       bbr2_bpf_phase_names[bbr->cycle_idx & 3], bw * 8,
		       max_bw * 8);
	BPF_SEQ_PRINTF(seq, "min_rtt:%u pacing_gain:%u cwnd_gain:%u cwnd:%u ",
		       bbr->min_rtt_us, bbr2_pacing_gain(bbr, t),
		       bbr2_cwnd_gain(bbr, t), tp->snd_cwnd);
	BPF_SEQ_PRINTF(seq, "inflight_hi:%u inflight_lo:%u bw_lo:%u ",
		       bbr->inflight_hi, bbr->inflight_lo, bbr->bw_lo);
	BPF_SEQ_PRINTF(seq, "ecn_alpha:%u ecn_eligible:%u pacing_rate:%lu ",
		       bbr->ecn_alpha, bbr->ecn_eligible, sk->sk_pacing_rate);
	BPF_SEQ_PRINTF(seq, "full_bw_reached:%u\n", bbr->full_bw_reached);
	return 0;
}

char _license[] SEC("license") = "GPL";
