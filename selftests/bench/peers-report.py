#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables of the peer benchmark (vm-bench-peers.sh).

  peers-report.py RESULTS_DIR [--peer IMAGE]

Reads RESULTS_DIR/iter*/{v3,debian}/raw.tsv (written by peers-guest.sh in
each guest), prints one table per scenario -- per congestion control the
mean, min and max over the iterations, the ratio to v3 and, for every bbr2
variant, whether it is worse than v3 beyond the spread of the two -- and
writes:

  raw.csv         every per-iteration number (iter, guest, kernel, cc, spec,
                  scenario, metric, value)
  summary.json    the tables' numbers
  series/*.csv    deep16 and late2 state time series per run: TCP_INFO and
                  TCP_CC_INFO samples, merged for bbr2 with the mode, phase
                  and bounds its tracepoints reported

"v3" is the peer kernel's bbr; the other columns are the Debian kernel's.
A verdict compares each bbr2 variant with v3 on the scenario's judged
metric: "worse" only if bbr2's best iteration is worse than v3's worst.
"""

import csv
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from persec import flow_samples  # noqa: E402

# scenario: (title, judged metric, True if higher is better, other metrics)
SCENARIOS = [
    ("deep16", "1 flow, 16-BDP buffer, ping beside it: queueing delay (ping RTT - base, from 5 s on)",
     "qdelay_med_ms", False, ["qdelay_p95_ms", "goodput_mbit"]),
    ("late2", "2 flows, 2-BDP buffer, 2nd starts 3 s late, 40 s: Jain over the last 20 s",
     "jain", True, ["flow1_mbit", "flow2_mbit", "sum_mbit"]),
    ("loss0", "1 flow, 0 % loss, 1-BDP buffer: goodput",
     "goodput_mbit", True, ["retrans_pct"]),
    ("loss1", "1 flow, 1 % random loss, 1-BDP buffer: goodput",
     "goodput_mbit", True, ["retrans_pct"]),
    ("loss3", "1 flow, 3 % random loss, 1-BDP buffer: goodput",
     "goodput_mbit", True, ["retrans_pct"]),
    ("flows16", "16 flows, 5 %-BDP buffer: retransmits",
     "retrans_pct", False, ["goodput_mbit"]),
    ("vscubic1", "1 flow vs 1 cubic flow, 1-BDP buffer: share of the link",
     "share", True, ["goodput_mbit", "cubic_mbit"]),
    ("vscubic2", "1 flow vs 1 cubic flow, 2-BDP buffer: share of the link",
     "share", True, ["goodput_mbit", "cubic_mbit"]),
    ("deep16:early", "1 flow, 16-BDP buffer, ping beside it: queueing delay right after "
     "STARTUP (ping RTT - base, p95 and max over 1-5 s)",
     "qdelay_early_p95_ms", False, ["qdelay_early_max_ms", "ping_early_samples"]),
    ("tiny1", "1 flow, 10 Mbit/s x 10 ms, 1-BDP buffer (8.6 packets), 1 % random loss: goodput",
     "goodput_mbit", True, ["retrans_pct"]),
    ("tiny3", "1 flow, 10 Mbit/s x 10 ms, 1-BDP buffer (8.6 packets), 3 % random loss: goodput",
     "goodput_mbit", True, ["retrans_pct"]),
    ("nosack01", "1 flow, 1-BDP buffer, 0.1 % random loss, receiver without SACK "
     "(tcp_sack=0): goodput",
     "goodput_mbit", True, ["retrans_pct", "rcv_tcp_sack"]),
    ("nosack1", "1 flow, 1-BDP buffer, 1 % random loss, receiver without SACK "
     "(tcp_sack=0): goodput",
     "goodput_mbit", True, ["retrans_pct", "rcv_tcp_sack"]),
    ("ecn", "1 flow, 2-BDP fq_codel bottleneck CE-marking above 2 ms of queue, tcp_ecn=1: "
     "goodput; queueing delay (the flow's smoothed RTT - base, from 5 s on). Google's v3 uses ECN only on routes marked "
     "ecn_low, which bookworm's iproute2 cannot set: its column runs without ECN response",
     "goodput_mbit", True, ["qdelay_med_ms", "qdelay_p95_ms", "retrans_pct", "ce_marks"]),
    ("ecn2", "2 flows of one CC, the ecn bottleneck: goodput; queueing delay (srtt - base) "
     "from 5 s on; "
     "Jain over the 2 (v3 without ECN response, as in ecn)",
     "goodput_mbit", True, ["qdelay_med_ms", "qdelay_p95_ms", "jain", "retrans_pct",
                            "ce_marks"]),
    ("vscubic8q", "8 flows vs 8 cubic flows, 0.25-BDP buffer: share of the link",
     "share", True, ["goodput_mbit", "cubic_mbit"]),
    ("vscubic8", "8 flows vs 8 cubic flows, 1-BDP buffer: share of the link",
     "share", True, ["goodput_mbit", "cubic_mbit"]),
    ("transperf4", "transperf's 4-flow scenario: 2 + 2 flows from two sender addresses, "
     "1-BDP buffer, 3 x the flow length (60 s). conv_tput_min: worst 1-s aggregate goodput "
     "in the buckets ending at 4 s or later, % of the link (transperf: >= tput target "
     "80); tput: mean 1-s aggregate, % of the link (>= 80); jain: over the flows' whole "
     "goodput; fair_avg / conv_jain_min: mean / worst 1-s Jain after 4 s, x100 (>= 70 / "
     ">= 50); loss_avoid: worst flow's 100 - retransmit % (>= 99); rtt_med: worst flow's "
     "100 x min / median smoothed RTT (>= 40, transperf uses per-ACK RTTs); lock_on_bw "
     "(STARTUP's exit bandwidth) is not measured; pass: how many of these six met "
     "transperf's target",
     "conv_tput_min_pct", True, ["tput_pct", "jain", "fair_avg", "conv_jain_min",
                                 "loss_avoid", "rtt_med", "pass"]),
]
# transperf's targets for its 4-flow scenario (sample_config/4bbr2_50M_40ms_BDP.py)
TRANSPERF = {"conv_tput_min_pct": 80, "tput_pct": 80, "fair_avg": 70,
             "conv_jain_min": 50, "loss_avoid": 99, "rtt_med": 40}
TRANSPERF_CONV_SECS = 4
PEER = "v3"
# the module's second name: Google's model exactly, the reference column
REF = "bbr2_ref"
MB = 1 << 20


def num(v):
    try:
        return float(v)
    except ValueError:
        return None


def label_of(guest, spec):
    """Column name: the peer kernel's bbr is "v3", anything else run there
    is "v3-kernel:<spec>"; Debian runs keep their spec."""
    if guest == "v3":
        return PEER if spec == "bbr" else "v3-kernel:" + spec
    return spec


def load(results):
    rows, runs = [], []
    for d in sorted(glob.glob(os.path.join(results, "iter*", "*"))):
        raw = os.path.join(d, "raw.tsv")
        m = re.search(r"iter(\d+)$", os.path.dirname(d))
        if not m:
            continue
        it, guest = int(m.group(1)), os.path.basename(d)
        run = {"iter": it, "guest": guest, "dir": d, "meta": {}}
        try:
            with open(os.path.join(d, "vm-secs")) as f:
                run["vm_secs"] = int(f.read().strip() or 0)
        except (OSError, ValueError):
            run["vm_secs"] = None
        if os.path.exists(raw):
            with open(raw) as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) != 4:
                        continue
                    sc, spec, metric, value = parts
                    if sc == "meta":
                        run["meta"][metric] = value
                        continue
                    rows.append({"iter": it, "guest": guest,
                                 "kernel": None, "cc": label_of(guest, spec),
                                 "spec": spec, "scenario": sc,
                                 "metric": metric, "value": value})
        runs.append(run)
    for r in rows:
        for run in runs:
            if run["iter"] == r["iter"] and run["guest"] == r["guest"]:
                r["kernel"] = run["meta"].get("kernel", "?")
    return add_derived(rows), runs


def jain_of(xs):
    sq = sum(x * x for x in xs)
    return sum(xs) ** 2 / (len(xs) * sq) if sq > 0 else 0.0


def transperf_scores(m):
    """transperf's scores of one transperf4 run from its raw metrics m
    (metric -> value string): flowK_persec_mbit (comma-separated 1-s
    goodputs), flowK_retrans_pct, flowK_srtt_min_ms, flowK_srtt_med_ms,
    link_mbit.  Buckets as transperf's: the k-th (0-based) ends at k + 1 s
    and counts for convergence when it ends at TRANSPERF_CONV_SECS or later.
    Returns {} if there is no complete flow."""
    flows = []
    k = 1
    while "flow%d_persec_mbit" % k in m:
        try:
            flows.append([float(x) for x in m["flow%d_persec_mbit" % k].split(",")])
        except ValueError:
            return {}
        k += 1
    link = num(m.get("link_mbit", ""))
    if not flows or not link:
        return {}
    secs = min(len(f) for f in flows)
    agg = [sum(f[i] for f in flows) for i in range(secs)]
    conv = [i for i in range(secs) if i + 1 >= TRANSPERF_CONV_SECS]
    if not conv:
        return {}
    jains = [100.0 * jain_of([f[i] for f in flows]) for i in range(secs)]
    out = {"tput_pct": statistics.mean(100.0 * a / link for a in agg),
           "conv_tput_min_pct": min(100.0 * agg[i] / link for i in conv),
           "fair_avg": statistics.mean(jains[i] for i in conv),
           "conv_jain_min": min(jains[i] for i in conv),
           "jain": jain_of([sum(f[:secs]) for f in flows])}
    retr = [num(m.get("flow%d_retrans_pct" % (k + 1), "")) for k in range(len(flows))]
    if all(r is not None for r in retr):
        out["loss_avoid"] = min(100.0 - r for r in retr)
    rtts = []
    for k in range(len(flows)):
        lo = num(m.get("flow%d_srtt_min_ms" % (k + 1), ""))
        med = num(m.get("flow%d_srtt_med_ms" % (k + 1), ""))
        rtts.append(100.0 * lo / med if lo and med else None)
    if all(r is not None for r in rtts):
        out["rtt_med"] = min(rtts)
    out["pass"] = sum(1 for key, target in TRANSPERF.items()
                      if key in out and out[key] >= target)
    return out


def add_derived(rows):
    """transperf4's scores, as rows of their own, after each run's raw rows."""
    runs = {}
    for r in rows:
        if r["scenario"] == "transperf4":
            runs.setdefault((r["iter"], r["guest"], r["spec"]), []).append(r)
    for rs in runs.values():
        m = {r["metric"]: r["value"] for r in rs}
        for metric, v in sorted(transperf_scores(m).items()):
            rows.append(dict(rs[0], metric=metric, value="%.3f" % v))
    return rows


def stats(vals):
    return {"mean": statistics.mean(vals), "min": min(vals),
            "max": max(vals), "n": len(vals)}


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 10:
        return "%.1f" % v
    return "%.2f" % v if abs(v) >= 1 else "%.3f" % v


def cell(s):
    if not s:
        return "-"
    if s["n"] == 1:
        return fmt(s["mean"])
    return "%s [%s-%s]" % (fmt(s["mean"]), fmt(s["min"]), fmt(s["max"]))


def verdict(b, v, higher):
    """bbr2 (b) against v3 (v): worse only beyond both spreads."""
    if not b or not v:
        return "-"
    if higher:
        if b["max"] < v["min"]:
            return "WORSE than v3"
        better = b["mean"] >= v["mean"]
    else:
        if b["min"] > v["max"]:
            return "WORSE than v3"
        better = b["mean"] <= v["mean"]
    if better:
        return "ok (no worse)"
    return "ok (within spread)" if b["n"] > 1 else "worse (1 iteration: no spread)"


def table(lines, head, rows):
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    fmt_row = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    lines.append(fmt_row(head))
    lines.append(fmt_row(["-" * w for w in widths]))
    for r in rows:
        lines.append(fmt_row(r))


# ------------------------------------------------------ state time series ---

V3_PHASES = {1: "STARTUP", 2: "DRAIN", 3: "PROBE_RTT", 4: "UP", 5: "DOWN",
             6: "CRUISE", 7: "REFILL"}
BBR2_MODES = {0: "STARTUP", 1: "DRAIN", 3: "PROBE_RTT"}
BBR2_CYCLE = {0: "UP", 1: "DOWN", 2: "CRUISE", 3: "REFILL"}


def bbr1_phase(pacing_gain, cwnd_gain):
    """BBRv1's state from its gains (tcp_bbr.c: STARTUP 2.89, DRAIN 1/2.89,
    PROBE_BW 1.25/0.75/1 with cwnd_gain 2, PROBE_RTT 1 with cwnd_gain 1)."""
    if pacing_gain > 600:
        return "STARTUP"
    if pacing_gain < 128:
        return "DRAIN"
    if cwnd_gain <= 256:
        return "PROBE_RTT"
    return {320: "UP", 192: "DOWN"}.get(int(pacing_gain), "CRUISE")


def parse_ccinfo(path):
    """ccinfo's samples of each flow, numbers as numbers (persec.py's
    reading of them)."""
    return {k: [{kk: (vv if kk in ("t", "cc") else num(vv)) for kk, vv in d.items()}
                for d in v]
            for k, v in flow_samples(path).items()}


def parse_trace(path):
    """bbr2 tracepoint log -> {ports: [(epoch, event, fields)]}"""
    out, off = {}, None
    rx = re.compile(r"\s(\d+\.\d+): (\w+): (.*)$")
    with open(path) as f:
        for line in f:
            m = rx.search(line)
            if not m:
                continue
            ts, ev, rest = float(m.group(1)), m.group(2), m.group(3)
            if ev == "tracing_mark_write":
                e = re.search(r"bench-peers epoch ([\d.]+)", rest)
                if e:
                    off = float(e.group(1)) - ts
                continue
            if off is None:
                continue
            ports, _, rest = rest.partition(" ")
            out.setdefault(ports, []).append((ts + off, ev, rest))
    return out


def bbr2_state_at(events):
    """A function t -> dict of the latest mode/phase/bounds at t."""
    timeline = []
    cur = {}
    for t, ev, rest in events:
        if ev == "bbr2_state":
            m = re.search(r"->(\d+)\.(\d+)", rest)
            if m:
                mode, ph = int(m.group(1)), int(m.group(2))
                cur = dict(cur, phase=BBR2_MODES.get(mode) or BBR2_CYCLE.get(ph, "?"))
        elif ev == "bbr2_bounds":
            m = re.search(r"inflight_hi (\d+) inflight_lo (\d+) bw_lo (\d+)", rest)
            if m:
                hi, lo, bwlo = (int(x) for x in m.groups())
                cur = dict(cur, inflight_hi=-1 if hi >= 0xffffffff else hi,
                           inflight_lo=-1 if lo >= 0xffffffff else lo,
                           bw_lo_kbps=-1 if bwlo >= (1 << 63) else bwlo)
        else:
            continue
        timeline.append((t, cur))

    def at(t):
        last = {}
        for tt, st in timeline:
            if tt > t:
                break
            last = st
        return last
    return at


SERIES_COLS = ["t", "sock", "cc", "phase", "cwnd", "unacked", "rtt_ms",
               "pacing_mbit", "delivery_mbit", "bw_mbit", "pacing_gain",
               "cwnd_gain", "inflight_lo", "inflight_hi", "bw_lo_mbit",
               "bw_hi_mbit", "retrans_total"]


def series_for(run, label, name, spec):
    """Merged state series of one scenario run, or None."""
    base = os.path.join(run["dir"], "bench-peers",
                        "%s-%s" % (name, re.sub(r"[:=,]", "_", spec)))
    if not os.path.exists(base + ".ccinfo"):
        return None
    socks = parse_ccinfo(base + ".ccinfo")
    trace = parse_trace(base + ".trace") if os.path.exists(base + ".trace") else {}
    t0 = min((s[0]["t"] for s in socks.values()), default=0.0)
    rows = []
    for sock, samples in sorted(socks.items()):
        at = bbr2_state_at(trace.get(sock, []))
        for d in samples:
            r = {"t": round(d["t"] - t0, 3), "sock": sock, "cc": d.get("cc"),
                 "cwnd": d.get("cwnd"), "unacked": d.get("unacked"),
                 "rtt_ms": (d.get("rtt_us") or 0) / 1000.0,
                 "pacing_mbit": (d.get("pacing_rate") or 0) * 8e-6,
                 "delivery_mbit": (d.get("delivery_rate") or 0) * 8e-6,
                 "bw_mbit": (d["bw"] * 8e-6) if d.get("bw") is not None else None,
                 "pacing_gain": d.get("pacing_gain"), "cwnd_gain": d.get("cwnd_gain"),
                 "retrans_total": d.get("retrans_total")}
            if d.get("version") is not None:        # BBRv3's 52 bytes
                r["phase"] = V3_PHASES.get(int(d.get("phase") or 0), "?")
                r["inflight_lo"] = d.get("inflight_lo")
                r["inflight_hi"] = d.get("inflight_hi")
                bl, bh = d.get("bw_lo"), d.get("bw_hi")
                r["bw_lo_mbit"] = -1 if bl == -1 else (bl or 0) * 8e-6
                r["bw_hi_mbit"] = -1 if bh == -1 else (bh or 0) * 8e-6
            elif d.get("cc") == "bbr" and d.get("cwnd_gain") is not None:
                r["phase"] = bbr1_phase(d["pacing_gain"], d["cwnd_gain"])
            elif trace:
                st = at(d["t"])
                r["phase"] = st.get("phase")
                r["inflight_lo"] = st.get("inflight_lo")
                r["inflight_hi"] = st.get("inflight_hi")
                kb = st.get("bw_lo_kbps")
                r["bw_lo_mbit"] = None if kb is None else (-1 if kb == -1 else kb / 1000.0)
            rows.append(r)
    return rows


def median_of(rows, key, t_from):
    vals = [r[key] for r in rows if r.get(key) is not None and r[key] != -1
            and r["t"] >= t_from]
    return statistics.median(vals) if vals else None


def probe_rtt(rows):
    """PROBE_RTT episodes (entries) and mean spacing, from the phase column
    of the biggest socket; None when the phase is unknown."""
    if not rows or all(r.get("phase") is None for r in rows):
        return None
    socks = {}
    for r in rows:
        socks.setdefault(r["sock"], []).append(r)
    main = max(socks.values(), key=len)
    starts, prev = [], None
    for r in main:
        inprt = r.get("phase") == "PROBE_RTT"
        if inprt and not prev:
            starts.append(r["t"])
        prev = inprt
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    return {"episodes": len(starts),
            "interval_s": statistics.mean(gaps) if gaps else None}


# ------------------------------------------------------------------ main ---

def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    results = args[0]
    peer_image = args[args.index("--peer") + 1] if "--peer" in args else None
    rows, runs = load(results)
    out = []
    iters = sorted({r["iter"] for r in runs})
    out.append("=" * 78)
    out.append("bbr2 vs Google's BBRv3 (peer kernel) vs bbr (v1) vs cubic: %d iteration(s)"
               % len(iters))
    if peer_image:
        out.append("v3 = `bbr` of the peer kernel %s" % peer_image)
    elif any(r["guest"] == "v3" for r in runs):
        out.append("v3 = `bbr` of the peer kernel (its image not named: --peer)")
    else:
        out.append("V3_KERNEL NOT GIVEN: no v3 column (the rest ran as usual)")
    kernels = sorted({(r["guest"], r["meta"].get("kernel", "?")) for r in runs})
    out.append("kernels: " + ", ".join("%s=%s" % k for k in kernels))
    secs = sorted({r["meta"].get("flow_secs", "20") for r in runs})
    rtts = sorted({r["meta"].get("rtt_ms", "40") for r in runs})
    rates = sorted({r["meta"].get("rate_mbit", "50") for r in runs})
    out.append("%s Mbit/s x %s ms dumbbell (selftests/net/lib.sh), fq at the sender, "
               "%s s flows; mean [min-max] over iterations"
               % ("/".join(rates), "/".join(rtts), "/".join(secs)))

    # emulator capacity per guest run: is the link, not the CPU, the limit?
    bad = unfinished = 0
    caprows = []
    for run in runs:
        m = run["meta"]
        ok = m.get("capacity_before_ok") == "1" and m.get("capacity_after_ok") == "1"
        # a guest that wrote no total did not finish: it crashed or timed out
        done = "secs_total" in m
        bad += done and not ok
        unfinished += not done
        caprows.append(["iter%d" % run["iter"], run["guest"], m.get("kernel", "?"),
                        m.get("capacity_before_mbit", "-"), m.get("capacity_after_mbit", "-"),
                        ("ok" if ok else "FAILED") if done else "unfinished",
                        run.get("vm_secs") or "-", m.get("kernel_log_clean", "-")])
    out.append("")
    rate = float(rates[0]) if len(rates) == 1 else 50.0
    out.append("Emulator capacity (cubic x4 through the %s Mbit/s link, need >= %.3g) and VM time:"
               % ("/".join(rates), 0.85 * rate))
    table(out, ["iter", "guest", "kernel", "before", "after", "capacity", "vm_s", "log_clean"],
          caprows)
    per_iter = {}
    for run in runs:
        if run.get("vm_secs"):
            per_iter[run["iter"]] = per_iter.get(run["iter"], 0) + run["vm_secs"]
    if per_iter:
        out.append("VM time per iteration (boots included): "
                   + ", ".join("%ds" % s for _, s in sorted(per_iter.items())))
    if bad:
        out.append("WARNING: the capacity check failed in %d guest run(s): the host was busy, "
                   "those numbers are suspect; rerun on a quiet host." % bad)
    if unfinished:
        out.append("WARNING: %d guest run(s) did not finish (a crash or the timeout: see "
                   "their console.log); their scenarios are missing from the tables." % unfinished)

    # the peer's v3, then bbr2_ref (the module's Google's model exactly,
    # the reference for every bbr2 variant), then the rest as they came
    order = []
    if any(r["cc"] == PEER for r in rows):
        order.append(PEER)
    for r in sorted(rows, key=lambda r: r["cc"].split(":")[0] != REF):
        if r["cc"] not in order:
            order.append(r["cc"])
    bbr2s = [c for c in order if c.split(":")[0] in ("bbr2", REF)]

    summary = {"iterations": iters, "peer": peer_image, "capacity_failures": bad,
               "vm_secs_per_iteration": per_iter, "scenarios": {}}
    for sc, title, judged, higher, others in SCENARIOS:
        data = {}
        for r in rows:
            if r["scenario"] != sc.split(":")[0]:
                continue
            v = num(r["value"])
            if v is not None:
                data.setdefault((r["cc"], r["metric"]), []).append(v)
        if not data:
            continue
        st = {k: stats(v) for k, v in data.items()}
        out.append("")
        out.append("%s: %s (%s %s better)" % (sc, title, judged,
                                              "higher" if higher else "lower"))
        head = ["cc", judged + " " + ("↑" if higher else "↓")] + others + ["x/v3", "verdict"]
        trows = []
        v3s = st.get((PEER, judged))
        for cc in order:
            s = st.get((cc, judged))
            if not s and not any((cc, o) in st for o in others):
                continue
            ratio = "-"
            if s and v3s and v3s["mean"]:
                ratio = "%.2f" % (s["mean"] / v3s["mean"])
            vd = verdict(s, v3s, higher) if cc in bbr2s else ""
            if cc in bbr2s and not v3s:
                vd = "- (no v3)"
            trows.append([cc, cell(s)] + [cell(st.get((cc, o))) for o in others]
                         + [ratio, vd])
        table(out, head, trows)
        summary["scenarios"][sc] = {
            "title": title, "judged": judged, "higher_is_better": higher,
            "stats": {"%s/%s" % k: v for k, v in st.items()},
            "verdicts": {cc: verdict(st.get((cc, judged)), v3s, higher)
                         for cc in bbr2s if v3s}}

    # state series (evidence for the deep-buffer / late-flow analysis)
    sdir = os.path.join(results, "series")
    os.makedirs(sdir, exist_ok=True)
    srows = []
    prt_rows = []
    for run in runs:
        specs = sorted({r["spec"] for r in rows
                        if r["iter"] == run["iter"] and r["guest"] == run["guest"]})
        for name in ("deep16", "late2"):
            for spec in specs:
                ser = series_for(run, label_of(run["guest"], spec), name, spec)
                if not ser:
                    continue
                label = label_of(run["guest"], spec)
                fn = os.path.join(sdir, "%s-iter%d-%s.csv"
                                  % (name, run["iter"], re.sub(r"[:=,]", "_", label)))
                with open(fn, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=SERIES_COLS, extrasaction="ignore")
                    w.writeheader()
                    w.writerows({k: round(v, 3) if isinstance(v, float) else v
                                 for k, v in r.items()} for r in ser)
                if name != "deep16":
                    continue
                phases = [r.get("phase") for r in ser if r["t"] >= 5 and r.get("phase")]
                frac = lambda p: ("%.0f%%" % (100.0 * phases.count(p) / len(phases))) if phases else "-"
                srows.append(["iter%d" % run["iter"], label,
                              fmt(median_of(ser, "cwnd", 5)), fmt(median_of(ser, "unacked", 5)),
                              fmt(median_of(ser, "rtt_ms", 5)), fmt(median_of(ser, "bw_mbit", 5)),
                              fmt(median_of(ser, "inflight_hi", 5)), fmt(median_of(ser, "inflight_lo", 5)),
                              frac("UP"), frac("DOWN"), frac("CRUISE"), frac("REFILL"),
                              frac("PROBE_RTT")])
                p = probe_rtt(ser)
                if p is not None:
                    prt_rows.append(["iter%d" % run["iter"], label, p["episodes"],
                                     fmt(p["interval_s"])])
    if srows:
        out.append("")
        out.append("deep16 state, medians from 5 s on (TCP_INFO, TCP_CC_INFO; bbr2's bounds "
                   "and phases from its tracepoints; -1/- = unbounded or unknown):")
        table(out, ["iter", "cc", "cwnd", "inflight", "srtt_ms", "bw_mbit", "infl_hi",
                    "infl_lo", "UP", "DOWN", "CRUISE", "REFILL", "PRTT"], srows)
        out.append("time series: %s/{deep16,late2}-iterN-CC.csv" % sdir)
    if prt_rows:
        out.append("")
        out.append("PROBE_RTT during the 20-s deep16 flow (entries, mean spacing s):")
        table(out, ["iter", "cc", "episodes", "interval_s"], prt_rows)

    with open(os.path.join(results, "raw.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["iter", "guest", "kernel", "cc", "spec",
                                          "scenario", "metric", "value"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(results, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    print("\n".join(out))


if __name__ == "__main__":
    main()
