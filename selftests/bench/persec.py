#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-second goodput of each flow from ccinfo's samples (peer benchmark).

  persec.py SAMPLES T0 SECS
  persec.py --qdelay SAMPLES T0 FROM BASE_MS

SAMPLES is what ccinfo.c wrote: one line per socket per sample, "<epoch_s>
<sport>><dport> key=value...".  Every socket that moved 1 MB or more is a
flow (iperf3's control connections move a few KB).  Prints one line per
flow, in the order of their ports:

  <sport>><dport> <Mbit/s of second 1>,...,<Mbit/s of second SECS>
      <retransmits %> <srtt min ms> <srtt median ms>

Second k is [T0 + k - 1, T0 + k): the bytes the flow had acknowledged at
its end less those at its start, each read from the samples by linear
interpolation between the two around it (before a flow's first sample it
had acknowledged nothing).  This is how transperf counts goodput: bytes
acknowledged per 1-s bucket.  Retransmits are the last sample's
retrans_total over the segments acknowledged plus retransmitted (MSS
1448); the RTTs are the kernel's smoothed RTT (TCP_INFO tcpi_rtt) over
every sample in the flow's lifetime.

With --qdelay it prints "<median ms> <p95 ms> <samples>" of the smoothed
RTT less BASE_MS over every flow's samples taken FROM s after T0 or later:
the queueing delay the flows themselves see (a ping beside them sees
another queue when the bottleneck is a per-flow-queueing fq_codel).
"""

import statistics
import sys

MSS = 1448
FLOW_MIN_BYTES = 1 << 20


def flow_samples(path):
    """{socket: [{"t": epoch s, key: value string, ...}]} of every socket
    in SAMPLES that moved FLOW_MIN_BYTES or more (the peer benchmark's
    report reads the samples through this too)."""
    socks = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 3:
                continue
            try:
                d = {"t": float(p[0])}
            except ValueError:
                continue
            for kv in p[2:]:
                k, _, v = kv.partition("=")
                d[k] = v
            socks.setdefault(p[1], []).append(d)

    def acked(d):
        try:
            return int(d.get("bytes_acked", ""))
        except ValueError:
            return None
    return {k: [d for d in v if acked(d) is not None] for k, v in socks.items()
            if max((acked(d) or 0) for d in v) >= FLOW_MIN_BYTES}


def parse(path):
    """{socket: [(t, bytes acked, retransmits, smoothed RTT us)]} in time
    order, of the sockets flow_samples() keeps."""
    return {k: sorted((d["t"], int(d["bytes_acked"]), int(d.get("retrans_total", 0)),
                       int(d.get("rtt_us", 0))) for d in v)
            for k, v in flow_samples(path).items()}


def acked_at(samples, t):
    """Bytes acknowledged at time t, interpolated between samples."""
    if t <= samples[0][0]:
        return 0.0 if t < samples[0][0] else float(samples[0][1])
    for (t0, b0, _, _), (t1, b1, _, _) in zip(samples, samples[1:]):
        if t0 <= t <= t1:
            return b0 + (b1 - b0) * (t - t0) / (t1 - t0) if t1 > t0 else float(b1)
    return float(samples[-1][1])


def port_key(name):
    sport = name.split(">")[0]
    return int(sport) if sport.isdigit() else 0


def flows(path, t0, secs):
    out = []
    for name, s in sorted(parse(path).items(), key=lambda kv: port_key(kv[0])):
        persec = [(acked_at(s, t0 + k + 1) - acked_at(s, t0 + k)) * 8e-6
                  for k in range(secs)]
        retr = s[-1][2]
        segs = s[-1][1] / MSS + retr
        rtts = [r / 1000.0 for _, _, _, r in s if r > 0]
        out.append((name, persec, 100.0 * retr / segs if segs else 0.0,
                    min(rtts) if rtts else 0.0,
                    statistics.median(rtts) if rtts else 0.0))
    return out


def qdelay(path, t0, start, base):
    """(median, p95, n) of the flows' srtt - base from t0 + start on."""
    vals = sorted(r / 1000.0 - base for s in parse(path).values()
                  for t, _, _, r in s if t >= t0 + start and r > 0)
    if not vals:
        return None
    p95 = vals[max(0, -(-95 * len(vals) // 100) - 1)]
    return statistics.median(vals), p95, len(vals)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--qdelay":
        q = qdelay(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]))
        print("%.2f %.2f %d" % q if q else "- - 0")
        return
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    for name, persec, retr, rmin, rmed in flows(sys.argv[1], float(sys.argv[2]),
                                                int(sys.argv[3])):
        print("%s %s %.3f %.2f %.2f" % (name, ",".join("%.2f" % v for v in persec),
                                        retr, rmin, rmed))


if __name__ == "__main__":
    main()
