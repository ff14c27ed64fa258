#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Number crunching for the tcp_bbr2 network selftests.

The shell tests (see lib.sh) run iperf3 and sample `ss -tin`; this tool turns
their output into plain numbers on stdout, one answer per line, so a test can
`read` them.  It never decides pass/fail: the tests do that.

  iperf FILE                  goodput_mbit retrans retrans_pct bytes_sent
  iperf-streams FILE          one line per stream: goodput_mbit retrans
  iperf-retrans-from FILE T0  retrans_pct of the data sent in intervals that
                              start at or after T0 s (steady state, once
                              STARTUP is over)
  iperf-window FILE T0 T1 OFF mean sender Mbit/s over [T0,T1) where a JSON
                              interval's start is shifted by OFF seconds
  jain X...                   Jain's fairness index of the arguments
  ss-rtt FILE FROM_FRAC       median srtt_ms, p90 srtt_ms, median cwnd, samples
                              of the data sockets, skipping the first FROM_FRAC
                              of the sampling period
  ss-probertt FILE GAIN       PROBE_RTT episodes (samples whose bbr cwnd_gain
                              equals GAIN): "episodes N", "interval S",
                              "duration S" ("duration_cut S": still on
                              when sampling ended), "cwnd C", "cwnd_outside C",
                              "sample_period S"
  ss-cc FILE                  congestion control names seen on data sockets
  kernel-complaints FILE [emulated]
                              each complaint in a kernel log (oops, WARNING,
                              BUG, lockup, stall, sanitizer report): a line
                              "counted FIRST-LINE" or "emulator FIRST-LINE",
                              then the rest of its report indented by two
                              spaces; "emulated" when the CPU is emulated

Sample files come from tcpsample.py (one line per socket per sample).
"""

import json
import re
import statistics
import sys

MSS = 1448
DATA_SOCKET_MIN_BYTES = 1 << 20   # iperf3 control connections move a few KB


def load_iperf(path):
    with open(path) as f:
        doc = json.load(f)
    if "error" in doc and not doc.get("end"):
        sys.exit("iperf3 error in %s: %s" % (path, doc["error"]))
    return doc


def cmd_iperf(args):
    end = load_iperf(args[0])["end"]
    sent, recv = end["sum_sent"], end["sum_received"]
    retrans = sent.get("retransmits", 0)
    segs = max(sent["bytes"] / MSS, 1.0)
    print("%.2f %d %.3f %d" % (recv["bits_per_second"] / 1e6, retrans,
                               100.0 * retrans / segs, sent["bytes"]))


def cmd_iperf_streams(args):
    end = load_iperf(args[0])["end"]
    for s in end["streams"]:
        print("%.2f %d" % (s["receiver"]["bits_per_second"] / 1e6,
                           s["sender"].get("retransmits", 0)))


def cmd_iperf_retrans_from(args):
    doc = load_iperf(args[0])
    t0 = float(args[1])
    retrans = sent = 0
    for iv in doc["intervals"]:
        s = iv["sum"]
        if s.get("omitted") or s["start"] + 0.01 < t0:
            continue
        retrans += s.get("retransmits", 0)
        sent += s["bytes"]
    print("%.3f" % (100.0 * retrans / max(sent / MSS, 1.0)))


def cmd_iperf_window(args):
    doc = load_iperf(args[0])
    t0, t1, off = float(args[1]), float(args[2]), float(args[3])
    vals = []
    for iv in doc["intervals"]:
        s = iv["sum"]
        if s.get("omitted"):
            continue
        start = s["start"] + off
        if t0 <= start and start + s["seconds"] <= t1 + 0.01:
            vals.append(s["bits_per_second"] / 1e6)
    print("%.2f" % (statistics.mean(vals) if vals else 0.0))


def cmd_jain(args):
    xs = [float(a) for a in args]
    sq = sum(x * x for x in xs)
    print("%.3f" % ((sum(xs) ** 2) / (len(xs) * sq) if sq > 0 else 0.0))


def parse_samples(path):
    """Return {socket: [(t, fields), ...]} from a tcpsample.py file."""
    socks = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3:
                continue
            d = {}
            for kv in parts[2:]:
                k, _, v = kv.partition("=")
                try:
                    d[k] = float(v)
                except ValueError:
                    d[k] = v
            d["srtt"] = d.get("rtt", 0.0)
            socks.setdefault(parts[1], []).append((float(parts[0]), d))
    return socks


def data_sockets(socks):
    out = {}
    for k, samples in socks.items():
        acked = max((d.get("acked", 0) for _, d in samples), default=0)
        if acked >= DATA_SOCKET_MIN_BYTES:
            out[k] = samples
    return out


def sample_times(path):
    with open(path) as f:
        return sorted({float(l.split()[0]) for l in f if l.strip()})


def cmd_ss_rtt(args):
    frac = float(args[1])
    times = sample_times(args[0])
    socks = data_sockets(parse_samples(args[0]))
    if not times or not socks:
        print("0 0 0 0")
        return
    t_from = times[0] + frac * (times[-1] - times[0])
    rtts, cwnds = [], []
    for samples in socks.values():
        for t, d in samples:
            if t >= t_from and "srtt" in d:
                rtts.append(d["srtt"])
                cwnds.append(d.get("cwnd", 0))
    if not rtts:
        print("0 0 0 0")
        return
    rtts.sort()
    p90 = rtts[min(len(rtts) - 1, int(0.9 * len(rtts)))]
    print("%.2f %.2f %d %d" % (statistics.median(rtts), p90,
                               statistics.median(cwnds), len(rtts)))


def cmd_ss_probertt(args):
    gain = float(args[1])
    times = sample_times(args[0])
    period = statistics.median([b - a for a, b in zip(times, times[1:])]) \
        if len(times) > 2 else 0.0
    socks = data_sockets(parse_samples(args[0]))
    if not socks:
        print("episodes 0")
        print("sample_period %.3f" % period)
        return
    # the biggest data socket: a PROBE_RTT test runs one flow
    samples = max(socks.values(), key=lambda s: max(d.get("acked", 0) for _, d in s))
    episodes = []           # [start, end, min cwnd]
    outside = []
    for t, d in samples:
        if "cwnd_gain" not in d:
            continue
        if abs(d["cwnd_gain"] - gain) < 1e-3:
            if episodes and t - episodes[-1][1] <= 2.5 * period + 1e-3:
                ep = episodes[-1]
                ep[1] = t
                ep[2] = min(ep[2], d.get("cwnd", 1e9))
            else:
                episodes.append([t, t, d.get("cwnd", 1e9)])
        else:
            outside.append(d.get("cwnd", 0))
    print("episodes %d" % len(episodes))
    for ep in episodes:
        print("start %.3f" % (ep[0] - times[0]))
    for a, b in zip(episodes, episodes[1:]):
        print("interval %.3f" % (b[0] - a[0]))
    last = max((t for t, d in samples if "cwnd_gain" in d), default=None)
    for ep in episodes:
        # both edges are only known to within one sample period; an
        # episode the sampling ended in has no known length
        if ep[1] == last:
            print("duration_cut %.3f" % (ep[1] - ep[0] + period))
        else:
            print("duration %.3f" % (ep[1] - ep[0] + period))
        print("cwnd %d" % ep[2])
    if outside:
        print("cwnd_outside %d" % statistics.median(outside))
    print("sample_period %.3f" % period)


def cmd_ss_cc(args):
    socks = data_sockets(parse_samples(args[0]))
    print(" ".join(sorted({d["cc"] for s in socks.values() for _, d in s})))


KERNEL_COMPLAINT = re.compile(
    r"Oops|WARNING:|BUG:|kernel BUG|general protection|soft lockup|hard LOCKUP|"
    r"hung task|blocked for more than|RCU stall|detected stall|double fault|"
    r"Kernel panic|refcount_t:|UBSAN:|KASAN:")
REPORT_END = re.compile(r"---\[ end trace|---\[ end Kernel panic")
REPORT_MAX_LINES = 60
# A single-step debug trap in kernel mode: x86 Linux sets TF in the kernel
# for nothing but kprobes and KGDB, which consume the trap before this
# WARN, so one that arrives here was raised by the (emulated) CPU itself.
EMULATOR_DEBUG_TRAP = re.compile(
    r"WARNING: .* at arch/x86/kernel/traps\.c:\d+ exc_debug_kernel")
# a frame, symbol or program of ours anywhere in the report makes it ours
# (the list of loaded modules names us in every report: not a frame)
OURS = re.compile(r"bbr2")
MODULE_LIST = re.compile(r"Modules linked in:")


def kernel_complaints(lines, emulated):
    """[(kind, report lines)] for each complaint in a kernel log; kind is
    "emulator" for a report the emulated CPU raised on its own, with no
    frame of ours in it, and "counted" for every other."""
    reports = []
    i = 0
    while i < len(lines):
        if not KERNEL_COMPLAINT.search(lines[i]):
            i += 1
            continue
        end = i + 1
        while end < len(lines) and end - i < REPORT_MAX_LINES:
            end += 1
            if REPORT_END.search(lines[end - 1]):
                break
        report = lines[i:end]
        emulator = (emulated and EMULATOR_DEBUG_TRAP.search(report[0]) and
                    not any(KERNEL_COMPLAINT.search(line) or
                            (OURS.search(line) and not MODULE_LIST.search(line))
                            for line in report[1:]))
        reports.append(("emulator" if emulator else "counted", report))
        i = end
    return reports


def cmd_kernel_complaints(args):
    with open(args[0], errors="replace") as f:
        lines = f.read().splitlines()
    emulated = args[1:] == ["emulated"]
    for kind, report in kernel_complaints(lines, emulated):
        print(kind, report[0])
        for line in report[1:]:
            print(" ", line)


CMDS = {
    "iperf": cmd_iperf,
    "iperf-streams": cmd_iperf_streams,
    "iperf-retrans-from": cmd_iperf_retrans_from,
    "iperf-window": cmd_iperf_window,
    "jain": cmd_jain,
    "ss-rtt": cmd_ss_rtt,
    "ss-probertt": cmd_ss_probertt,
    "ss-cc": cmd_ss_cc,
    "kernel-complaints": cmd_kernel_complaints,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in CMDS:
        sys.exit(__doc__)
    CMDS[sys.argv[1]](sys.argv[2:])
