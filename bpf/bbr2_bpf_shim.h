/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API that src/bbr2_model.c uses, mapped onto what a BPF
 * struct_ops congestion control may call, read and write.
 *
 * The algorithm is compiled unchanged; everything it needs from the kernel
 * is defined here in terms of
 *  - plain loads from the socket (BTF pointers; CO-RE relocates them),
 *  - the stores bpf_tcp_ca allows: tp->snd_cwnd, tp->snd_ssthresh,
 *    tp->app_limited, sk->sk_pacing_rate, sk->sk_pacing_status and the
 *    private area icsk_ca_priv,
 *  - two helpers: bpf_get_prandom_u32() and bpf_jiffies64(),
 *  - the kernel's HZ from its Kconfig (libbpf's CONFIG_HZ extern),
 *  - native 64-bit division and a 64x32 multiply without 128-bit types.
 *
 * Two builds include this header.  For BPF (__bpf__), the types come from
 * vmlinux.h and the helpers from libbpf.  For the userspace model tests
 * (BBR2_BPF_SHIM_HOST, see selftests/model), the types come from the
 * model's kernel shim, the two helpers from its clock and random number
 * generator, and this header's definitions replace the model shim's own:
 * the behaviour digest of that build must equal the module build's, which
 * proves that the mapping below computes what the kernel's helpers do.
 * Each replaced name is redirected to a bbr2_bpf_ function by a macro.
 */
#ifndef _BBR2_BPF_SHIM_H
#define _BBR2_BPF_SHIM_H

#ifdef __bpf__

/*
 * The kernel's struct tcp_congestion_ops is seen under a CO-RE flavour
 * name, which relocations still match to the kernel's type: the struct_ops
 * map declares its own struct tcp_congestion_ops (bbr2_bpf.bpf.c) with
 * exactly the members it sets, whatever kernel vmlinux.h came from.
 */
#define tcp_congestion_ops tcp_congestion_ops___vmlinux
#include "vmlinux.h"
#undef tcp_congestion_ops
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

extern unsigned long CONFIG_HZ __kconfig;

#define memset(s, c, n)		__builtin_memset(s, c, n)

/* uapi values that BTF does not carry (inet_diag.h). */
#define INET_DIAG_VEGASINFO	3
#define INET_DIAG_BBRINFO	16
/* <net/tcp.h>: any namespace may make it its default, as the module. */
#define TCP_CONG_NON_RESTRICTED	0x1

#else /* userspace: the model tests' kernel shim provides the types */

#ifndef BBR2_BPF_SHIM_HOST
#error "bbr2_bpf_shim.h: build for BPF, or define BBR2_BPF_SHIM_HOST"
#endif
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/random.h>
#include <linux/jiffies.h>
#include <linux/inet_diag.h>
#include <net/tcp.h>

static inline u32 bpf_get_prandom_u32(void)
{
	return get_random_u32();
}

static inline u64 bpf_jiffies64(void)
{
	return jiffies;
}

enum { BBR2_BPF_HOST_HZ = HZ };
#define CONFIG_HZ		BBR2_BPF_HOST_HZ

#endif /* __bpf__ */

/* Constants: values of the x86_64 Debian kernels (preprocessor-only). */
#undef HZ
#define HZ			CONFIG_HZ
#ifndef U16_MAX
#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define INT_MAX			((int)(~0U >> 1))
#endif
#ifndef USEC_PER_SEC
#define MSEC_PER_SEC		1000L
#define USEC_PER_MSEC		1000L
#define NSEC_PER_USEC		1000L
#define USEC_PER_SEC		1000000L
#endif
#ifndef TCP_INFINITE_SSTHRESH
#define TCP_INFINITE_SSTHRESH	0x7fffffff
#endif
#ifndef MAX_TCP_HEADER
#define MAX_TCP_HEADER		320	/* L1_CACHE_ALIGN(128 + MAX_HEADER) */
#endif
#ifndef GSO_LEGACY_MAX_SIZE
#define GSO_LEGACY_MAX_SIZE	65536u
#endif
#define BBR2_BPF_MAX_JIFFY_OFFSET	((long)(~0UL >> 1) - 1)

/* Compiler annotations. */
#undef unlikely
#define unlikely(x)		__builtin_expect(!!(x), 0)
#undef READ_ONCE
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#undef WRITE_ONCE
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))
#undef BIT
#define BIT(nr)			(1UL << (nr))
#undef BITS_PER_TYPE
#define BITS_PER_TYPE(type)	(sizeof(type) * 8)

/*
 * min()/max() as the kernel's: both sides of one type (a warning, an error
 * with -Werror, otherwise), each evaluated once.
 */
#define __bbr2_bpf_cmp(x, y, op) ({				\
	__typeof__(x) __bx = (x);				\
	__typeof__(y) __by = (y);				\
	(void)(&__bx == &__by);					\
	__bx op __by ? __bx : __by; })
#undef min
#define min(x, y)		__bbr2_bpf_cmp(x, y, <)
#undef max
#define max(x, y)		__bbr2_bpf_cmp(x, y, >)
#undef min3
#define min3(x, y, z)		min_t(__typeof__(x), min(x, y), z)
#undef max3
#define max3(x, y, z)		max_t(__typeof__(x), max(x, y), z)
#undef min_t
#define min_t(type, x, y)	({ type __ta = (x); type __tb = (y); __ta < __tb ? __ta : __tb; })
#undef max_t
#define max_t(type, x, y)	({ type __ta = (x); type __tb = (y); __ta > __tb ? __ta : __tb; })

/*
 * cmpxchg() on the socket: BPF has no atomics on kernel memory, and only
 * bbr2_init() uses it, on sk_pacing_status under the socket lock.  The
 * store is skipped unless the old value matches, as with cmpxchg(); a
 * racing qdisc that sets SK_PACING_FQ between the load and the store is
 * the one difference (TCP would then pace internally too; harmless).
 */
#undef cmpxchg
#define cmpxchg(ptr, old, new) ({				\
	__typeof__(*(ptr)) __bbr2_old = *(ptr);			\
	if (__bbr2_old == (old))					\
		*(ptr) = (new);					\
	__bbr2_old; })

/* Arithmetic: BPF divides 64 by 64 bits natively; it has no 128 bits. */
static inline u64 bbr2_bpf_div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 bbr2_bpf_div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/*
 * (a * mul) >> shift, as the kernel's 128-bit version, for shift <= 32:
 * the high half of a contributes (ah * mul) << (32 - shift) exactly.
 */
static inline u64 bbr2_bpf_mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	u32 ah = a >> 32, al = (u32)a;
	u64 ret;

	ret = ((u64)al * mul) >> shift;
#ifdef BBR2_BPF_SHIM_MUTANT	/* the model test's deliberately wrong shim */
	ah = 0;
#endif
	if (ah)
		ret += ((u64)ah * mul) << (32 - shift);
	return ret;
}

/* floor(log2(v)) of a u64, without a loop; -1 for 0 as the shim's. */
static inline int bbr2_bpf_ilog2(u64 v)
{
	int r = 0;

	if (!v)
		return -1;
	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

#undef div_u64
#define div_u64			bbr2_bpf_div_u64
#undef div64_u64
#define div64_u64		bbr2_bpf_div64_u64
#undef mul_u64_u32_shr
#define mul_u64_u32_shr		bbr2_bpf_mul_u64_u32_shr
#undef ilog2
#define ilog2(n)		bbr2_bpf_ilog2(n)

/* Random numbers: the kernel's multiply-shift reduction of a u32. */
static inline u32 bbr2_bpf_get_random_u32_below(u32 ceil)
{
	return ((u64)bpf_get_prandom_u32() * ceil) >> 32;
}

#define get_random_u32_below	bbr2_bpf_get_random_u32_below

/* Time: jiffies from bpf_jiffies64(), HZ from the kernel's config. */
static inline unsigned long bbr2_bpf_msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return BBR2_BPF_MAX_JIFFY_OFFSET;
	return ((u64)m * HZ + MSEC_PER_SEC - 1) / MSEC_PER_SEC;
}

#undef msecs_to_jiffies
#define msecs_to_jiffies	bbr2_bpf_msecs_to_jiffies
#undef tcp_jiffies32
#define tcp_jiffies32		((u32)bpf_jiffies64())

static inline bool bbr2_bpf_before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}

#undef before
#define before			bbr2_bpf_before
#undef after
#define after(seq2, seq1)	before(seq1, seq2)

/*
 * The socket.  A struct_ops program's struct sock argument is a tcp_sock
 * to the verifier (bpf_tcp_ca promotes it), so the casts are plain casts.
 */
static inline struct tcp_sock *bbr2_bpf_tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static inline struct inet_connection_sock *bbr2_bpf_inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

static inline u32 bbr2_bpf_tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

/* The kernel's setter WARNs on a non-positive cwnd; the model never sets one. */
static inline void bbr2_bpf_tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val)
{
	tp->snd_cwnd = val;
}

static inline u32 bbr2_bpf_tcp_min_rtt(const struct tcp_sock *tp)
{
	return tp->rtt_min.s[0].v;
}

static inline unsigned int bbr2_bpf_tcp_packets_in_flight(const struct tcp_sock *tp)
{
	return tp->packets_out - (tp->sacked_out + tp->lost_out) +
	       tp->retrans_out;
}

#define tcp_sk			bbr2_bpf_tcp_sk
#define inet_csk		bbr2_bpf_inet_csk

#ifdef __bpf__
/*
 * The private area.  The verifier refuses an access to the socket at a
 * variable offset, and the model indexes arrays in its state
 * (extra_acked[extra_acked_win_idx]), so each hook works on a copy of the
 * area in this object's global data, where a bounded variable offset is
 * fine: bbr2_bpf_enter() copies the socket's area in, bbr2_bpf_exit()
 * copies it back.  One slot per CPU and nesting level: a hook that runs in
 * process context can be interrupted by a softirq that runs the hook of
 * another socket on the same CPU; preemption is off in between
 * (bpf_preempt_disable(), 6.10+), so the levels nest strictly.
 */
#include "bbr2_bpf_cpu.h"

extern struct bbr2_bpf_cpu bbr2_bpf_cpus[BBR2_BPF_MAX_CPUS];

static __always_inline void *bbr2_bpf_inet_csk_ca(const struct sock *sk)
{
	return bbr2_bpf_slot_cur(&bbr2_bpf_cpus[bpf_get_smp_processor_id() &
						(BBR2_BPF_MAX_CPUS - 1)]);
}
#else
/* Userspace: the socket's own area, as the kernel's inet_csk_ca(). */
static inline void *bbr2_bpf_inet_csk_ca(const struct sock *sk)
{
	return (void *)bbr2_bpf_inet_csk(sk)->icsk_ca_priv;
}
#endif
#define inet_csk_ca		bbr2_bpf_inet_csk_ca
#define tcp_snd_cwnd		bbr2_bpf_tcp_snd_cwnd
#define tcp_snd_cwnd_set	bbr2_bpf_tcp_snd_cwnd_set
#define tcp_min_rtt		bbr2_bpf_tcp_min_rtt
#define tcp_packets_in_flight	bbr2_bpf_tcp_packets_in_flight

#include "bbr2_bpf_ecn.h"

#ifdef __bpf__
struct tcp_sock___accecn {
	u32	received_ce;
} __attribute__((preserve_access_index));

static inline bool bbr2_bpf_tcp_ecn_mode_any(const struct tcp_sock *tp)
{
	const struct tcp_sock___accecn *atp = (const void *)tp;

	return bbr2_bpf_ecn_mode_any(tp->ecn_flags,
				     bpf_core_field_exists(atp->received_ce));
}

#define tcp_ecn_mode_any		bbr2_bpf_tcp_ecn_mode_any
#define BBR2_HAVE_TCP_ECN_MODE_ANY	1

/*
 * rx_opt.sack_ok is a bitfield: read it where this kernel put it.  The
 * bitfield's offset is relocated within rx_opt, whose own offset is
 * relocated within tcp_sock; barrier_var() keeps the compiler from folding
 * the two into one access chain that would count rx_opt's offset twice.
 */
static inline bool bbr2_bpf_tcp_is_sack(const struct tcp_sock *tp)
{
	const struct tcp_options_received *rx_opt = &tp->rx_opt;

	barrier_var(rx_opt);
	return BPF_CORE_READ_BITFIELD(rx_opt, sack_ok);
}

#define tcp_is_sack			bbr2_bpf_tcp_is_sack
#endif

/* The algorithm's kernel API probes, answered for the kernels BPF needs. */
#define BBR2_HAVE_TCP_SND_CWND		1
#define BBR2_HAVE_RS_DELIVERED_CE	1
#define BBR2_HAVE_GET_RANDOM_U32_BELOW	1

#endif /* _BBR2_BPF_SHIM_H */
