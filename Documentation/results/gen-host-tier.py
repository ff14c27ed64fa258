#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write Documentation/results/host-tier.rst from the raw data beside it
(host-tier/runs.jsonl, sim.jsonl, meta.json: selftests/hostbench/host-bench.sh
with PROFILE=full, which `make host-bench OUT=Documentation/results/host-tier`
runs).  --check: fail if the page differs from what the data gives.
gen-host-tier.py [--check] [RAW_DIR]: another raw directory D gives D.rst.
"""
import json
import pathlib
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent
RAW = HERE / "host-tier"
PAGE = HERE / "host-tier.rst"

SCENARIOS = [
    ("loss0", "no loss, 1 BDP buffer, 1 flow"),
    ("loss0.1", "0.1 % random loss, 1 BDP buffer, 1 flow"),
    ("loss1", "1 % random loss, 1 BDP buffer, 1 flow"),
    ("flows16", "16 flows, shallow buffer (0.1 BDP)"),
    ("deep", "deep buffer (4 BDP), 1 flow"),
    ("late", "2 flows, the second 5 s late (2 BDP)"),
    ("vscubic", "1 flow against 1 cubic flow (1 BDP)"),
]
# the metric each scenario is about, besides goodput
METRICS = {
    "loss0": ["goodput_mbps", "retrans_pct", "qdelay_ms"],
    "loss0.1": ["goodput_mbps", "retrans_pct"],
    "loss1": ["goodput_mbps", "retrans_pct"],
    "flows16": ["goodput_mbps", "retrans_pct", "qdelay_ms"],
    "deep": ["goodput_mbps", "qdelay_ms"],
    "late": ["goodput_mbps", "jain"],
    "vscubic": ["share", "goodput_mbps"],
}
LABEL = {"goodput_mbps": "goodput Mbit/s", "retrans_pct": "retransmits %",
         "qdelay_ms": "queueing delay ms", "jain": "Jain's index", "share": "share of the link"}
# the simulator is judged within the host's min..max widened by this floor
FLOOR = {"goodput_mbps": 0.02, "retrans_pct": 0.1, "qdelay_ms": 2.0, "jain": 0.02,
         "share": 0.03}
FLOOR_REL = {"goodput_mbps"}

# Gaps the simulator does not close, each with its reason: (scenario, cc,
# metric) -> why.  Filled in from the data of the committed run.
GAPS = {}


def load(name):
    with open(RAW / name) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def stats(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    return statistics.mean(xs), min(xs), max(xs), len(xs)


def fmt(v, metric):
    if v is None:
        return "-"
    if metric in ("jain", "share"):
        return "%.2f" % v
    if metric == "goodput_mbps":
        return "%.0f" % v
    return "%.2f" % v if abs(v) < 10 else "%.1f" % v


def cell(s, metric):
    if s is None:
        return "-"
    m, lo, hi, _ = s
    return "%s [%s-%s]" % (fmt(m, metric), fmt(lo, metric), fmt(hi, metric))


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = " ".join("=" * w for w in widths)
    out = [line, " ".join(str(h).ljust(w) for h, w in zip(header, widths)).rstrip(), line]
    for r in rows:
        out.append(" ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    out.append(line)
    return "\n".join(out)


def pick(rs, sc, cc, path):
    """The runs of scenario sc and CC cc (for capacity, of that rate, RTT)."""
    return [r for r in rs if r["scenario"] == sc and r["cc"] == cc and
            (path is None or (r["rate_bps"], r["rtt_ms"]) == path)]


def within(host, v, metric, ceiling=0.0):
    m, lo, hi, _ = host
    slack = FLOOR[metric] * abs(m) if metric in FLOOR_REL else FLOOR[metric]
    if metric == "goodput_mbps":
        # a CC carrying next to nothing is measured no finer on a host
        # than 1 % of the bottleneck (the drift test's floor too)
        slack = max(slack, 0.01 * ceiling)
    return lo - slack <= v <= hi + slack


def mib(r, key, side="snd"):
    return (r.get("mib") or {}).get(side, {}).get(key)


def sst(r, key):
    return (r.get("ss") or {}).get(key)


def hystart_cwnd(r):
    n = (mib(r, "TcpExtTCPHystartTrainDetect") or 0) + (mib(r, "TcpExtTCPHystartDelayDetect") or 0)
    if not n:
        return None
    return ((mib(r, "TcpExtTCPHystartTrainCwnd") or 0) +
            (mib(r, "TcpExtTCPHystartDelayCwnd") or 0)) / n


def evidence(hr, sr):
    """What the host's stacks and the simulator did in a scenario, from the
    runs' counters: means over the runs (None where not measured)."""
    def ratio(rs):
        xs = [r["retrans_pct"] / r["drops_pct"] for r in rs
              if r.get("drops_pct") and r.get("retrans_pct") is not None]
        return statistics.mean(xs) if xs else None
    return {
        "drops": mean_of(hr, lambda r: r.get("drops_pct")),
        "sim_drops": mean_of(sr, lambda r: r.get("drops_pct")),
        "per_drop": ratio(hr), "sim_per_drop": ratio(sr),
        "rtos": mean_of(hr, lambda r: mib(r, "TcpExtTCPTimeouts")),
        "rtos_max": max([mib(r, "TcpExtTCPTimeouts") or 0 for r in hr] or [0]),
        "sim_rtos": mean_of(sr, lambda r: r.get("rtos")),
        "tlps": mean_of(hr, lambda r: mib(r, "TcpExtTCPLossProbes")),
        "dsacks": mean_of(hr, lambda r: mib(r, "TcpExtTCPDSACKRecv")),
        "rwnd": mean_of(hr, lambda r: sst(r, "rwnd_limited_pct")),
        "rwnd_ms": mean_of(hr, lambda r: sst(r, "rwnd_limited_ms")),
        "rtt_ms": hr[0]["rtt_ms"],
        "sndbuf": mean_of(hr, lambda r: sst(r, "sndbuf_limited_pct")),
        "ofo_drop": mean_of(hr, lambda r: (mib(r, "TcpExtTCPOFODrop", "rcv") or 0) +
                            (mib(r, "TcpExtTCPRcvQDrop", "rcv") or 0) +
                            (mib(r, "TcpExtOfoPruned", "rcv") or 0)),
        "acks": sr[0].get("ack_every") if sr else None,
        "ack_comp": mean_of(hr, lambda r: mib(r, "TcpExtTCPAckCompressed", "rcv")),
        "cwnd": mean_of(hr, lambda r: r.get("cwnd_pkts")),
        # cubic's HyStart: the window at which it left slow start (packets)
        "hystart": mean_of(hr, lambda r: hystart_cwnd(r)),
        "holds": (hr[0]["rate_bps"] * hr[0]["rtt_ms"] / 8e3 + hr[0]["buf_bytes"]) / (1448 + 66),
        "sim_cwnd": mean_of(sr, lambda r: r.get("cwnd_pkts")),
    }


RWND_PCT = 5.0   # limited by the send buffer this much of its busy time
RWND_RTTS = 2    # limited by the receiver's window this many round trips


def explain_model(sc, metric, hr, host, sim, ev):
    """A gap the host's counters explain by what the simulator does not
    model: (category, note) or None."""
    if metric in ("goodput_mbps", "qdelay_ms") and sim[0] > host[2]:
        if ev["rwnd_ms"] is not None and ev["rwnd_ms"] >= RWND_RTTS * ev["rtt_ms"]:
            return "rwnd", ("the host's sender was held back by the receiver's window for %.0f"
                            " ms a flow (ss rwnd_limited, mean over the runs), %.1f round"
                            " trips, which the simulator, with no receive window, never is"
                            " (see below)%s" % (ev["rwnd_ms"], ev["rwnd_ms"] / ev["rtt_ms"],
                                                ": a sender held back keeps less in the queue"
                                                if metric == "qdelay_ms" else ""))
        if metric == "goodput_mbps" and ev["sndbuf"] is not None and \
                ev["sndbuf"] >= RWND_PCT:
            return "sndbuf", ("the host's senders were limited by their send buffer %.0f %% of"
                              " their busy time (ss sndbuf_limited); the simulator's senders"
                              " always have data" % ev["sndbuf"])
    return None


def locate(metric, host, sim, ev):
    """Where an open gap lies, from the counters, or None."""
    if metric == "retrans_pct" and ev["per_drop"] and ev["sim_per_drop"] and \
            abs(ev["per_drop"] - 1) < 0.1 and abs(ev["sim_per_drop"] - 1) < 0.1 and \
            ev["drops"] is not None and ev["sim_drops"] is not None:
        return ("host and simulator retransmit what the path dropped (%.2f and %.2f"
                " retransmits per drop); the path dropped %.2f %% of the host's segments and"
                " %.2f %% of the simulator's: the gap is in how far the senders overran"
                " the buffer, not in loss recovery%s" %
                (ev["per_drop"], ev["sim_per_drop"], ev["drops"], ev["sim_drops"],
                 "; the host's cubic left slow start (HyStart) at a window of %.0f packets,"
                 " more than the %.0f the path holds (its bandwidth-delay product and"
                 " buffer)" % (ev["hystart"], ev["holds"])
                 if ev["hystart"] and ev["hystart"] > ev["holds"] else ""))
    if metric in ("share", "jain") and ev["cwnd"] and \
            ev["sim_cwnd"] and abs(ev["cwnd"] - ev["sim_cwnd"]) > 0.15 * ev["sim_cwnd"]:
        return ("the CC's congestion window over the window was %.0f packets on the host"
                " and %.0f in the simulator (median, first flow): the two settle at"
                " different bounds" % (ev["cwnd"], ev["sim_cwnd"]))
    if metric == "goodput_mbps" and ev["rtos"] is not None and ev["sim_rtos"] is not None \
            and ev["rtos"] >= 1 and ev["rtos"] > ev["sim_rtos"] + 0.5:
        return ("the host's senders took %.1f retransmission timeouts a run (up to %d;"
                " TcpExtTCPTimeouts), the simulator's %.1f" %
                (ev["rtos"], ev["rtos_max"], ev["sim_rtos"]))
    return None


def explain(sc, metric, hr, host, sim):
    """Why a simulator value outside the host's spread is not a gap in the
    model, measured from the host runs' raw data: (category, note) or None.

    count: retransmits under random loss are a count of random events; over
    the segments a run sends, their share varies by sqrt(p (1 - p) / n),
    which a few host runs do not span."""
    r0 = hr[0]
    if metric == "retrans_pct" and r0["loss_pct"] > 0:
        n = statistics.mean(r["goodput_mbps"] for r in hr) * 1e6 * r0["secs"] / 8 / 1448
        p = r0["loss_pct"] / 100
        sd = 100 * (p * (1 - p) / n) ** 0.5 if n >= 1 else 100.0
        if abs(sim[0] - host[0]) <= 3 * sd + FLOOR[metric]:
            return "count", ("%g %% random loss over ~%.0f segments a run: the share retransmitted"
                             " varies by +-%.2f points (one standard deviation); the simulator's"
                             " %.2f lies within 3 of them of the host's mean %.2f" %
                             (r0["loss_pct"], n, sd, sim[0], host[0]))
    return None


# a goodput over the bottleneck's ceiling is a measurement error: the
# path's own count of what it delivered never exceeds its rate over a
# window of seconds by more than a few late releases bunched together
CEILING_SLACK = 0.005


def check_physical(runs):
    for r in runs:
        if r.get("behind") or r.get("error") or r["scenario"] == "capacity" and r.get("ladder"):
            continue
        if r["goodput_mbps"] > r["ceiling_mbps"] * (1 + CEILING_SLACK):
            sys.exit("%s%s %s iteration %d: goodput %.1f Mbit/s above the bottleneck's"
                     " ceiling %.1f: a measurement error" % (
                         "simulator: " if r.get("where") == "sim" else "", r["scenario"],
                         r["cc"], r["iter"], r["goodput_mbps"], r["ceiling_mbps"]))


def mean_of(rs, get):
    xs = [get(r) for r in rs]
    xs = [x for x in xs if x is not None]
    return statistics.mean(xs) if xs else None


def render():
    meta = json.loads((RAW / "meta.json").read_text())
    runs = load("runs.jsonl")
    sims = load("sim.jsonl") if (RAW / "sim.jsonl").exists() else []
    check_physical(runs + sims)
    smeta = json.loads((RAW / "sim-meta.json").read_text()) \
        if (RAW / "sim-meta.json").exists() else None
    ccs = meta["ccs"]
    # the ladder: a run of its own (host-tier/ladder/), the capacity points
    # and what the scenarios did at the largest one cubic filled
    ladder = load("ladder/runs.jsonl") if (RAW / "ladder" / "runs.jsonl").exists() else []
    for r in ladder:
        r["ladder"] = True
    cap = [r for r in ladder + runs if r["scenario"] == "capacity"]
    tried = [r for r in ladder if r["scenario"] != "capacity"]
    # a run in which the emulator fell behind its schedule proves nothing
    # about the path: it is counted, and left out of every number
    rejected = [r for r in runs if r["scenario"] != "capacity" and r.get("behind")]
    scen = [r for r in runs if r["scenario"] != "capacity" and not r.get("behind")]
    runs = cap + scen
    scale = (scen[0]["rate"], scen[0]["rtt_ms"]) if scen else None
    out = []
    w = out.append

    w("=================================================")
    w("Host tier: bbr2_bpf on a real kernel at real RTTs")
    w("=================================================")
    w("")
    w(".. This page is generated by Documentation/results/gen-host-tier.py from")
    w("   the raw data in Documentation/results/host-tier/; do not edit it.")
    w("")
    w("bbr2_bpf (the BPF struct_ops build of ``src/``) on the host's own kernel,")
    w("beside that kernel's ``bbr`` (BBRv1) and ``cubic``, over a path emulated in")
    w("userspace by ``tools/pathemu``: the sender's namespace hands 64 KB GSO frames")
    w("to a TUN device; pathemu loses segments at random (per MSS, cutting a frame")
    w("around a lost segment), queues them in a drop-tail buffer of a fixed number of")
    w("bytes in front of a link of fixed rate, delays them by the round-trip time and")
    w("writes them into the receiver's namespace; ACKs return at once.  The CCs are")
    w("selected per socket inside the two namespaces only.")
    w("")
    w("Google's BBRv3 cannot run here: it is a kernel of its own, and this host runs")
    w("its own kernel, which does not load modules.  This tier's claims compare")
    w("bbr2_bpf with the kernel's bbr and cubic only; the comparison with v3 is the")
    w("VM tier's (``make vm-bench-peers``).")
    w("")
    w("Run")
    w("===")
    w("")
    for k, v in (("command", "``%s``" % meta["command"]), ("commit", meta["commit"]),
                 ("kernel", meta["kernel"]), ("host", meta["host"]), ("date", meta["date"]),
                 ("iperf3", meta.get("iperf3", "-")), ("iterations", str(meta["iterations"]))):
        w(":%s: %s" % (k, v))
    if meta.get("shards", 1) > 1:
        w(":shards: %d, one iteration each, from %s (``hbtool.py merge``)" %
          (meta["shards"], meta["started"]))
    if smeta:
        w(":simulator: commit %s, %s (``%s``)" % (smeta["commit"], smeta["date"],
                                                  smeta["command"]))
    w("")
    done = {cc: min([len({r["iter"] for r in scen if r["cc"] == cc and r["scenario"] == sc})
                     for sc in {r["scenario"] for r in scen if r["cc"] == cc}] or [0])
            for cc in ccs}
    w("Iterations with every scenario measured, per CC: %s.  Scenario runs:"
      " %d kept, %d rejected (the emulator behind its schedule: run again)." %
      (", ".join("%s %d" % kv for kv in done.items()), len(scen), len(rejected)))
    w("")
    w("Every number below is the mean over the iterations, with the smallest and")
    w("largest in brackets; the simulator ran each scenario with random-loss seeds")
    w("1 to %d." % meta["iterations"])
    w("")

    w("The path's capacity")
    w("===================")
    w("")
    lim = next((r for r in cap if not r.get("ladder")), cap[0] if cap else {})
    qlen = next((r["tun_txqlen"] for r in runs if r.get("tun_txqlen")), None)
    w("One cubic flow through a buffer of one bandwidth-delay product, rate x RTT")
    w("rising until cubic no longer fills >= 90 % of the bottleneck (the goodput its")
    w("wire bytes leave room for: 1448 of every 1514 bytes) or the emulator falls")
    w("behind its schedule.  The emulator is out of the way when at most %g %% of"
      % (100 * lim.get("late_limit", 0.01)))
    w("its frame releases come more than 1 ms after their schedule, none more than")
    w("%g ms, and nothing is dropped in front of it: the TUN devices' and their"
      % lim.get("max_late_limit_ms", 20))
    w("qdiscs' drop counters, read while the emulator is attached, do not move.")
    if qlen:
        w("Each TUN device queues up to %d frames for the emulator to read (the" % qlen)
        w("kernel's default is 500), so that what the senders hand over while the")
        w("emulator is busy releasing waits instead of being dropped, and the emulated")
        w("buffer is the only queue that drops.  How long frames waited there is")
        w("measured too (\"wait before it\": the time the emulator read a frame less")
        w("the TCP timestamp its sender stamped, in whole ms, so high by up to 1 ms;")
        w("\"> 1 ms\": the share of frames that certainly waited longer).")
    w("Every scenario run below is held to the same test: one that breaks it is")
    w("run again (up to 3 times in all) and left out of every number.  The")
    w("emulator runs real-time (FIFO), pinned to one CPU.  Its CPU time, the")
    w("fraction of the wall clock it was busy, the link's busy fraction while the")
    w("flow ran and the queue's mean occupancy show that the bottleneck, not the")
    w("emulator, set the rate.  A point is tried up to 3 times; each attempt is a")
    w("row.  This run checks its point again before each iteration.")
    w("")

    def cap_row(r):
        bdp = r["rate_bps"] * r["rtt_ms"] / 8e9
        ok = r.get("capacity_ok")
        return ["%s x %g ms" % (r["rate"], r["rtt_ms"]) +
                (" (%d)" % r["attempt"] if r.get("attempt", 1) > 1 else ""), "%.1f" % bdp,
                "%.0f / %.0f" % (r["goodput_mbps"], r["ceiling_mbps"]),
                "%.2f s (%.0f %%)" % (r["emu_cpu_s"], 100 * r["emu_cpu_frac"]),
                "%.0f %%" % (100 * r["emu_busy_frac"]),
                "%.2f %%" % (100 * r["late_frac"]), "%.1f" % r["max_late_ms"],
                "%d" % r.get("tun_drops", 0),
                "%.0f %%" % (100 * r["link_util"]),
                "%.1f" % (r["mean_backlog"] / 1e6),
                ("cubic only" if tried and r.get("ladder") and
                 (r["rate"], r["rtt_ms"]) == (tried[0]["rate"], tried[0]["rtt_ms"])
                 else "yes") if ok else "no"]
    head = ["path", "BDP MB", "cubic / ceiling Mbit/s", "emulator CPU", "busy",
            "late > 1 ms", "max late ms", "drops before it", "link busy", "mean queue MB",
            "carried"]
    best = None
    rows = []
    for r in cap:
        if r.get("ladder"):
            continue
        if r.get("capacity_ok"):
            best = r
        rows.append(cap_row(r) + ["%.2f %%" % (100 * r["tunwait_frac"])
                                  if "tunwait_frac" in r else "-",
                                  "%d" % r["tunwait_max_ms"] if "tunwait_max_ms" in r else "-"])
    w(table(head + ["wait before it > 1 ms", "max wait before it ms"], rows))
    w("")
    if (RAW / "ladder" / "meta.json").exists():
        lm = json.loads((RAW / "ladder" / "meta.json").read_text())
        w("The ladder that chose this point is a run of its own (``host-tier/ladder/``,")
        w("commit %s, %s), which went on to the scenarios at the largest point cubic"
          % (lm["commit"], lm["date"]))
        w("filled:")
        w("")
        w(table(head, [cap_row(r) for r in cap if r.get("ladder")]))
        w("")
    if tried:
        t0 = tried[0]
        kept = [r for r in tried if not r.get("behind")]
        drops = [r.get("tun_drops", 0) for r in tried]
        w("At %s x %g ms the ladder's scenario runs (CCs %s, one iteration, stopped"
          " there) broke the test in %d of %d runs: %d to %d frames dropped in front of the"
          " emulator, up to %.1f %% of releases later than 1 ms, up to %.0f ms late: there"
          " the emulator did not read the senders' frames as fast as they came, which"
          " cubic's capacity run did not show.  That point is not carried (\"cubic"
          " only\" above)." %
          (t0["rate"], t0["rtt_ms"], ", ".join(sorted({r["cc"] for r in tried})),
           len(tried) - len(kept), len(tried), min(drops), max(drops),
           100 * max(r["late_frac"] for r in tried), max(r["max_late_ms"] for r in tried)))
        w("")
    if best:
        w("**Largest rate x RTT carried: %s x %g ms** (a bandwidth-delay product of"
          " %.1f MB), every scenario below held to the same test." %
          (best["rate"], best["rtt_ms"], best["rate_bps"] * best["rtt_ms"] / 8e9))
    w("")

    if scale:
        w("Scenarios at %s x %g ms" % scale)
        w("=" * len("Scenarios at %s x %g ms" % scale))
        w("")
        w("``bbr2_bpf`` is bbr2_bpf running BBRv3's model (``version=3``,")
        w("``loss_mode=0``); ``bbr2_bpf-v2`` the same with ``version=2`` (BBRv2),")
        w("``bbr2_bpf-lm`` with ``loss_mode=1``.  Goodput is what the path delivered, over each run's")
        w("window (its first seconds left out): pathemu counts, per flow, the payload")
        w("bytes it delivers to the receiver that it had not delivered before (a")
        w("retransmission into a gap counts, a duplicate does not).  The receiving")
        w("application's reads are no measure of it over a window: after a loss the")
        w("receiver holds what follows the gap until the retransmission fills it and")
        w("then hands it over at once, so a window that starts just after a loss")
        w("would count data that crossed the path before it.  Queueing delay is the")
        w("sender's median smoothed RTT minus the path's RTT; retransmits in % of")
        w("segments sent; \"late\": Jain's index of the two flows over the last 10 s;")
        w("\"vscubic\": the CC's share of what both flows carried.")
        w("")
        over = {}
        for r in scen:
            if r.get("app_goodput_mbps", 0) > r["ceiling_mbps"] * (1 + CEILING_SLACK):
                over.setdefault((r["scenario"], r["cc"]), []).append(r)
        if over:
            w("Counted by the application's reads, these runs would have carried more than")
            w("the bottleneck's ceiling of %.0f Mbit/s: %s." % (
                scen[0]["ceiling_mbps"], "; ".join(
                    "%s %s %s (the path: %s)" % (
                        sc, cc, cell(stats([r["app_goodput_mbps"] for r in rs]), "goodput_mbps"),
                        cell(stats([r["goodput_mbps"] for r in rs]), "goodput_mbps"))
                    for (sc, cc), rs in sorted(over.items()))))
            w("")
        for sc, title in SCENARIOS:
            rs = [r for r in scen if r["scenario"] == sc]
            if not rs:
                continue
            r0 = rs[0]
            head = "%s: %s, %g s (window from %g s)" % (sc, title, r0["secs"], r0["skip"])
            w(head)
            w("-" * len(head))
            w("")
            rows = []
            for cc in ccs:
                cr = [r for r in rs if r["cc"] == cc]
                if not cr:
                    continue
                row = [cc]
                for m in METRICS[sc]:
                    row.append(cell(stats([r.get(m) for r in cr]), m))
                row.append("%.0f %%" % (100 * max(r.get("emu_busy_frac", 0) for r in cr)))
                row.append("%.2f %%" % (100 * max(r.get("late_frac", 0) for r in cr)))
                row.append("%.1f" % max(r.get("max_late_ms", 0) for r in cr))
                wt = [r["tunwait_max_ms"] for r in cr if "tunwait_max_ms" in r]
                row.append("%d" % max(wt) if wt else "-")
                nrej = sum(1 for r in rejected if r["scenario"] == sc and r["cc"] == cc)
                row.append("%d (%d)" % (len(cr), nrej))
                rows.append(row)
            w(table(["CC"] + [LABEL[m] for m in METRICS[sc]] +
                    ["emulator busy (max)", "late > 1 ms (max)", "max late ms",
                     "max wait before it ms", "runs (rejected)"], rows))
            w("")

    if sims:
        w("The simulator beside it")
        w("=======================")
        w("")
        w("The same scenarios in the simulator (``selftests/model`` linksim_run, frame")
        w("mode, 64 KB frames, no fq: BBR paces itself, as on this host), with the")
        w("path's rate, RTT, buffer bytes, loss and durations.  A simulator value")
        w("counts as within the host's spread when it lies between the host runs'")
        w("smallest and largest value, widened by a floor (2 % of goodput, 0.1 point")
        w("of retransmits, 2 ms of delay, 0.02 of Jain's index, 0.03 of share; for")
        w("goodput at least 1 % of the bottleneck).  The simulator's receiver ACKs")
        w("every N frames, N the host receiver's own ratio in that scenario (data")
        w("frames per ACK through the emulator, rounded; GRO and delayed ACKs make it")
        w("1 to 3).")
        w("")
        w("\"with jitter\": the simulator again with the path's own timing noise")
        w("modelled.  On two cores shared by both TCP stacks and the emulator, pathemu")
        w("releases some frames late (the \"late\" columns above), and then several")
        w("at once; the ACKs come back in bursts, which a BBR sender answers with")
        w("more data in flight (its allowance for ACK aggregation) and so a standing")
        w("queue.  The simulator's ``link_late_us=1000`` makes the bottleneck's")
        w("departures up to 1 ms late, in bursts, the same way.  A gap marked")
        w("\"jitter\" is outside the host's spread with the exact link and inside it")
        w("with the jitter modelled: the host's timing noise explains it, measured.")
        w("")
        rows = []
        notes = []
        opened = []
        opennotes = []
        evrows = []
        paths = sorted({(r["rate_bps"], r["rtt_ms"]) for r in cap})
        groups = [(sc, cc, None) for sc, _ in SCENARIOS for cc in ccs] + \
            [("capacity", "cubic", p) for p in paths]
        for sc, cc, path in groups:
            hr = [r for r in pick(runs, sc, cc, path) if not r.get("behind")]
            sim_all = pick(sims, sc, cc, path)
            sr = [r for r in sim_all if not r.get("jitter_us")]
            jr = [r for r in sim_all if r.get("jitter_us")]
            name = sc if path is None else "%s %s x %g ms" % (sc, hr[0]["rate"] if hr
                                                               else "?", path[1])
            if not hr or not sr:
                continue
            for m in METRICS.get(sc, ["goodput_mbps"]):
                h = stats([r.get(m) for r in hr])
                s = stats([r.get(m) for r in sr])
                if h is None or s is None:
                    continue
                j = stats([r.get(m) for r in jr])
                ceil = hr[0]["ceiling_mbps"]
                verdict = "within" if within(h, s[0], m, ceil) else "outside"
                why = GAPS.get((sc, cc, m))
                ev = evidence(hr, sr)
                ex = None
                if verdict == "outside":
                    ex = explain(sc, m, hr, h, s) or explain_model(sc, m, hr, h, s, ev)
                if verdict == "outside":
                    if j is not None and within(h, j[0], m, ceil):
                        verdict = "jitter"
                    elif ex:
                        notes.append("%s, %s, %s: %s." % (name, cc, LABEL[m], ex[1]))
                        verdict = "%s [%d]" % (ex[0], len(notes))
                    elif why:
                        notes.append(why)
                        verdict = "explained [%d]" % len(notes)
                    else:
                        verdict = "outside, open"
                        opened.append("%s %s %s" % (name, cc, LABEL[m]))
                        loc = locate(m, h, s, ev)
                        if loc:
                            opennotes.append("%s, %s, %s: %s." % (name, cc, LABEL[m], loc))
                            verdict = "open [%s]" % chr(ord("a") + len(opennotes) - 1)
                rows.append([name, cc, LABEL[m], cell(h, m), cell(s, m), cell(j, m),
                             verdict])
        w(table(["scenario", "CC", "metric", "host", "simulator", "with jitter", "gap"],
                rows))
        w("")
        verdicts = [r[-1] for r in rows]
        n_in = verdicts.count("within")
        n_jit = verdicts.count("jitter")
        n_open = len(opened)
        for sc, cc, path in groups:
            if path is not None:
                continue
            hr = [r for r in pick(runs, sc, cc, None) if not r.get("behind")]
            sr = [r for r in pick(sims, sc, cc, None) if not r.get("jitter_us")]
            if not hr or not sr:
                continue
            ev = evidence(hr, sr)

            def f(v, spec="%.2f"):
                return "-" if v is None else spec % v
            evrows.append([sc, cc, "%s / %s" % (f(ev["drops"]), f(ev["sim_drops"])),
                           "%s / %s" % (f(ev["per_drop"]), f(ev["sim_per_drop"])),
                           "%s / %s" % (f(ev["rtos"], "%.1f"), f(ev["sim_rtos"], "%.1f")),
                           f(ev["tlps"], "%.0f"), f(ev["dsacks"], "%.0f"),
                           f(ev["rwnd_ms"], "%.0f"), f(ev["sndbuf"], "%.1f"),
                           f(ev["ofo_drop"], "%.0f"), f(ev["ack_comp"], "%.0f"),
                           f(ev["acks"], "%d"),
                           "%s / %s" % (f(ev["cwnd"], "%.0f"), f(ev["sim_cwnd"], "%.0f"))])
        w("Of %d comparisons, %d are within the host's spread, %d within it once the"
          " path's jitter is modelled, %d explained below by what the host's raw data"
          " shows and %d open: outside the host's spread and not explained; they are"
          " what the simulator does not yet capture of a real kernel at this scale%s%s" %
          (len(rows), n_in, n_jit, len(verdicts) - n_in - n_jit - n_open, n_open,
           ": " + "; ".join(opened) + "." if opened else ".",
           "  For %d of them the host's counters say where the two part (the lettered"
           " notes)." % len(opennotes) if opennotes else ""))
        w("")
        for i, n in enumerate(notes, 1):
            w("%d. %s" % (i, n))
        if notes:
            w("")
        if any(n for n in notes if "receiver's window" in n):
            def rw(sc, key):
                return mean_of([r for r in runs if r["scenario"] == sc and r["cc"] == ccs[0]
                                and not r.get("behind")], lambda r: sst(r, key))
            pts = [(sc, rw(sc, "rwnd_limited_ms"), rw(sc, "rwnd_limited_ms_2s"))
                   for sc in ("loss0", "loss0.1", "loss1")]
            if all(p[1] is not None for p in pts):
                w("The receiver's window.  The host's receiver offers a window that starts")
                w("at 64 KB and grows with what the application has read (``tcp_rmem``'s")
                w("autotuning).  Data beyond a lost segment waits in the out-of-order queue,")
                w("taking room in the receive buffer, and the application reads nothing past")
                w("the gap, so under loss the window trails the sender: %s's flow was held"
                  % ccs[0])
                w("back by it for %.0f ms without loss, %.0f ms at 0.1 %% loss and %.0f ms at"
                  " 1 %% (of which %.0f, %.0f and %.0f ms in its first two seconds; ss" %
                  (pts[0][1], pts[1][1], pts[2][1], pts[0][2], pts[1][2], pts[2][2]))
                w("rwnd_limited, mean over the runs).  A BBR sender held back so")
                w("measures a lower bandwidth and carries less until it probes its way back")
                w("up; the simulator's receiver has no window, and its sender never waits")
                w("for one.")
                w("")
        for i, n in enumerate(opennotes):
            w("%s. %s" % (chr(ord("a") + i), n))
        if opennotes:
            w("")
        if evrows:
            w("What the host's stacks did")
            w("--------------------------")
            w("")
            w("The evidence behind the notes, per scenario and CC, means over the kept")
            w("runs (host / simulator where both are measured): the segments the path")
            w("dropped (random loss and the full buffer) in % of those the senders handed")
            w("it, retransmitted segments per dropped one, retransmission timeouts a run")
            w("(the senders' TcpExtTCPTimeouts), tail loss probes and DSACKs a run, the")
            w("time a flow was limited by the receiver's window and the share of its")
            w("busy time limited by its send buffer (``ss -ti``: rwnd_limited,")
            w("sndbuf_limited, mean over the data flows), segments the")
            w("receiver dropped for want of memory (TCPOFODrop, TCPRcvQDrop, OfoPruned),")
            w("the ACKs the host receiver held back while it had a hole to report")
            w("(SACK compression, TCPAckCompressed: at most one SACK per ms while data")
            w("arrives out of order, which the simulator does not model), the host")
            w("receiver's data frames per ACK over the run, which the simulator's")
            w("receiver copies for every frame, and the CC's congestion window in")
            w("packets (median over the window, the first flow).")
            w("")
            w(table(["scenario", "CC", "dropped %", "retransmits per drop", "RTOs",
                     "TLPs", "DSACKs", "rwnd-limited ms", "sndbuf-limited %",
                     "receiver drops", "SACKs compressed", "frames per ACK",
                     "cwnd"], evrows))
            w("")
    return "\n".join(out).rstrip() + "\n"


HEADER = HERE.parent.parent / "selftests" / "model" / "tests" / "host_results.h"
# the drift test's large-BDP point: the first of these single-flow
# scenarios in which the most of the model's comparisons (CC x metric)
# must match, for these CCs (host -> model); the module's default
# behaviour (and v2) beside the kernel's CCs, loss_mode=1 is on the page
HEADER_SCENARIOS = ["loss1", "loss0.1", "loss0", "deep"]
HEADER_CC = {"bbr2_bpf": "bbr2", "bbr2_bpf-v2": "bbr2v2", "bbr": "bbr", "cubic": "cubic"}
HEADER_METRICS = ("goodput_mbps", "retrans_pct", "qdelay_ms")


def header_points(sc):
    """Per CC of the drift test: the host's runs, per metric its stats and
    the reason a gap is not asserted (None: the simulator must match)."""
    runs = load("runs.jsonl")
    sims = load("sim.jsonl") if (RAW / "sim.jsonl").exists() else []
    out = []
    for cc, model in HEADER_CC.items():
        rs = [r for r in runs if r["scenario"] == sc and r["cc"] == cc and
              not r.get("error") and not r.get("behind")]
        sr = [r for r in sims if r["scenario"] == sc and r["cc"] == cc and
              not r.get("jitter_us")]
        if not rs or not sr:
            continue
        vals, todo, simv = [], [], []
        for m in HEADER_METRICS:
            h = stats([r.get(m) for r in rs]) or (0, 0, 0, 0)
            v = stats([r.get(m) for r in sr])
            vals.append(h)
            simv.append(v)
            if v is None or within(h, v[0], m, rs[0]["ceiling_mbps"]):
                todo.append(None)
                continue
            ex = explain(sc, m, rs, h, v)
            todo.append("%s: %s" % ex if ex else
                        "open: host %s, simulator %s (results page, host-tier.rst)" %
                        (cell(h, m), cell(v, m)))
        out.append((model, rs, vals, todo, sr[0].get("ack_every", 1), simv, cc))
    return out


def header_choice():
    """(scenario, header_points) of the drift test's large-BDP point."""
    best = None
    for sc in HEADER_SCENARIOS:
        pts = header_points(sc)
        n = sum(t is None for p in pts for t in p[3])
        if pts and (best is None or n > best[0]):
            best = (n, sc, pts)
    return best[1], best[2]


def render_header():
    sc, pts = header_choice()
    meta = json.loads((RAW / "meta.json").read_text())
    out = ["/* SPDX-License-Identifier: GPL-2.0 */",
           "/*",
           " * The host tier's large-BDP point for test_bbr2_sim_matches_vm_results.c:",
           " * scenario %s of Documentation/results/host-tier/runs.jsonl (%s, kernel" %
           (sc, meta["command"]),
           " * %s, commit %s, %d iterations)." % (meta["kernel"], meta["commit"],
                                                meta["iterations"]),
           " * Made by Documentation/results/gen-host-tier.py; do not edit.",
           " *",
           " * cc, rate (bit/s), RTT (ms), buffer (bytes), loss (ppm), run and window",
           " * start (s), the receiver's ACK ratio (frames per ACK), then mean, min,",
           " * max over the host's runs of goodput (Mbit/s), retransmits (%) and",
           " * median smoothed RTT minus the path's RTT (ms); per metric NULL (the",
           " * simulator must match) or why a gap is not asserted.",
           " */",
           "",
           "static const struct host_point host_results[] = {"]
    for model, rs, vals, todo, acks, _, _ in pts:
        r0 = rs[0]
        out.append('\t{ "%s", %dULL, %d, %dULL, %d, %d, %d, %d,' %
                   (model, r0["rate_bps"], r0["rtt_ms"], r0["buf_bytes"],
                    round(r0["loss_pct"] * 10000), r0["secs"], r0["skip"], acks))
        out.append("\t  %s, %s, %s," % tuple("{ %.2f, %.2f, %.2f }" % h[:3] for h in vals))
        out.append("\t  { %s } },  /* %d runs */" %
                   (", ".join('"%s"' % t.replace('"', "'") if t else "NULL" for t in todo),
                    len(rs)))
    out.append("};")
    return "\n".join(out) + "\n"


def main():
    global RAW, PAGE
    args = [a for a in sys.argv[1:] if a != "--check"]
    if args:
        RAW = pathlib.Path(args[0]).resolve()
        PAGE = RAW.parent / (RAW.name + ".rst")
    text = render()
    header = render_header() if not args else None
    if "--check" in sys.argv[1:]:
        if PAGE.read_text() != text:
            sys.exit("%s is not what gen-host-tier.py makes of the raw data" % PAGE.name)
        if header is not None and HEADER.read_text() != header:
            sys.exit("%s is not what gen-host-tier.py makes of the raw data" % HEADER)
        return
    PAGE.write_text(text)
    if header is not None:
        HEADER.write_text(header)


if __name__ == "__main__":
    main()
