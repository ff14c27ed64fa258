# SPDX-License-Identifier: GPL-2.0
"""Numbers from the raw data of one iteration, and their summaries.

Throughput is iperf3's receiver goodput; the retransmit rate is iperf3's
sender retransmits over the segments it sent (bytes / MSS); RTTs are the
smoothed RTTs of the ss samples of each data socket.
"""

import csv
import glob
import json
import math
import os
import statistics

MSS = 1448
DATA_SOCKET_MIN_BYTES = 64 * 1024   # iperf3's control connections move ~KB


def mean(xs):
    return statistics.fmean(xs) if xs else float("nan")


def cv(xs):
    """Coefficient of variation: population stddev / mean."""
    if len(xs) < 2:
        return 0.0 if xs else float("nan")
    m = statistics.fmean(xs)
    return statistics.pstdev(xs) / m if m else float("nan")


def percentile(xs, p):
    """Nearest-rank percentile, p in [0, 100]."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = max(0, min(len(s) - 1, int(math.ceil(p / 100.0 * len(s))) - 1))
    return s[k]


def jain(xs):
    sq = sum(x * x for x in xs)
    return (sum(xs) ** 2) / (len(xs) * sq) if xs and sq > 0 else float("nan")


def group_names(groups):
    """One name per flow group: its CC label, made unique by the group's
    number, start delay and extra RTT when a label repeats."""
    counts = {}
    for g in groups:
        counts[g["label"]] = counts.get(g["label"], 0) + 1
    names = []
    for i, g in enumerate(groups, 1):
        name = g["label"]
        if counts[name] > 1:
            extra = []
            if g.get("delay"):
                extra.append("@%gs" % g["delay"])
            if g.get("extra_rtt"):
                extra.append("+%gms" % g["extra_rtt"])
            name = "%s#%d%s" % (name, i, "".join(extra))
        names.append(name)
    return names


def load_iteration(idir, groups):
    """Per-flow totals and time series of one iteration directory.

    Returns {"flows": [{"group", "cc", "mbps", "retrans", "segs", "series":
    [(t, mbps, retrans)]}], "ss": [{"group", "t", "rtt", "cwnd", ...}]}
    or None if the iteration has no usable iperf3 output."""
    names = group_names(groups)
    flows = []
    for i, g in enumerate(groups, 1):
        path = os.path.join(idir, "flows-%d.json" % i)
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            return None
        if "end" not in doc or not doc["end"].get("streams"):
            return None
        series = {}
        for iv in doc.get("intervals", []):
            for s in iv.get("streams", []):
                if s.get("omitted"):
                    continue
                series.setdefault(s["socket"], []).append(
                    (s["start"] + g.get("delay", 0), s["bits_per_second"] / 1e6,
                     s.get("retransmits", 0)))
        for s in doc["end"]["streams"]:
            sock = s["sender"]["socket"]
            flows.append({"group": names[i - 1], "cc": g["label"],
                          "mbps": s["receiver"]["bits_per_second"] / 1e6,
                          "retrans": s["sender"].get("retransmits", 0),
                          "segs": s["sender"]["bytes"] / MSS,
                          "series": series.get(sock, [])})
    return {"flows": flows, "ss": load_ss(os.path.join(idir, "ss.csv"), groups, names)}


def load_ss(path, groups, names):
    """ss samples of the data sockets; a socket's group is found by its
    destination port (point.sh gives group i port 5400 + i, an ESnet job
    names its port in src-cmd)."""
    if not os.path.exists(path):
        return []
    by_port = {g.get("port") or 5400 + i: names[i - 1] for i, g in enumerate(groups, 1)}
    rows, acked = [], {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            try:
                port = int(r["flow"].rsplit(":", 1)[1])
                row = {"flow": r["flow"], "t": float(r["time"]),
                       "rtt": float(r["rtt"]), "cwnd": float(r["cwnd"] or 0),
                       "acked": float(r["acked"] or 0), "cc": r["cc"]}
            except (KeyError, ValueError, IndexError):
                continue
            row["group"] = by_port.get(port, row["cc"])
            acked[r["flow"]] = max(acked.get(r["flow"], 0), row["acked"])
            rows.append(row)
    return [r for r in rows if acked[r["flow"]] >= DATA_SOCKET_MIN_BYTES]


def summarize_point(iterations):
    """Summary rows (one per flow group name, and "all") of one point from
    its loaded iterations."""
    per_group = {}
    totals, jains, cubic_shares = [], [], []
    for it in iterations:
        by_group = {}
        for fl in it["flows"]:
            d = by_group.setdefault(fl["group"], {"mbps": 0.0, "retrans": 0, "segs": 0.0})
            d["mbps"] += fl["mbps"]
            d["retrans"] += fl["retrans"]
            d["segs"] += fl["segs"]
        for name, d in by_group.items():
            pg = per_group.setdefault(name, {"mbps": [], "retrans": 0, "segs": 0.0, "rtt": []})
            pg["mbps"].append(d["mbps"])
            pg["retrans"] += d["retrans"]
            pg["segs"] += d["segs"]
        for r in it["ss"]:
            if r["group"] in per_group:
                per_group[r["group"]]["rtt"].append(r["rtt"])
        total = sum(fl["mbps"] for fl in it["flows"])
        totals.append(total)
        jains.append(jain([fl["mbps"] for fl in it["flows"]]))
        ccs = {fl["cc"] for fl in it["flows"]}
        if "cubic" in ccs and len(ccs) > 1 and total > 0:
            cubic_shares.append(sum(fl["mbps"] for fl in it["flows"]
                                    if fl["cc"] == "cubic") / total)
    rows = []
    all_rtt, all_retrans, all_segs = [], 0, 0.0
    for name, pg in per_group.items():
        rows.append(_row(name, pg["mbps"], pg["retrans"], pg["segs"], pg["rtt"]))
        all_rtt += pg["rtt"]
        all_retrans += pg["retrans"]
        all_segs += pg["segs"]
    if len(per_group) > 1:
        rows.append(_row("all", totals, all_retrans, all_segs, all_rtt))
    for r in rows:
        r["jain"] = mean(jains)
        r["cubic_share"] = mean(cubic_shares) if cubic_shares else None
    return rows


def _row(name, mbps, retrans, segs, rtts):
    return {"cc": name, "n": len(mbps), "mbps_mean": mean(mbps), "mbps_cv": cv(mbps),
            "mbps_min": min(mbps) if mbps else float("nan"),
            "mbps_max": max(mbps) if mbps else float("nan"),
            "retrans_pct": 100.0 * retrans / segs if segs else float("nan"),
            "rtt_p50": percentile(rtts, 50), "rtt_p95": percentile(rtts, 95)}


def load_point(pdir, groups):
    its = []
    for idir in sorted(glob.glob(os.path.join(pdir, "iter-*")),
                       key=lambda p: int(p.rsplit("-", 1)[1])):
        try:
            with open(os.path.join(idir, "run.json")) as f:
                if json.load(f)["rc"] != 0:
                    continue
        except (OSError, ValueError, KeyError):
            continue
        it = load_iteration(idir, groups)
        if it:
            it["dir"] = idir
            its.append(it)
    return its
