// SPDX-License-Identifier: GPL-2.0
/*
 * linksim: TCP senders over a dumbbell, as seen by a congestion control.
 *
 * What a congestion control observes on Linux is the order and content of
 * its callbacks, and the tcp_sock fields the stack maintains between them.
 * This file reproduces both for the 6.1 stack, from the semantics of
 * net/ipv4/tcp_input.c, tcp_output.c, tcp_rate.c and tcp_recovery.c (the
 * code here is written for the model, not copied):
 *
 *   send (tcp_write_xmit):   pacing check (EDT: tp->tcp_wstamp_ns)
 *                            cwnd quota = min(cwnd - inflight, cwnd / 2)
 *                            TSO burst = tcp_tso_autosize() (if cfg.tso)
 *                            per packet: tcp_rate_skb_sent(), CA_EVENT_TX_START
 *                              when nothing is in flight, ECT/CWR marks
 *                            tcp_cwnd_validate(), PRR accounting
 *   ACK (tcp_ack):           SACK tagging + RACK bookkeeping, cumulative ACK
 *                            (clean_rtx_queue) with tcp_rate_skb_delivered()
 *                            per packet, RTT/RTO update, pkts_acked(),
 *                            in_ack_event(), the CA state machine
 *                            (tcp_fastretrans_alert: RACK marks losses,
 *                            Recovery/CWR/Loss entry and exit with ssthresh()
 *                            and set_state()), tcp_rate_gen(), then
 *                            cong_control(sk, rs) - or PRR / cong_avoid() and
 *                            tcp_update_pacing_rate() - then retransmits.
 *   timers:                  RTO (tcp_enter_loss: ssthresh(), CA_EVENT_LOSS,
 *                            set_state(Loss)), RACK reordering timer, delayed
 *                            ACK at the receiver, pacing.
 *
 * The receiver's window is fixed at the largest a TCP window can be (about
 * 1 GiB); the sender never sends beyond it. Not modelled (and so never seen
 * by the CC): TLP probes, F-RTO, undo of spurious recoveries (no DSACK),
 * reordering, ACK loss or aggregation, window updates or a window below that
 * largest one, TSQ, and fq's own scheduling (an fq qdisc is
 * modelled as internal pacing: the packet leaves at its EDT time).
 *
 * Frame mode (cfg.frame_segs = N > 0), the unit for 1-100 Gbit/s. At 100
 * Gbit/s x 200 ms a BDP is 1.65 million packets and a minute is 500 million;
 * per-packet events (link, arrival, ACK, each a heap operation over a heap
 * of every packet in flight) cost ~0.5 us each, hours per point. The kernel
 * itself does not work per packet there: it sends TSO/GSO skbs of up to
 * 64 KB (tcp_tso_autosize()) and a GRO receiver ACKs coalesced 64 KB
 * aggregates. Frame mode does the same:
 *   - the unit of the link, the receiver and the ACK clock is a frame: a
 *     TSO burst as tcp_tso_autosize() sizes it, capped at N MSS (45: one
 *     64 KB frame of 1448-byte segments); retransmissions of consecutive
 *     lost packets go out as one frame; the link serializes a frame in one
 *     event; the receiver ACKs once per frame (ack_every counts frames)
 *     with the frame's range as its SACK block;
 *   - per packet as before: the sender's scoreboard (sacked bits, transmit
 *     time, tcp_rate.c's fields), RACK, packets_out/lost_out/retrans_out,
 *     cwnd and every CC call see packets; random loss is a Bernoulli trial
 *     per packet that splits its frame around the lost packet; drop-tail
 *     counts packets (or bytes);
 *   - data structures: arrivals and ACKs are constant-delay streams, so each
 *     flow has a FIFO per direction with only its head in the event heap
 *     (the heap holds ~tens of events, not every frame in flight), and the
 *     RTO keeps one event in the heap (a later re-arm moves its deadline).
 *     The scoreboard stays a ring indexed by packet (56 bytes per packet in
 *     flight, ~100-400 MB at 100 Gbit/s x 200 ms): every operation on it is
 *     O(1) per packet it covers, so a point costs ~40 ns per packet plus
 *     ~1 us per frame: 60 s at 100 Gbit/s x 200 ms in 20-30 s of CPU.
 * What frame mode costs in fidelity (and the per-packet mode does not):
 *   - the ACK clock: the CC sees one ACK per frame, acked_sacked up to N,
 *     not one per 1-2 packets: right for a GRO receiver at 10-100 Gbit/s,
 *     coarser than a VM without GRO at 50 Mbit/s (where TSO autosizing
 *     makes frames of only 2-5 packets);
 *   - store and forward per frame: a frame's packets arrive together when
 *     its last one is serialized, so the first is late by (n - 1) packet
 *     times (a 64 KB frame: 5 us at 100 Gbit/s, 0.5 ms at 1 Gbit/s);
 *   - the queue: the frame in service is not counted (up to N - 1 packets),
 *     a frame reaching an idle link enters service whole, flows interleave
 *     at the bottleneck frame by frame (as fq sends TSO skbs), a full buffer
 *     drops a frame's tail, and a CE mark covers a whole frame.
 * tests/test_linksim_frame_mode_keeps_packet_semantics.c checks the
 * per-packet parts; tools/jobs/sim/sim-validation.toml compares frame mode
 * with the kernel in the VM (tools/README.md, "Simulator validation").
 *
 * Sequence numbers: packet index i carries bytes [isn+1+i*mss, +mss) so the
 * CC sees real, wrapping u32 snd_una/snd_nxt; internally 64-bit indices.
 * Time: nanoseconds. The kernel clock is boot_ns + simulated time; by
 * default the low 32 bits of tcp_clock_us() wrap 10 s into the run and
 * tcp_jiffies32 wraps at 20 s, so wrap bugs surface in ordinary tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/module.h>
#include <net/tcp.h>
#include <shim.h>

#include "linksim.h"

/* ACK flags, as in tcp_input.c (6.10 passes them to cong_control). */
#define FLAG_DATA		0x01
#define FLAG_WIN_UPDATE		0x02
#define FLAG_DATA_ACKED		0x04
#define FLAG_RETRANS_DATA_ACKED	0x08
#define FLAG_SYN_ACKED		0x10
#define FLAG_DATA_SACKED	0x20
#define FLAG_ECE		0x40
#define FLAG_LOST_RETRANS	0x80
#define FLAG_SLOWPATH		0x100
#define FLAG_ORIG_SACK_ACKED	0x200
#define FLAG_SND_UNA_ADVANCED	0x400
#define FLAG_DSACKING_ACK	0x800
#define FLAG_SET_XMIT_TIMER	0x1000
#define FLAG_ACKED		(FLAG_DATA_ACKED | FLAG_SYN_ACKED)
#define FLAG_NOT_DUP		(FLAG_DATA | FLAG_WIN_UPDATE | FLAG_ACKED)
#define FLAG_CA_ALERT		(FLAG_DATA_SACKED | FLAG_ECE | FLAG_DSACKING_ACK)
#define FLAG_FORWARD_PROGRESS	(FLAG_ACKED | FLAG_DATA_SACKED)

/* Per-packet scoreboard bits, as TCP_SKB_CB(skb)->sacked. */
#define S_SACKED_ACKED		0x01
#define S_SACKED_RETRANS	0x02	/* a retransmission is in flight */
#define S_LOST			0x04
#define S_EVER_RETRANS		0x08
#define S_RETRANS		(S_SACKED_RETRANS | S_EVER_RETRANS)

#define DELIVERED_CE_MASK	((1U << 20) - 1)	/* TCPCB_DELIVERED_CE_MASK */
#define NOIDX			(~0ULL)
#define SYN_WIRE_BYTES		64
/*
 * The receiver's window: the largest a TCP window can be, a 16-bit field
 * scaled by 2^14 (RFC 7323; what a receiver with a tcp_rmem of a GB or
 * more advertises). tcp_write_xmit() sends nothing beyond snd_una + snd_wnd
 * (tcp_snd_wnd_test()), so the flight stays well within the 2^31 bytes
 * that the kernel's before()/after() sequence comparisons can order.
 */
#define SND_WND			(65535U << 14)

enum ev_type {
	EV_START, EV_LINK_DONE, EV_RCV, EV_ACK, EV_RTO, EV_REO, EV_DELACK,
	EV_SEND, EV_APP, EV_APP_TOGGLE, EV_STOP, EV_TICK,
	EV_FIFO,	/* frame mode: the head of a flow's RCV or ACK FIFO is due */
	EV_FQ_OUT,	/* pace_late_us: a packet fq held leaves */
	EV_TBF,		/* link_late_us: the bottleneck tbf's watchdog fires */
};

struct lpkt {			/* a packet in the network */
	struct lpkt *next;
	u64 idx;		/* first packet */
	u32 n;			/* packets: 1, or up to frame_segs in frame mode */
	u32 wire;
	u16 flow;
	u8 ect, ce, cwr, syn;
};

struct ack_msg {
	u64 cum;		/* next packet index expected */
	u64 sack;		/* out-of-order packet just received, or NOIDX */
	u64 sack_end;		/* ... and the end of its range (frame mode) */
	u8 ece;
	u8 synack;
};

struct ev {
	u64 t;
	u64 seq;
	u32 type;
	u32 flow;
	union {
		struct lpkt *pkt;
		struct ack_msg ack;
		u32 gen;
	} u;
};

/* Frame mode: a flow's packets reach the receiver, and its ACKs the sender,
 * after a constant delay, so each stream of events is already in time
 * order: a FIFO per flow and direction, with only its head in the heap.
 */
struct evfifo {
	struct ev *buf;
	u32 head, len, cap;
};

struct txpkt {			/* sender's state of one sent packet (skb) */
	u64 xmit_us;		/* tcp_skb_timestamp_us(): last transmission */
	u64 tx_first_tx_mstamp;
	u64 tx_delivered_mstamp;
	u32 tx_delivered;
	u32 tx_delivered_ce;
	u8 tx_app_limited;
	u8 sacked;		/* S_* */
	u8 in_tsorted;
	u64 tprev, tnext;	/* tsorted_sent_queue: by transmit time */
};

struct lflow {
	struct tcp_sock tp;	/* first: sk == &tp */
	const struct tcp_congestion_ops *ops;
	int id;
	struct linksim_flow_cfg cfg;
	u64 fwd_ns, rev_ns;

	/* sender */
	bool started, established, stopped, app_on;
	struct txpkt *ring;
	u64 ring_mask;
	u64 una, nxt, avail;	/* first unacked, next new, end of app data */
	u64 high;		/* tp->high_seq as an index */
	u64 ts_head, ts_tail;	/* tsorted list */
	u64 rexmit_hint;	/* no lost-not-retransmitted packet below */
	/* One bit per ring slot: the packet is lost and not retransmitted
	 * (rexmit_wanted()), so that the retransmit queue finds the next one
	 * without walking a window of packets; a lost retransmission sends
	 * rexmit_hint back by up to a window (1.65 M packets at 100 Gbit/s x
	 * 200 ms), and that walk was two thirds of the CPU at 1 % loss.
	 */
	u64 *wanted;
	u64 syn_xmit_us;
	u32 syn_tries;
	u32 rto_gen, reo_gen, send_gen;
	bool send_pending;
	u64 send_at_ns;
	u64 fq_release_ns;	/* pace_late_us: fq's late watchdog fires */
	u64 r_last_ack_ns;	/* ack_late_us: when the last ACK arrives */
	bool rto_armed;
	/* frame mode: one RTO event in the heap at a time (a re-arm to a later
	 * time moves rto_deadline; the early event re-queues itself)
	 */
	bool rto_ev_pending;
	u64 rto_ev_ns, rto_deadline_ns;
	struct evfifo fifo[2];	/* frame mode: EV_RCV, EV_ACK */
	u64 app_bytes_left;	/* written but not yet a full packet */
	u64 app_written;

	/* receiver */
	u64 r_next;
	u8 *r_ooo;
	u64 r_ooo_mask;
	u32 r_unacked;
	bool r_demand_cwr;
	bool r_last_ce;
	u32 r_delack_gen;
	bool r_delack_armed;

	struct linksim_flow_stats st;
};

struct linksim {
	struct linksim_cfg cfg;
	u64 now_ns;
	u64 boot_ns;
	u64 evseq;
	struct ev *heap;
	u32 nheap, heap_cap;

	u32 nflows;
	struct lflow *flows[LINKSIM_MAX_FLOWS];

	/* bottleneck */
	struct lpkt *q_head, *q_tail;
	u32 q_len;
	u64 q_bytes;
	struct lpkt *in_service;
	u64 ser_carry;		/* serialization remainder, for an exact rate */
	u64 q_last_ns;
	u64 busy_since_ns;
	/* link_late_us: the tbf's bucket, in ns of transmission at the rate */
	s64 tbf_tokens_ns;
	u64 tbf_last_ns;
	bool tbf_armed;
	struct linksim_link_stats ls;

	struct lpkt *free_pkts;
	void **chunks;
	u32 nchunks;

	u64 rng;
	u64 rng_timer;		/* late-timer draws, apart from the loss */
	u64 rng_ack;		/* ack_late_us draws */
	u64 ack_lag_epoch;	/* ack_late_us: the hold the lag was drawn in */
	u64 ack_lag_ns;
};

static struct linksim *cur_sim;	/* for tcp_rate_check_app_limited() etc. */

/* ------------------------------------------------------------------ */
/* small helpers */

/* splitmix64: one step of the generator whose state is *state */
static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 sim_rand(struct linksim *sim)
{
	return splitmix64(&sim->rng);
}

static struct sock *fsk(struct lflow *f)
{
	return (struct sock *)&f->tp;
}

static struct lflow *sk_flow(const struct sock *sk)
{
	return (struct lflow *)sk;
}

static u64 kern_ns(const struct linksim *sim)
{
	return sim->boot_ns + sim->now_ns;
}

static u32 seq_of(const struct linksim *sim, u64 idx)
{
	return sim->cfg.isn + 1 + (u32)(idx * sim->cfg.mss);
}

static struct txpkt *txp(struct lflow *f, u64 idx)
{
	return &f->ring[idx & f->ring_mask];
}

static void set_clock(struct linksim *sim, u64 t_ns)
{
	sim->now_ns = t_ns;
	shim_clock_set_ns(kern_ns(sim));
}

/* tcp_mstamp_refresh() */
static void mstamp_refresh(struct linksim *sim, struct lflow *f)
{
	f->tp.tcp_clock_cache = kern_ns(sim);
	f->tp.tcp_mstamp = kern_ns(sim) / NSEC_PER_USEC;
}

/* ------------------------------------------------------------------ */
/* event heap, ordered by (time, insertion order) */

static bool ev_before(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(struct linksim *sim, struct ev e)
{
	u32 i;

	if (sim->nheap == sim->heap_cap) {
		sim->heap_cap = sim->heap_cap ? sim->heap_cap * 2 : 1024;
		sim->heap = realloc(sim->heap, sim->heap_cap * sizeof(*sim->heap));
		if (!sim->heap)
			abort();
	}
	e.seq = sim->evseq++;
	i = sim->nheap++;
	while (i) {
		u32 parent = (i - 1) / 2;

		if (!ev_before(&e, &sim->heap[parent]))
			break;
		sim->heap[i] = sim->heap[parent];
		i = parent;
	}
	sim->heap[i] = e;
}

static struct ev ev_pop(struct linksim *sim)
{
	struct ev top = sim->heap[0];
	struct ev last = sim->heap[--sim->nheap];
	u32 i = 0;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= sim->nheap)
			break;
		if (c + 1 < sim->nheap && ev_before(&sim->heap[c + 1], &sim->heap[c]))
			c++;
		if (!ev_before(&sim->heap[c], &last))
			break;
		sim->heap[i] = sim->heap[c];
		i = c;
	}
	if (sim->nheap)
		sim->heap[i] = last;
	return top;
}

static void ev_at(struct linksim *sim, u64 t, u32 type, u32 flow, u32 gen)
{
	struct ev e = { .t = t, .type = type, .flow = flow };

	e.u.gen = gen;
	ev_push(sim, e);
}

/* Frame mode: EV_RCV and EV_ACK go through their flow's FIFO. */
static void ev_post(struct linksim *sim, struct ev e)
{
	struct lflow *f;
	struct evfifo *q;

	if (!sim->cfg.frame_segs || (e.type != EV_RCV && e.type != EV_ACK)) {
		ev_push(sim, e);
		return;
	}
	f = sim->flows[e.flow];
	q = &f->fifo[e.type == EV_ACK];
	if (q->len == q->cap) {
		u32 ncap = q->cap ? q->cap * 2 : 256, i;
		struct ev *n = malloc(ncap * sizeof(*n));

		if (!n)
			abort();
		for (i = 0; i < q->len; i++)
			n[i] = q->buf[(q->head + i) & (q->cap - 1)];
		free(q->buf);
		q->buf = n;
		q->head = 0;
		q->cap = ncap;
	}
	q->buf[(q->head + q->len++) & (q->cap - 1)] = e;
	if (q->len == 1)
		ev_at(sim, e.t, EV_FIFO, e.flow, e.type == EV_ACK);
}

/* ------------------------------------------------------------------ */
/* packets in the network */

static struct lpkt *pkt_alloc(struct linksim *sim)
{
	struct lpkt *p = sim->free_pkts;

	if (!p) {
		const u32 n = 4096;
		struct lpkt *chunk = calloc(n, sizeof(*chunk));
		u32 i;

		sim->chunks = realloc(sim->chunks, (sim->nchunks + 1) * sizeof(void *));
		if (!chunk || !sim->chunks)
			abort();
		sim->chunks[sim->nchunks++] = chunk;
		for (i = 0; i < n; i++) {
			chunk[i].next = sim->free_pkts;
			sim->free_pkts = &chunk[i];
		}
		p = sim->free_pkts;
	}
	sim->free_pkts = p->next;
	memset(p, 0, sizeof(*p));
	p->n = 1;
	return p;
}

static void pkt_free(struct linksim *sim, struct lpkt *p)
{
	p->next = sim->free_pkts;
	sim->free_pkts = p;
}

/* ------------------------------------------------------------------ */
/* the bottleneck: drop-tail FIFO, optional CE marking, random loss */

static void queue_account(struct linksim *sim)
{
	sim->ls.queue_pkt_ns += (double)sim->q_len * (double)(sim->now_ns - sim->q_last_ns);
	sim->q_last_ns = sim->now_ns;
}

/* Take the head of the bottleneck queue; its transmission time, exact. */
static struct lpkt *link_dequeue(struct linksim *sim, u64 *tx_ns)
{
	struct lpkt *p = sim->q_head;
	u64 bits_ns;

	queue_account(sim);
	sim->q_head = p->next;
	if (!sim->q_head)
		sim->q_tail = NULL;
	sim->q_len -= p->n;
	sim->q_bytes -= p->wire;
	bits_ns = (u64)p->wire * 8 * NSEC_PER_SEC + sim->ser_carry;
	*tx_ns = bits_ns / sim->cfg.rate_bps;
	sim->ser_carry = bits_ns % sim->cfg.rate_bps;
	return p;
}

/* The packet has left the bottleneck: on to the receiver. */
static void link_deliver(struct linksim *sim, struct lpkt *p)
{
	struct ev e = { .type = EV_RCV };

	e.t = sim->now_ns + sim->flows[p->flow]->fwd_ns;
	e.flow = p->flow;
	e.u.pkt = p;
	ev_post(sim, e);
}

/*
 * link_late_us: the test bed's tbf.  Tokens accrue at the rate up to the
 * bucket; the head packet leaves when they cover it (or a bucketful, for a
 * frame larger than the bucket: tbf would segment it), together with
 * every packet behind it they also cover.  When they do not, the watchdog
 * is armed for the moment they will, and fires up to link_late_us late:
 * the tokens that accrued meanwhile send a burst.
 */
static void tbf_run(struct linksim *sim)
{
	s64 burst_ns = (s64)sim->cfg.link_burst_us * NSEC_PER_USEC;
	u64 late;

	if (sim->tbf_armed)
		return;
	sim->tbf_tokens_ns = min_t(s64, burst_ns, sim->tbf_tokens_ns +
				   (s64)(sim->now_ns - sim->tbf_last_ns));
	sim->tbf_last_ns = sim->now_ns;
	while (sim->q_head) {
		u64 bits = (u64)sim->q_head->wire * 8 * NSEC_PER_SEC;
		s64 need = min_t(s64, burst_ns, bits / sim->cfg.rate_bps);
		struct lpkt *p;
		u64 tx_ns;

		if (sim->tbf_tokens_ns < need) {
			late = splitmix64(&sim->rng_timer) %
			       ((u64)sim->cfg.link_late_us * 1000);
			sim->tbf_armed = true;
			ev_at(sim, sim->now_ns + (u64)(need - sim->tbf_tokens_ns) + late,
			      EV_TBF, 0, 0);
			return;
		}
		p = link_dequeue(sim, &tx_ns);
		sim->tbf_tokens_ns -= (s64)tx_ns;
		sim->ls.busy_ns += tx_ns;
		link_deliver(sim, p);
	}
}

static void link_start(struct linksim *sim)
{
	u64 ns;

	if (sim->cfg.link_late_us) {
		tbf_run(sim);
		return;
	}
	if (sim->in_service || !sim->q_head)
		return;
	sim->in_service = link_dequeue(sim, &ns);
	sim->busy_since_ns = sim->now_ns;
	ev_at(sim, sim->now_ns + ns, EV_LINK_DONE, sim->in_service->flow, 0);
}

/* Does a packet arriving now wait (and so count against the buffer)? */
static bool link_backlogged(const struct linksim *sim)
{
	return sim->in_service || sim->q_head;
}

static void link_enqueue(struct linksim *sim, struct lpkt *p)
{
	struct lflow *f = sim->flows[p->flow];
	bool full;

	if (!p->syn && sim->cfg.loss_ppm &&
	    sim_rand(sim) % 1000000 < sim->cfg.loss_ppm) {
		sim->ls.drops_random++;
		f->st.pkts_dropped++;
		pkt_free(sim, p);
		return;
	}
	if (sim->cfg.queue_pkts)
		full = sim->q_len >= sim->cfg.queue_pkts;
	else
		full = sim->q_bytes + p->wire > sim->cfg.queue_bytes;
	if (full && link_backlogged(sim)) {
		sim->ls.drops_queue++;
		f->st.pkts_dropped++;
		pkt_free(sim, p);
		return;
	}
	if (p->ect && sim->cfg.ecn_k_pkts && sim->q_len >= sim->cfg.ecn_k_pkts) {
		p->ce = 1;
		sim->ls.ce_marks++;
		f->st.pkts_ce++;
	}
	queue_account(sim);
	p->next = NULL;
	if (sim->q_tail)
		sim->q_tail->next = p;
	else
		sim->q_head = p;
	sim->q_tail = p;
	sim->q_len++;
	sim->q_bytes += p->wire;
	if (sim->q_len > sim->ls.max_queue_pkts)
		sim->ls.max_queue_pkts = sim->q_len;
	link_start(sim);
}

/*
 * Frame mode: a frame of p->n packets reaches the bottleneck queue. Drop-tail
 * admits the packets that fit and drops the frame's tail (a burst arriving
 * to a full queue loses its last packets); a frame arriving to an idle link
 * goes straight into service, whole.
 */
static void link_admit_frame(struct linksim *sim, struct lpkt *p)
{
	struct lflow *f = sim->flows[p->flow];
	u32 per = sim->cfg.mss + sim->cfg.hdr_bytes, n = p->n, space;

	if (!link_backlogged(sim)) {
		space = n;
	} else if (sim->cfg.queue_pkts) {
		space = sim->q_len < sim->cfg.queue_pkts ? sim->cfg.queue_pkts - sim->q_len : 0;
	} else {
		u64 room = sim->q_bytes < sim->cfg.queue_bytes ?
			   sim->cfg.queue_bytes - sim->q_bytes : 0;

		space = (u32)min_t(u64, room / (p->syn ? p->wire : per), n);
	}
	if (space < n) {
		sim->ls.drops_queue += n - space;
		f->st.pkts_dropped += n - space;
		if (!space) {
			pkt_free(sim, p);
			return;
		}
		p->n = space;
		p->wire = space * per;
	}
	if (p->ect && sim->cfg.ecn_k_pkts && sim->q_len >= sim->cfg.ecn_k_pkts) {
		p->ce = 1;
		sim->ls.ce_marks += p->n;
		f->st.pkts_ce += p->n;
	}
	queue_account(sim);
	p->next = NULL;
	if (sim->q_tail)
		sim->q_tail->next = p;
	else
		sim->q_head = p;
	sim->q_tail = p;
	sim->q_len += p->n;
	sim->q_bytes += p->wire;
	if (sim->q_len > sim->ls.max_queue_pkts)
		sim->ls.max_queue_pkts = sim->q_len;
	link_start(sim);
}

/* Frame mode: random loss stays a Bernoulli trial per packet; a frame is
 * split around its lost packets (GSO segments are lost one by one).
 */
static void link_enqueue_frame(struct linksim *sim, struct lpkt *p)
{
	struct lflow *f = sim->flows[p->flow];
	u32 per = sim->cfg.mss + sim->cfg.hdr_bytes, i, start = 0;

	if (p->syn || !sim->cfg.loss_ppm) {
		link_admit_frame(sim, p);
		return;
	}
	for (i = 0; i <= p->n; i++) {
		struct lpkt *piece;

		if (i < p->n && sim_rand(sim) % 1000000 >= sim->cfg.loss_ppm)
			continue;
		if (i == p->n && start == 0) {	/* nothing lost */
			link_admit_frame(sim, p);
			return;
		}
		if (i > start) {
			piece = pkt_alloc(sim);
			piece->idx = p->idx + start;
			piece->n = i - start;
			piece->wire = piece->n * per;
			piece->flow = p->flow;
			piece->ect = p->ect;
			piece->cwr = p->cwr && start == 0;
			link_admit_frame(sim, piece);
		}
		if (i < p->n) {
			sim->ls.drops_random++;
			f->st.pkts_dropped++;
		}
		start = i + 1;
	}
	pkt_free(sim, p);
}

/*
 * pace_late_us: fq's watchdog fires up to that late (uniform), as under an
 * emulator (TCG) whose timers run late.  The packet that finds no watchdog
 * pending arms one; it and every packet of its flow that comes before the
 * watchdog fires leave together when it does.  TCP's own EDT stamps are
 * unaffected: it queues into fq ahead of time.
 */
static bool fq_hold(struct linksim *sim, struct lpkt *p)
{
	struct lflow *f = sim->flows[p->flow];
	struct ev e = { .type = EV_FQ_OUT, .flow = p->flow };

	if (f->fq_release_ns <= sim->now_ns) {
		u64 late = splitmix64(&sim->rng_timer) %
			   ((u64)sim->cfg.pace_late_us * 1000);

		if (!late)
			return false;
		f->fq_release_ns = sim->now_ns + late;
	}
	e.t = f->fq_release_ns;
	e.u.pkt = p;
	ev_push(sim, e);
	return true;
}

/* the packet reaches the bottleneck now */
static void link_arrive(struct linksim *sim, struct lpkt *p)
{
	if (sim->cfg.frame_segs)
		link_enqueue_frame(sim, p);
	else
		link_enqueue(sim, p);
}

static void link_send(struct linksim *sim, struct lpkt *p)
{
	if (sim->cfg.pace_late_us && sim->cfg.fq && !p->syn && fq_hold(sim, p))
		return;
	link_arrive(sim, p);
}

static void link_done(struct linksim *sim)
{
	struct lpkt *p = sim->in_service;

	sim->ls.busy_ns += sim->now_ns - sim->busy_since_ns;
	sim->in_service = NULL;
	link_deliver(sim, p);
	link_start(sim);
}

/* ------------------------------------------------------------------ */
/* receiver */

/* ack_late_us: how late the busy receiving host sends an ACK now */
static u64 ack_lag_ns(struct linksim *sim)
{
	u64 epoch;

	if (!sim->cfg.ack_late_us)
		return 0;
	epoch = sim->now_ns / ((u64)sim->cfg.ack_late_hold_us * NSEC_PER_USEC);
	if (epoch != sim->ack_lag_epoch) {
		sim->ack_lag_epoch = epoch;
		sim->ack_lag_ns = splitmix64(&sim->rng_ack) %
				  ((u64)sim->cfg.ack_late_us * NSEC_PER_USEC + 1);
	}
	return sim->ack_lag_ns;
}

static void rcv_send_ack_range(struct linksim *sim, struct lflow *f, u64 sack,
			       u64 sack_end, bool ece)
{
	struct ev e = { .type = EV_ACK, .flow = f->id };

	e.t = sim->now_ns + f->rev_ns + ack_lag_ns(sim);
	if (sim->cfg.ack_late_us) {
		e.t = max(e.t, f->r_last_ack_ns);
		f->r_last_ack_ns = e.t;
	}
	e.u.ack.cum = f->r_next;
	e.u.ack.sack = sack;
	e.u.ack.sack_end = sack_end;
	e.u.ack.ece = ece;
	ev_post(sim, e);
	f->r_unacked = 0;
	if (f->r_delack_armed) {
		f->r_delack_armed = false;
		f->r_delack_gen++;
	}
}

static void rcv_send_ack(struct linksim *sim, struct lflow *f, u64 sack, bool ece)
{
	rcv_send_ack_range(sim, f, sack, sack == NOIDX ? NOIDX : sack + 1, ece);
}

static bool rcv_ece(const struct linksim *sim, const struct lflow *f)
{
	if (sim->cfg.ece_mode == LINKSIM_ECE_RFC3168)
		return f->r_demand_cwr;
	return f->r_last_ce;
}

static bool rcv_has(struct lflow *f, u64 idx)
{
	return idx - f->r_next <= f->r_ooo_mask && f->r_ooo[idx & f->r_ooo_mask];
}

static void rcv_mark(struct lflow *f, u64 idx)
{
	while (idx - f->r_next > f->r_ooo_mask) {
		u64 cap = (f->r_ooo_mask + 1) * 2, i;
		u8 *n = calloc(cap, 1);

		if (!n)
			abort();
		for (i = f->r_next; i <= f->r_next + f->r_ooo_mask; i++)
			n[i & (cap - 1)] = f->r_ooo[i & f->r_ooo_mask];
		free(f->r_ooo);
		f->r_ooo = n;
		f->r_ooo_mask = cap - 1;
	}
	f->r_ooo[idx & f->r_ooo_mask] = 1;
}

static void rcv_packet(struct linksim *sim, struct lpkt *p)
{
	struct lflow *f = sim->flows[p->flow];
	bool ack_now = false;
	u64 idx = p->idx;

	if (p->syn) {
		struct ev e = { .type = EV_ACK, .flow = f->id };

		e.t = sim->now_ns + f->rev_ns;
		e.u.ack.synack = 1;
		ev_post(sim, e);
		pkt_free(sim, p);
		return;
	}

	if (sim->cfg.ece_mode == LINKSIM_ECE_RFC3168) {
		if (p->cwr) {		/* tcp_ecn_accept_cwr() */
			f->r_demand_cwr = false;
			ack_now = true;
		}
		if (p->ce) {		/* __tcp_ecn_check_ce() */
			if (!f->r_demand_cwr)
				ack_now = true;	/* quickack */
			f->r_demand_cwr = true;
		}
	} else if (p->ce != f->r_last_ce) {
		/* DCTCP-style: flush pending ACK with the old CE state. */
		if (f->r_unacked)
			rcv_send_ack(sim, f, NOIDX, f->r_last_ce);
		f->r_last_ce = p->ce;
	}

	if (idx < f->r_next || rcv_has(f, idx)) {
		rcv_send_ack(sim, f, NOIDX, rcv_ece(sim, f));	/* duplicate */
	} else if (idx == f->r_next) {
		bool filled = false;

		f->st.pkts_rcvd++;
		f->r_ooo[idx & f->r_ooo_mask] = 0;
		f->r_next++;
		while (rcv_has(f, f->r_next)) {
			f->r_ooo[f->r_next & f->r_ooo_mask] = 0;
			f->r_next++;
			filled = true;
		}
		f->r_unacked++;
		if (filled || ack_now || f->r_unacked >= sim->cfg.ack_every) {
			rcv_send_ack(sim, f, NOIDX, rcv_ece(sim, f));
		} else if (!f->r_delack_armed) {
			f->r_delack_armed = true;
			ev_at(sim, sim->now_ns + (u64)sim->cfg.delack_us * NSEC_PER_USEC,
			      EV_DELACK, f->id, ++f->r_delack_gen);
		}
	} else {
		f->st.pkts_rcvd++;
		rcv_mark(f, idx);
		rcv_send_ack(sim, f, idx, rcv_ece(sim, f));
	}
	pkt_free(sim, p);
}

/* Frame mode: a GRO receiver gets frame [idx, idx + n) and ACKs it once. */
static void rcv_frame(struct linksim *sim, struct lpkt *p)
{
	struct lflow *f = sim->flows[p->flow];
	u64 a = p->idx, b = p->idx + p->n, i;
	bool ack_now = false;

	if (sim->cfg.ece_mode == LINKSIM_ECE_RFC3168) {
		if (p->cwr) {
			f->r_demand_cwr = false;
			ack_now = true;
		}
		if (p->ce) {
			if (!f->r_demand_cwr)
				ack_now = true;
			f->r_demand_cwr = true;
		}
	} else if (p->ce != f->r_last_ce) {
		if (f->r_unacked)
			rcv_send_ack(sim, f, NOIDX, f->r_last_ce);
		f->r_last_ce = p->ce;
	}

	if (b <= f->r_next) {
		rcv_send_ack(sim, f, NOIDX, rcv_ece(sim, f));	/* duplicate */
	} else if (a <= f->r_next) {
		bool filled = false;

		for (i = f->r_next; i < b; i++) {
			if (!rcv_has(f, i))
				f->st.pkts_rcvd++;
			if (i - f->r_next <= f->r_ooo_mask)
				f->r_ooo[i & f->r_ooo_mask] = 0;
		}
		f->r_next = b;
		while (rcv_has(f, f->r_next)) {
			f->r_ooo[f->r_next & f->r_ooo_mask] = 0;
			f->r_next++;
			filled = true;
		}
		f->r_unacked++;
		if (filled || ack_now || f->r_unacked >= sim->cfg.ack_every) {
			rcv_send_ack(sim, f, NOIDX, rcv_ece(sim, f));
		} else if (!f->r_delack_armed) {
			f->r_delack_armed = true;
			ev_at(sim, sim->now_ns + (u64)sim->cfg.delack_us * NSEC_PER_USEC,
			      EV_DELACK, f->id, ++f->r_delack_gen);
		}
	} else {
		bool news = false;

		for (i = a; i < b; i++) {
			if (rcv_has(f, i))
				continue;
			rcv_mark(f, i);
			f->st.pkts_rcvd++;
			news = true;
		}
		if (news)
			rcv_send_ack_range(sim, f, a, b, rcv_ece(sim, f));
		else
			rcv_send_ack(sim, f, NOIDX, rcv_ece(sim, f));
	}
	pkt_free(sim, p);
}

/* ------------------------------------------------------------------ */
/* sender: scoreboard ring and the transmit-time-ordered list */

static bool rexmit_wanted(struct txpkt *p)
{
	return (p->sacked & S_LOST) && !(p->sacked & (S_SACKED_ACKED | S_SACKED_RETRANS));
}

static void wanted_set(struct lflow *f, u64 idx, bool wanted)
{
	u64 slot = idx & f->ring_mask, bit = 1ULL << (slot & 63);

	if (wanted)
		f->wanted[slot >> 6] |= bit;
	else
		f->wanted[slot >> 6] &= ~bit;
}

/* Keep the packet's bit in f->wanted equal to rexmit_wanted(). */
static void wanted_update(struct lflow *f, u64 idx)
{
	wanted_set(f, idx, rexmit_wanted(txp(f, idx)));
}

/* The first packet at or after idx, before end, that rexmit_wanted(); end if none. */
static u64 next_wanted(const struct lflow *f, u64 idx, u64 end)
{
	while (idx < end) {
		u64 slot = idx & f->ring_mask;
		u64 word = f->wanted[slot >> 6] >> (slot & 63);

		if (word)
			return min(idx + __builtin_ctzll(word), end);
		idx += 64 - (slot & 63);
	}
	return end;
}

static void ring_reserve(struct lflow *f, u64 need)
{
	u64 cap = f->ring_mask + 1, ncap, i;
	struct txpkt *n;

	if (need <= cap)
		return;
	for (ncap = cap; ncap < need; ncap *= 2)
		;
	n = calloc(ncap, sizeof(*n));
	if (!n)
		abort();
	for (i = f->una; i < f->nxt; i++)
		n[i & (ncap - 1)] = f->ring[i & f->ring_mask];
	free(f->ring);
	f->ring = n;
	f->ring_mask = ncap - 1;
	free(f->wanted);
	f->wanted = calloc(ncap / 64, sizeof(*f->wanted));
	if (!f->wanted)
		abort();
	for (i = f->una; i < f->nxt; i++)
		wanted_update(f, i);
}

static void ts_unlink(struct lflow *f, u64 idx)
{
	struct txpkt *p = txp(f, idx);

	if (!p->in_tsorted)
		return;
	if (p->tprev != NOIDX)
		txp(f, p->tprev)->tnext = p->tnext;
	else
		f->ts_head = p->tnext;
	if (p->tnext != NOIDX)
		txp(f, p->tnext)->tprev = p->tprev;
	else
		f->ts_tail = p->tprev;
	p->in_tsorted = 0;
}

static void ts_append(struct lflow *f, u64 idx)
{
	struct txpkt *p = txp(f, idx);

	ts_unlink(f, idx);
	p->tprev = f->ts_tail;
	p->tnext = NOIDX;
	if (f->ts_tail != NOIDX)
		txp(f, f->ts_tail)->tnext = idx;
	else
		f->ts_head = idx;
	f->ts_tail = idx;
	p->in_tsorted = 1;
}

/* ------------------------------------------------------------------ */
/* tcp_rate.c */

static void rate_skb_sent(struct lflow *f, struct txpkt *p)
{
	struct tcp_sock *tp = &f->tp;

	if (!tp->packets_out) {
		tp->first_tx_mstamp = p->xmit_us;
		tp->delivered_mstamp = p->xmit_us;
	}
	p->tx_first_tx_mstamp = tp->first_tx_mstamp;
	p->tx_delivered_mstamp = tp->delivered_mstamp;
	p->tx_delivered = tp->delivered;
	p->tx_delivered_ce = tp->delivered_ce;
	p->tx_app_limited = tp->app_limited ? 1 : 0;
}

static void rate_skb_delivered(struct lflow *f, struct txpkt *p, u32 end_seq,
			       struct rate_sample *rs)
{
	struct tcp_sock *tp = &f->tp;

	if (!p->tx_delivered_mstamp)
		return;
	if (!rs->prior_delivered ||
	    tcp_skb_sent_after(p->xmit_us, tp->first_tx_mstamp, end_seq,
			       rs->last_end_seq)) {
		rs->prior_delivered_ce = p->tx_delivered_ce;
		rs->prior_delivered = p->tx_delivered;
		rs->prior_mstamp = p->tx_delivered_mstamp;
		rs->is_app_limited = p->tx_app_limited;
		rs->is_retrans = p->sacked & S_RETRANS;
		rs->last_end_seq = end_seq;
		tp->first_tx_mstamp = p->xmit_us;
		rs->interval_us = tcp_stamp_us_delta(tp->first_tx_mstamp,
						     p->tx_first_tx_mstamp);
	}
	if (p->sacked & S_SACKED_ACKED)
		p->tx_delivered_mstamp = 0;
}

static void rate_gen(struct lflow *f, u32 delivered, u32 lost, struct rate_sample *rs)
{
	struct tcp_sock *tp = &f->tp;
	u32 snd_us, ack_us;

	if (tp->app_limited && after(tp->delivered, tp->app_limited))
		tp->app_limited = 0;
	if (delivered)
		tp->delivered_mstamp = tp->tcp_mstamp;
	rs->acked_sacked = delivered;
	rs->losses = lost;
	if (!rs->prior_mstamp) {
		rs->delivered = -1;
		rs->interval_us = -1;
		return;
	}
	rs->delivered = tp->delivered - rs->prior_delivered;
	rs->delivered_ce = tp->delivered_ce - rs->prior_delivered_ce;
	rs->delivered_ce &= DELIVERED_CE_MASK;
	snd_us = rs->interval_us;
	ack_us = tcp_stamp_us_delta(tp->tcp_mstamp, rs->prior_mstamp);
	rs->interval_us = max(snd_us, ack_us);
	rs->snd_interval_us = snd_us;
	rs->rcv_interval_us = ack_us;
	if (rs->interval_us < tcp_min_rtt(tp)) {
		rs->interval_us = -1;
		return;
	}
	if (!rs->is_app_limited ||
	    ((u64)rs->delivered * tp->rate_interval_us >=
	     (u64)tp->rate_delivered * rs->interval_us)) {
		tp->rate_delivered = rs->delivered;
		tp->rate_interval_us = rs->interval_us;
		tp->rate_app_limited = rs->is_app_limited;
	}
}

void tcp_rate_check_app_limited(struct sock *sk)
{
	struct lflow *f = sk_flow(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (f->avail <= f->nxt &&			/* < 1 MSS unsent */
	    tcp_packets_in_flight(tp) < tcp_snd_cwnd(tp) &&
	    tp->lost_out <= tp->retrans_out)
		tp->app_limited = (tp->delivered + tcp_packets_in_flight(tp)) ? : 1;
}

/* ------------------------------------------------------------------ */
/* RTT, RTO */

static void rtt_estimator(struct lflow *f, long mrtt_us)
{
	struct tcp_sock *tp = &f->tp;
	long m = mrtt_us;
	u32 srtt = tp->srtt_us;
	u32 rto_min = tcp_rto_min_us(fsk(f));

	if (srtt) {
		m -= (srtt >> 3);
		srtt += m;
		if (m < 0) {
			m = -m;
			m -= (tp->mdev_us >> 2);
			if (m > 0)
				m >>= 3;
		} else {
			m -= (tp->mdev_us >> 2);
		}
		tp->mdev_us += m;
		if (tp->mdev_us > tp->mdev_max_us) {
			tp->mdev_max_us = tp->mdev_us;
			if (tp->mdev_max_us > tp->rttvar_us)
				tp->rttvar_us = tp->mdev_max_us;
		}
		if (after(tp->snd_una, tp->rtt_seq)) {
			if (tp->mdev_max_us < tp->rttvar_us)
				tp->rttvar_us -= (tp->rttvar_us - tp->mdev_max_us) >> 2;
			tp->rtt_seq = tp->snd_nxt;
			tp->mdev_max_us = rto_min;
		}
	} else {
		srtt = m << 3;
		tp->mdev_us = m << 1;
		tp->rttvar_us = max(tp->mdev_us, rto_min);
		tp->mdev_max_us = tp->rttvar_us;
		tp->rtt_seq = tp->snd_nxt;
	}
	tp->srtt_us = max(1U, srtt);
	f->tp.inet_conn.icsk_rto = min_t(u32, usecs_to_jiffies((tp->srtt_us >> 3) +
							     tp->rttvar_us),
					 TCP_RTO_MAX);
}

static void ack_update_rtt(struct lflow *f, long seq_rtt_us, long sack_rtt_us,
			   long ca_rtt_us, struct rate_sample *rs)
{
	struct tcp_sock *tp = &f->tp;
	u32 wlen = sock_net(fsk(f))->ipv4.sysctl_tcp_min_rtt_wlen * HZ;

	if (seq_rtt_us < 0)
		seq_rtt_us = sack_rtt_us;
	rs->rtt_us = ca_rtt_us;
	if (seq_rtt_us < 0)
		return;
	minmax_running_min(&tp->rtt_min, wlen, tcp_jiffies32,
			   ca_rtt_us ? (u32)ca_rtt_us : jiffies_to_usecs(1));
	rtt_estimator(f, seq_rtt_us);
	f->tp.inet_conn.icsk_backoff = 0;
}

static u64 rto_ns(struct lflow *f)
{
	u64 j = (u64)f->tp.inet_conn.icsk_rto << f->tp.inet_conn.icsk_backoff;

	return (u64)jiffies_to_usecs(min_t(u64, j, TCP_RTO_MAX)) * NSEC_PER_USEC;
}

static void rto_arm(struct linksim *sim, struct lflow *f)
{
	u64 t = sim->now_ns + rto_ns(f);

	f->rto_armed = true;
	if (sim->cfg.frame_segs) {
		f->rto_deadline_ns = t;
		if (f->rto_ev_pending && f->rto_ev_ns <= t)
			return;		/* it fires early and re-queues itself */
		f->rto_ev_pending = true;
		f->rto_ev_ns = t;
	}
	ev_at(sim, t, EV_RTO, f->id, ++f->rto_gen);
}

static void rto_cancel(struct lflow *f)
{
	f->rto_armed = false;
	if (!f->rto_ev_pending)		/* frame mode: the event must clear it */
		f->rto_gen++;
}

/* ------------------------------------------------------------------ */
/* CA state machine pieces (tcp_input.c) */

static void init_cwnd_reduction(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;

	f->high = f->nxt;
	tp->high_seq = seq_of(sim, f->nxt);
	tp->tlp_high_seq = 0;
	tp->snd_cwnd_cnt = 0;
	tp->prior_cwnd = tcp_snd_cwnd(tp);
	tp->prr_delivered = 0;
	tp->prr_out = 0;
	tp->snd_ssthresh = f->ops->ssthresh(fsk(f));
	if (tp->ecn_flags & TCP_ECN_OK)
		tp->ecn_flags |= TCP_ECN_QUEUE_CWR;
}

void tcp_enter_cwr(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lflow *f = sk_flow(sk);

	tp->prior_ssthresh = 0;
	if (inet_csk(sk)->icsk_ca_state < TCP_CA_CWR) {
		tp->undo_marker = 0;
		init_cwnd_reduction(cur_sim, f);
		tcp_set_ca_state(sk, TCP_CA_CWR);
		f->st.cwrs++;
	}
}

static void end_cwnd_reduction(struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);

	if (f->ops->cong_control)
		return;
	if (tp->snd_ssthresh < TCP_INFINITE_SSTHRESH &&
	    (inet_csk(sk)->icsk_ca_state == TCP_CA_CWR || tp->undo_marker)) {
		tcp_snd_cwnd_set(tp, tp->snd_ssthresh);
		tp->snd_cwnd_stamp = tcp_jiffies32;
	}
	tcp_ca_event(sk, CA_EVENT_COMPLETE_CWR);
}

static void cwnd_reduction(struct lflow *f, int newly_acked_sacked, int newly_lost, int flag)
{
	struct tcp_sock *tp = &f->tp;
	int sndcnt = 0;
	int delta = tp->snd_ssthresh - tcp_packets_in_flight(tp);

	if (newly_acked_sacked <= 0 || WARN_ON_ONCE(!tp->prior_cwnd))
		return;
	tp->prr_delivered += newly_acked_sacked;
	if (delta < 0) {
		u64 dividend = (u64)tp->snd_ssthresh * tp->prr_delivered +
			       tp->prior_cwnd - 1;
		sndcnt = div_u64(dividend, tp->prior_cwnd) - tp->prr_out;
	} else {
		sndcnt = max_t(int, tp->prr_delivered - tp->prr_out, newly_acked_sacked);
		if (flag & FLAG_SND_UNA_ADVANCED && !newly_lost)
			sndcnt++;
		sndcnt = min(delta, sndcnt);
	}
	sndcnt = max(sndcnt, (tp->prr_out ? 0 : 1));
	tcp_snd_cwnd_set(tp, tcp_packets_in_flight(tp) + sndcnt);
}

static void try_keep_open(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	int state = TCP_CA_Open;

	if (tcp_left_out(tp) || tp->retrans_out)
		state = TCP_CA_Disorder;
	if (inet_csk(fsk(f))->icsk_ca_state != state) {
		tcp_set_ca_state(fsk(f), state);
		f->high = f->nxt;
		tp->high_seq = seq_of(sim, f->nxt);
	}
}

static void try_to_open(struct linksim *sim, struct lflow *f, int flag)
{
	if (!f->tp.retrans_out)
		f->tp.retrans_stamp = 0;
	if (flag & FLAG_ECE)
		tcp_enter_cwr(fsk(f));
	if (inet_csk(fsk(f))->icsk_ca_state != TCP_CA_CWR)
		try_keep_open(sim, f);
}

static void enter_recovery(struct linksim *sim, struct lflow *f, bool ece_ack)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);

	tp->prior_ssthresh = 0;
	tp->undo_marker = tp->snd_una;		/* tcp_init_undo() */
	tp->undo_retrans = tp->retrans_out ? (int)tp->retrans_out : -1;
	if (!tcp_in_cwnd_reduction(sk)) {
		if (!ece_ack)
			tp->prior_ssthresh = tcp_current_ssthresh(sk);
		init_cwnd_reduction(sim, f);
	}
	tcp_set_ca_state(sk, TCP_CA_Recovery);
	f->st.recoveries++;
}

/* No DSACK, so no undo: leaving Recovery or Loss is always "no undo". */
static void try_undo_recovery(struct lflow *f)
{
	tcp_set_ca_state(fsk(f), TCP_CA_Open);
	f->tp.is_sack_reneg = 0;
}

/* tcp_mark_skb_lost() */
static void mark_lost(struct lflow *f, u64 idx)
{
	struct tcp_sock *tp = &f->tp;
	struct txpkt *p = txp(f, idx);

	if (p->sacked & S_SACKED_ACKED)
		return;
	if (p->sacked & S_LOST) {
		if (p->sacked & S_SACKED_RETRANS) {	/* retransmit lost again */
			p->sacked &= ~S_SACKED_RETRANS;
			tp->retrans_out--;
			tp->lost++;
		}
	} else {
		tp->lost_out++;
		p->sacked |= S_LOST;
		tp->lost++;
	}
	wanted_update(f, idx);
	if (idx < f->rexmit_hint)
		f->rexmit_hint = idx;
}

static u32 rack_reo_wnd(struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;

	if (!tp->reord_seen) {
		if (inet_csk(fsk(f))->icsk_ca_state >= TCP_CA_Recovery)
			return 0;
		if (tp->sacked_out >= tp->reordering)
			return 0;
	}
	return min((tcp_min_rtt(tp) >> 2) * tp->rack.reo_wnd_steps,
		   tp->srtt_us >> 3);
}

static void rack_advance(struct lflow *f, u8 sacked, u32 end_seq, u64 xmit_us)
{
	struct tcp_sock *tp = &f->tp;
	u32 rtt_us = tcp_stamp_us_delta(tp->tcp_mstamp, xmit_us);

	if (rtt_us < tcp_min_rtt(tp) && (sacked & S_RETRANS))
		return;		/* ambiguous: original or retransmit? */
	tp->rack.advanced = 1;
	tp->rack.rtt_us = rtt_us;
	if (tcp_skb_sent_after(xmit_us, tp->rack.mstamp, end_seq, tp->rack.end_seq)) {
		tp->rack.mstamp = xmit_us;
		tp->rack.end_seq = end_seq;
	}
}

/* tcp_rack_detect_loss(): returns the longest wait (us) still pending. */
static u32 rack_detect_loss(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	u32 reo_wnd = rack_reo_wnd(f), timeout = 0;
	u64 idx, next;

	for (idx = f->ts_head; idx != NOIDX; idx = next) {
		struct txpkt *p = txp(f, idx);
		s32 remaining;

		next = p->tnext;
		if ((p->sacked & S_LOST) && !(p->sacked & S_SACKED_RETRANS))
			continue;
		if (!tcp_skb_sent_after(tp->rack.mstamp, p->xmit_us,
					tp->rack.end_seq, seq_of(sim, idx + 1)))
			break;
		remaining = tp->rack.rtt_us + reo_wnd -
			    tcp_stamp_us_delta(tp->tcp_mstamp, p->xmit_us);
		if (remaining <= 0) {
			mark_lost(f, idx);
			ts_unlink(f, idx);
		} else {
			timeout = max_t(u32, timeout, remaining);
		}
	}
	return timeout;
}

static void rack_mark_lost(struct linksim *sim, struct lflow *f)
{
	u32 timeout;

	if (!f->tp.rack.advanced)
		return;
	f->tp.rack.advanced = 0;
	timeout = rack_detect_loss(sim, f);
	if (timeout) {
		u64 j = usecs_to_jiffies(timeout) + TCP_TIMEOUT_MIN;

		ev_at(sim, sim->now_ns + (u64)jiffies_to_usecs(j) * NSEC_PER_USEC,
		      EV_REO, f->id, ++f->reo_gen);
	}
}

/* tcp_fastretrans_alert() for a SACK + RACK connection. */
static bool fastretrans_alert(struct linksim *sim, struct lflow *f, int flag)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);
	struct inet_connection_sock *icsk = inet_csk(sk);
	bool ece_ack = flag & FLAG_ECE;

	if (ece_ack)
		tp->prior_ssthresh = 0;

	/* D. state exit once high_seq is ACKed */
	if (icsk->icsk_ca_state == TCP_CA_Open) {
		tp->retrans_stamp = 0;
	} else if (f->una >= f->high) {
		switch (icsk->icsk_ca_state) {
		case TCP_CA_CWR:
			if (f->una != f->high) {
				end_cwnd_reduction(f);
				tcp_set_ca_state(sk, TCP_CA_Open);
			}
			break;
		case TCP_CA_Recovery:
			try_undo_recovery(f);
			end_cwnd_reduction(f);
			break;
		}
	}

	/* E. process state */
	switch (icsk->icsk_ca_state) {
	case TCP_CA_Recovery:
		rack_mark_lost(sim, f);
		break;
	case TCP_CA_Loss:
		if (f->una >= f->high)
			try_undo_recovery(f);	/* tcp_process_loss(): recovered */
		rack_mark_lost(sim, f);
		if (icsk->icsk_ca_state != TCP_CA_Open)
			return true;
		fallthrough;
	default:
		rack_mark_lost(sim, f);
		if (!tp->lost_out) {		/* !tcp_time_to_recover() */
			try_to_open(sim, f, flag);
			return false;
		}
		enter_recovery(sim, f, ece_ack);
	}
	return true;
}

/* tcp_enter_loss() + tcp_timeout_mark_lost() */
static void enter_loss(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);
	struct inet_connection_sock *icsk = inet_csk(sk);
	u64 idx;

	for (idx = f->una; idx < f->nxt; idx++) {
		struct txpkt *p = txp(f, idx);

		if (p->sacked & S_SACKED_ACKED)
			continue;
		if (idx != f->una &&
		    (s64)tp->rack.rtt_us - (s64)tcp_stamp_us_delta(tp->tcp_mstamp, p->xmit_us) > 0)
			continue;	/* recently sent: not lost yet */
		mark_lost(f, idx);
		ts_unlink(f, idx);
	}
	if (icsk->icsk_ca_state <= TCP_CA_Disorder || f->high <= f->una ||
	    (icsk->icsk_ca_state == TCP_CA_Loss && !icsk->icsk_retransmits)) {
		tp->prior_ssthresh = tcp_current_ssthresh(sk);
		tp->prior_cwnd = tcp_snd_cwnd(tp);
		tp->snd_ssthresh = f->ops->ssthresh(sk);
		tcp_ca_event(sk, CA_EVENT_LOSS);
		tp->undo_marker = tp->snd_una;
	}
	tcp_snd_cwnd_set(tp, tcp_packets_in_flight(tp) + 1);
	tp->snd_cwnd_cnt = 0;
	tp->snd_cwnd_stamp = tcp_jiffies32;
	tcp_set_ca_state(sk, TCP_CA_Loss);
	f->high = f->nxt;
	tp->high_seq = seq_of(sim, f->nxt);
	tp->tlp_high_seq = 0;
	if (tp->ecn_flags & TCP_ECN_OK)
		tp->ecn_flags |= TCP_ECN_QUEUE_CWR;
	tp->frto = 0;
}

/* ------------------------------------------------------------------ */
/* transmit (tcp_output.c) */

static bool pacing_blocked(struct linksim *sim, struct lflow *f)
{
	if (fsk(f)->sk_pacing_status == SK_PACING_NONE)
		return false;
	if (f->tp.tcp_wstamp_ns <= kern_ns(sim))
		return false;
	/* arm the pacing timer */
	if (!f->send_pending || f->send_at_ns != f->tp.tcp_wstamp_ns) {
		f->send_pending = true;
		f->send_at_ns = f->tp.tcp_wstamp_ns;
		ev_at(sim, f->tp.tcp_wstamp_ns - sim->boot_ns, EV_SEND, f->id, ++f->send_gen);
	}
	return true;
}

/* tcp_update_skb_after_send(): advance the EDT by len at the pacing rate. */
static void pacing_after_send(struct lflow *f, u64 len, u64 prior_wstamp)
{
	struct sock *sk = fsk(f);
	struct tcp_sock *tp = &f->tp;

	if (sk->sk_pacing_status != SK_PACING_NONE) {
		unsigned long rate = sk->sk_pacing_rate;

		if (rate != ~0UL && rate && tp->data_segs_out >= 10) {
			u64 len_ns = div64_ul(len * NSEC_PER_SEC, rate);
			u64 credit = tp->tcp_wstamp_ns - prior_wstamp;

			len_ns -= min_t(u64, len_ns / 2, credit);
			tp->tcp_wstamp_ns += len_ns;
		}
	}
}

static u32 tso_segs(struct lflow *f)
{
	struct sock *sk = fsk(f);
	struct tcp_sock *tp = &f->tp;
	unsigned long bytes;
	u32 r, min_tso, segs;

	min_tso = f->ops->min_tso_segs ? f->ops->min_tso_segs(sk) :
		  (u32)sock_net(sk)->ipv4.sysctl_tcp_min_tso_segs;
	bytes = sk->sk_pacing_rate >> sk->sk_pacing_shift;
	r = tcp_min_rtt(tp) >> sock_net(sk)->ipv4.sysctl_tcp_tso_rtt_log;
	if (r < BITS_PER_TYPE(sk->sk_gso_max_size))
		bytes += sk->sk_gso_max_size >> r;
	bytes = min_t(unsigned long, bytes, sk->sk_gso_max_size);
	segs = max_t(u32, bytes / tp->mss_cache, min_tso);
	return min_t(u32, segs, sk->sk_gso_max_segs);
}

/* The sender's side of one (re)transmission of packet idx; its ECN marks
 * go into w (the packet, or the first packet of a frame).
 */
static void xmit_book(struct linksim *sim, struct lflow *f, u64 idx, bool rexmit,
		      struct lpkt *w)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);
	struct txpkt *p = txp(f, idx);

	p->xmit_us = tp->tcp_wstamp_ns / NSEC_PER_USEC;
	rate_skb_sent(f, p);
	if (tcp_packets_in_flight(tp) == 0)
		tcp_ca_event(sk, CA_EVENT_TX_START);
	tp->lsndtime = tcp_jiffies32;
	ts_append(f, idx);

	if (tp->ecn_flags & TCP_ECN_OK) {
		if (!rexmit) {
			w->ect = 1;
			if (tp->ecn_flags & TCP_ECN_QUEUE_CWR) {
				tp->ecn_flags &= ~TCP_ECN_QUEUE_CWR;
				w->cwr = 1;
			}
		} else {
			w->ect = tcp_ca_needs_ecn(sk);
		}
	}
	tp->segs_out++;
	tp->data_segs_out++;
	tp->bytes_sent += sim->cfg.mss;
	f->st.pkts_sent++;
	if (!f->st.first_data_ns)
		f->st.first_data_ns = sim->now_ns;
}

static struct lpkt *frame_new(struct linksim *sim, struct lflow *f, u64 idx)
{
	struct lpkt *w = pkt_alloc(sim);

	w->idx = idx;
	w->flow = f->id;
	w->wire = sim->cfg.mss + sim->cfg.hdr_bytes;
	return w;
}

/* Put one (re)transmission of packet idx on the wire. */
static void xmit_one(struct linksim *sim, struct lflow *f, u64 idx, bool rexmit)
{
	struct lpkt *w = frame_new(sim, f, idx);

	xmit_book(sim, f, idx, rexmit, w);
	link_send(sim, w);
}

static void retransmit(struct linksim *sim, struct lflow *f, u64 idx)
{
	struct tcp_sock *tp = &f->tp;
	struct txpkt *p = txp(f, idx);
	u64 prior_wstamp = tp->tcp_wstamp_ns;

	tp->tcp_wstamp_ns = max(tp->tcp_wstamp_ns, tp->tcp_clock_cache);
	xmit_one(sim, f, idx, true);
	p->sacked |= S_RETRANS;
	wanted_update(f, idx);
	tp->retrans_out++;
	tp->total_retrans++;
	tp->bytes_retrans += sim->cfg.mss;
	if (!tp->retrans_stamp)
		tp->retrans_stamp = tcp_jiffies32;
	f->st.pkts_retrans++;
	pacing_after_send(f, sim->cfg.mss, prior_wstamp);
	if (tcp_in_cwnd_reduction(fsk(f)))
		tp->prr_out++;
}

static u32 frame_max_segs(struct linksim *sim, struct lflow *f)
{
	return max(1U, min(tso_segs(f), sim->cfg.frame_segs));
}

/* Frame mode tcp_xmit_retransmit_queue(): a run of consecutive lost packets
 * goes out as one frame (a retransmitted skb of several segments).
 */
static void xmit_retransmit_queue_frames(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	u32 max_segs = frame_max_segs(sim, f);
	u64 idx = max(f->rexmit_hint, f->una);

	f->rexmit_hint = idx;
	while (idx < f->nxt && tp->lost_out > tp->retrans_out) {
		u64 prior_wstamp, first;
		struct lpkt *w;
		u32 k = 0;

		if (!rexmit_wanted(txp(f, idx))) {
			u64 next = next_wanted(f, idx, f->nxt);

			if (idx == f->rexmit_hint)
				f->rexmit_hint = next;
			idx = next;
			continue;
		}
		if (tcp_packets_in_flight(tp) >= tcp_snd_cwnd(tp))
			break;
		if (pacing_blocked(sim, f))
			break;
		prior_wstamp = tp->tcp_wstamp_ns;
		tp->tcp_wstamp_ns = max(tp->tcp_wstamp_ns, tp->tcp_clock_cache);
		first = idx;
		w = frame_new(sim, f, idx);
		while (idx < f->nxt && k < max_segs && tp->lost_out > tp->retrans_out &&
		       tcp_packets_in_flight(tp) < tcp_snd_cwnd(tp) &&
		       rexmit_wanted(txp(f, idx))) {
			struct txpkt *p = txp(f, idx);
			struct lpkt dummy = { .n = 1 };

			xmit_book(sim, f, idx, true, k ? &dummy : w);
			p->sacked |= S_RETRANS;
			wanted_update(f, idx);
			tp->retrans_out++;
			tp->total_retrans++;
			tp->bytes_retrans += sim->cfg.mss;
			if (!tp->retrans_stamp)
				tp->retrans_stamp = tcp_jiffies32;
			f->st.pkts_retrans++;
			if (tcp_in_cwnd_reduction(fsk(f)))
				tp->prr_out++;
			k++;
			idx++;
		}
		w->n = k;
		w->wire = k * (sim->cfg.mss + sim->cfg.hdr_bytes);
		link_send(sim, w);
		pacing_after_send(f, (u64)k * sim->cfg.mss, prior_wstamp);
		if (first == f->rexmit_hint)
			f->rexmit_hint = idx;
	}
}

/* tcp_xmit_retransmit_queue() */
static void xmit_retransmit_queue(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	u64 idx;

	if (sim->cfg.frame_segs) {
		xmit_retransmit_queue_frames(sim, f);
		return;
	}

	if (f->rexmit_hint < f->una)
		f->rexmit_hint = f->una;
	for (idx = f->rexmit_hint; idx < f->nxt && tp->lost_out > tp->retrans_out; idx++) {
		if (!rexmit_wanted(txp(f, idx))) {
			u64 next = next_wanted(f, idx, f->nxt);

			if (idx == f->rexmit_hint)
				f->rexmit_hint = next;
			idx = next - 1;
			continue;
		}
		if (tcp_packets_in_flight(tp) >= tcp_snd_cwnd(tp))
			break;
		if (pacing_blocked(sim, f))
			break;
		retransmit(sim, f, idx);
		if (idx == f->rexmit_hint)
			f->rexmit_hint = idx + 1;
	}
}

static void cwnd_validate(struct lflow *f, bool is_cwnd_limited)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);

	if (!before(tp->snd_una, tp->cwnd_usage_seq) || is_cwnd_limited ||
	    (!tp->is_cwnd_limited && tp->packets_out > tp->max_packets_out)) {
		tp->is_cwnd_limited = is_cwnd_limited;
		tp->max_packets_out = tp->packets_out;
		tp->cwnd_usage_seq = tp->snd_nxt;
	}
	if (tcp_is_cwnd_limited(sk)) {
		tp->snd_cwnd_used = 0;
		tp->snd_cwnd_stamp = tcp_jiffies32;
	} else {
		if (tp->packets_out > tp->snd_cwnd_used)
			tp->snd_cwnd_used = tp->packets_out;
		if (sock_net(sk)->ipv4.sysctl_tcp_slow_start_after_idle &&
		    (s32)(tcp_jiffies32 - tp->snd_cwnd_stamp) >= (s32)inet_csk(sk)->icsk_rto &&
		    !f->ops->cong_control) {
			/* tcp_cwnd_application_limited() */
			if (inet_csk(sk)->icsk_ca_state == TCP_CA_Open) {
				u32 win_used = max(tp->snd_cwnd_used, (u32)TCP_INIT_CWND);

				if (win_used < tcp_snd_cwnd(tp)) {
					tp->snd_ssthresh = tcp_current_ssthresh(sk);
					tcp_snd_cwnd_set(tp, (tcp_snd_cwnd(tp) + win_used) >> 1);
				}
				tp->snd_cwnd_used = 0;
			}
			tp->snd_cwnd_stamp = tcp_jiffies32;
		}
	}
}

/* tcp_write_xmit() for new data */
static void write_xmit(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);
	u32 max_segs = sim->cfg.tso ? tso_segs(f) : 1;
	u64 wnd_pkts = tp->snd_wnd / tp->mss_cache;
	u32 sent = 0;

	if (sim->cfg.frame_segs)
		max_segs = frame_max_segs(sim, f);
	bool cwnd_limited = false;

	while (f->nxt < f->avail) {
		u32 inflight = tcp_packets_in_flight(tp), cwnd = tcp_snd_cwnd(tp);
		u32 quota, n, i;
		u64 prior_wstamp;

		if (pacing_blocked(sim, f))
			break;
		if (inflight >= cwnd)
			break;
		quota = min(max(cwnd >> 1, 1U), cwnd - inflight);
		n = min(quota, max_segs);
		if (f->avail - f->nxt < n)
			n = (u32)(f->avail - f->nxt);
		/* tcp_snd_wnd_test(), tcp_mss_split_point(): up to the
		 * window's end, whole packets only
		 */
		if (f->nxt - f->una + n > wnd_pkts)
			n = f->nxt - f->una < wnd_pkts ?
			    (u32)(wnd_pkts - (f->nxt - f->una)) : 0;
		if (!n)
			break;
		ring_reserve(f, f->nxt + n - f->una + 1);

		prior_wstamp = tp->tcp_wstamp_ns;
		tp->tcp_wstamp_ns = max(tp->tcp_wstamp_ns, tp->tcp_clock_cache);
		if (sim->cfg.frame_segs) {
			struct lpkt *w = frame_new(sim, f, f->nxt);

			w->n = n;
			w->wire = n * (sim->cfg.mss + sim->cfg.hdr_bytes);
			for (i = 0; i < n; i++) {
				struct lpkt dummy = { .n = 1 };

				memset(txp(f, f->nxt), 0, sizeof(struct txpkt));
				xmit_book(sim, f, f->nxt, false, i ? &dummy : w);
				f->nxt++;
				tp->snd_nxt = seq_of(sim, f->nxt);
				tp->packets_out++;
			}
			link_send(sim, w);
		}
		for (i = 0; i < n && !sim->cfg.frame_segs; i++) {
			u64 idx = f->nxt;
			struct txpkt *p = txp(f, idx);

			memset(p, 0, sizeof(*p));
			xmit_one(sim, f, idx, false);
			f->nxt++;
			tp->snd_nxt = seq_of(sim, f->nxt);
			tp->packets_out++;
		}
		pacing_after_send(f, (u64)n * sim->cfg.mss, prior_wstamp);
		sent += n;
		if (!f->rto_armed)
			rto_arm(sim, f);
	}
	cwnd_limited = tcp_packets_in_flight(tp) >= tcp_snd_cwnd(tp);
	if (sent || cwnd_limited)
		cwnd_validate(f, cwnd_limited);
	if (sent && tcp_in_cwnd_reduction(sk))
		tp->prr_out += sent;
	tp->write_seq = seq_of(sim, f->avail == NOIDX ? f->nxt + 64 : f->avail);
}

static void flow_xmit(struct linksim *sim, struct lflow *f)
{
	if (!f->established)
		return;
	mstamp_refresh(sim, f);
	if (f->tp.lost_out > f->tp.retrans_out)
		xmit_retransmit_queue(sim, f);
	write_xmit(sim, f);
}

/* ------------------------------------------------------------------ */
/* ACK processing (tcp_ack) */

static void tcp_update_pacing_rate(struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);
	u64 rate = (u64)tp->mss_cache * ((USEC_PER_SEC / 100) << 3);

	if (tcp_snd_cwnd(tp) < tp->snd_ssthresh / 2)
		rate *= sock_net(sk)->ipv4.sysctl_tcp_pacing_ss_ratio;
	else
		rate *= sock_net(sk)->ipv4.sysctl_tcp_pacing_ca_ratio;
	rate *= max(tcp_snd_cwnd(tp), tp->packets_out);
	if (likely(tp->srtt_us))
		do_div(rate, tp->srtt_us);
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, sk->sk_max_pacing_rate));
}

static void call_cong_control(struct lflow *f, u32 ack, int flag,
			      const struct rate_sample *rs)
{
#ifdef SHIM_CONG_CONTROL_HAS_ACK_FLAG
	f->ops->cong_control(fsk(f), ack, flag, rs);
#else
	(void)ack;
	(void)flag;
	f->ops->cong_control(fsk(f), rs);
#endif
}

static void tcp_cong_control(struct lflow *f, u32 ack, u32 acked_sacked, int flag,
			     const struct rate_sample *rs)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);

	if (f->ops->cong_control) {
		call_cong_control(f, ack, flag, rs);
		return;
	}
	if (tcp_in_cwnd_reduction(sk)) {
		cwnd_reduction(f, acked_sacked, rs->losses, flag);
	} else if (tp->reordering > (u32)sock_net(sk)->ipv4.sysctl_tcp_reordering ?
		   (flag & FLAG_FORWARD_PROGRESS) : (flag & FLAG_DATA_ACKED)) {
		f->ops->cong_avoid(sk, ack, acked_sacked);
		tp->snd_cwnd_stamp = tcp_jiffies32;
	}
	tcp_update_pacing_rate(f);
}

static void in_ack_event(struct lflow *f, int flag)
{
	u32 ev = 0;

	if (!f->ops->in_ack_event)
		return;
	if (flag & FLAG_WIN_UPDATE)
		ev |= CA_ACK_WIN_UPDATE;
	if (flag & FLAG_SLOWPATH) {
		ev |= CA_ACK_SLOWPATH;
		if (flag & FLAG_ECE)
			ev |= CA_ACK_ECE;
	}
	f->ops->in_ack_event(fsk(f), ev);
}

static void count_delivered(struct lflow *f, u32 n, bool ece)
{
	f->tp.delivered += n;
	if (ece)
		f->tp.delivered_ce += n;
}

static void flow_established(struct linksim *sim, struct lflow *f);

static void ack_hook(struct linksim *sim, struct lflow *f, const struct rate_sample *rs)
{
	if (rs->rtt_us >= 0) {
		u32 r = (u32)rs->rtt_us;

		f->st.rtt_samples++;
		f->st.rtt_sum_us += r;
		if (!f->st.rtt_min_us || r < f->st.rtt_min_us)
			f->st.rtt_min_us = r;
		if (r > f->st.rtt_max_us)
			f->st.rtt_max_us = r;
	}
	if (sim->cfg.on_ack)
		sim->cfg.on_ack(sim, f->id, rs, sim->cfg.hook_arg);
}

/* The SYN-ACK: tcp_ack() of the SYN in SYN_SENT, then tcp_finish_connect(). */
static void rcv_synack(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct rate_sample rs = { .prior_delivered = 0 };
	struct txpkt syn = { .xmit_us = f->syn_xmit_us };
	long rtt;

	if (f->established)
		return;
	mstamp_refresh(sim, f);
	rto_cancel(f);
	rs.prior_in_flight = tcp_packets_in_flight(tp);
	/* the SYN's tx state, recorded when packets_out was 0 */
	syn.tx_first_tx_mstamp = f->syn_xmit_us;
	syn.tx_delivered_mstamp = f->syn_xmit_us;
	syn.tx_app_limited = 1;
	tp->first_tx_mstamp = f->syn_xmit_us;
	count_delivered(f, 1, false);
	tp->packets_out = 0;
	tp->snd_una = sim->cfg.isn + 1;
	rate_skb_delivered(f, &syn, sim->cfg.isn + 1, &rs);
	rtt = tcp_stamp_us_delta(tp->tcp_mstamp, f->syn_xmit_us);
	ack_update_rtt(f, f->syn_tries > 1 ? -1 : rtt, -1, f->syn_tries > 1 ? -1 : rtt, &rs);
	if (f->ops->pkts_acked) {
		struct ack_sample s = { .pkts_acked = 1, .rtt_us = (s32)rs.rtt_us };

		s.in_flight = tp->mss_cache * (tp->delivered - rs.prior_delivered);
		f->ops->pkts_acked(fsk(f), &s);
	}
	in_ack_event(f, FLAG_SLOWPATH | FLAG_SND_UNA_ADVANCED | FLAG_SYN_ACKED);
	rate_gen(f, 1, 0, &rs);
	tcp_cong_control(f, tp->snd_una, 1, FLAG_SLOWPATH | FLAG_SND_UNA_ADVANCED |
			 FLAG_SYN_ACKED, &rs);
	ack_hook(sim, f, &rs);
	flow_established(sim, f);
}

static void rcv_ack(struct linksim *sim, struct lflow *f, const struct ack_msg *a)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);
	struct rate_sample rs = { .prior_delivered = 0 };
	u32 prior_delivered = tp->delivered, prior_lost = tp->lost;
	u32 prior_packets = tp->packets_out, sack_delivered = 0, pkts_acked = 0;
	u64 first_ackt = 0, last_ackt = 0, first_sackt = 0, last_sackt = 0;
	long seq_rtt_us = -1, sack_rtt_us = -1, ca_rtt_us = -1;
	bool ece = a->ece && (tp->ecn_flags & TCP_ECN_OK);
	u32 delivered, lost;
	int flag = 0;
	u64 idx;

	if (a->synack) {
		rcv_synack(sim, f);
		return;
	}
	if (!f->established || a->cum < f->una)
		return;			/* old ACK */
	mstamp_refresh(sim, f);
	f->st.acks++;
	rs.prior_in_flight = tcp_packets_in_flight(tp);
	if (a->cum > f->una) {
		flag |= FLAG_SND_UNA_ADVANCED;
		inet_csk(sk)->icsk_retransmits = 0;
	}
	if (!(flag & FLAG_SND_UNA_ADVANCED) || a->sack != NOIDX || ece) {
		flag |= FLAG_SLOWPATH;
		if (ece)
			flag |= FLAG_ECE;
	} else {
		flag |= FLAG_WIN_UPDATE;
	}

	/* SACK (tcp_sacktag_write_queue / tcp_sacktag_one), packet by packet
	 * over the block [sack, sack_end)
	 */
	for (idx = a->sack == NOIDX ? NOIDX : max(a->sack, a->cum);
	     idx != NOIDX && idx < a->sack_end && idx < f->nxt; idx++) {
		struct txpkt *p = txp(f, idx);
		u8 sacked = p->sacked;
		u32 end_seq = seq_of(sim, idx + 1);

		if (sacked & S_SACKED_ACKED)
			continue;
		if (!(sacked & S_RETRANS)) {
			if (idx < f->high)
				flag |= FLAG_ORIG_SACK_ACKED;
			if (!first_sackt)
				first_sackt = p->xmit_us;
			last_sackt = p->xmit_us;
		}
		if (sacked & S_LOST) {
			p->sacked &= ~S_LOST;
			tp->lost_out--;
		}
		if (sacked & S_SACKED_RETRANS) {
			p->sacked &= ~S_SACKED_RETRANS;
			tp->retrans_out--;
		}
		rack_advance(f, sacked, end_seq, p->xmit_us);
		p->sacked |= S_SACKED_ACKED;
		wanted_update(f, idx);
		flag |= FLAG_DATA_SACKED;
		tp->sacked_out++;
		sack_delivered++;
		rate_skb_delivered(f, p, end_seq, &rs);
		ts_unlink(f, idx);
	}
	if (sack_delivered)
		count_delivered(f, sack_delivered, flag & FLAG_ECE);

	/* cumulative ACK (tcp_clean_rtx_queue) */
	if (prior_packets) {
		for (idx = f->una; idx < a->cum && idx < f->nxt; idx++) {
			struct txpkt *p = txp(f, idx);
			u8 sacked = p->sacked;
			u32 end_seq = seq_of(sim, idx + 1);

			if (sacked & S_RETRANS) {
				if (sacked & S_SACKED_RETRANS)
					tp->retrans_out--;
				flag |= FLAG_RETRANS_DATA_ACKED;
			} else if (!(sacked & S_SACKED_ACKED)) {
				last_ackt = p->xmit_us;
				if (!first_ackt)
					first_ackt = last_ackt;
				if (idx < f->high)
					flag |= FLAG_ORIG_SACK_ACKED;
			}
			if (sacked & S_SACKED_ACKED) {
				tp->sacked_out--;
			} else {
				count_delivered(f, 1, flag & FLAG_ECE);
				rack_advance(f, sacked, end_seq, p->xmit_us);
			}
			if (sacked & S_LOST)
				tp->lost_out--;
			wanted_set(f, idx, false);	/* the slot is free */
			tp->packets_out--;
			pkts_acked++;
			rate_skb_delivered(f, p, end_seq, &rs);
			flag |= FLAG_DATA_ACKED;
			ts_unlink(f, idx);
		}
		if (a->cum > f->una) {
			f->st.bytes_acked += (a->cum - f->una) * sim->cfg.mss;
			tp->bytes_acked += (a->cum - f->una) * sim->cfg.mss;
			f->una = a->cum;
			tp->snd_una = seq_of(sim, f->una);
		}
		if (first_ackt && !(flag & FLAG_RETRANS_DATA_ACKED)) {
			seq_rtt_us = tcp_stamp_us_delta(tp->tcp_mstamp, first_ackt);
			ca_rtt_us = tcp_stamp_us_delta(tp->tcp_mstamp, last_ackt);
		}
		if (first_sackt) {
			sack_rtt_us = tcp_stamp_us_delta(tp->tcp_mstamp, first_sackt);
			ca_rtt_us = tcp_stamp_us_delta(tp->tcp_mstamp, last_sackt);
		}
		ack_update_rtt(f, seq_rtt_us, sack_rtt_us, ca_rtt_us, &rs);
		if (flag & FLAG_ACKED) {
			if (tp->packets_out)
				rto_arm(sim, f);
			else
				rto_cancel(f);
		}
		if (f->ops->pkts_acked) {
			struct ack_sample s = { .pkts_acked = pkts_acked,
						.rtt_us = (s32)rs.rtt_us };

			s.in_flight = tp->mss_cache * (tp->delivered - rs.prior_delivered);
			f->ops->pkts_acked(sk, &s);
		}
	}

	in_ack_event(f, flag);

	if (!(flag & FLAG_NOT_DUP) || (flag & FLAG_CA_ALERT) ||
	    inet_csk(sk)->icsk_ca_state != TCP_CA_Open)
		fastretrans_alert(sim, f, flag);

	delivered = tp->delivered - prior_delivered;
	lost = tp->lost - prior_lost;
	rs.is_ack_delayed = 0;
	rate_gen(f, delivered, lost, &rs);
	/*
	 * tcp_ack() takes an ACK that finds nothing in flight to its
	 * no_queue exit: the CC never sees it.  Its rate sample is empty
	 * (rtt_us 0, never set above), and bbr2 took that 0 for min_rtt.
	 */
	if (prior_packets)
		tcp_cong_control(f, seq_of(sim, a->cum), delivered, flag,
				 &rs);
	ack_hook(sim, f, &rs);
	flow_xmit(sim, f);
}

/* ------------------------------------------------------------------ */
/* timers */

static void on_rto(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct inet_connection_sock *icsk = inet_csk(fsk(f));

	f->rto_armed = false;
	mstamp_refresh(sim, f);
	if (!f->established) {		/* SYN lost: retry */
		struct lpkt *w = pkt_alloc(sim);

		f->syn_tries++;
		f->syn_xmit_us = tp->tcp_mstamp;
		w->syn = 1;
		w->flow = f->id;
		w->wire = SYN_WIRE_BYTES;
		icsk->icsk_backoff++;
		rto_arm(sim, f);
		link_send(sim, w);
		return;
	}
	if (!tp->packets_out)
		return;
	f->st.rtos++;
	enter_loss(sim, f);
	tp->tcp_wstamp_ns = max(tp->tcp_wstamp_ns, tp->tcp_clock_cache);
	retransmit(sim, f, f->una);
	icsk->icsk_backoff++;
	icsk->icsk_retransmits++;
	rto_arm(sim, f);
}

/* tcp_rack_reo_timeout() */
static void on_reo(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	u32 prior_inflight, lost = tp->lost, timeout;

	mstamp_refresh(sim, f);
	prior_inflight = tcp_packets_in_flight(tp);
	timeout = rack_detect_loss(sim, f);
	(void)timeout;
	if (prior_inflight != tcp_packets_in_flight(tp)) {
		if (inet_csk(fsk(f))->icsk_ca_state != TCP_CA_Recovery) {
			enter_recovery(sim, f, false);
			if (!f->ops->cong_control)
				cwnd_reduction(f, 1, tp->lost - lost, 0);
		}
		xmit_retransmit_queue(sim, f);
	}
	if (tp->packets_out)
		rto_arm(sim, f);
}

/* ------------------------------------------------------------------ */
/* the application */

static void app_write_pkts(struct linksim *sim, struct lflow *f, u64 bytes)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);

	if (f->stopped || f->avail == NOIDX)
		return;
	/* tcp_sendmsg(): idle restart for classic CCs, app-limited marking */
	if (f->established && !tp->packets_out && !f->ops->cong_control &&
	    sock_net(sk)->ipv4.sysctl_tcp_slow_start_after_idle) {
		s32 delta = tcp_jiffies32 - tp->lsndtime;

		if (delta > (s32)inet_csk(sk)->icsk_rto) {
			u32 restart = min((u32)TCP_INIT_CWND, tcp_snd_cwnd(tp));
			u32 cwnd = tcp_snd_cwnd(tp);

			tcp_ca_event(sk, CA_EVENT_CWND_RESTART);
			tp->snd_ssthresh = tcp_current_ssthresh(sk);
			while ((delta -= inet_csk(sk)->icsk_rto) > 0 && cwnd > restart)
				cwnd >>= 1;
			tcp_snd_cwnd_set(tp, max(cwnd, restart));
			tp->snd_cwnd_stamp = tcp_jiffies32;
			tp->snd_cwnd_used = 0;
		}
	}
	if (f->established)
		tcp_rate_check_app_limited(sk);
	f->app_bytes_left += bytes;
	f->app_written += bytes;
	f->avail += f->app_bytes_left / sim->cfg.mss;
	f->app_bytes_left %= sim->cfg.mss;
	flow_xmit(sim, f);
}

void linksim_app_write(struct linksim *sim, int flow, u64 bytes)
{
	struct lflow *f = sim->flows[flow];

	if (f->avail == NOIDX)		/* bulk: switch to explicit writes */
		f->avail = f->nxt;
	app_write_pkts(sim, f, bytes);
}

static bool app_is_bulk(const struct lflow *f)
{
	return !f->cfg.app_rate_bps && !f->cfg.app_bytes;
}

static u64 app_chunk_ns(struct linksim *sim, struct lflow *f)
{
	return (u64)sim->cfg.mss * 8 * NSEC_PER_SEC / f->cfg.app_rate_bps;
}

static void on_app(struct linksim *sim, struct lflow *f)
{
	u64 chunk = sim->cfg.mss;

	if (f->stopped || !f->app_on)
		return;
	if (f->cfg.app_bytes && f->app_written + chunk > f->cfg.app_bytes)
		chunk = f->cfg.app_bytes - f->app_written;
	if (chunk)
		app_write_pkts(sim, f, chunk);
	if (!f->cfg.app_bytes || f->app_written < f->cfg.app_bytes)
		ev_at(sim, sim->now_ns + app_chunk_ns(sim, f), EV_APP, f->id, 0);
}

static void on_app_toggle(struct linksim *sim, struct lflow *f)
{
	if (f->stopped)
		return;
	f->app_on = !f->app_on;
	if (app_is_bulk(f)) {
		if (f->app_on) {
			if (f->established)
				tcp_rate_check_app_limited(fsk(f));
			f->avail = NOIDX;
			flow_xmit(sim, f);
		} else {
			f->avail = f->nxt;
		}
	} else if (f->app_on && f->cfg.app_rate_bps) {
		on_app(sim, f);
	}
	ev_at(sim, sim->now_ns + (u64)(f->app_on ? f->cfg.app_on_us : f->cfg.app_off_us) *
	      NSEC_PER_USEC, EV_APP_TOGGLE, f->id, 0);
}

/* ------------------------------------------------------------------ */
/* flow setup */

static void flow_established(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = fsk(f);

	sk->sk_state = TCP_ESTABLISHED;
	tcp_snd_cwnd_set(tp, TCP_INIT_CWND);
	tp->snd_cwnd_stamp = tcp_jiffies32;
	tp->prior_ssthresh = 0;
	if (f->ops->init)
		f->ops->init(sk);
	inet_csk(sk)->icsk_ca_initialized = 1;
	tp->lsndtime = tcp_jiffies32;
	f->established = true;
	tp->tcp_wstamp_ns = max(tp->tcp_wstamp_ns, kern_ns(sim));

	f->app_on = true;
	if (app_is_bulk(f)) {
		f->avail = NOIDX;
	} else if (!f->cfg.app_rate_bps) {
		f->avail = 0;
		app_write_pkts(sim, f, f->cfg.app_bytes);
	} else {
		f->avail = 0;
		on_app(sim, f);
	}
	if (f->cfg.app_on_us && f->cfg.app_off_us)
		ev_at(sim, sim->now_ns + (u64)f->cfg.app_on_us * NSEC_PER_USEC,
		      EV_APP_TOGGLE, f->id, 0);
	flow_xmit(sim, f);
}

static void flow_start(struct linksim *sim, struct lflow *f)
{
	struct tcp_sock *tp = &f->tp;
	struct lpkt *w;

	f->started = true;
	mstamp_refresh(sim, f);
	if (sim->cfg.no_handshake) {
		tp->snd_una = sim->cfg.isn + 1;
		tp->snd_nxt = tp->snd_una;
		flow_established(sim, f);
		return;
	}
	/* SYN: tcp_rate_skb_sent() with nothing in flight */
	f->syn_tries = 1;
	f->syn_xmit_us = tp->tcp_mstamp;
	tp->first_tx_mstamp = tp->tcp_mstamp;
	tp->delivered_mstamp = tp->tcp_mstamp;
	tp->packets_out = 1;
	tp->snd_nxt = sim->cfg.isn + 1;
	rto_arm(sim, f);
	w = pkt_alloc(sim);
	w->syn = 1;
	w->flow = f->id;
	w->wire = SYN_WIRE_BYTES;
	link_send(sim, w);
}

static const struct tcp_congestion_ops *find_ca(const char *name)
{
	const struct tcp_congestion_ops *ops = tcp_ca_find(name);

	if (!ops) {
		char buf[TCP_CA_BUF_MAX];

		tcp_get_available_congestion_control(buf, sizeof(buf));
		fprintf(stderr, "linksim: congestion control '%s' is not registered (have: %s)\n",
			name, buf);
	}
	return ops;
}

/* tcp_init_sock() and tcp_assign_congestion_control() */
static struct lflow *flow_new(struct linksim *sim, int id, const char *ccname)
{
	struct lflow *f = calloc(1, sizeof(*f));
	struct tcp_sock *tp;
	struct sock *sk;
	u64 rtt_ns;

	if (!f)
		abort();
	f->ops = find_ca(ccname);
	if (!f->ops) {
		free(f);
		return NULL;
	}
	tp = &f->tp;
	sk = fsk(f);
	f->id = id;
	f->cfg = sim->cfg.flow[id];
	rtt_ns = ((u64)sim->cfg.rtt_us + f->cfg.extra_rtt_us) * NSEC_PER_USEC;
	f->fwd_ns = rtt_ns / 2;
	f->rev_ns = rtt_ns - f->fwd_ns;
	f->ring = calloc(1024, sizeof(*f->ring));
	f->ring_mask = 1023;
	f->wanted = calloc(1024 / 64, sizeof(*f->wanted));
	f->r_ooo = calloc(1024, 1);
	f->r_ooo_mask = 1023;
	if (!f->ring || !f->wanted || !f->r_ooo)
		abort();
	f->ts_head = f->ts_tail = NOIDX;

	sk->sk_state = TCP_SYN_SENT;
	sk->sk_net = &init_net;
	sk->sk_sndbuf = 16384 * 4;
	sk->sk_pacing_rate = ~0UL;
	sk->sk_max_pacing_rate = ~0UL;
	sk->sk_pacing_shift = 10;
	sk->sk_pacing_status = sim->cfg.fq ? SK_PACING_FQ : SK_PACING_NONE;
	sk->sk_gso_max_size = GSO_LEGACY_MAX_SIZE;
	sk->sk_gso_max_segs = GSO_MAX_SEGS;
	sk->sk_route_caps = sim->cfg.tso || sim->cfg.frame_segs ? 1 : 0;
	tp->mss_cache = sim->cfg.mss;
	tp->advmss = sim->cfg.mss;
	tp->snd_cwnd = TCP_INIT_CWND;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	tp->snd_cwnd_clamp = ~0U;
	tp->app_limited = ~0U;
	tp->reordering = sock_net(sk)->ipv4.sysctl_tcp_reordering;
	tp->rack.reo_wnd_steps = 1;
	tp->rx_opt.sack_ok = 1;
	tp->snd_wnd = SND_WND;
	tp->max_window = SND_WND;
	tp->mdev_us = jiffies_to_usecs(TCP_TIMEOUT_INIT);
	tp->snd_una = tp->snd_nxt = tp->write_seq = sim->cfg.isn;
	minmax_reset(&tp->rtt_min, tcp_jiffies32, ~0U);
	inet_csk(sk)->icsk_rto = TCP_TIMEOUT_INIT;
	inet_csk(sk)->icsk_ca_ops = f->ops;
	if (f->cfg.ecn || (f->ops->flags & TCP_CONG_NEEDS_ECN))
		tp->ecn_flags = TCP_ECN_OK;
	return f;
}

int linksim_set_cc(struct linksim *sim, int flow, const char *ccname)
{
	struct lflow *f = sim->flows[flow];
	const struct tcp_congestion_ops *ops = find_ca(ccname);
	struct sock *sk = fsk(f);

	if (!ops)
		return -ENOENT;
	/* tcp_reinit_congestion_control(): release() runs even if init()
	 * never did, and init() runs even on a SYN_SENT socket. */
	if (f->ops->release)
		f->ops->release(sk);
	f->ops = ops;
	inet_csk(sk)->icsk_ca_ops = ops;
	memset(inet_csk(sk)->icsk_ca_priv, 0, sizeof(inet_csk(sk)->icsk_ca_priv));
	inet_csk(sk)->icsk_ca_setsockopt = 1;
	if (ops->init)
		ops->init(sk);
	inet_csk(sk)->icsk_ca_initialized = 1;
	if ((ops->flags & TCP_CONG_NEEDS_ECN) && !f->started)
		f->tp.ecn_flags = TCP_ECN_OK;
	return 0;
}

/* ------------------------------------------------------------------ */
/* public API */

void linksim_cfg_default(struct linksim_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->rate_bps = 10000000;
	cfg->rtt_us = 40000;
	cfg->mss = 1448;
	cfg->ack_every = 1;
	cfg->delack_us = 40000;
	cfg->ece_mode = LINKSIM_ECE_RFC3168;
	cfg->isn = 0xfff00000u;		/* wraps after ~700 packets */
	cfg->seed = 1;
	cfg->nflows = 1;
	cfg->queue_pkts = linksim_bdp_pkts(cfg);
}

u32 linksim_bdp_pkts(const struct linksim_cfg *cfg)
{
	u64 bytes = cfg->rate_bps / 8 * cfg->rtt_us / USEC_PER_SEC;

	return (u32)DIV_ROUND_UP(bytes, (u64)cfg->mss + cfg->hdr_bytes);
}

/* Kernel clock at simulated t = 0: the u32 microsecond clock wraps at
 * t = 10 s and tcp_jiffies32 at t = 20 s. */
#define BOOT_US		((1ULL << 32) - 10 * USEC_PER_SEC)
#define JIFFIES_WRAP_S	20

struct linksim *linksim_new(const struct linksim_cfg *cfg, const char *ccname)
{
	struct linksim *sim = calloc(1, sizeof(*sim));
	u32 i;

	if (!sim)
		abort();
	sim->cfg = *cfg;
	if (!sim->cfg.nflows)
		sim->cfg.nflows = 1;
	if (!sim->cfg.mss)
		sim->cfg.mss = 1448;
	if (!sim->cfg.ack_every)
		sim->cfg.ack_every = 1;
	if (!sim->cfg.delack_us)
		sim->cfg.delack_us = 40000;
	if (!sim->cfg.rate_bps || sim->cfg.nflows > LINKSIM_MAX_FLOWS ||
	    (!sim->cfg.queue_pkts && !sim->cfg.queue_bytes)) {
		fprintf(stderr, "linksim: bad config (rate %llu, flows %u, queue %u/%llu)\n",
			sim->cfg.rate_bps, sim->cfg.nflows, sim->cfg.queue_pkts,
			sim->cfg.queue_bytes);
		free(sim);
		return NULL;
	}
	if (sim->cfg.link_late_us && !sim->cfg.link_burst_us)
		sim->cfg.link_burst_us = 4000;
	if (sim->cfg.ack_late_us && !sim->cfg.ack_late_hold_us)
		sim->cfg.ack_late_hold_us = 10000;
	sim->tbf_tokens_ns = (s64)sim->cfg.link_burst_us * NSEC_PER_USEC;
	sim->rng = cfg->seed * 0x2545f4914f6cdd1dULL + 7;
	sim->rng_timer = cfg->seed * 0x9e3779b97f4a7c15ULL + 11;
	sim->rng_ack = cfg->seed * 0xd1b54a32d192ed03ULL + 13;
	sim->ack_lag_epoch = ~0ULL;
	shim_prandom_seed(cfg->seed);
	sim->boot_ns = BOOT_US * NSEC_PER_USEC;
	shim_clock_set_jiffies_base((unsigned long)(u32)(0U -
		(u32)((sim->boot_ns + JIFFIES_WRAP_S * NSEC_PER_SEC) / (NSEC_PER_SEC / HZ))));
	set_clock(sim, 0);
	cur_sim = sim;

	if (shim_modules_load())
		fprintf(stderr, "linksim: a module failed to load\n");
	sim->nflows = sim->cfg.nflows;
	for (i = 0; i < sim->nflows; i++) {
		const char *name = sim->cfg.flow[i].cc ? sim->cfg.flow[i].cc : ccname;

		sim->flows[i] = name ? flow_new(sim, i, name) : NULL;
		if (!sim->flows[i]) {
			linksim_free(sim);
			return NULL;
		}
		ev_at(sim, (u64)sim->cfg.flow[i].start_us * NSEC_PER_USEC, EV_START, i, 0);
		if (sim->cfg.flow[i].stop_us)
			ev_at(sim, (u64)sim->cfg.flow[i].stop_us * NSEC_PER_USEC, EV_STOP, i, 0);
	}
	if (sim->cfg.on_tick && sim->cfg.tick_us)
		ev_at(sim, (u64)sim->cfg.tick_us * NSEC_PER_USEC, EV_TICK, 0, 0);
	return sim;
}

void linksim_free(struct linksim *sim)
{
	u32 i;

	if (!sim)
		return;
	for (i = 0; i < sim->nflows; i++) {
		struct lflow *f = sim->flows[i];

		if (!f)
			continue;
		/* tcp_cleanup_congestion_control(): unconditional, so a socket
		 * that never got past SYN_SENT is released uninitialized. */
		if (f->ops->release)
			f->ops->release(fsk(f));
		free(f->ring);
		free(f->wanted);
		free(f->r_ooo);
		free(f->fifo[0].buf);
		free(f->fifo[1].buf);
		free(f);
	}
	for (i = 0; i < sim->nchunks; i++)
		free(sim->chunks[i]);
	free(sim->chunks);
	free(sim->heap);
	if (cur_sim == sim)
		cur_sim = NULL;
	free(sim);
}

static void dispatch(struct linksim *sim, struct ev *e)
{
	struct lflow *f = e->flow < sim->nflows ? sim->flows[e->flow] : NULL;

	switch (e->type) {
	case EV_START:
		flow_start(sim, f);
		break;
	case EV_LINK_DONE:
		link_done(sim);
		break;
	case EV_FQ_OUT:
		link_arrive(sim, e->u.pkt);
		break;
	case EV_TBF:
		sim->tbf_armed = false;
		tbf_run(sim);
		break;
	case EV_RCV:
		if (sim->cfg.frame_segs && !e->u.pkt->syn)
			rcv_frame(sim, e->u.pkt);
		else
			rcv_packet(sim, e->u.pkt);
		break;
	case EV_ACK:
		rcv_ack(sim, f, &e->u.ack);
		break;
	case EV_RTO:
		if (sim->cfg.frame_segs) {
			if (e->u.gen != f->rto_gen)
				break;
			f->rto_ev_pending = false;
			if (!f->rto_armed)
				break;
			if (sim->now_ns < f->rto_deadline_ns) {
				f->rto_ev_pending = true;
				f->rto_ev_ns = f->rto_deadline_ns;
				ev_at(sim, f->rto_deadline_ns, EV_RTO, f->id, f->rto_gen);
				break;
			}
		}
		if (e->u.gen == f->rto_gen && f->rto_armed)
			on_rto(sim, f);
		break;
	case EV_FIFO: {
		struct evfifo *q = &f->fifo[e->u.gen];
		struct ev head = q->buf[q->head];

		q->head = (q->head + 1) & (q->cap - 1);
		if (--q->len)
			ev_at(sim, q->buf[q->head].t, EV_FIFO, f->id, e->u.gen);
		dispatch(sim, &head);
		break;
	}
	case EV_REO:
		if (e->u.gen == f->reo_gen)
			on_reo(sim, f);
		break;
	case EV_DELACK:
		if (e->u.gen == f->r_delack_gen && f->r_delack_armed && f->r_unacked)
			rcv_send_ack(sim, f, NOIDX, rcv_ece(sim, f));
		break;
	case EV_SEND:
		if (e->u.gen == f->send_gen) {
			f->send_pending = false;
			flow_xmit(sim, f);
		}
		break;
	case EV_APP:
		on_app(sim, f);
		break;
	case EV_APP_TOGGLE:
		on_app_toggle(sim, f);
		break;
	case EV_STOP:
		f->stopped = true;
		if (f->avail == NOIDX || f->avail > f->nxt)
			f->avail = f->nxt;
		break;
	case EV_TICK:
		sim->cfg.on_tick(sim, sim->cfg.hook_arg);
		ev_at(sim, sim->now_ns + (u64)sim->cfg.tick_us * NSEC_PER_USEC, EV_TICK, 0, 0);
		break;
	}
}

void linksim_run_until(struct linksim *sim, u64 t_us)
{
	u64 end = t_us * NSEC_PER_USEC;

	cur_sim = sim;
	while (sim->nheap && sim->heap[0].t <= end) {
		struct ev e = ev_pop(sim);

		set_clock(sim, e.t);
		dispatch(sim, &e);
	}
	if (end > sim->now_ns)
		set_clock(sim, end);
	queue_account(sim);
}

u64 linksim_now_us(const struct linksim *sim)
{
	return sim->now_ns / NSEC_PER_USEC;
}

struct sock *linksim_sk(struct linksim *sim, int flow)
{
	return fsk(sim->flows[flow]);
}

const struct linksim_flow_stats *linksim_flow_stats(const struct linksim *sim, int flow)
{
	return &sim->flows[flow]->st;
}

const struct linksim_link_stats *linksim_link_stats(const struct linksim *sim)
{
	return &sim->ls;
}

void linksim_reset_max_queue(struct linksim *sim)
{
	sim->ls.max_queue_pkts = sim->q_len;
}

u32 linksim_queue_pkts(const struct linksim *sim)
{
	return sim->q_len;
}

double linksim_retrans_pct(const struct linksim *sim)
{
	u64 sent = 0, retrans = 0;
	u32 i;

	for (i = 0; i < sim->cfg.nflows; i++) {
		sent += linksim_flow_stats(sim, i)->pkts_sent;
		retrans += linksim_flow_stats(sim, i)->pkts_retrans;
	}
	return 100.0 * retrans / (sent ? sent : 1);
}

double linksim_utilization(const struct linksim *sim)
{
	u64 busy = sim->ls.busy_ns;

	if (sim->in_service)
		busy += sim->now_ns - sim->busy_since_ns;
	return sim->now_ns ? (double)busy / (double)sim->now_ns : 0.0;
}

double linksim_avg_queue_pkts(const struct linksim *sim)
{
	return sim->now_ns ? sim->ls.queue_pkt_ns / (double)sim->now_ns : 0.0;
}

double linksim_goodput_bps(const struct linksim *sim, int flow)
{
	const struct lflow *f = sim->flows[flow];
	u64 start = (u64)f->cfg.start_us * NSEC_PER_USEC;

	if (sim->now_ns <= start)
		return 0.0;
	return (double)f->st.bytes_acked * 8.0 * 1e9 / (double)(sim->now_ns - start);
}

void linksim_set_rate(struct linksim *sim, u64 rate_bps)
{
	if (rate_bps)
		sim->cfg.rate_bps = rate_bps;
}

void linksim_set_loss_ppm(struct linksim *sim, u32 loss_ppm)
{
	sim->cfg.loss_ppm = loss_ppm;
}
