/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/tcp.h>: struct tcp_sock with the 6.1 field names
 * and types that congestion controls and the emulated stack (linksim.c) use.
 * Fields the simulator maintains are listed in linksim.h.
 */
#ifndef _SHIM_LINUX_TCP_H
#define _SHIM_LINUX_TCP_H

#include <linux/kernel.h>
#include <linux/win_minmax.h>
#include <net/inet_connection_sock.h>

struct tcp_options_received {
	int	ts_recent_stamp;
	u32	ts_recent;
	u32	rcv_tsval;
	u32	rcv_tsecr;
	u16	saw_tstamp : 1,
		tstamp_ok : 1,
		dsack : 1,
		wscale_ok : 1,
		sack_ok : 3,
		smc_ok : 1,
		snd_wscale : 4,
		rcv_wscale : 4;
	u8	saw_unknown : 1,
		unused : 7;
	u8	num_sacks;
	u16	user_mss;
	u16	mss_clamp;
};

struct tcp_rack {
	u64 mstamp;		/* (re)sent time of the latest (s)acked skb */
	u32 rtt_us;		/* its RTT */
	u32 end_seq;		/* its end_seq */
	u32 last_delivered;	/* tp->delivered at last reo_wnd adjustment */
	u8 reo_wnd_steps;	/* allowed reordering window */
	u8 reo_wnd_persist : 5,
	   dsack_seen : 1,
	   advanced : 1;	/* mstamp advanced since last lost marking */
};

struct tcp_sock {
	struct inet_connection_sock inet_conn;	/* must be first */
	u16	tcp_header_len;
	u16	gso_segs;

	u64	bytes_received;
	u32	segs_in;
	u32	data_segs_in;
	u32	rcv_nxt;	/* what we want to receive next */
	u32	copied_seq;
	u32	rcv_wup;
	u32	snd_nxt;	/* next sequence we send */
	u32	segs_out;
	u32	data_segs_out;
	u64	bytes_sent;
	u64	bytes_acked;
	u32	dsack_dups;
	u32	snd_una;	/* first byte we want an ack for */
	u32	snd_sml;
	u32	rcv_tstamp;	/* jiffies of last received ACK */
	u32	lsndtime;	/* jiffies of last sent data packet */
	u32	tsoffset;

	u32	snd_wl1;
	u32	snd_wnd;	/* the window we expect to receive */
	u32	max_window;
	u32	mss_cache;	/* cached effective mss, no SACKs */
	u32	window_clamp;
	u32	rcv_ssthresh;

	struct tcp_rack rack;
	u16	advmss;
	u8	compressed_ack;
	u8	dup_ack_counter : 2,
		tlp_retrans : 1,
		unused : 5;
	u32	chrono_start;
	u32	chrono_stat[3];
	u8	chrono_type : 2,
		rate_app_limited : 1,
		fastopen_connect : 1,
		fastopen_no_cookie : 1,
		is_sack_reneg : 1,
		fastopen_client_fail : 2;
	u8	nonagle : 4,
		thin_lto : 1,
		recvmsg_inq : 1,
		repair : 1,
		frto : 1;
	u8	repair_queue;
	u8	save_syn : 2,
		syn_data : 1,
		syn_fastopen : 1,
		syn_fastopen_exp : 1,
		syn_fastopen_ch : 1,
		syn_data_acked : 1,
		is_cwnd_limited : 1;	/* forward progress limited by snd_cwnd? */
	u32	tlp_high_seq;

	u32	tcp_tx_delay;
	u64	tcp_wstamp_ns;		/* departure time for next sent data packet */
	u64	tcp_clock_cache;	/* cache last tcp_clock_ns() */

	u64	tcp_mstamp;		/* most recent packet received/sent, us */
	u32	srtt_us;		/* smoothed round trip time << 3 in usecs */
	u32	mdev_us;
	u32	mdev_max_us;
	u32	rttvar_us;
	u32	rtt_seq;
	struct minmax rtt_min;

	u32	packets_out;		/* packets which are "in flight" */
	u32	retrans_out;		/* retransmitted packets out */
	u32	max_packets_out;
	u32	cwnd_usage_seq;

	u16	urg_data;
	u8	ecn_flags;		/* ECN status bits */
	u8	keepalive_probes;
	u32	reordering;		/* packet reordering metric */
	u32	reord_seen;
	u32	snd_up;

	struct tcp_options_received rx_opt;

	u32	snd_ssthresh;		/* slow start size threshold */
	u32	snd_cwnd;		/* sending congestion window */
	u32	snd_cwnd_cnt;		/* linear increase counter */
	u32	snd_cwnd_clamp;		/* do not allow snd_cwnd to grow above this */
	u32	snd_cwnd_used;
	u32	snd_cwnd_stamp;
	u32	prior_cwnd;		/* cwnd right before starting loss recovery */
	u32	prr_delivered;
	u32	prr_out;
	u32	delivered;		/* total data packets delivered incl. rexmits */
	u32	delivered_ce;		/* like the above but only ECE marked packets */
	u32	lost;			/* total data packets lost incl. rexmits */
	u32	app_limited;		/* limited until "delivered" reaches this val */
	u64	first_tx_mstamp;	/* start of window send phase */
	u64	delivered_mstamp;	/* time we reached "delivered" */
	u32	rate_delivered;		/* saved rate sample: packets delivered */
	u32	rate_interval_us;	/* saved rate sample: time elapsed */

	u32	rcv_wnd;
	u32	write_seq;		/* tail(+1) of data held in tcp send buffer */
	u32	notsent_lowat;
	u32	pushed_seq;
	u32	lost_out;		/* lost packets */
	u32	sacked_out;		/* SACK'd packets */

	u32	prior_ssthresh;		/* ssthresh saved at recovery start */
	u32	high_seq;		/* snd_nxt at onset of congestion */
	u32	retrans_stamp;
	u32	undo_marker;
	int	undo_retrans;
	u64	bytes_retrans;
	u32	total_retrans;
	u32	rto_stamp;
	u16	total_rto;
	u16	total_rto_recoveries;
	u32	total_rto_time;

	u32	urg_seq;
	unsigned int keepalive_time;
	unsigned int keepalive_intvl;
	int	linger2;
};

static inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

#define TCP_ECN_OK		1
#define TCP_ECN_QUEUE_CWR	2
#define TCP_ECN_DEMAND_CWR	4
#define TCP_ECN_SEEN		8

#endif
