// SPDX-License-Identifier: GPL-2.0
/*
 * pathemu core: random loss, cutting GSO frames into pieces, the
 * bottleneck link and the delay line.  No system calls here.
 */
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "pathemu.h"

/* ---- random numbers */

void pe_rng_seed(struct pe_rng *r, uint64_t seed)
{
	/* splitmix64 of the seed, so that seeds 1, 2, 3 start far apart */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	r->s = (z ^ (z >> 31)) | 1;
}

uint64_t pe_rng_next(struct pe_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

bool pe_rng_ppm(struct pe_rng *r, uint32_t ppm)
{
	/* the top 32 bits scaled onto [0, 1e6) without division */
	uint64_t x = ((pe_rng_next(r) >> 32) * 1000000ULL) >> 32;

	return x < ppm;
}

/* ---- frames */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

int pe_parse(const uint8_t *buf, uint32_t len, struct pe_frame *f)
{
	const uint8_t *ip, *th;
	uint32_t ihl, doff, tot;

	memset(f, 0, sizeof(*f));
	if (len < PE_VNET_LEN)
		return -1;
	memcpy(&f->vh, buf, PE_VNET_LEN);
	f->pkt = buf + PE_VNET_LEN;
	f->len = len - PE_VNET_LEN;
	f->nseg = 1;
	ip = f->pkt;
	if (f->len < 40 || ip[0] >> 4 != 4 || ip[9] != 6)
		return 0;
	ihl = (ip[0] & 0xf) * 4U;
	tot = get16(ip + 2);
	if (ihl < 20 || (get16(ip + 6) & 0x3fff) || tot > f->len || tot < ihl + 20)
		return 0;	/* options-mangled, a fragment or truncated */
	th = ip + ihl;
	doff = (th[12] >> 4) * 4U;
	if (doff < 20 || ihl + doff > tot)
		return 0;
	f->len = tot;
	f->hdr_len = ihl + doff;
	f->payload = tot - f->hdr_len;
	f->mss = f->payload;
	if (f->vh.gso_type != VIRTIO_NET_HDR_GSO_NONE && f->vh.gso_size)
		f->mss = f->vh.gso_size < f->payload ? f->vh.gso_size : f->payload;
	if (f->mss)
		f->nseg = (f->payload + f->mss - 1) / f->mss;
	if (f->nseg > PE_MAX_SEGS)
		return 0;	/* tiny segments: handled as one unit */
	f->tcp4 = true;
	return 0;
}

int pe_tsval(const struct pe_frame *f, uint32_t *tsval)
{
	const uint8_t *th, *o, *end;

	if (!f->tcp4)
		return 0;
	th = f->pkt + (f->pkt[0] & 0xf) * 4U;
	end = f->pkt + f->hdr_len;
	for (o = th + 20; o < end;) {
		if (*o == 0)
			return 0;
		if (*o == 1) {
			o++;
			continue;
		}
		if (o + 1 >= end || o[1] < 2 || o + o[1] > end)
			return 0;
		if (*o == 8 && o[1] == 10) {
			*tsval = get32(o + 2);
			return 1;
		}
		o += o[1];
	}
	return 0;
}

uint32_t pe_seg_payload(const struct pe_frame *f, uint32_t i)
{
	uint32_t off;

	if (!f->tcp4 || !f->mss)
		return 0;
	off = i * f->mss;
	return f->payload - off < f->mss ? f->payload - off : f->mss;
}

uint32_t pe_seg_wire(const struct pe_frame *f, uint32_t i, uint32_t overhead)
{
	if (!f->tcp4)
		return f->len + overhead;
	return f->hdr_len + pe_seg_payload(f, i) + overhead;
}

uint32_t pe_csum_add(uint32_t sum, const uint8_t *p, uint32_t len)
{
	uint64_t s = sum;
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += get16(p + i);
	if (len & 1)
		s += (uint32_t)p[len - 1] << 8;
	while (s >> 32)
		s = (s & 0xffffffffULL) + (s >> 32);
	return (uint32_t)s;
}

uint16_t pe_csum_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

uint32_t pe_build_piece(const struct pe_frame *f, uint32_t first, uint32_t count,
			uint8_t *out)
{
	struct virtio_net_hdr vh = f->vh;
	uint8_t *ip = out + PE_VNET_LEN, *th;
	uint32_t ihl, off, bytes, i, tcp_len, sum;
	uint8_t pseudo[12];

	if (!f->tcp4 || (first == 0 && count >= f->nseg)) {
		memcpy(out, &f->vh, PE_VNET_LEN);
		memcpy(ip, f->pkt, f->len);
		return PE_VNET_LEN + f->len;
	}
	off = first * f->mss;
	for (bytes = 0, i = first; i < first + count; i++)
		bytes += pe_seg_payload(f, i);
	if (count < 2 || vh.gso_type == VIRTIO_NET_HDR_GSO_NONE) {
		vh.gso_type = VIRTIO_NET_HDR_GSO_NONE;
		vh.gso_size = 0;
	}
	memcpy(out, &vh, PE_VNET_LEN);
	memcpy(ip, f->pkt, f->hdr_len);
	memcpy(ip + f->hdr_len, f->pkt + f->hdr_len + off, bytes);

	ihl = (ip[0] & 0xf) * 4U;
	th = ip + ihl;
	put16(ip + 2, (uint16_t)(f->hdr_len + bytes));
	put16(ip + 4, (uint16_t)(get16(ip + 4) + first));
	put16(ip + 10, 0);
	put16(ip + 10, (uint16_t)~pe_csum_fold(pe_csum_add(0, ip, ihl)));

	put32(th + 4, get32(th + 4) + off);
	if (first)
		th[13] &= (uint8_t)~0x80;		/* CWR: first segment only */
	if (first + count < f->nseg)
		th[13] &= (uint8_t)~0x09;		/* FIN, PSH: last only */

	tcp_len = f->hdr_len - ihl + bytes;
	memcpy(pseudo, ip + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = 6;
	put16(pseudo + 10, (uint16_t)tcp_len);
	put16(th + 16, 0);
	sum = pe_csum_add(0, pseudo, sizeof(pseudo));
	if (vh.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
		/* the receiver completes it: the pseudo-header sum, as the
		 * sending stack leaves it for a device that offloads
		 */
		put16(th + 16, pe_csum_fold(sum));
	} else {
		sum = pe_csum_add(sum, th, tcp_len);
		put16(th + 16, (uint16_t)~pe_csum_fold(sum));
	}
	return PE_VNET_LEN + f->hdr_len + bytes;
}

/* ---- the bottleneck */

void pe_link_init(struct pe_link *l, uint64_t rate_bps, uint64_t limit_bytes)
{
	memset(l, 0, sizeof(*l));
	l->rate_bps = rate_bps;
	l->limit_bytes = limit_bytes;
}

uint64_t pe_link_backlog(const struct pe_link *l, uint64_t now)
{
	if (!l->rate_bps || l->free_ns <= now)
		return 0;
	return (uint64_t)((unsigned __int128)(l->free_ns - now) * l->rate_bps /
			  (8 * NSEC_PER_SEC_U));
}

bool pe_link_admit(struct pe_link *l, uint64_t now, uint32_t bytes, uint64_t *done_ns)
{
	uint64_t backlog, start, tx_ns;
	unsigned __int128 num;

	if (!l->rate_bps) {
		*done_ns = now;
		return true;
	}
	backlog = pe_link_backlog(l, now);
	if (backlog + bytes > l->limit_bytes) {
		l->dropped++;
		return false;
	}
	l->backlog_sum += backlog;
	l->backlog_n++;
	if (backlog > l->max_backlog)
		l->max_backlog = backlog;
	num = (unsigned __int128)bytes * 8 * NSEC_PER_SEC_U + l->rem;
	tx_ns = (uint64_t)(num / l->rate_bps);
	l->rem = (uint64_t)(num % l->rate_bps);
	start = l->free_ns > now ? l->free_ns : now;
	l->free_ns = start + tx_ns;
	l->busy_ns += tx_ns;
	*done_ns = l->free_ns;
	return true;
}

/* ---- the delay line */

#define REC_HDR		((uint64_t)sizeof(struct pe_rec))
#define ALIGN8(x)	(((uint64_t)(x) + 7) & ~7ULL)

int pe_ring_init(struct pe_ring *r, uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->size = ALIGN8(size);
	r->buf = malloc(r->size);
	return r->buf ? 0 : -1;
}

void pe_ring_free(struct pe_ring *r)
{
	free(r->buf);
	r->buf = NULL;
}

uint8_t *pe_ring_reserve(struct pe_ring *r, uint32_t max)
{
	uint64_t need = REC_HDR + ALIGN8(max);

	if (!r->count)
		r->head = r->tail = r->used = 0;
	r->res_wrap = false;
	if (r->tail >= r->head && (r->count == 0 || r->tail != r->head)) {
		/* free: [tail, size) and [0, head) */
		if (r->size - r->tail >= need) {
			r->res_pos = r->tail;
		} else if (r->head >= need) {
			r->res_pos = 0;
			r->res_wrap = true;
		} else {
			return NULL;
		}
	} else {
		/* free: [tail, head) */
		if (r->head - r->tail < need)
			return NULL;
		r->res_pos = r->tail;
	}
	return r->buf + r->res_pos + REC_HDR;
}

void pe_ring_commit(struct pe_ring *r, uint32_t len, uint64_t due_ns)
{
	struct pe_rec *rec = (struct pe_rec *)(r->buf + r->res_pos);

	if (r->res_wrap) {
		if (r->size - r->tail >= REC_HDR) {
			struct pe_rec *pad = (struct pe_rec *)(r->buf + r->tail);

			pad->skip = 1;
			pad->len = 0;
			pad->due_ns = 0;
		}
		r->used += r->size - r->tail;
	}
	rec->due_ns = due_ns;
	rec->len = len;
	rec->skip = 0;
	r->tail = r->res_pos + REC_HDR + ALIGN8(len);
	r->used += REC_HDR + ALIGN8(len);
	r->count++;
	if (r->tail == r->size)
		r->tail = 0;
}

const struct pe_rec *pe_ring_peek(struct pe_ring *r)
{
	const struct pe_rec *rec;

	if (!r->count)
		return NULL;
	for (;;) {
		if (r->size - r->head < REC_HDR) {
			r->used -= r->size - r->head;
			r->head = 0;
			continue;
		}
		rec = (const struct pe_rec *)(r->buf + r->head);
		if (!rec->skip)
			return rec;
		r->used -= r->size - r->head;
		r->head = 0;
	}
}

void pe_ring_pop(struct pe_ring *r)
{
	const struct pe_rec *rec = pe_ring_peek(r);
	uint64_t adv;

	if (!rec)
		return;
	adv = REC_HDR + ALIGN8(rec->len);
	r->head += adv;
	r->used -= adv;
	if (r->head == r->size)
		r->head = 0;
	if (!--r->count)
		r->head = r->tail = r->used = 0;
}

/* ---- goodput per flow */

static bool seq_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static struct pe_flow *flow_of(struct pe_flows *t, const struct pe_frame *f)
{
	const uint8_t *ip = f->pkt, *th = ip + (ip[0] & 0xf) * 4U;
	uint32_t saddr = get32(ip + 12), daddr = get32(ip + 16), i;
	uint16_t sport = get16(th), dport = get16(th + 2);
	struct pe_flow *fl;

	for (i = 0; i < t->n; i++) {
		fl = &t->flow[i];
		if (fl->saddr == saddr && fl->daddr == daddr && fl->sport == sport &&
		    fl->dport == dport)
			return fl;
	}
	if (t->n == PE_MAX_FLOWS)
		return NULL;
	fl = &t->flow[t->n++];
	memset(fl, 0, sizeof(*fl));
	fl->saddr = saddr;
	fl->daddr = daddr;
	fl->sport = sport;
	fl->dport = dport;
	return fl;
}

/* Bytes of [seq, end) that fill holes; the holes shrink, split or go. */
static uint32_t fill_holes(struct pe_flow *fl, uint32_t seq, uint32_t end)
{
	uint32_t i, got = 0;

	for (i = 0; i < fl->nholes; i++) {
		struct pe_hole *h = &fl->hole[i];
		uint32_t a, b;

		if (!seq_before(seq, h->end) || !seq_before(h->start, end))
			continue;
		a = seq_before(h->start, seq) ? seq : h->start;
		b = seq_before(end, h->end) ? end : h->end;
		got += b - a;
		if (a == h->start && b == h->end) {
			memmove(h, h + 1, (fl->nholes - i - 1) * sizeof(*h));
			fl->nholes--;
			i--;
		} else if (a == h->start) {
			h->start = b;
		} else if (b == h->end) {
			h->end = a;
		} else if (fl->nholes < PE_FLOW_HOLES) {
			/* the middle: two holes */
			memmove(h + 2, h + 1, (fl->nholes - i - 1) * sizeof(*h));
			h[1].start = b;
			h[1].end = h->end;
			h->end = a;
			fl->nholes++;
			i++;
		} else {
			fl->holes_dropped += h->end - b;
			h->end = a;
		}
	}
	return got;
}

uint32_t pe_flows_deliver(struct pe_flows *t, const struct pe_frame *f, uint64_t now)
{
	const uint8_t *th;
	struct pe_flow *fl;
	uint32_t seq, end, got = 0;
	uint64_t k;

	if (!f->tcp4 || !f->payload)
		return 0;
	fl = flow_of(t, f);
	if (!fl) {
		t->untracked++;
		return 0;
	}
	th = f->pkt + (f->pkt[0] & 0xf) * 4U;
	seq = get32(th + 4);
	end = seq + f->payload;
	if (!fl->started) {
		fl->started = true;
		fl->high = seq;
		fl->first_ns = now;
	}
	if (seq_before(fl->high, end)) {
		/* beyond the highest byte: what lies between is a hole */
		if (seq_before(fl->high, seq)) {
			if (fl->nholes == PE_FLOW_HOLES) {
				fl->holes_dropped += fl->hole[0].end - fl->hole[0].start;
				memmove(fl->hole, fl->hole + 1, --fl->nholes * sizeof(fl->hole[0]));
			}
			fl->hole[fl->nholes].start = fl->high;
			fl->hole[fl->nholes].end = seq;
			fl->nholes++;
			got = end - seq;
		} else {
			got = end - fl->high + fill_holes(fl, seq, fl->high);
		}
		fl->high = end;
	} else {
		got = fill_holes(fl, seq, end);
	}
	fl->bytes += got;
	fl->dup_bytes += f->payload - got;
	k = now > t->origin_ns ? (now - t->origin_ns) / PE_BUCKET_NS : 0;
	if (k < PE_BUCKETS)
		fl->bucket[k] += got;
	return got;
}
