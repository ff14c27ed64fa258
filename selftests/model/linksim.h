/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linksim: a deterministic discrete-event model of TCP senders driving any
 * registered struct tcp_congestion_ops over one dumbbell bottleneck.
 *
 *   sender(s) --> [drop-tail queue | rate_bps] --> fwd delay --> receiver
 *        ^                                                         |
 *        +--------------------- rev delay (ACKs) <-----------------+
 *
 * The sender side emulates what Linux 6.1 does around a congestion control,
 * in the same order (see the essay at the top of linksim.c): per-packet
 * rate sampling as net/ipv4/tcp_rate.c, SACK scoreboard with RACK loss
 * detection, PRR for CCs without cong_control, the CA state machine
 * (Open/Disorder/CWR/Recovery/Loss), RTO, ECN (ECT, CE, ECE, CWR), EDT
 * pacing at sk_pacing_rate, TSO autosizing, app-limited marking and idle
 * restarts. The CC is called through its ops exactly as tcp_input.c and
 * tcp_output.c would call it, including cong_control() on the SYN-ACK
 * before init() (a real SYN_SENT socket sees that too).
 *
 * Everything is integer-timed in nanoseconds and seeded, so a run is
 * bit-for-bit reproducible. One simulation at a time per process: the
 * kernel shim's clock, jiffies and PRNG are global.
 */
#ifndef _LINKSIM_H
#define _LINKSIM_H

#include <net/tcp.h>

#define LINKSIM_MAX_FLOWS	16

enum linksim_ece_mode {
	/* Stock Linux receiver (RFC 3168): after a CE mark, ECE on every
	 * ACK until a data packet with CWR arrives. */
	LINKSIM_ECE_RFC3168,
	/* DCTCP-style receiver: ECE echoes each packet's CE exactly (an ACK
	 * is sent at once when the CE state changes). */
	LINKSIM_ECE_PER_PACKET,
};

struct linksim_flow_cfg {
	const char *cc;		/* CC name; NULL: linksim_new()'s ccname */
	u64 start_us;		/* SYN sent at this simulated time */
	u64 stop_us;		/* app stops writing at this time; 0: never */
	u32 extra_rtt_us;	/* added to the path RTT, split fwd/rev */
	u64 app_rate_bps;	/* 0: bulk sender, always has data */
	u64 app_bytes;		/* total bytes the app writes; 0: unlimited */
	u32 app_on_us;		/* with app_off_us: write for on, idle for off */
	u32 app_off_us;
	bool ecn;		/* negotiate ECN (always on for NEEDS_ECN CCs) */
};

struct linksim;

struct linksim_cfg {
	u64 rate_bps;		/* bottleneck rate, bits/s (of wire bytes) */
	u32 rtt_us;		/* round-trip propagation delay */
	u32 queue_pkts;		/* drop-tail limit, packets waiting; 0: use bytes */
	u64 queue_bytes;	/* drop-tail limit in bytes if queue_pkts == 0 */
	u32 loss_ppm;		/* Bernoulli loss of data packets, per million */
	u32 ecn_k_pkts;		/* CE-mark ECT packets arriving to >= K queued; 0: off */
	enum linksim_ece_mode ece_mode;
	u32 ack_every;		/* receiver ACKs every Nth in-order packet (1 or 2) */
	u32 delack_us;		/* delayed-ACK timer when ack_every > 1 */
	u32 mss;		/* payload bytes per packet (1448) */
	u32 hdr_bytes;		/* wire overhead per packet counted by the link (0) */
	bool fq;		/* fq qdisc: pace every flow (SK_PACING_FQ) */
	bool tso;		/* TSO/GSO bursts sized like tcp_tso_autosize() */
	/* fq's watchdog fires up to this late (uniform draw per arming), as
	 * under QEMU/TCG, whose timers run late: the packets a late watchdog
	 * held leave together, a burst that queues at the bottleneck.
	 * TCP's EDT stamps are not affected.  0: on time (the default). */
	u32 pace_late_us;
	/* 0: the bottleneck is an exact serializing link (the default).
	 * N > 0: it is the test bed's tbf instead, a token bucket of
	 * link_burst_us of the rate whose watchdog, armed when the head of
	 * the queue waits for tokens, fires up to N us late (uniform); the
	 * packets the tokens then cover leave at once.  Same rate on
	 * average; bursty delivery and a fuller queue, as in the VM. */
	u32 link_late_us;
	u32 link_burst_us;	/* tbf bucket depth (4000, lib.sh's DB_BURST_US) */
	/* 0: the receiving host sends each ACK at once (the default).  N > 0:
	 * a busy host instead, whose ACKs all leave late by one lag that is
	 * drawn afresh (uniform, 0..N us) every ack_late_hold_us (10000): the
	 * load of an emulated CPU, which comes and goes over milliseconds
	 * and delays every flow alike.  A flow's ACKs keep their order: when
	 * the lag shrinks, those it held leave together. */
	u32 ack_late_us;
	u32 ack_late_hold_us;
	/* 0: the link carries packets (the default). N > 0: frame mode, the
	 * unit for DTN rates: the link, the receiver and the ACK clock work
	 * on frames of up to N MSS (a TSO burst of tcp_tso_autosize() size,
	 * capped at N; implies tso), one ACK per frame as a GRO receiver
	 * sends; random loss stays per packet (a frame is split around its
	 * lost packets) and the sender's scoreboard stays per packet. See
	 * "Frame mode" in linksim.c for what it costs in fidelity. */
	u32 frame_segs;
	bool no_handshake;	/* skip SYN/SYN-ACK: init() at start, no RTT yet */
	u32 isn;		/* initial sequence number (wrap tests) */
	u64 seed;		/* random loss and the kernel's get_random_u32() */

	u32 nflows;		/* 0 means 1 */
	struct linksim_flow_cfg flow[LINKSIM_MAX_FLOWS];

	/* Called after every ACK's congestion control, with its rate sample. */
	void (*on_ack)(struct linksim *sim, int flow, const struct rate_sample *rs,
		       void *arg);
	/* Called every tick_us of simulated time (if both are set). */
	void (*on_tick)(struct linksim *sim, void *arg);
	u32 tick_us;
	void *hook_arg;
};

struct linksim_flow_stats {
	u64 bytes_acked;	/* payload cumulatively ACKed: goodput */
	u64 pkts_sent;		/* data packets sent, retransmits included */
	u64 pkts_retrans;	/* retransmitted packets */
	u64 pkts_dropped;	/* this flow's packets the network dropped */
	u64 pkts_rcvd;		/* packets that reached the receiver for the first time:
				 * what the path delivered, whenever the cumulative
				 * ACK gets past a hole
				 */
	u64 pkts_ce;		/* this flow's packets CE-marked */
	u64 acks;		/* ACKs processed */
	u32 recoveries;		/* entries into TCP_CA_Recovery */
	u32 rtos;		/* retransmission timeouts */
	u32 cwrs;		/* entries into TCP_CA_CWR */
	u64 rtt_samples;	/* ACKs with an RTT sample (rs->rtt_us >= 0) */
	double rtt_sum_us;
	u32 rtt_min_us;
	u32 rtt_max_us;
	u64 first_data_ns;	/* when the first data packet left */
};

struct linksim_link_stats {
	u64 busy_ns;		/* time the bottleneck was transmitting */
	u64 drops_queue;	/* drop-tail drops */
	u64 drops_random;	/* random (loss_ppm) drops */
	u64 ce_marks;
	u32 max_queue_pkts;
	double queue_pkt_ns;	/* integral of queued packets over time */
};

/* Defaults: 10 Mbit/s, 40 ms, 1 BDP of buffer, MSS 1448, ACK every packet. */
void linksim_cfg_default(struct linksim_cfg *cfg);
/* The QEMU/TCG test bed modelled (tools/README.md, "The test bed
 * modelled"): a receiver that ACKs every 2nd segment, fq's watchdog up to
 * 1000 us late and the tbf's up to 250 us (fitted to the VM, not measured). */
#define LINKSIM_TESTBED_PACE_LATE_US	1000
#define LINKSIM_TESTBED_LINK_LATE_US	250
static inline void linksim_cfg_testbed(struct linksim_cfg *cfg)
{
	cfg->ack_every = 2;
	cfg->pace_late_us = LINKSIM_TESTBED_PACE_LATE_US;
	cfg->link_late_us = LINKSIM_TESTBED_LINK_LATE_US;
}
/* nflows flows, all running cc (a flow's own settings stay as they are). */
static inline void linksim_cfg_flows(struct linksim_cfg *cfg, u32 nflows,
				     const char *cc)
{
	u32 i;

	cfg->nflows = nflows;
	for (i = 0; i < nflows; i++)
		cfg->flow[i].cc = cc;
}
/* Packets in one BDP of cfg's path (rate x rtt / (mss + hdr)). */
u32 linksim_bdp_pkts(const struct linksim_cfg *cfg);

/* Loads the kernel modules linked in (module_init) and creates the flows.
 * Returns NULL (and says why on stderr) if a CC name is not registered. */
struct linksim *linksim_new(const struct linksim_cfg *cfg, const char *ccname);
void linksim_free(struct linksim *sim);

/* Runs the event loop up to simulated time t_us (inclusive). */
void linksim_run_until(struct linksim *sim, u64 t_us);
u64 linksim_now_us(const struct linksim *sim);

struct sock *linksim_sk(struct linksim *sim, int flow);
const struct linksim_flow_stats *linksim_flow_stats(const struct linksim *sim, int flow);
const struct linksim_link_stats *linksim_link_stats(const struct linksim *sim);
/* Restart the max_queue_pkts statistic from the current queue. */
void linksim_reset_max_queue(struct linksim *sim);
/* Queued packets right now (excluding the one on the wire). */
u32 linksim_queue_pkts(const struct linksim *sim);

/* Link utilisation (0..1) and mean queue since t = 0. */
double linksim_utilization(const struct linksim *sim);
/* Retransmitted packets as a percentage of all sent, over every flow. */
double linksim_retrans_pct(const struct linksim *sim);
double linksim_avg_queue_pkts(const struct linksim *sim);
/* Goodput of a flow, bits/s, from cumulatively ACKed bytes since start_us. */
double linksim_goodput_bps(const struct linksim *sim, int flow);

/* Change the link at run time (takes effect for the next packet). */
void linksim_set_rate(struct linksim *sim, u64 rate_bps);
void linksim_set_loss_ppm(struct linksim *sim, u32 loss_ppm);
/* setsockopt(TCP_CONGESTION) on a live flow: release() old, init() new. */
int linksim_set_cc(struct linksim *sim, int flow, const char *ccname);
/* The app writes bytes now (adds to any app model). */
void linksim_app_write(struct linksim *sim, int flow, u64 bytes);

#endif
