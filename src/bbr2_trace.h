/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of tcp_bbr2 (system "bbr2"), for bpftrace and ftrace:
 *
 *   bbr2_state     mode or PROBE_BW phase changed; loss_mode is the mode
 *                  the socket runs (0 always for a bbr2_ref socket)
 *   bbr2_bw        the max-bw filter moved
 *   bbr2_min_rtt   min_rtt changed
 *   bbr2_bounds    inflight_hi, inflight_lo or bw_lo changed
 *   bbr2_loss_ecn  a bound was cut on an ACK in a round that saw loss or ECN
 *
 * They are emitted by bbr2_trace.c, which compares the state before and
 * after each call into the algorithm, so bbr2_model.c carries no tracing.
 * Bandwidths are in kbit/s; "none" bounds are ~0.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bbr2

#if !defined(_BBR2_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _BBR2_TRACE_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>

/* Every event starts with the connection's ports, as "sport>dport". */
#define BBR2_TRACE_SK_ASSIGN(sk)					\
	do {								\
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);	\
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);	\
	} while (0)

TRACE_EVENT(bbr2_state,
	    TP_PROTO(const struct sock *sk, u8 old_mode, u8 old_phase, u8 mode,
		     u8 phase, u64 bw_kbps, u32 min_rtt_us, u32 cwnd,
		     u32 inflight_hi, u8 loss_mode),
	    TP_ARGS(sk, old_mode, old_phase, mode, phase, bw_kbps, min_rtt_us,
		    cwnd, inflight_hi, loss_mode),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(u8, old_mode)
			     __field(u8, old_phase)
			     __field(u8, mode)
			     __field(u8, phase)
			     __field(u64, bw_kbps)
			     __field(u32, min_rtt_us)
			     __field(u32, cwnd)
			     __field(u32, inflight_hi)
			     __field(u8, loss_mode)
			     ),
	    TP_fast_assign(BBR2_TRACE_SK_ASSIGN(sk);
			   __entry->old_mode = old_mode;
			   __entry->old_phase = old_phase;
			   __entry->mode = mode;
			   __entry->phase = phase;
			   __entry->bw_kbps = bw_kbps;
			   __entry->min_rtt_us = min_rtt_us;
			   __entry->cwnd = cwnd;
			   __entry->inflight_hi = inflight_hi;
			   __entry->loss_mode = loss_mode;
			   ),
	    TP_printk("%u>%u mode %u.%u->%u.%u bw %llu kbit/s min_rtt %u us cwnd %u inflight_hi %u loss_mode %u",
		      __entry->sport, __entry->dport, __entry->old_mode,
		      __entry->old_phase, __entry->mode, __entry->phase,
		      __entry->bw_kbps, __entry->min_rtt_us, __entry->cwnd,
		      __entry->inflight_hi, __entry->loss_mode)
);

TRACE_EVENT(bbr2_bw,
	    TP_PROTO(const struct sock *sk, u64 old_kbps, u64 max_bw_kbps,
		     u64 bw_kbps),
	    TP_ARGS(sk, old_kbps, max_bw_kbps, bw_kbps),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(u64, old_kbps)
			     __field(u64, max_bw_kbps)
			     __field(u64, bw_kbps)
			     ),
	    TP_fast_assign(BBR2_TRACE_SK_ASSIGN(sk);
			   __entry->old_kbps = old_kbps;
			   __entry->max_bw_kbps = max_bw_kbps;
			   __entry->bw_kbps = bw_kbps;
			   ),
	    TP_printk("%u>%u max_bw %llu->%llu kbit/s bw %llu kbit/s",
		      __entry->sport, __entry->dport, __entry->old_kbps,
		      __entry->max_bw_kbps, __entry->bw_kbps)
);

TRACE_EVENT(bbr2_min_rtt,
	    TP_PROTO(const struct sock *sk, u32 old_us, u32 min_rtt_us),
	    TP_ARGS(sk, old_us, min_rtt_us),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(u32, old_us)
			     __field(u32, min_rtt_us)
			     ),
	    TP_fast_assign(BBR2_TRACE_SK_ASSIGN(sk);
			   __entry->old_us = old_us;
			   __entry->min_rtt_us = min_rtt_us;
			   ),
	    TP_printk("%u>%u min_rtt %u->%u us",
		      __entry->sport, __entry->dport, __entry->old_us,
		      __entry->min_rtt_us)
);

TRACE_EVENT(bbr2_bounds,
	    TP_PROTO(const struct sock *sk, u32 inflight_hi, u32 inflight_lo,
		     u64 bw_lo_kbps),
	    TP_ARGS(sk, inflight_hi, inflight_lo, bw_lo_kbps),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(u32, inflight_hi)
			     __field(u32, inflight_lo)
			     __field(u64, bw_lo_kbps)
			     ),
	    TP_fast_assign(BBR2_TRACE_SK_ASSIGN(sk);
			   __entry->inflight_hi = inflight_hi;
			   __entry->inflight_lo = inflight_lo;
			   __entry->bw_lo_kbps = bw_lo_kbps;
			   ),
	    TP_printk("%u>%u inflight_hi %u inflight_lo %u bw_lo %llu kbit/s",
		      __entry->sport, __entry->dport, __entry->inflight_hi,
		      __entry->inflight_lo, __entry->bw_lo_kbps)
);

TRACE_EVENT(bbr2_loss_ecn,
	    TP_PROTO(const struct sock *sk, u32 losses, u8 loss_in_round,
		     u8 ecn_in_round, u32 ecn_alpha, u32 old_inflight_hi,
		     u32 inflight_hi, u32 old_inflight_lo, u32 inflight_lo),
	    TP_ARGS(sk, losses, loss_in_round, ecn_in_round, ecn_alpha,
		    old_inflight_hi, inflight_hi, old_inflight_lo, inflight_lo),
	    TP_STRUCT__entry(__field(u16, sport)
			     __field(u16, dport)
			     __field(u32, losses)
			     __field(u8, loss_in_round)
			     __field(u8, ecn_in_round)
			     __field(u32, ecn_alpha)
			     __field(u32, old_inflight_hi)
			     __field(u32, inflight_hi)
			     __field(u32, old_inflight_lo)
			     __field(u32, inflight_lo)
			     ),
	    TP_fast_assign(BBR2_TRACE_SK_ASSIGN(sk);
			   __entry->losses = losses;
			   __entry->loss_in_round = loss_in_round;
			   __entry->ecn_in_round = ecn_in_round;
			   __entry->ecn_alpha = ecn_alpha;
			   __entry->old_inflight_hi = old_inflight_hi;
			   __entry->inflight_hi = inflight_hi;
			   __entry->old_inflight_lo = old_inflight_lo;
			   __entry->inflight_lo = inflight_lo;
			   ),
	    TP_printk("%u>%u losses %u loss %u ecn %u alpha %u inflight_hi %u->%u inflight_lo %u->%u",
		      __entry->sport, __entry->dport, __entry->losses,
		      __entry->loss_in_round, __entry->ecn_in_round,
		      __entry->ecn_alpha, __entry->old_inflight_hi,
		      __entry->inflight_hi, __entry->old_inflight_lo,
		      __entry->inflight_lo)
);

#endif /* _BBR2_TRACE_H */

/* Out of tree: define_trace.h finds this file through Kbuild's -I src. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE bbr2_trace
#include <trace/define_trace.h>
