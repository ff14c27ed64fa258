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


def render():
    meta = json.loads((RAW / "meta.json").read_text())
    runs = load("runs.jsonl")
    sims = load("sim.jsonl") if (RAW / "sim.jsonl").exists() else []
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
    if (RAW / "ladder" / "meta.json").exists():
        lm = json.loads((RAW / "ladder" / "meta.json").read_text())
        w(":ladder: %s, commit %s (``host-tier/ladder/``)" % (lm["date"], lm["commit"]))
    if meta.get("shards", 1) > 1:
        w(":shards: %d, one iteration each, from %s (``hbtool.py merge``)" %
          (meta["shards"], meta["started"]))
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
    lim = cap[0] if cap else {}
    w("One cubic flow through a buffer of one bandwidth-delay product, rate x RTT")
    w("rising until cubic no longer fills >= 90 % of the bottleneck (the goodput its")
    w("wire bytes leave room for: 1448 of every 1514 bytes) or the emulator falls")
    w("behind its schedule.  The emulator is out of the way when at most %g %% of"
      % (100 * lim.get("late_limit", 0.01)))
    w("its frame releases come more than 1 ms after their schedule, none more than")
    w("%g ms, and nothing is dropped in front of it (the TUN devices' and their"
      % lim.get("max_late_limit_ms", 20))
    w("qdiscs' drop counters, before and after the run, do not move).  Every")
    w("scenario run below is held to the same test: one that breaks it is run again")
    w("(up to 3 times in all) and left out of every number.  The emulator runs")
    w("real-time (FIFO), pinned to one CPU.  Its CPU time, the fraction of the")
    w("wall clock it was busy, the link's busy fraction while the flow ran and the")
    w("queue's mean occupancy show that the bottleneck, not the emulator, set the")
    w("rate.  A point is tried up to 3 times; each attempt is a row.  The ladder")
    w("(rows marked L) is a run of its own, which went on to the scenarios at the")
    w("largest point cubic filled; the table's run checks its point again before")
    w("each iteration.")
    w("")
    rows = []
    best = None
    for r in cap:
        bdp = r["rate_bps"] * r["rtt_ms"] / 8e9
        ok = r.get("capacity_ok")
        if ok and not r.get("ladder"):
            best = r
        rows.append([("L " if r.get("ladder") else "") +
                     "%s x %g ms" % (r["rate"], r["rtt_ms"]) +
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
                      else "yes") if ok else "no"])
    w(table(["path", "BDP MB", "cubic / ceiling Mbit/s", "emulator CPU", "busy",
             "late > 1 ms", "max late ms", "drops before it", "link busy", "mean queue MB",
             "carried"], rows))
    w("")
    if tried:
        t0 = tried[0]
        kept = [r for r in tried if not r.get("behind")]
        drops = [r.get("tun_drops", 0) for r in tried]
        w("At L %s x %g ms the ladder's scenario runs (CCs %s, one iteration, stopped"
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
        w("``bbr2_bpf`` is bbr2_bpf as loaded (BBRv3, ``version=3``);")
        w("``bbr2_bpf-v2`` the same with ``version=2`` (BBRv2), ``bbr2_bpf-lm`` with")
        w("``loss_mode=1``.  Goodput is the")
        w("receiver's, over each run's window (its first seconds left out); queueing")
        w("delay the sender's median smoothed RTT minus the path's RTT; retransmits")
        w("in % of segments sent; \"late\": Jain's index of the two flows over the last")
        w("10 s; \"vscubic\": the CC's share of what both flows carried.")
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
                nrej = sum(1 for r in rejected if r["scenario"] == sc and r["cc"] == cc)
                row.append("%d (%d)" % (len(cr), nrej))
                rows.append(row)
            w(table(["CC"] + [LABEL[m] for m in METRICS[sc]] +
                    ["emulator busy (max)", "late > 1 ms (max)", "max late ms",
                     "runs (rejected)"], rows))
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
                ex = explain(sc, m, hr, h, s) if verdict == "outside" else None
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
                rows.append([name, cc, LABEL[m], cell(h, m), cell(s, m), cell(j, m),
                             verdict])
        w(table(["scenario", "CC", "metric", "host", "simulator", "with jitter", "gap"],
                rows))
        w("")
        verdicts = [r[-1] for r in rows]
        n_in = verdicts.count("within")
        n_jit = verdicts.count("jitter")
        n_open = len(opened)
        w("Of %d comparisons, %d are within the host's spread, %d within it once the"
          " path's jitter is modelled, %d explained below by what the host's raw data"
          " shows and %d open: outside the host's spread and not explained by anything"
          " measured here; they are what the simulator does not yet capture of a real"
          " kernel at this scale%s" %
          (len(rows), n_in, n_jit, len(verdicts) - n_in - n_jit - n_open, n_open,
           ": " + "; ".join(opened) + "." if opened else "."))
        w("")
        for i, n in enumerate(notes, 1):
            w("%d. %s" % (i, n))
        if notes:
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
        vals, todo = [], []
        for m in HEADER_METRICS:
            h = stats([r.get(m) for r in rs]) or (0, 0, 0, 0)
            v = stats([r.get(m) for r in sr])
            vals.append(h)
            if v is None or within(h, v[0], m, rs[0]["ceiling_mbps"]):
                todo.append(None)
                continue
            ex = explain(sc, m, rs, h, v)
            todo.append("%s: %s" % ex if ex else
                        "open: host %s, simulator %s (results page, host-tier.rst)" %
                        (cell(h, m), cell(v, m)))
        out.append((model, rs, vals, todo, sr[0].get("ack_every", 1)))
    return out


def render_header():
    best = None
    for sc in HEADER_SCENARIOS:
        pts = header_points(sc)
        n = sum(t is None for p in pts for t in p[3])
        if pts and (best is None or n > best[0]):
            best = (n, sc, pts)
    _, sc, pts = best
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
    for model, rs, vals, todo, acks in pts:
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
