#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every number the documentation shows, from the raw data in the repository.

The results pages (Documentation/results/*.rst), the admin guide and
README.md hold generated regions between two marker lines:

  reStructuredText                       Markdown
  .. generated: NAME                     <!-- generated: NAME -->
  ...                                    ...
  .. end generated: NAME                 <!-- end generated: NAME -->

This script computes each region NAME from the raw data (the tarballs and
logs in Documentation/results/data/ and tools/doc/, described in
data/meta.json: commit, kernel, host, date and command of each) and writes
it between the markers.

  gen-results.py            rewrite every region (and the plots, if
                            matplotlib is installed)
  gen-results.py --check    fail if a committed region differs from what
                            the raw data gives, or names an unknown region,
                            or a known region is shown nowhere
"""
import csv
import io
import json
import math
import os
import pathlib
import re
import statistics
import sys
import tarfile
import tempfile

TOP = pathlib.Path(__file__).resolve().parents[2]
RES = TOP / "Documentation" / "results"
DATA = RES / "data"
sys.path.insert(0, str(TOP / "tools"))

REGION = re.compile(
    r"^(?P<open>\.\. generated: (?P<n1>[\w.-]+)|<!-- generated: (?P<n2>[\w.-]+) -->)\n"
    r"(?P<body>.*?)"
    r"^(?:\.\. end generated: (?P=n1)|<!-- end generated: (?P=n2) -->)$",
    re.M | re.S)
FILES = [TOP / "README.md", TOP / "Documentation" / "admin-guide.rst"] + \
    sorted(RES.glob("*.rst"))

META = json.loads((DATA / "meta.json").read_text())
_tmp = tempfile.TemporaryDirectory(prefix="bbr2-results-")


def unpack(rel):
    """Extract a committed tarball once; its directory."""
    dest = pathlib.Path(_tmp.name) / pathlib.Path(rel).name.split(".tar")[0]
    if not dest.exists():
        dest.mkdir()
        with tarfile.open(TOP / rel) as tar:
            tar.extractall(dest)
    return dest


# ---------------------------------------------------------------- tables

def rst_table(head, rows):
    """A reStructuredText simple table (first column may not be empty)."""
    rows = [[str(c) if str(c) else "-" for c in r] for r in rows]
    w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    rule = "  ".join("=" * x for x in w)
    line = lambda r: "  ".join(c.ljust(x) for c, x in zip(r, w)).rstrip()
    return "\n".join([rule, line(head), rule] + [line(r) for r in rows] + [rule])


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def g3(v):
    """Three significant digits, as the benchmark reports print them."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if v == 0:
        return "0"
    digits = max(0, 2 - int(math.floor(math.log10(abs(v)))))
    return f"{v:.{digits}f}"


def gbit(mbit):
    v = mbit / 1000.0
    return f"{v:.1f}" if v >= 1 else f"{v:.2g}"


def spread(vals):
    if not vals:
        return "-"
    m = statistics.mean(vals)
    if len(vals) == 1 or min(vals) == max(vals):
        return g3(m)
    return f"{g3(m)} [{g3(min(vals))}-{g3(max(vals))}]"


def provenance(key):
    m = META[key]
    rows = [("measured", m["date"]), ("commit", m["commit"]),
            ("kernel", m["kernel"]), ("host", m["host"]),
            ("command", m["command"]), ("raw data", m["data"])]
    if m.get("note"):
        rows.append(("note", m["note"]))
    out = []
    for k, v in rows:
        out.append(f":{k}: {v}")
    return "\n".join(out)


# ------------------------------------------------------- peer benchmark

PEER_SCEN = [
    # scenario, metric, label, higher is better (None: 0.5 is even)
    ("loss0", "goodput_mbit", "0 % loss, 1 BDP: Mbit/s", True),
    ("loss1", "goodput_mbit", "1 % random loss: Mbit/s", True),
    ("loss3", "goodput_mbit", "3 % random loss: Mbit/s", True),
    ("tiny1", "goodput_mbit", "10 Mbit/s x 10 ms, 1 % random loss: Mbit/s", True),
    ("tiny3", "goodput_mbit", "10 Mbit/s x 10 ms, 3 % random loss: Mbit/s", True),
    ("nosack01", "goodput_mbit", "no SACK, 0.1 % random loss: Mbit/s", True),
    ("nosack1", "goodput_mbit", "no SACK, 1 % random loss: Mbit/s", True),
    ("flows16", "retrans_pct", "16 flows, 5 %-BDP buffer: retransmits %", False),
    ("flows16", "goodput_mbit", "16 flows, 5 %-BDP buffer: Mbit/s", True),
    ("deep16", "qdelay_med_ms", "16-BDP buffer: queueing delay, median ms", False),
    ("deep16", "qdelay_early_p95_ms", "16-BDP buffer, 1-5 s: queueing delay, p95 ms", False),
    ("late2", "jain", "late 2nd flow, 2 BDP: Jain", True),
    ("vscubic1", "share", "vs 1 CUBIC flow, 1 BDP: share", None),
    ("vscubic2", "share", "vs 1 CUBIC flow, 2 BDP: share", None),
    ("vscubic8q", "share", "8 flows vs 8 CUBIC, 0.25 BDP: share", None),
    ("vscubic8", "share", "8 flows vs 8 CUBIC, 1 BDP: share", None),
    ("transperf4", "conv_tput_min_pct", "transperf, 4 flows: worst second from 4 s, % of link", True),
    ("transperf4", "pass", "transperf, 4 flows: scores passed, of 6", True),
]
# column key: (guest, spec) in raw.csv
PEER_COLS = [
    ("bbr2 (default)", ("debian", "bbr2")),
    ("bbr2_ref", ("debian", "bbr2_ref")),
    ("bbr2 loss_mode=1", ("debian", "bbr2:loss_mode=1")),
    ("Google v3", ("v3", "bbr")),
    ("BBRv1", ("debian", "bbr")),
    ("CUBIC", ("debian", "cubic")),
    ("CUBIC, v3's kernel", ("v3", "cubic")),
]


def peers(key):
    """{(guest, spec, scenario, metric): [values per iteration]}"""
    d = unpack(META[key]["data"])
    out = {}
    with open(d / "raw.csv") as f:
        for r in csv.DictReader(f):
            try:
                v = float(r["value"])
            except ValueError:
                continue
            out.setdefault((r["guest"], r["spec"], r["scenario"], r["metric"]), []).append(v)
    return out


def peer_value(p, col, scen, metric):
    guest, spec = dict(PEER_COLS)[col]
    return p.get((guest, spec, scen, metric), [])


def peer_cols(p):
    """The columns of PEER_COLS that the data has."""
    return [c for c, (g, s) in PEER_COLS
            if any(k[0] == g and k[1] == s for k in p)]


def peers_table(key):
    p = peers(key)
    cols = peer_cols(p)
    rows = []
    for scen, metric, label, higher in PEER_SCEN:
        better = {True: " (higher)", False: " (lower)", None: " (0.5: even)"}
        cells = [spread(peer_value(p, c, scen, metric)) for c in cols]
        if any(c != "-" for c in cells):
            rows.append([label + better[higher]] + cells)
    return rst_table(["scenario"] + cols, rows)


def mean_of(p, col, scen, metric):
    v = peer_value(p, col, scen, metric)
    return statistics.mean(v) if v else None


# the README's summary: a few rows of the 6.12 table
GLANCE = [("loss1", "goodput_mbit"), ("loss3", "goodput_mbit"),
          ("tiny3", "goodput_mbit"), ("flows16", "retrans_pct"),
          ("deep16", "qdelay_med_ms"), ("late2", "jain"),
          ("vscubic2", "share"), ("transperf4", "conv_tput_min_pct")]


def glance():
    p = peers("peers-6.12")
    cols = peer_cols(p)[:5]
    rows = []
    for scen, metric, label, _ in PEER_SCEN:
        if (scen, metric) not in GLANCE:
            continue
        cells = [g3(mean_of(p, c, scen, metric)) for c in cols]
        if any(c != "-" for c in cells):
            rows.append([label] + cells)
    n = max(len(v) for k, v in p.items() if k[0] == "debian")
    return md_table([f"50 Mbit/s x 40 ms, Debian 6.12 (mean of {n})"] + cols, rows)


# ------------------------------------------------------------ DTN scale

# The largest window a TCP receiver can advertise: 65535 bytes scaled by the
# largest window scale, 14 (RFC 7323), 1 GiB.  One flow carries at most
# this much payload per RTT, whatever its congestion control.
TCP_MAX_WINDOW_BYTES = 65535 << 14


def window_gbit(rtt_ms):
    """The most payload one TCP flow carries at this RTT, Gbit/s."""
    return TCP_MAX_WINDOW_BYTES * 8 / (rtt_ms / 1000.0) / 1e9


def window_caps_link(rate_mbit, rtt_ms):
    """Whether one window per RTT is less than the link's payload ceiling
    (95.6 % of the rate: 66 bytes of headers per 1448-byte segment): no
    flow fills the link even without loss."""
    return window_gbit(rtt_ms) < rate_mbit / 1000.0 * 1448 / 1514


def window_free(k):
    """Whether the largest window leaves a lossy flow room too.  The window's
    left edge waits at the first byte the receiver is missing until its
    repair arrives, a round trip after the loss is seen or later, so under
    loss the sender needs a few BDPs of window beyond its flight; a point
    whose window is three BDPs or more leaves room for most repairs."""
    rate_mbit, rtt_ms = k[0], k[1]
    bdp_bytes = rate_mbit * 1e6 / 8 * rtt_ms / 1000.0
    return TCP_MAX_WINDOW_BYTES >= 3 * bdp_bytes


DTN_COLS = [("bbr2 (default)", "dtn-scale", "bbr2"),
            ("bbr2 loss_mode=1", "dtn-scale-loss-mode", "bbr2"),
            ("bbr2 version=2", "dtn-scale", "bbr2v2"),
            ("BBRv1", "dtn-scale", "bbr"),
            ("CUBIC", "dtn-scale", "cubic")]


def dtn_points():
    """{(job key, cc): {(rate, rtt, buffer, loss): row}} from the simulator's
    runs, summarised as tools/bbr2-lab report does."""
    from bbr2lab import report
    out = {}
    for key, sub in (("dtn-scale", "sim-dtn-table/dtn-table"),
                     ("dtn-scale-loss-mode", "sim-dtn-table-loss-mode/dtn-table-loss-mode")):
        d = unpack(META[key]["data"]) / sub
        _, pts = report.summarize_job(str(d))
        for pt, _, rows in pts:
            c = pt["config"]
            k = (int(c["rate"]), int(c["rtt"]), float(c["buffer_bdp"]), float(c["loss"]))
            for r in rows:
                if r["cc"] != "all":
                    out.setdefault((key, r["cc"]), {})[k] = r
    return out


_dtn = None


def dtn():
    global _dtn
    if _dtn is None:
        _dtn = dtn_points()
    return _dtn


def dtn_gbit(col, k):
    _, key, cc = next(c for c in DTN_COLS if c[0] == col)
    r = dtn().get((key, cc), {}).get(k)
    return r["mbps_mean"] / 1000.0 if r else None


def dtn_retrans(col, k):
    _, key, cc = next(c for c in DTN_COLS if c[0] == col)
    return dtn()[(key, cc)][k]["retrans_pct"]


def dtn_table(rate, rtt):
    ks = sorted(k for k in dtn()[("dtn-scale", "bbr2")] if k[0] == rate and k[1] == rtt)
    rows = []
    for k in ks:
        cells = []
        for col, key, cc in DTN_COLS:
            r = dtn().get((key, cc), {}).get(k)
            cells.append("-" if r is None else
                         f"{gbit(r['mbps_mean'])} ({r['retrans_pct']:.2f} %)")
        rows.append([f"{k[2]:g}", f"{k[3]:g}"] + cells)
    return rst_table(["buffer BDP", "loss %"] + [c[0] for c in DTN_COLS], rows)


def dtn_plot(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharey=False)
    for ax, (rate, rtt) in zip(axes.flat, [(10000, 50), (10000, 200),
                                           (100000, 50), (100000, 200)]):
        for col, _, _ in DTN_COLS:
            ks = sorted(k for k in dtn()[("dtn-scale", "bbr2")]
                        if k[:3] == (rate, rtt, 1.0) and k[3] > 0)
            xs = [k[3] for k in ks]
            ys = [dtn_gbit(col, k) for k in ks]
            ax.plot(xs, ys, marker="o", label=col)
        if window_caps_link(rate, rtt):
            ax.axhline(window_gbit(rtt), color="grey", linestyle="--",
                       label="one flow's largest window (1 GiB) per RTT")
        ax.set_xscale("log")
        ax.set_title(f"{rate // 1000} Gbit/s x {rtt} ms, 1-BDP buffer")
        ax.set_xlabel("random loss %")
        ax.set_ylabel("goodput Gbit/s")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    axes.flat[3].legend(handles=[h for h in axes.flat[3].get_lines()
                                 if h.get_label().startswith("one flow")], fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


# --------------------------------------------------- simulator validation

def sim_validation():
    from bbr2lab import report
    d = pathlib.Path(_tmp.name) / "simval"
    if not d.exists():
        d.mkdir()
        for side in ("vm", "sim", "pkt", "testbed"):
            with tarfile.open(TOP / f"tools/doc/sim-validation-{side}-raw.tar.xz") as tar:
                tar.extractall(d)
    md = report.compare(str(d / "sim-validation-vm"),
                        [str(d / f"sim-validation-{s}") for s in ("sim", "pkt", "testbed")])
    rows, outside = [], 0
    for line in md.splitlines():
        if line.startswith("| ") and not line.startswith("| point"):
            cells = [c.strip().replace("**", "") for c in line.strip("|").split("|")]
            kv = dict(re.findall(r"(buffer_bdp|rate|rtt|loss|mix)=([^_]+)", cells[0]))
            cfg = {"rate": "50", "rtt": "40", "buffer_bdp": "1", "loss": "0"}
            cfg.update(kv)
            n = cfg["mix"].rsplit("-", 1)[1]
            pt = (f"{n} flow{'s' if n != '1' else ''}, {cfg['rate']} Mbit/s x "
                  f"{cfg['rtt']} ms, {cfg['buffer_bdp']} BDP, {cfg['loss']} % loss")
            rows.append([pt] + cells[1:])
        m = re.match(r"(\d+) value\(s\) outside", line)
        if m:
            outside += int(m.group(1))
    total = sum(len(r) - 4 for r in rows)
    inside = [sum(1 for r in rows if r[4 + i].endswith(" in")) for i in range(3)]
    table = rst_table(["point", "flows", "metric", "kernel: mean [min-max]",
                       "simulator", "per-packet", "test bed modelled"], rows)
    summary = (f"Of the {len(rows)} values, the simulator's mean is inside the "
               f"kernel's spread for {inside[0]} (frame mode), {inside[1]} "
               f"(per-packet mode) and {inside[2]} (test bed modelled).")
    return summary + "\n\n" + table


# ------------------------------------------------------ BPF vs module

def bpf_runs():
    """[{test: [(row label, {column: value})]}] per run, from the guest's
    KTAP output: each test's printed table."""
    text = (TOP / META["bpf-vs-module"]["data"]).read_text()
    runs = []
    for part in re.split(r"^## run \d+$", text, flags=re.M)[1:]:
        tests, test, head = {}, None, None
        for line in part.splitlines():
            m = re.match(r"^  # (\w+)$", line)
            if m:
                test, head = m.group(1), None
                continue
            m = re.match(r"^  # (cc|loss%|buffer|case)\s+(.*\S)\s*$", line)
            if m and test:
                head = [m.group(1)] + m.group(2).split()
                continue
            if head and line.startswith("  # ") and not line.startswith("  # Totals"):
                cells = line[4:].split()
                if len(cells) == len(head):
                    tests.setdefault(test, []).append(dict(zip(head, cells)))
            elif line.startswith("  # Totals"):
                head = None
        runs.append(tests)
    return runs


def bpf_table():
    runs = bpf_runs()
    ccs = ["bbr2_bpf", "bbr2", "bbr", "cubic"]

    def cell(fn):
        vals = [fn(r) for r in runs]
        return " / ".join(v if v else "-" for v in vals)

    def pick(test, key, col, cc, colname):
        def f(run):
            for row in run.get(test, []):
                if row.get(key) == col:
                    v = row.get(cc if colname is None else colname)
                    return v.split("(")[0] if v else None
            return None
        return f

    rows = []
    for loss in ("0", "0.1", "1", "3"):
        rows.append([f"{loss} % random loss, 50 ms, 1 BDP: Mbit/s"] +
                    [cell(pick("loss_up_to_1pct_keeps_link", "loss%", loss, cc, None))
                     for cc in ccs])
    specs = [("shallow_buffer_16_flows_few_retransmits", "retrans%",
              "16 flows, 0.1 BDP, 100 ms: retransmits %"),
             ("deep_buffer_keeps_queue_short", "qdelay_ms",
              "8 BDP, 20 ms: queueing delay, mean ms"),
             ("late_flow_converges_to_fair_share", "jain",
              "late 2nd flow, 2 BDP: Jain")]
    for test, colname, label in specs:
        rows.append([label] + [cell(pick(test, "cc", cc, None, colname)) for cc in ccs])
    for buf in ("1BDP", "2BDP"):
        def f(run, cc, buf=buf):
            for row in run.get("coexists_with_cubic", []):
                if row.get("buffer") == buf and row.get("flow") == cc:
                    return row.get("share")
            return None
        rows.append([f"vs 1 CUBIC flow, {buf[0]} BDP: share"] +
                    [" / ".join(f(r, cc) or "-" for r in runs) if cc != "cubic" else "-"
                     for cc in ccs])
    return rst_table(["scenario (20 Mbit/s), run 1 / run 2"] + ccs, rows)


# --------------------------------------------------------------- cost

def cost():
    text = (TOP / META["cost"]["data"]).read_text()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^(bbr2|bbr|cubic)\s+([\d.]+)\s+([\d.]+)\s+\d+$", line)
        if m:
            rows[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return rows


def cost_table():
    c = cost()
    t1 = rst_table(["CC", "ns per ACK", "x BBRv1"],
                   [[cc, f"{c[cc][0]:.1f}", f"{c[cc][1]:.2f}"] for cc in ("bbr2", "bbr", "cubic")])
    # at 100 Gbit/s of 1500-byte packets (1538 bytes on the wire), an ACK
    # per 2 segments or per 64 KB GRO aggregate (45 segments)
    seg = 100e9 / 8 / 1538
    rows = []
    for label, acks in (("an ACK per 2 segments", seg / 2),
                        ("an ACK per 64 KB aggregate", seg / 45)):
        rows.append([f"{label} ({acks / 1e6:.2f} M/s)"] +
                    [f"{acks * c[cc][0] * 1e-9 * 100:.2f} %" for cc in ("bbr2", "bbr", "cubic")])
    t2 = rst_table(["ACKs at 100 Gbit/s", "bbr2", "BBRv1", "CUBIC"], rows)
    return t1 + "\n\nThe share of one core the CC's hooks alone take at 100 Gbit/s:\n\n" + t2


# ------------------------------------------------- behaviour per path

def behaviour(md):
    p = peers("peers-6.12")
    k = lambda c, s, m: g3(mean_of(p, c, s, m))
    lm, v3, v1 = "bbr2 loss_mode=1", "Google v3", "BBRv1"
    # the default's model: measured as bbr2, or as bbr2_ref, which runs it
    d = "bbr2 (default)" if peer_value(p, "bbr2 (default)", "loss1", "goodput_mbit") else "bbr2_ref"
    # The largest DTN points of the simulator's grid where one flow's window
    # leaves room for loss (at 100 Gbit/s x 200 ms, and under loss at
    # 100 Gbit/s x 50 ms, the grid compares windows, not CCs).
    lossy_long = (10000, 200, 1.0, 1.0)
    shallow_long = (10000, 200, 0.1, 1.0)
    for pt in (lossy_long, shallow_long):
        assert window_free(pt), pt
    where = lambda pt: (f"{pt[0] // 1000} Gbit/s x {pt[1]} ms, {pt[2]:g}-BDP buffer, "
                        f"{pt[3]:g} % loss")
    page = "Documentation/results/"
    rows = [
        ["general purpose: little random loss, shared or deep buffers",
         "the default (faithful BBRv3)",
         f"Google's model: 1 % loss {k(d, 'loss1', 'goodput_mbit')} Mbit/s (Google's v3 "
         f"{k(v3, 'loss1', 'goodput_mbit')}); 16-BDP buffer: median queue "
         f"{k(d, 'deep16', 'qdelay_med_ms')} ms (Google's v3 {k(v3, 'deep16', 'qdelay_med_ms')}, "
         f"CUBIC {k('CUBIC', 'deep16', 'qdelay_med_ms')})",
         "peers"],
        ["random (non-congestion) loss: long WAN paths, lossy links",
         "loss_mode=1",
         f"1 % loss: {k(lm, 'loss1', 'goodput_mbit')} Mbit/s of 50 against the default's "
         f"{k(d, 'loss1', 'goodput_mbit')} (BBRv1 {k(v1, 'loss1', 'goodput_mbit')}); "
         f"{where(lossy_long)}: {dtn_gbit(lm, lossy_long):.1f} Gbit/s against "
         f"{dtn_gbit('bbr2 (default)', lossy_long):.1f} (BBRv1 {dtn_gbit(v1, lossy_long):.1f}, simulator)",
         "peers, dtn-scale"],
        ["many parallel flows into a shallow buffer (striped transfers)",
         "loss_mode=1",
         f"16 flows, 5 %-BDP buffer: {k(lm, 'flows16', 'retrans_pct')} % retransmitted against "
         f"the default's {k(d, 'flows16', 'retrans_pct')} % (BBRv1 {k(v1, 'flows16', 'retrans_pct')} %)",
         "peers"],
        ["comparing with results measured with BBRv2 (v2alpha)",
         "version=2",
         f"for comparison, not production: {where(shallow_long)}, "
         f"{dtn_retrans('bbr2 version=2', shallow_long):.2f} % retransmitted against the "
         f"default's {dtn_retrans('bbr2 (default)', shallow_long):.2f} % (simulator)",
         "dtn-scale"],
    ]
    if md:
        return md_table(["path", "setting", "measured reason"],
                        [[r[0], f"`{r[1]}`" if "=" in r[1] else r[1],
                          r[2] + " ([" + r[3] + "](" + page +
                          r[3].split(",")[0] + ".rst))"] for r in rows])
    return rst_table(["path", "setting", "measured reason (results page)"],
                     [[r[0], f"``{r[1]}``" if "=" in r[1] else r[1],
                       r[2] + f" ({r[3]})"] for r in rows])


# --------------------------------------------------------- build matrix

def kernels():
    """README's kernel table: the build matrix's own table (one kernel of
    each series, W=1, no warnings), and what of the behavioural suite each
    kernel of selftests/vm/kernels.conf boots for."""
    text = (TOP / META["build-matrix"]["data"]).read_text()
    lines = text.splitlines()
    i = next(n for n, l in enumerate(lines) if l.startswith("series kernel"))
    conf = (TOP / "selftests/vm/kernels.conf").read_text()
    booted = re.search(r'^KERNEL_ABIS="([^"]*)"', conf, re.M).group(1).split()
    full_suite = re.search(r'^FULL_SUITE_ABI="([^"]*)"', conf, re.M).group(1)
    rows = []
    for line in lines[i + 1:]:
        f = line.split(None, 4)
        if len(f) < 4:
            break
        series, kernel, result = f[0], f[1], f[2]
        suite = {"5.10": "Debian 11 (bullseye)", "6.1": "Debian 12 (bookworm)",
                 "6.12": "Debian 12 (bookworm-backports)",
                 "7": "Debian unstable (sid)"}.get(series, "")
        tested = ("built, W=1, no warnings" if result == "ok" else result)
        if kernel == full_suite:
            tested += "; behavioural suite in QEMU"
        elif kernel in booted:
            tested += "; functional tests, loss scenario in QEMU"
        if kernel.startswith("6.12"):
            tested += "; bbr2_bpf"
        rows.append([series if series != "7" else "7.x", f"`{kernel}`", suite, tested])
    m = META["build-matrix"]
    return (md_table(["series", "kernel", "from", "tested by make test"], rows) +
            f"\n\nBuild matrix of commit {m['commit']} (`{m['command']}`, "
            f"output in `{m['data']}`). Other distributions' kernels of these series "
            "build when their headers are installed: the compile probes, not "
            "version numbers, decide what each kernel offers.")


# ---------------------------------------------------------------- main

def host_scale():
    """README's real-kernel scale: the largest rate x RTT the host tier's
    path carried (Documentation/results/host-tier/, gen-host-tier.py's raw
    data) and what bbr2_bpf, bbr and cubic carried there at 1 % loss."""
    with open(RES / "host-tier" / "runs.jsonl") as fh:
        runs = [json.loads(line) for line in fh if line.strip()]
    cap = [r for r in runs if r["scenario"] == "capacity" and r.get("capacity_ok")]
    best = max(cap, key=lambda r: (r["rate_bps"] * r["rtt_ms"], r["rate_bps"]))
    loss = [r for r in runs if r["scenario"] == "loss1" and not r.get("behind") and
            r["rate_bps"] == best["rate_bps"] and r["rtt_ms"] == best["rtt_ms"]]

    def gb(cc):
        xs = [r["goodput_mbps"] for r in loss if r["cc"] == cc]
        return g3(statistics.mean(xs) / 1e3) if xs else "-"
    return ("The 10 and 100 Gbit/s figures are the simulator's. The largest scale "
            "measured on a real kernel is %s Gbit/s x %g ms (a %s MB bandwidth-delay "
            "product): `bbr2_bpf` on the host's own kernel over an emulated path, "
            "where at 1 %% random loss it carries %s Gbit/s, `loss_mode=1` %s, the "
            "kernel's bbr %s and cubic %s (mean of %d runs each; "
            "[host tier](Documentation/results/host-tier.rst))." %
            ("%g" % (best["rate_bps"] / 1e9), best["rtt_ms"],
             "%g" % (best["rate_bps"] * best["rtt_ms"] / 8e9), gb("bbr2_bpf"), gb("bbr2_bpf-lm"),
             gb("bbr"), gb("cubic"), min(sum(r["cc"] == c for r in loss)
                                         for c in ("bbr2_bpf", "bbr", "cubic"))))


def sim_validation_host():
    """The simulator beside the host tier's kernel at its largest scale:
    the drift test's large-BDP point (gen-host-tier.py picks it and writes
    it to host_results.h), per CC and metric."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_host_tier", RES / "gen-host-tier.py")
    ght = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ght)
    sc, pts = ght.header_choice()
    meta = json.loads((RES / "host-tier" / "meta.json").read_text())
    r0 = pts[0][1][0]
    names = {"goodput_mbps": "goodput Mbit/s", "retrans_pct": "retransmits %",
             "qdelay_ms": "queueing delay ms"}
    rows, inside = [], 0
    for model, rs, vals, todo, _, simv, cc in pts:
        for m, h, v, t in zip(ght.HEADER_METRICS, vals, simv, todo):
            inside += t is None
            rows.append([cc, names[m], ght.cell(h, m), ght.cell(v, m) if v else "-",
                         "in" if t is None else "OUT (" + t.split(":")[0] + ")"])
    text = ("The kernel at %g Gbit/s x %g ms: the host tier (``host-tier.rst``) ran "
            "``bbr2_bpf`` and the kernel's bbr and cubic on %s (commit %s, %d "
            "iterations, %s, %s) over an emulated path, scenario %s (one flow, a %g-MB buffer, "
            "%g %% random loss), and the simulator ran the same path (frame mode, "
            "the host's receiver ACK ratio, seeds 1-%d).  %d of the %d values are "
            "inside the host's spread; ``test_bbr2_sim_matches_vm_results`` asserts "
            "them, and the host tier's page compares every scenario."
            % (r0["rate_bps"] / 1e9, r0["rtt_ms"], meta["kernel"], meta["commit"],
               meta["iterations"], meta["date"], meta["host"], sc, r0["buf_bytes"] / 1e6, r0["loss_pct"],
               meta["iterations"], inside, len(rows)))
    return text + "\n\n" + rst_table(
        ["CC", "metric", "kernel: mean [min-max]", "simulator", "verdict"], rows)


REGIONS = {
    "meta-peers-6.12": lambda: provenance("peers-6.12"),
    "meta-peers-6.1": lambda: provenance("peers-6.1"),
    "peers-6.12": lambda: peers_table("peers-6.12"),
    "peers-6.1": lambda: peers_table("peers-6.1"),
    "meta-dtn-scale": lambda: provenance("dtn-scale"),
    "meta-dtn-scale-loss-mode": lambda: provenance("dtn-scale-loss-mode"),
    "dtn-10g-50": lambda: dtn_table(10000, 50),
    "dtn-10g-200": lambda: dtn_table(10000, 200),
    "dtn-100g-50": lambda: dtn_table(100000, 50),
    "dtn-100g-200": lambda: dtn_table(100000, 200),
    "meta-sim-validation": lambda: provenance("sim-validation"),
    "sim-validation": sim_validation,
    "meta-bpf-vs-module": lambda: provenance("bpf-vs-module"),
    "bpf-vs-module": bpf_table,
    "meta-cost": lambda: provenance("cost"),
    "cost": cost_table,
    "glance": glance,
    "host-scale": host_scale,
    "sim-validation-host": sim_validation_host,
    "kernels": kernels,
    "behaviour-md": lambda: behaviour(True),
    "behaviour-rst": lambda: behaviour(False),
}
PLOTS = {"dtn-scale.png": dtn_plot}


def render(text, errors, seen):
    def sub(m):
        name = m.group("n1") or m.group("n2")
        seen.add(name)
        if name not in REGIONS:
            errors.append(f"unknown region {name}")
            return m.group(0)
        body = "\n" + REGIONS[name]() + "\n\n"
        close = (f".. end generated: {name}" if m.group("n1")
                 else f"<!-- end generated: {name} -->")
        return m.group("open") + "\n" + body + close
    return REGION.sub(sub, text)


def main(argv):
    check = "--check" in argv
    errors, seen, stale = [], set(), []
    for path in FILES:
        old = path.read_text()
        new = render(old, errors, seen)
        if new != old:
            stale.append(path)
            if not check:
                path.write_text(new)
    for name in sorted(set(REGIONS) - seen):
        errors.append(f"region {name} is shown nowhere")
    if not check:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("gen-results: no matplotlib, plots not redrawn")
        else:
            for name, fn in PLOTS.items():
                fn(RES / name)
    for e in errors:
        print(f"gen-results: {e}")
    for p in stale:
        print(f"gen-results: {p.relative_to(TOP)} "
              f"{'differs from the raw data' if check else 'rewritten'}")
    print(f"gen-results: {len(seen)} regions in {len(FILES)} files, "
          f"{len(stale)} {'stale' if check else 'rewritten'}, {len(errors)} errors")
    return 1 if errors or (check and stale) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
