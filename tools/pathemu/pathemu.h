/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathemu: the parts of the path emulator that do not touch a device
 * (core.c), so that they are tested without root (test_core.c).
 *
 * A frame is what a TUN device with IFF_VNET_HDR hands over: a
 * struct virtio_net_hdr, then one IP packet that may be a GSO frame of
 * up to 64 KB, cut by the receiving device into segments of gso_size
 * payload bytes each.  The emulator decides per segment (per MSS) whether
 * the path loses it, then per segment whether the bottleneck's drop-tail
 * queue has room for it, and forwards each run of surviving consecutive
 * segments as one frame of its own (pe_build_piece()).
 *
 * All arithmetic is integer: times in nanoseconds, rates in bit/s, the
 * link's serialisation time carried with its remainder so that no
 * rounding accumulates, probabilities in parts per million.
 */
#ifndef PATHEMU_H
#define PATHEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/virtio_net.h>

#define PE_VNET_LEN	((uint32_t)sizeof(struct virtio_net_hdr))
#define PE_MAX_PKT	(65536U + 256U)
#define PE_MAX_FRAME	(PE_VNET_LEN + PE_MAX_PKT)
#define PE_MAX_SEGS	1024U
#define NSEC_PER_SEC_U	1000000000ULL

/* ---- random numbers: xorshift64*, one stream per seed */
struct pe_rng {
	uint64_t s;
};

void pe_rng_seed(struct pe_rng *r, uint64_t seed);
uint64_t pe_rng_next(struct pe_rng *r);
/* true with probability ppm / 1e6 */
bool pe_rng_ppm(struct pe_rng *r, uint32_t ppm);

/* ---- a frame's layout */
struct pe_frame {
	struct virtio_net_hdr vh;
	const uint8_t *pkt;	/* the IP packet */
	uint32_t len;		/* its length */
	bool tcp4;		/* IPv4 TCP: can be cut into segments */
	uint32_t hdr_len;	/* IP + TCP headers */
	uint32_t payload;	/* TCP payload bytes */
	uint32_t mss;		/* payload bytes per segment */
	uint32_t nseg;		/* segments (>= 1) */
};

/* Parse vnet header + packet; returns 0, or -1 if the buffer is not a
 * frame (too short).  A packet that is not IPv4 TCP is one segment.
 */
int pe_parse(const uint8_t *buf, uint32_t len, struct pe_frame *f);

/* The TCP timestamp option's TSval of f: 0 if it has none, else 1 and *tsval. */
int pe_tsval(const struct pe_frame *f, uint32_t *tsval);

/* Payload bytes of segment i. */
uint32_t pe_seg_payload(const struct pe_frame *f, uint32_t i);

/* Bytes segment i occupies on the bottleneck: its headers, its payload
 * and the link layer's per-packet overhead.
 */
uint32_t pe_seg_wire(const struct pe_frame *f, uint32_t i, uint32_t overhead);

/* Write into out (vnet header, then packet) the frame made of segments
 * first .. first + count - 1 of f: IP length, id and checksum, TCP
 * sequence number, flags (CWR only on the first piece, FIN and PSH only on
 * the last) and checksum (the pseudo-header sum when the device left the
 * checksum to the receiver, else computed in full), GSO type and size.
 * Returns the bytes written.
 */
uint32_t pe_build_piece(const struct pe_frame *f, uint32_t first, uint32_t count,
			uint8_t *out);

/* The Internet checksum of a buffer, folded, not inverted, added to sum. */
uint32_t pe_csum_add(uint32_t sum, const uint8_t *p, uint32_t len);
uint16_t pe_csum_fold(uint32_t sum);

/* ---- the bottleneck: a link of rate_bps behind a drop-tail queue of
 * limit_bytes, held as the time its transmitter becomes free.
 */
struct pe_link {
	uint64_t rate_bps;	/* 0: no bottleneck, nothing queues */
	uint64_t limit_bytes;	/* the queue's size, besides the packet on the wire */
	uint64_t free_ns;	/* when the last admitted byte has left */
	uint64_t rem;		/* remainder of bits x 1e9 / rate, carried */
	/* statistics */
	uint64_t busy_ns;	/* transmitting */
	uint64_t max_backlog;	/* bytes queued, at most */
	uint64_t backlog_sum;	/* sum over admitted packets of the backlog they found */
	uint64_t backlog_n;
	uint64_t dropped;	/* packets (segments) the queue refused */
};

void pe_link_init(struct pe_link *l, uint64_t rate_bps, uint64_t limit_bytes);
/* Bytes waiting at time now (those not yet transmitted). */
uint64_t pe_link_backlog(const struct pe_link *l, uint64_t now);
/* Admit a packet of bytes at now: false if the queue is full; else true
 * and *done_ns = when its last bit has left the link.
 */
bool pe_link_admit(struct pe_link *l, uint64_t now, uint32_t bytes, uint64_t *done_ns);

/* ---- a delay line: a byte ring of records due at non-decreasing times */
struct pe_ring {
	uint8_t *buf;
	uint64_t size;
	uint64_t head;		/* next record to release */
	uint64_t tail;		/* where the next record goes */
	uint64_t used;		/* bytes between head and tail, with padding */
	uint64_t count;		/* records */
	uint64_t res_pos;	/* where the reserved record goes */
	bool res_wrap;		/* it goes at 0, padding the ring's end */
};

struct pe_rec {
	uint64_t due_ns;
	uint32_t len;		/* bytes of data after the record header */
	uint32_t skip;		/* 1: padding to the ring's end, no data */
};

int pe_ring_init(struct pe_ring *r, uint64_t size);
void pe_ring_free(struct pe_ring *r);
/* Room for max bytes of data, or NULL if the ring is full. */
uint8_t *pe_ring_reserve(struct pe_ring *r, uint32_t max);
/* Commit len bytes written at the reserved place, due at due_ns. */
void pe_ring_commit(struct pe_ring *r, uint32_t len, uint64_t due_ns);
/* The oldest record, or NULL. */
const struct pe_rec *pe_ring_peek(struct pe_ring *r);
void pe_ring_pop(struct pe_ring *r);

/* ---- goodput per flow: the payload bytes the path delivers that it had
 * not delivered before (a retransmission that fills a gap counts, a
 * duplicate does not), per flow and per time bucket.  A flow is an IPv4
 * TCP 4-tuple; the sequence space below the highest byte delivered that
 * was never delivered is kept as a list of holes.
 */
#define PE_MAX_FLOWS	64U
#define PE_FLOW_HOLES	4096U
#define PE_BUCKETS	600U		/* of PE_BUCKET_NS: 60 s */
#define PE_BUCKET_NS	100000000ULL

struct pe_hole {
	uint32_t start, end;		/* [start, end) never delivered */
};

struct pe_flow {
	uint32_t saddr, daddr;
	uint16_t sport, dport;
	bool started;			/* high is set */
	uint32_t high;			/* after the highest byte delivered */
	uint32_t nholes;
	uint64_t bytes;			/* new payload bytes delivered */
	uint64_t dup_bytes;		/* payload delivered again */
	uint64_t holes_dropped;		/* bytes of holes given up (list full) */
	uint64_t first_ns;		/* first payload delivered */
	struct pe_hole hole[PE_FLOW_HOLES];
	uint64_t bucket[PE_BUCKETS];	/* new bytes by (now - origin) / PE_BUCKET_NS */
};

struct pe_flows {
	uint64_t origin_ns;
	uint32_t n;
	uint64_t untracked;		/* frames of flows beyond PE_MAX_FLOWS */
	struct pe_flow flow[PE_MAX_FLOWS];
};

/* Account frame f, delivered at now: returns its new payload bytes. */
uint32_t pe_flows_deliver(struct pe_flows *t, const struct pe_frame *f, uint64_t now);

#endif
