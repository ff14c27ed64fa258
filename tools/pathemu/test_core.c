// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pathemu's core (TAP): loss at the configured rate and
 * the same for the same seed; the link's timing exact to the nanosecond
 * over many packets; drop-tail at the configured bytes; a GSO frame cut
 * around a lost segment into frames a receiver accepts (lengths, sequence
 * numbers, flags, checksums, payload bytes in place); the delay line
 * returning every record intact and in order across wrap-arounds; the
 * TCP timestamp read from the options; goodput
 * per flow counting each byte of sequence space once, retransmissions
 * into gaps included, duplicates not, by the time it was delivered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathemu.h"

static int n_test, n_fail;

static void ok(int cond, const char *fmt, const char *what)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - ", cond ? "" : "not ", n_test);
	printf(fmt, what);
	printf("\n");
}

#define OK(cond, desc) ok((cond), "%s", (desc))

static void test_rng(void)
{
	struct pe_rng a, b, c;
	uint32_t i, hits = 0, same = 1, differ = 0;

	pe_rng_seed(&a, 7);
	pe_rng_seed(&b, 7);
	pe_rng_seed(&c, 8);
	for (i = 0; i < 1000; i++) {
		uint64_t x = pe_rng_next(&a);

		same &= x == pe_rng_next(&b);
		differ += x != pe_rng_next(&c);
	}
	OK(same && differ > 990, "rng: one seed gives one sequence, another seed another");
	pe_rng_seed(&a, 1);
	for (i = 0; i < 1000000; i++)
		hits += pe_rng_ppm(&a, 10000);
	printf("# 1%% loss: %u of 1000000 segments\n", hits);
	OK(hits > 10000 - 400 && hits < 10000 + 400, "rng: 10000 ppm loses 1 % of segments (4 sigma)");
	for (hits = 0, i = 0; i < 100000; i++)
		hits += pe_rng_ppm(&a, 0) + !pe_rng_ppm(&a, 1000000);
	OK(hits == 0, "rng: 0 ppm loses nothing, 1e6 ppm everything");
}

static void test_link(void)
{
	struct pe_link l;
	uint64_t done = 0, now = 0, bits = 0;
	uint32_t i, admitted = 0;
	const uint64_t rate = 999999937;	/* prime: every packet leaves a remainder */

	pe_link_init(&l, 1000000000, 1 << 30);
	pe_link_admit(&l, 0, 1500, &done);
	OK(done == 12000, "link: 1500 bytes at 1 Gbit/s take 12 us");
	OK(pe_link_backlog(&l, 6000) == 750, "link: half-way, half the packet is backlog");

	pe_link_init(&l, rate, 1ULL << 40);
	for (i = 0; i < 100000; i++) {
		pe_link_admit(&l, 0, 1514 + (i % 7), &done);
		bits += (1514 + (i % 7)) * 8ULL;
	}
	printf("# 100000 packets: done at %llu ns, exact %.3f ns\n",
	       (unsigned long long)done, (double)bits * 1e9 / rate);
	OK(done == (uint64_t)((unsigned __int128)bits * NSEC_PER_SEC_U / rate),
	   "link: remainders carried, 100000 packets end at the exact nanosecond");

	pe_link_init(&l, 1000000000, 10000);
	for (i = 0; i < 10; i++)
		admitted += pe_link_admit(&l, now, 1514, &done);
	OK(admitted == 6 && l.dropped == 4,
	   "link: drop-tail, a 10000-byte queue takes 6 packets of 1514 of a burst of 10");
	now = done;	/* drained: room again */
	OK(pe_link_admit(&l, now, 1514, &done) && l.max_backlog == 5 * 1514,
	   "link: empty again once drained; occupancy recorded");
}

/* An IPv4 TCP GSO frame: 20-byte IP header, 32-byte TCP header
 * (timestamps), segs segments of mss bytes, the last one short by short.
 */
static uint32_t make_frame(uint8_t *buf, uint32_t segs, uint32_t mss, uint32_t shortby,
			   int needs_csum)
{
	struct virtio_net_hdr vh = { 0 };
	uint8_t *ip = buf + PE_VNET_LEN, *th = ip + 20;
	uint32_t payload = segs * mss - shortby, i, tot = 52 + payload;

	vh.flags = needs_csum ? VIRTIO_NET_HDR_F_NEEDS_CSUM : 0;
	vh.gso_type = VIRTIO_NET_HDR_GSO_TCPV4;
	vh.gso_size = (uint16_t)mss;
	vh.hdr_len = 52;
	vh.csum_start = 20;
	vh.csum_offset = 16;
	memcpy(buf, &vh, sizeof(vh));
	memset(ip, 0, 52);
	ip[0] = 0x45;
	ip[2] = (uint8_t)(tot >> 8);
	ip[3] = (uint8_t)tot;
	ip[4] = 0x12;
	ip[5] = 0x34;
	ip[6] = 0x40;		/* DF */
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\x0a\x01\x00\x01\x0a\x02\x00\x01", 8);
	th[0] = 0x9c;
	th[1] = 0x40;
	th[2] = 0x14;
	th[3] = 0x51;
	memcpy(th + 4, "\xff\xff\xf0\x00", 4);	/* wraps within the frame */
	th[12] = 8 << 4;
	th[13] = 0x80 | 0x10 | 0x08 | 0x01;	/* CWR ACK PSH FIN */
	th[14] = 0xff;
	for (i = 0; i < payload; i++)
		ip[52 + i] = (uint8_t)(i * 7 + i / 251);
	return PE_VNET_LEN + tot;
}

static uint32_t seq_of(const uint8_t *pkt)
{
	const uint8_t *p = pkt + 24;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_piece(int needs_csum)
{
	static uint8_t frame[PE_MAX_FRAME], piece[PE_MAX_FRAME];
	const char *mode = needs_csum ? "checksum offloaded" : "full checksum";
	struct pe_frame f, g;
	struct virtio_net_hdr vh;
	uint32_t len = make_frame(frame, 10, 1448, 100, needs_csum), n, sum, i;
	int good = 1;

	OK(pe_parse(frame, len, &f) == 0 && f.tcp4 && f.nseg == 10 && f.hdr_len == 52 &&
	   f.payload == 10 * 1448 - 100, "parse: a 10-segment GSO frame, headers 52 bytes");
	OK(pe_seg_payload(&f, 9) == 1348 && pe_seg_wire(&f, 0, 14) == 1448 + 52 + 14,
	   "parse: the last segment is short; wire bytes count headers and overhead");

	/* segment 3 lost: pieces 0-2 and 4-9 */
	n = pe_build_piece(&f, 0, 3, piece);
	memcpy(&vh, piece, sizeof(vh));
	OK(n == PE_VNET_LEN + 52 + 3 * 1448 && vh.gso_type == VIRTIO_NET_HDR_GSO_TCPV4 &&
	   vh.gso_size == 1448, "piece 0-2: three segments, still GSO");
	OK(pe_parse(piece, n, &g) == 0 && g.len == 52 + 3 * 1448 && seq_of(g.pkt) == 0xfffff000,
	   "piece 0-2: IP length and sequence number");
	OK((g.pkt[33] & 0x80) && !(g.pkt[33] & 0x09), "piece 0-2: keeps CWR, drops FIN and PSH");
	OK(pe_csum_fold(pe_csum_add(0, g.pkt, 20)) == 0xffff, "piece 0-2: IP checksum valid");
	OK(!memcmp(g.pkt + 52, f.pkt + 52, 3 * 1448), "piece 0-2: payload bytes in place");
	(void)mode;

	n = pe_build_piece(&f, 4, 6, piece);
	OK(pe_parse(piece, n, &g) == 0 && g.payload == 5 * 1448 + 1348 &&
	   seq_of(g.pkt) == 0xfffff000 + 4 * 1448, "piece 4-9: length, sequence number wrapped");
	OK(!(g.pkt[33] & 0x80) && (g.pkt[33] & 0x09) == 0x09 && g.pkt[4] == 0x12 &&
	   g.pkt[5] == 0x34 + 4, "piece 4-9: no CWR, keeps FIN and PSH; IP id advanced");
	OK(!memcmp(g.pkt + 52, f.pkt + 52 + 4 * 1448, g.payload), "piece 4-9: payload bytes in place");
	{
		uint8_t pseudo[12];

		memcpy(pseudo, g.pkt + 12, 8);
		pseudo[8] = 0;
		pseudo[9] = 6;
		pseudo[10] = (uint8_t)((g.len - 20) >> 8);
		pseudo[11] = (uint8_t)(g.len - 20);
		sum = pe_csum_add(0, pseudo, 12);
		if (needs_csum) {
			uint16_t c = (uint16_t)(g.pkt[36] << 8 | g.pkt[37]);

			good = c == pe_csum_fold(sum);
		} else {
			good = pe_csum_fold(pe_csum_add(sum, g.pkt + 20, g.len - 20)) == 0xffff;
		}
	}
	printf("# %s\n", mode);
	ok(good, "piece 4-9: TCP checksum as a receiver checks it (%s)", mode);

	n = pe_build_piece(&f, 5, 1, piece);
	memcpy(&vh, piece, sizeof(vh));
	OK(vh.gso_type == VIRTIO_NET_HDR_GSO_NONE && vh.gso_size == 0 &&
	   n == PE_VNET_LEN + 52 + 1448, "a one-segment piece is not GSO");

	/* every cut of the frame gives back its payload, once */
	for (i = 1; i < 10 && good; i++) {
		uint32_t a = pe_build_piece(&f, 0, i, piece) - PE_VNET_LEN - 52;
		uint32_t b = pe_build_piece(&f, i, 10 - i, piece) - PE_VNET_LEN - 52;

		good = a + b == f.payload;
	}
	OK(good, "the two pieces of every cut add up to the frame");
}

static void test_ring(void)
{
	struct pe_ring r;
	uint32_t lens[4096], head = 0, tail = 0, i, step, good = 1, fulls = 0;
	uint64_t due = 0;
	struct pe_rng rng;

	pe_rng_seed(&rng, 3);
	if (pe_ring_init(&r, 300000))
		exit(1);
	for (step = 0; step < 200000; step++) {
		int push = (pe_rng_next(&rng) & 3) != 0 || head == tail;

		if (push && tail - head < 4096) {
			uint32_t len = 1 + (uint32_t)(pe_rng_next(&rng) % 70000);
			uint8_t *p = pe_ring_reserve(&r, len);

			if (!p) {
				fulls++;
				push = 0;
			} else {
				for (i = 0; i < len; i += 97)
					p[i] = (uint8_t)(tail + i);
				p[len - 1] = (uint8_t)tail;
				pe_ring_commit(&r, len, ++due);
				lens[tail++ % 4096] = len;
			}
		}
		if (!push && head != tail) {
			const struct pe_rec *rec = pe_ring_peek(&r);
			const uint8_t *d = (const uint8_t *)(rec + 1);
			uint32_t len = lens[head % 4096];

			good &= rec->len == len && rec->due_ns == due - (tail - head) + 1;
			for (i = 0; i + 1 < len; i += 97)
				good &= d[i] == (uint8_t)(head + i);
			good &= d[len - 1] == (uint8_t)head;
			pe_ring_pop(&r);
			head++;
		}
		good &= r.count == tail - head && r.used <= r.size;
	}
	printf("# ring: %u records through 300000 bytes, %u times full\n", tail, fulls);
	OK(good && fulls > 0 && tail > 50000,
	   "delay line: every record back intact and in order, across wrap-arounds and full rings");
	pe_ring_free(&r);
}

static void test_tsval(void)
{
	static uint8_t frame[PE_MAX_FRAME];
	uint32_t len = make_frame(frame, 2, 1448, 0, 1), ts = 0;
	uint8_t *opt = frame + PE_VNET_LEN + 40;
	struct pe_frame f;
	int none;

	pe_parse(frame, len, &f);
	none = !pe_tsval(&f, &ts);
	memcpy(opt, "\x01\x01\x08\x0a\x12\x34\x56\x78\x00\x00\x00\x01", 12);
	pe_parse(frame, len, &f);
	OK(none && pe_tsval(&f, &ts) == 1 && ts == 0x12345678,
	   "tsval: read after NOPs; none where the options end at once");
	opt[3] = 40;	/* a length past the header */
	pe_parse(frame, len, &f);
	OK(pe_tsval(&f, &ts) == 0, "tsval: an option longer than the header is not read");
}

static void test_flows(void)
{
	static uint8_t frame[PE_MAX_FRAME], piece[PE_MAX_FRAME];
	static struct pe_flows t;
	const uint64_t b = PE_BUCKET_NS;
	struct pe_frame f, g;
	uint32_t len = make_frame(frame, 10, 1448, 0, 1), n, got[8];
	const struct pe_flow *fl = &t.flow[0];

	memset(&t, 0, sizeof(t));
	t.origin_ns = 1000;
	pe_parse(frame, len, &f);
	/* segments 3 and 6-7 lost on the way: 0-2, 4-5, 8-9 arrive */
	n = pe_build_piece(&f, 0, 3, piece);
	pe_parse(piece, n, &g);
	got[0] = pe_flows_deliver(&t, &g, 1000);
	n = pe_build_piece(&f, 4, 2, piece);
	pe_parse(piece, n, &g);
	got[1] = pe_flows_deliver(&t, &g, 1000 + b / 2);
	n = pe_build_piece(&f, 8, 2, piece);
	pe_parse(piece, n, &g);
	got[2] = pe_flows_deliver(&t, &g, 1000 + b);
	OK(got[0] == 3 * 1448 && got[1] == 2 * 1448 && got[2] == 2 * 1448 && fl->nholes == 2,
	   "flows: segments beyond a gap count, the gaps are holes");
	/* the retransmission of 3 and 6 fill holes; 4-5 again is a duplicate */
	n = pe_build_piece(&f, 3, 1, piece);
	pe_parse(piece, n, &g);
	got[3] = pe_flows_deliver(&t, &g, 1000 + 2 * b);
	n = pe_build_piece(&f, 4, 3, piece);
	pe_parse(piece, n, &g);
	got[4] = pe_flows_deliver(&t, &g, 1000 + 2 * b);
	OK(got[3] == 1448 && got[4] == 1448 && fl->nholes == 1 && fl->dup_bytes == 2 * 1448,
	   "flows: a retransmission into a hole counts, what was delivered before does not");
	/* the whole frame again: only segment 7, the last hole, is new */
	got[5] = pe_flows_deliver(&t, &f, 1000 + 3 * b);
	OK(got[5] == 1448 && fl->nholes == 0 && fl->bytes == 10 * 1448 && t.n == 1,
	   "flows: every byte of sequence space once, across the wrap of sequence numbers");
	OK(fl->bucket[0] == 5 * 1448 && fl->bucket[1] == 2 * 1448 &&
	   fl->bucket[2] == 2 * 1448 && fl->bucket[3] == 1448,
	   "flows: new bytes by the 100 ms bucket they were delivered in");
	/* a hole split in the middle by a retransmitted segment inside it */
	memset(&t, 0, sizeof(t));
	n = pe_build_piece(&f, 0, 1, piece);
	pe_parse(piece, n, &g);
	pe_flows_deliver(&t, &g, 0);
	n = pe_build_piece(&f, 9, 1, piece);
	pe_parse(piece, n, &g);
	pe_flows_deliver(&t, &g, 0);
	n = pe_build_piece(&f, 4, 2, piece);
	pe_parse(piece, n, &g);
	got[6] = pe_flows_deliver(&t, &g, 0);
	got[7] = pe_flows_deliver(&t, &f, 0);
	OK(got[6] == 2 * 1448 && got[7] == 6 * 1448 && fl->bytes == 10 * 1448 &&
	   fl->nholes == 0, "flows: a hole split by a segment inside it, then filled");
}

int main(void)
{
	printf("TAP version 13\n");
	test_rng();
	test_link();
	test_piece(1);
	test_piece(0);
	test_ring();
	test_tsval();
	test_flows();
	printf("1..%d\n", n_test);
	printf("%d passed, %d failed, 0 skipped\n", n_test - n_fail, n_fail);
	return n_fail != 0;
}
