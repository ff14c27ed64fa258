// SPDX-License-Identifier: GPL-2.0
/*
 * pathemu: a long, lossy, narrow path between two network namespaces, for
 * kernels without netem.
 *
 *   sender netns            pathemu (this process)              receiver netns
 *   TUN a  ---- data ---->  random loss per MSS                 TUN b
 *                           drop-tail queue (bytes) + link at RATE
 *                           fixed one-way delay      ---- data ---->
 *          <---- ACKs ----  reverse delay (default 0)  <---- ACKs ----
 *
 * Both TUN devices carry a virtio_net_hdr (IFF_VNET_HDR) and offer TSO, so
 * the sender's stack hands over 64 KB GSO frames and the receiver's takes
 * them whole: the emulator handles ~45 segments per system call, which is
 * what lets one core carry gigabits.  Loss and the queue still act per
 * segment: a frame with a lost or refused segment is cut into the runs of
 * segments that survive, each forwarded as a frame of its own.
 *
 * A frame leaves the bottleneck when its last byte does (the link is a
 * virtual clock: free_ns, advanced by each admitted segment's wire bytes at
 * RATE); it reaches the receiver DELAY later.  Both directions wait in byte
 * rings in arrival order, released by one thread that sleeps in ppoll()
 * until the next frame is due or a device has data.
 *
 * Whether the emulator kept up is measured, not assumed: every release
 * records how late it was against its schedule, every loop iteration its
 * length (a device's queue waits at most that long to be read), and at exit
 * the process's CPU time, the fraction of the wall clock it was not
 * sleeping, the link's busy time, the queue's occupancy and how long
 * frames waited in each TUN device's own queue go to the stats file as one
 * JSON object.
 *
 * Goodput is measured here too, per flow: the payload bytes delivered to
 * the receiver that the path had not delivered before, per 100 ms of the
 * emulator's clock.  It is what the path carries, independent of when the
 * receiving application reads (after a loss, the receiver holds what
 * follows the gap until the retransmission fills it, then hands it over
 * at once: counted by the application's reads, a window that starts just
 * after a loss gets data that crossed the path before it).
 *
 * Usage:
 *   pathemu --a NETNS:DEV --b NETNS:DEV --rate BIT/S --queue BYTES
 *           [--delay-us US] [--rdelay-us US] [--loss-ppm PPM] [--seed N]
 *           [--overhead BYTES] [--late-us US] [--stats FILE] [--duration S]
 * The TUN devices must exist (ip tuntap add dev DEV mode tun vnet_hdr) in
 * the named namespaces (/run/netns/NETNS); pathemu attaches to them.
 * SIGINT or SIGTERM (or --duration) ends it; it writes the stats then.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/if_tun.h>
#include "pathemu.h"

#define READ_BATCH	16	/* frames read from one device per turn */

struct dir_stats {
	uint64_t frames_in, segs_in, payload_in, frames_out, bytes_out;
	uint64_t lost_segs, queue_drops, split_frames, ring_full, write_err;
	uint64_t late, max_late_ns, max_late_at;
	uint64_t late_hist[6];	/* late by > 0.1, 0.5, 1, 5, 20, 100 ms */
	uint64_t first_ns, last_ns;	/* first arrival, last departure */
	/* how long frames waited in the TUN device's queue before this
	 * process read them: the read time less the TCP timestamp the
	 * sender stamped (a stack with tcp_timestamps=2 stamps its
	 * CLOCK_MONOTONIC in ms, no offset), so each is whole ms, and high
	 * by up to 1 ms; waits over 10 s mean a stack with random offsets
	 */
	uint64_t ts_frames, ts_unusable, ts_wait_hist[4], ts_max_wait_ms;
};

struct dir {
	const char *name;
	int in, out;
	struct pe_ring ring;
	struct pe_link link;
	uint64_t delay_ns;
	uint32_t loss_ppm;
	struct dir_stats st;
	struct pe_flows *flows;	/* goodput per flow, for the data direction */
};

static volatile sig_atomic_t stop;
static struct pe_rng rng;
static uint32_t overhead = 14;	/* Ethernet header, as a NIC's shaper counts it */
static uint64_t late_ns = 1000000;
static uint8_t scratch[PE_MAX_FRAME];
static struct pe_flows data_flows;
static uint64_t t0;
static const uint64_t late_edges_ns[6] = { 100000, 500000, 1000000, 5000000, 20000000,
					   100000000 };
static const uint32_t wait_edges_ms[4] = { 1, 2, 5, 20 };

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC_U + (uint64_t)ts.tv_nsec;
}

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "pathemu: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, ": %s\n", strerror(errno));
	exit(1);
}

/* Attach to TUN device DEV in network namespace NS ("NS:DEV"). */
static int tun_attach(const char *spec)
{
	char ns[256], path[300];
	const char *colon = strchr(spec, ':');
	unsigned int offload = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6 | TUN_F_TSO_ECN;
	struct ifreq ifr;
	int self, nsfd, fd;

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(ns) ||
	    strlen(colon + 1) >= IFNAMSIZ) {
		fprintf(stderr, "pathemu: %s: expected NETNS:DEV\n", spec);
		exit(2);
	}
	memcpy(ns, spec, (size_t)(colon - spec));
	ns[colon - spec] = 0;
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (self < 0 || nsfd < 0)
		die("%s", path);
	if (setns(nsfd, CLONE_NEWNET))
		die("setns %s", path);
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die("%s", "/dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", colon + 1);
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI | IFF_VNET_HDR;
	if (ioctl(fd, TUNSETIFF, &ifr))
		die("TUNSETIFF %s", spec);
	if (ioctl(fd, TUNSETOFFLOAD, offload))
		die("TUNSETOFFLOAD %s", spec);
	if (setns(self, CLONE_NEWNET))
		die("%s", "setns back");
	close(self);
	close(nsfd);
	return fd;
}

static uint64_t parse_num(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		goto bad;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	default: break;
	}
	if (*end)
		goto bad;
	return (uint64_t)(v + 0.5);
bad:
	fprintf(stderr, "pathemu: %s: bad number '%s'\n", what, s);
	exit(2);
}

/* Release every frame of d that is due; returns the next due time or 0. */
static uint64_t release(struct dir *d, uint64_t now)
{
	const struct pe_rec *rec;

	while ((rec = pe_ring_peek(&d->ring))) {
		uint64_t late = now - rec->due_ns;
		int b;

		if (rec->due_ns > now)
			return rec->due_ns;
		if (late > late_ns)
			d->st.late++;
		for (b = 0; b < 6; b++)
			d->st.late_hist[b] += late > late_edges_ns[b];
		if (late > d->st.max_late_ns) {
			d->st.max_late_ns = late;
			d->st.max_late_at = now - t0;
		}
		if (write(d->out, (const uint8_t *)(rec + 1), rec->len) != (ssize_t)rec->len) {
			d->st.write_err++;
		} else if (d->flows) {
			struct pe_frame f;

			if (!pe_parse((const uint8_t *)(rec + 1), rec->len, &f))
				pe_flows_deliver(d->flows, &f, now);
		}
		d->st.frames_out++;
		d->st.bytes_out += rec->len - PE_VNET_LEN;
		pe_ring_pop(&d->ring);
	}
	return 0;
}

/* Loss, then the queue, per segment; queue the surviving runs. */
static void forward(struct dir *d, uint8_t *buf, uint32_t len, uint64_t now)
{
	static uint8_t keep[PE_MAX_SEGS];
	static uint64_t done[PE_MAX_SEGS];
	struct pe_frame f;
	uint32_t i, j, kept = 0, tsval;
	uint8_t *p;

	if (pe_parse(buf, len, &f))
		return;
	if (pe_tsval(&f, &tsval)) {
		int32_t wait = (int32_t)((uint32_t)(now / 1000000) - tsval);

		if (wait < 0 || wait > 10000) {
			d->st.ts_unusable++;
		} else {
			d->st.ts_frames++;
			for (j = 0; j < 4; j++)
				d->st.ts_wait_hist[j] += (uint32_t)wait > wait_edges_ms[j];
			if ((uint64_t)wait > d->st.ts_max_wait_ms)
				d->st.ts_max_wait_ms = (uint64_t)wait;
		}
	}
	d->st.frames_in++;
	d->st.segs_in += f.nseg;
	d->st.payload_in += f.payload;
	if (!d->st.first_ns && f.payload)
		d->st.first_ns = now;
	for (i = 0; i < f.nseg; i++) {
		keep[i] = 1;
		if (d->loss_ppm && f.payload && pe_rng_ppm(&rng, d->loss_ppm)) {
			keep[i] = 0;
			d->st.lost_segs++;
			continue;
		}
		if (!pe_link_admit(&d->link, now, pe_seg_wire(&f, i, overhead), &done[i])) {
			keep[i] = 0;
			d->st.queue_drops++;
			continue;
		}
		kept++;
	}
	if (kept == f.nseg) {
		/* the whole frame, read in place into the ring */
		pe_ring_commit(&d->ring, len, done[f.nseg - 1] + d->delay_ns);
		if (f.payload)
			d->st.last_ns = done[f.nseg - 1];
		return;
	}
	d->st.split_frames++;
	memcpy(scratch, buf, len);
	pe_parse(scratch, len, &f);
	for (i = 0; i < f.nseg; i = j) {
		if (!keep[i]) {
			j = i + 1;
			continue;
		}
		for (j = i; j < f.nseg && keep[j]; j++)
			;
		p = pe_ring_reserve(&d->ring, PE_MAX_FRAME);
		if (!p) {
			d->st.ring_full++;
			continue;
		}
		pe_ring_commit(&d->ring, pe_build_piece(&f, i, j - i, p),
			       done[j - 1] + d->delay_ns);
		d->st.last_ns = done[j - 1];
	}
}

/* Read what the device has, up to a batch; returns frames read. */
static int drain(struct dir *d, uint64_t now)
{
	uint8_t *p;
	ssize_t n;
	int k;

	for (k = 0; k < READ_BATCH; k++) {
		p = pe_ring_reserve(&d->ring, PE_MAX_FRAME);
		if (!p)
			p = scratch;
		n = read(d->in, p, PE_MAX_FRAME);
		if (n < 0)
			break;
		if (p == scratch) {
			d->st.ring_full++;
			continue;
		}
		forward(d, p, (uint32_t)n, now);
	}
	return k;
}

static void dir_json(FILE *out, const struct dir *d)
{
	const struct dir_stats *s = &d->st;
	const struct pe_link *l = &d->link;
	uint64_t span = s->last_ns > s->first_ns ? s->last_ns - s->first_ns : 0;

	fprintf(out, "\"%s\": {\"frames_in\": %" PRIu64 ", \"segs_in\": %" PRIu64
		", \"payload_in\": %" PRIu64 ", \"frames_out\": %" PRIu64
		", \"bytes_out\": %" PRIu64 ", \"lost_segs\": %" PRIu64
		", \"queue_drops\": %" PRIu64 ", \"split_frames\": %" PRIu64
		", \"ring_full\": %" PRIu64 ", \"write_err\": %" PRIu64
		", \"late\": %" PRIu64 ", \"max_late_us\": %.1f, \"max_late_at_s\": %.3f"
		", \"late_hist_ms\": {\"0.1\": %" PRIu64 ", \"0.5\": %" PRIu64 ", \"1\": %" PRIu64
		", \"5\": %" PRIu64 ", \"20\": %" PRIu64 ", \"100\": %" PRIu64 "}"
		", \"link_busy_s\": %.6f, \"active_s\": %.6f"
		", \"max_backlog\": %" PRIu64 ", \"mean_backlog\": %.0f"
		", \"tun_wait\": {\"frames\": %" PRIu64 ", \"unusable\": %" PRIu64
		", \"max_ms\": %" PRIu64 ", \"over_ms\": {\"1\": %" PRIu64 ", \"2\": %" PRIu64
		", \"5\": %" PRIu64 ", \"20\": %" PRIu64 "}}}",
		d->name, s->frames_in, s->segs_in, s->payload_in, s->frames_out,
		s->bytes_out, s->lost_segs, s->queue_drops, s->split_frames, s->ring_full,
		s->write_err, s->late, s->max_late_ns / 1e3, s->max_late_at / 1e9,
		s->late_hist[0], s->late_hist[1], s->late_hist[2], s->late_hist[3],
		s->late_hist[4], s->late_hist[5], l->busy_ns / 1e9, span / 1e9,
		l->max_backlog, l->backlog_n ? (double)l->backlog_sum / l->backlog_n : 0.0,
		s->ts_frames, s->ts_unusable, s->ts_max_wait_ms, s->ts_wait_hist[0],
		s->ts_wait_hist[1], s->ts_wait_hist[2], s->ts_wait_hist[3]);
}

/* The data direction's flows: new payload bytes per bucket of the
 * emulator's clock, from the first bucket with any to the last.
 */
static void flows_json(FILE *out, const struct pe_flows *t)
{
	uint32_t i, k, lo, hi;

	fprintf(out, "\"flows\": {\"bucket_ms\": %llu, \"untracked_frames\": %" PRIu64
		", \"flows\": [", PE_BUCKET_NS / 1000000ULL, t->untracked);
	for (i = 0; i < t->n; i++) {
		const struct pe_flow *fl = &t->flow[i];

		for (lo = 0; lo < PE_BUCKETS && !fl->bucket[lo]; lo++)
			;
		for (hi = PE_BUCKETS; hi > lo && !fl->bucket[hi - 1]; hi--)
			;
		fprintf(out, "%s{\"sport\": %u, \"dport\": %u, \"bytes\": %" PRIu64
			", \"dup_bytes\": %" PRIu64 ", \"holes_dropped\": %" PRIu64
			", \"holes_open\": %u, \"first_s\": %.6f, \"bucket0\": %u, \"series\": [",
			i ? ", " : "", fl->sport, fl->dport, fl->bytes, fl->dup_bytes,
			fl->holes_dropped, fl->nholes,
			fl->first_ns > t->origin_ns ? (fl->first_ns - t->origin_ns) / 1e9 : 0.0, lo);
		for (k = lo; k < hi; k++)
			fprintf(out, "%s%" PRIu64, k > lo ? ", " : "", fl->bucket[k]);
		fputs("]}", out);
	}
	fputs("]}", out);
}

int main(int argc, char **argv)
{
	const char *spec_a = NULL, *spec_b = NULL, *stats = NULL;
	uint64_t rate = 0, queue = 0, delay_us = 0, rdelay_us = 0, seed = 1, duration = 0;
	uint64_t t_end, idle_ns = 0, max_loop_ns = 0, loops = 0, long_loops = 0;
	uint32_t loss_ppm = 0;
	struct dir ab = { .name = "data" }, ba = { .name = "acks" };
	struct sigaction sa;
	struct rusage ru;
	struct timespec ts;
	struct pollfd pfd[2];
	FILE *out;
	int i;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "pathemu: %s: value expected\n", o);
			return 2;
		}
		i++;
		if (!strcmp(o, "--a"))
			spec_a = v;
		else if (!strcmp(o, "--b"))
			spec_b = v;
		else if (!strcmp(o, "--rate"))
			rate = parse_num(v, o);
		else if (!strcmp(o, "--queue"))
			queue = parse_num(v, o);
		else if (!strcmp(o, "--delay-us"))
			delay_us = parse_num(v, o);
		else if (!strcmp(o, "--rdelay-us"))
			rdelay_us = parse_num(v, o);
		else if (!strcmp(o, "--loss-ppm"))
			loss_ppm = (uint32_t)parse_num(v, o);
		else if (!strcmp(o, "--seed"))
			seed = parse_num(v, o);
		else if (!strcmp(o, "--overhead"))
			overhead = (uint32_t)parse_num(v, o);
		else if (!strcmp(o, "--late-us"))
			late_ns = parse_num(v, o) * 1000;
		else if (!strcmp(o, "--stats"))
			stats = v;
		else if (!strcmp(o, "--duration"))
			duration = parse_num(v, o);
		else {
			fprintf(stderr, "pathemu: unknown option %s (see the head of pathemu.c)\n", o);
			return 2;
		}
	}
	if (!spec_a || !spec_b || !rate || queue < 2 * 1600 || loss_ppm > 1000000) {
		fprintf(stderr, "usage: pathemu --a NETNS:DEV --b NETNS:DEV --rate BIT/S --queue BYTES(>=3200)\n"
			"  [--delay-us US] [--rdelay-us US] [--loss-ppm PPM] [--seed N] [--overhead BYTES]\n"
			"  [--late-us US] [--stats FILE] [--duration S]\n");
		return 2;
	}
	pe_rng_seed(&rng, seed);
	pe_link_init(&ab.link, rate, queue);
	pe_link_init(&ba.link, 0, 0);
	ab.delay_ns = delay_us * 1000;
	ba.delay_ns = rdelay_us * 1000;
	ab.loss_ppm = loss_ppm;
	ab.flows = &data_flows;
	/* a delay line holds what the link sends in one delay, plus the queue */
	if (pe_ring_init(&ab.ring, (uint64_t)((unsigned __int128)rate * ab.delay_ns /
					      (8 * NSEC_PER_SEC_U)) * 2 + queue * 2 + (64 << 20)) ||
	    pe_ring_init(&ba.ring, 64 << 20)) {
		fprintf(stderr, "pathemu: out of memory for the delay line\n");
		return 1;
	}
	ab.in = ba.out = tun_attach(spec_a);
	ab.out = ba.in = tun_attach(spec_b);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	fprintf(stderr, "pathemu: %s -> %s at %" PRIu64 " bit/s, queue %" PRIu64
		" B, delay %" PRIu64 " us, loss %u ppm, seed %" PRIu64 "\n",
		spec_a, spec_b, rate, queue, delay_us, loss_ppm, seed);

	t0 = now_ns();
	data_flows.origin_ns = t0;
	t_end = duration ? t0 + duration * NSEC_PER_SEC_U : 0;
	pfd[0].fd = ab.in;
	pfd[1].fd = ba.in;
	pfd[0].events = pfd[1].events = POLLIN;
	while (!stop) {
		uint64_t wake = now_ns(), now = wake, next, n1, n2, t_sleep, woke;

		if (t_end && now >= t_end)
			break;
		/* releases first: what is due must not wait behind reads */
		release(&ab, now);
		release(&ba, now);
		/* a frame is read when it is read: the releases above may
		 * have taken a while (each write runs the receiving stack)
		 */
		drain(&ab, now_ns());
		drain(&ba, now_ns());
		now = now_ns();
		n1 = release(&ab, now);
		n2 = release(&ba, now);
		next = n1 && (!n2 || n1 < n2) ? n1 : n2;
		if (t_end && (!next || t_end < next))
			next = t_end;
		t_sleep = now_ns();
		if (next && next <= t_sleep)
			continue;	/* due already */
		if (next) {
			ts.tv_sec = (time_t)((next - t_sleep) / NSEC_PER_SEC_U);
			ts.tv_nsec = (long)((next - t_sleep) % NSEC_PER_SEC_U);
		}
		ppoll(pfd, 2, next ? &ts : NULL, NULL);
		woke = now_ns();
		idle_ns += woke - t_sleep;
		/* the previous iteration: from its wake-up to this sleep */
		loops++;
		if (t_sleep - wake > max_loop_ns)
			max_loop_ns = t_sleep - wake;
		if (t_sleep - wake > late_ns)
			long_loops++;
	}
	t_end = now_ns();
	getrusage(RUSAGE_SELF, &ru);

	out = stats ? fopen(stats, "w") : stdout;
	if (!out)
		die("%s", stats);
	fprintf(out, "{\"rate_bps\": %" PRIu64 ", \"queue_bytes\": %" PRIu64
		", \"delay_us\": %" PRIu64 ", \"rdelay_us\": %" PRIu64 ", \"loss_ppm\": %u"
		", \"seed\": %" PRIu64 ", \"overhead\": %u, \"late_us\": %" PRIu64
		", \"wall_s\": %.6f, \"cpu_s\": %.6f, \"busy_frac\": %.4f"
		", \"loops\": %" PRIu64 ", \"long_loops\": %" PRIu64 ", \"max_loop_us\": %.1f, ",
		rate, queue, delay_us, rdelay_us, loss_ppm, seed, overhead, late_ns / 1000,
		(t_end - t0) / 1e9,
		ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		t_end > t0 ? 1.0 - (double)idle_ns / (double)(t_end - t0) : 0.0,
		loops, long_loops, max_loop_ns / 1e3);
	dir_json(out, &ab);
	fputs(", ", out);
	dir_json(out, &ba);
	fputs(", ", out);
	flows_json(out, &data_flows);
	fputs("}\n", out);
	if (out != stdout)
		fclose(out);
	pe_ring_free(&ab.ring);
	pe_ring_free(&ba.ring);
	return 0;
}
