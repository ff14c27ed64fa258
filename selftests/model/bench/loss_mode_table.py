#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The loss_mode scenarios in the userspace simulator, side by side.

Runs every scenario loss_mode=1 is judged by (random loss, also on paths
whose whole BDP is 8 and 44 packets, 16 flows in a 5 %-BDP buffer, also
joining one after another as a parallel-stream tool's do, sharing with
one CUBIC flow, and the "nowhere worse" scenarios) for
bbr2 in v3 mode (the default), bbr2 with each given loss_mode, the
kernel's BBRv1 and CUBIC, over several seeds, and prints mean [min-max]
per cell as a reStructuredText-friendly table.  A benchmark: it prints
numbers and asserts nothing.

  loss_mode_table.py LINKSIM_RUN TRAJECTORY [--seeds N] [--modes 1,2]
                     [--dur S] [--jobs J] [--testbed]

--testbed: the QEMU/TCG test bed modelled (ACKs every 2nd packet, fq's
and the tbf's watchdogs late: linksim.h pace_late_us, link_late_us), to
ask whether a VM result is the algorithm or the emulator.

LINKSIM_RUN and TRAJECTORY are the binaries that
`make -C selftests/model linksim-run trajectory KSRC=...` builds
(build-ksrc/bench/); KSRC is needed for bbr and cubic.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

PATH = ["rate=50M", "rtt_ms=40", "frame=0"]
# a path whose whole BDP is 8 packets (rows that name it)
TINY = ["rate=10M", "rtt_ms=10"]
# a path whose BDP is 44 packets (rows that name it)
MEDIUM = ["rate=50M", "rtt_ms=10"]
# linksim.h linksim_cfg_testbed(), as linksim_run arguments
TESTBED = ["ack_every=2", "pace_late_us=1000", "link_late_us=250"]


def run_json(binary, args):
    out = subprocess.run([binary] + args, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_traj(binary, args):
    return subprocess.run([binary] + args, check=True, capture_output=True,
                          text=True).stdout


def staggered(cc, n, gap_s):
    """A mix of n flows of cc, each joining gap_s after the one before,
    as the streams of iperf3 -P and other parallel-stream tools do: they
    open one connection after another."""
    return ",".join("%s:1@%.3f" % (cc, i * gap_s) for i in range(n))


def retrans_pct(res):
    """Retransmitted packets as a percentage of all sent, every group."""
    sent = sum(g["sent"] for g in res["groups"])
    return 100.0 * sum(g["retrans"] for g in res["groups"]) / sent if sent else 0.0


def group_gp(res, idx):
    return res["groups"][idx]["goodput_bps"]


def cc_args(cc):
    """(simulator CC name, parameter arguments) of a column."""
    if cc.startswith("mode"):
        return "bbr2", ["param.loss_mode=" + cc[4:]]
    if cc == "v3":
        return "bbr2", []
    return cc, []


def scenarios(dur):
    d = ["dur=%d" % dur]
    return [
        ("1 flow, 1 % loss, 1 BDP: Mbit/s", "sim",
         lambda c: (["loss=1", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 3 % loss, 1 BDP: Mbit/s", "sim",
         lambda c: (["loss=3", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 1 % loss, 1 BDP, 10 Mbit/s x 10 ms: Mbit/s", "sim",
         lambda c: (TINY + ["loss=1", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 3 % loss, 1 BDP, 10 Mbit/s x 10 ms: Mbit/s", "sim",
         lambda c: (TINY + ["loss=3", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 1 % loss, 1 BDP, 50 Mbit/s x 10 ms: Mbit/s", "sim",
         lambda c: (MEDIUM + ["loss=1", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 3 % loss, 1 BDP, 50 Mbit/s x 10 ms: Mbit/s", "sim",
         lambda c: (MEDIUM + ["loss=3", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 0.1 % loss, 1 BDP: Mbit/s", "sim",
         lambda c: (["loss=0.1", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("1 flow, 0 % loss, 1 BDP: Mbit/s", "sim",
         lambda c: (["loss=0", "buf_bdp=1", "mix=%s:1" % c] + d,
                    lambda r: group_gp(r, 0) / 1e6)),
        ("16 flows, 5 %-BDP buffer: retransmits %", "sim",
         lambda c: (["buf_bdp=0.05", "mix=%s:16" % c] + d,
                    lambda r: r["groups"][0]["retrans_pct"])),
        ("16 flows, 5 %-BDP buffer, joining 50 ms apart: retransmits %", "sim",
         lambda c: (["buf_bdp=0.05", "mix=" + staggered(c, 16, 0.05)] + d,
                    retrans_pct)),
        ("16 flows, 5 %-BDP buffer: utilisation", "sim",
         lambda c: (["buf_bdp=0.05", "mix=%s:16" % c] + d,
                    lambda r: r["util"])),
        ("vs 1 cubic, 1 BDP: share", "sim",
         lambda c: (["buf_bdp=1", "mix=%s:1,cubic:1" % c] + d,
                    lambda r: group_gp(r, 0) /
                    (group_gp(r, 0) + group_gp(r, 1)))),
        ("vs 1 cubic, 2 BDP: share", "sim",
         lambda c: (["buf_bdp=2", "mix=%s:1,cubic:1" % c] + d,
                    lambda r: group_gp(r, 0) /
                    (group_gp(r, 0) + group_gp(r, 1)))),
        ("16 BDP, 1 flow: queueing delay ms (p90)", "traj-deep", None),
        ("2 flows, 2nd 3 s late, 2 BDP: Jain from 8 s", "traj-late", None),
        ("16 BDP, 1 flow: PROBE_RTT interval s", "traj-deep-rtt", None),
    ]


def one(args, scen, cc, seed):
    name, kind, fn = scen
    simcc, params = cc_args(cc)
    if kind == "sim":
        argv, pick = fn(simcc)
        res = run_json(args.linksim_run, PATH + argv + params +
                       ["seed=%d" % seed] + (TESTBED if args.testbed else []))
        return pick(res), None
    targs = ["late" if kind == "traj-late" else "deep", simcc, "-s",
             str(seed)] + (["-T"] if args.testbed else [])
    for p in params:
        targs += ["-p", p[len("param."):]]
    if kind == "traj-deep":
        out = run_traj(args.trajectory, targs + ["-q"])
        m = re.search(r"mean ([\d.]+) ms, p90 ([\d.]+) ms", out)
        return float(m.group(1)), float(m.group(2))
    if kind == "traj-late":
        out = run_traj(args.trajectory, targs + ["-q"])
        m = re.search(r"Jain from \d+ s ([\d.]+)", out)
        return float(m.group(1)), None
    if simcc != "bbr2":
        return None, None
    out = run_traj(args.trajectory, targs)
    t = [float(line.split()[0]) for line in out.splitlines()
         if "PROBE_RTT" in line]
    gaps = [b - a for a, b in zip(t, t[1:])]
    return (statistics.mean(gaps) if gaps else None), len(t)


def cell(vals, extra):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    fmt = "%.3f" if max(abs(v) for v in vals) < 2 else "%.2f"
    s = fmt % statistics.mean(vals)
    if len(vals) > 1:
        s += " [" + fmt % min(vals) + "-" + fmt % max(vals) + "]"
    extra = [e for e in extra if e is not None]
    if extra:
        s += " (" + fmt % statistics.mean(extra) + ")"
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("linksim_run")
    ap.add_argument("trajectory")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--modes", default="1")
    ap.add_argument("--dur", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--testbed", action="store_true")
    args = ap.parse_args()
    ccs = ["v3"] + ["mode" + m for m in args.modes.split(",") if m] + \
        ["bbr", "cubic"]
    scens = [s for s in scenarios(args.dur) if args.only in s[0]]
    jobs = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for s in scens:
            for cc in ccs:
                for seed in range(1, args.seeds + 1):
                    jobs[(s[0], cc, seed)] = ex.submit(one, args, s, cc,
                                                       seed)
    heads = ["scenario"] + ["bbr2 v3 mode" if c == "v3" else
                            "bbr2 loss_mode=" + c[4:] if
                            c.startswith("mode") else
                            "bbr (v1)" if c == "bbr" else c for c in ccs]
    print("| " + " | ".join(heads) + " |")
    print("|" + "---|" * len(heads))
    for s in scens:
        row = [s[0]]
        for cc in ccs:
            r = [jobs[(s[0], cc, seed)].result()
                 for seed in range(1, args.seeds + 1)]
            row.append(cell([a for a, _ in r],
                            [b for _, b in r] if s[1] == "traj-deep"
                            else []))
        print("| " + " | ".join(row) + " |")
    print("mean [min-max] over seeds 1-%d, %d s (trajectory: 20/40 s), "
          "50 Mbit/s x 40 ms unless the row names its path, per-packet "
          "mode%s" %
          (args.seeds, args.dur, ", the test bed modelled" if args.testbed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
