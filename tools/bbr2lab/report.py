# SPDX-License-Identifier: GPL-2.0
"""Summary tables (markdown and CSV) and plots from a results directory."""

import csv
import glob
import json
import math
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import stats  # noqa: E402

COLUMNS = [("point", "point"), ("cc", "flows"), ("n", "runs"),
           ("mbps_mean", "Mbit/s mean"), ("mbps_cv", "CV"), ("mbps_min", "min"),
           ("mbps_max", "max"), ("retrans_pct", "retrans %"),
           ("rtt_p50", "RTT p50 ms"), ("rtt_p95", "RTT p95 ms"),
           ("jain", "Jain"), ("cubic_share", "CUBIC share")]


def _fmt(v, key):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, float):
        if key in ("mbps_cv", "jain", "cubic_share", "retrans_pct"):
            return "%.3f" % v
        return "%.1f" % v
    return str(v)


def summarize_job(jdir):
    """(job, [(point, iterations, rows)]) of one job directory."""
    with open(os.path.join(jdir, "job.json")) as f:
        job = json.load(f)
    out = []
    for pt in job["points"]:
        its = stats.load_point(os.path.join(jdir, pt["id"]), pt["config"]["groups"])
        rows = stats.summarize_point(its) if its else []
        for r in rows:
            r["point"] = pt["id"]
        out.append((pt, its, rows))
    return job, out


def markdown_table(rows):
    lines = ["| " + " | ".join(h for _, h in COLUMNS) + " |",
             "|" + "|".join("---" for _ in COLUMNS) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(_fmt(r.get(k), k) for k, _ in COLUMNS) + " |")
    return "\n".join(lines)


def cpu_table(jdir, job):
    """Markdown lines of per-core CPU (two-host runs record it on both
    ends): per point and host, busy % over the sampled cores and of the busiest
    core, mean over the runs, with the max and CV of the busiest core's
    samples.  [] when no run recorded CPU."""
    lines = []
    for pt in job["points"]:
        per_role = {}
        for rj in sorted(glob.glob(os.path.join(jdir, pt["id"], "iter-*", "run.json"))):
            try:
                with open(rj) as f:
                    cpu = json.load(f).get("cpu") or {}
            except (OSError, ValueError):
                continue
            for role, c in cpu.items():
                if not c.get("busiest"):
                    continue
                b = c["cores"][c["busiest"]]
                per_role.setdefault(role, []).append((c.get("all"), c["busiest"], b))
        for role, its in sorted(per_role.items()):
            alls = [a for a, _, _ in its if a is not None]
            lines.append("| %s | %s | %d | %s | %s | %.1f | %.1f | %s |" % (
                pt["id"], role, len(its),
                "%.1f" % stats.mean(alls) if alls else "-",
                "/".join(sorted({c for _, c, _ in its})),
                stats.mean([b["mean"] for _, _, b in its]),
                max(b["max"] for _, _, b in its),
                "%.3f" % stats.mean([b["cv"] for _, _, b in its if b["cv"] is not None])
                if any(b["cv"] is not None for _, _, b in its) else "-"))
    if not lines:
        return []
    return ["CPU busy % per host (1-s samples; busiest core = the highest mean):", "",
            "| point | host | runs | cores mean | busiest core | its mean | its max | its CV |",
            "|---|---|---|---|---|---|---|---|"] + lines + [""]


# ------------------------------------------------------------------ plots ---

def _save(fig, base, formats):
    paths = []
    for ext in formats:
        p = "%s.%s" % (base, ext)
        fig.savefig(p, bbox_inches="tight")
        paths.append(p)
    return paths


def plot_timeseries(it, title):
    """Per-flow and summed throughput over time, retransmits on a second
    axis (the ESnet paper's figure style)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax2 = ax.twinx()
    total, retrans = {}, {}
    nflows = len(it["flows"])
    labelled = set()
    for fl in it["flows"]:
        if not fl["series"]:
            continue
        ts = [s[0] for s in fl["series"]]
        # many flows: one legend entry per group, not per flow
        label = fl["group"] if nflows <= 8 or fl["group"] not in labelled else None
        labelled.add(fl["group"])
        ax.plot(ts, [s[1] for s in fl["series"]], lw=0.8, alpha=0.7,
                label=label)
        for t, mbps, rt in fl["series"]:
            k = round(t * 2) / 2
            total[k] = total.get(k, 0.0) + mbps
            retrans[k] = retrans.get(k, 0) + rt
    ks = sorted(total)
    ax.plot(ks, [total[k] for k in ks], color="black", lw=1.8, label="sum")
    ax2.bar(ks, [retrans[k] for k in ks], width=0.4, color="tab:red", alpha=0.35,
            label="retransmits")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("throughput (Mbit/s)")
    ax2.set_ylabel("retransmitted segments per 0.5 s")
    ax.set_title(title, fontsize=9)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper right")
    ax.set_ylim(bottom=0)
    ax2.set_ylim(bottom=0)
    return fig


def plot_curve(job, points, xkey, title):
    """Mean throughput per flow group vs a swept numeric key (e.g. loss),
    min..max as error bars; one line per (mix, group, other settings)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    lines = {}
    for pt, _, rows in points:
        if xkey not in pt["swept"]:
            continue
        others = ", ".join("%s=%s" % (k, v) for k, v in pt["swept"].items() if k != xkey)
        for r in rows:
            if r["cc"] == "all":
                continue
            lines.setdefault("%s: %s" % (others, r["cc"]), []).append(
                (float(pt["swept"][xkey]), r["mbps_mean"], r["mbps_min"], r["mbps_max"]))
    for label, pts in sorted(lines.items()):
        pts.sort()
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        err = [[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", ms=3, capsize=2, lw=1, label=label)
    if xkey == "loss":
        ax.set_xscale("log")
        ax.set_xlabel("random loss (%)")
    else:
        ax.set_xlabel(xkey)
    ax.set_ylabel("throughput (Mbit/s)")
    ax.set_title(title, fontsize=9)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=6, ncol=2)
    return fig


def plot_bars(points, xkey, title):
    """Grouped bars: mean throughput per flow group at each value of xkey
    (the buffer-size table), min..max as error bars; retransmit % printed
    above each bar."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs, ccs, val = [], [], {}
    for pt, _, rows in points:
        x = str(pt["swept"].get(xkey, pt["id"])) if xkey else pt["id"]
        if x not in xs:
            xs.append(x)
        for r in rows:
            if r["cc"] == "all":
                continue
            if r["cc"] not in ccs:
                ccs.append(r["cc"])
            val[x, r["cc"]] = r
    width = 0.8 / max(len(ccs), 1)
    for j, cc in enumerate(ccs):
        idx = [i for i, x in enumerate(xs) if (x, cc) in val]
        rs = [val[xs[i], cc] for i in idx]
        pos = [i - 0.4 + width * (j + 0.5) for i in idx]
        bars = ax.bar(pos, [r["mbps_mean"] for r in rs], width,
                      yerr=[[r["mbps_mean"] - r["mbps_min"] for r in rs],
                            [r["mbps_max"] - r["mbps_mean"] for r in rs]],
                      capsize=2, label=cc)
        for b, r in zip(bars, rs):
            ax.annotate("%.2f%%" % r["retrans_pct"], (b.get_x() + b.get_width() / 2,
                        b.get_height()), ha="center", va="bottom", fontsize=6)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs, rotation=20 if len(max(xs, key=len, default="")) > 8 else 0,
                       fontsize=7)
    ax.set_xlabel({"buffer_bdp": "bottleneck buffer (BDP)"}.get(xkey, xkey or "point"))
    ax.set_ylabel("throughput (Mbit/s); labels: retransmit %")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    return fig


def plot_rtt_cdf(points, title):
    """CDF of the smoothed RTT samples, per flow group (per point when
    there are few points, pooled by CC label otherwise)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    series = {}
    per_point = len(points) <= 6
    for pt, its, _ in points:
        for it in its:
            for r in it["ss"]:
                key = "%s %s" % (pt["id"], r["group"]) if per_point else r["group"]
                series.setdefault(key, []).append(r["rtt"])
    for label, xs in sorted(series.items()):
        xs.sort()
        ys = [(i + 1) / len(xs) for i in range(len(xs))]
        ax.step(xs, ys, where="post", lw=1, label=label)
    ax.set_xlabel("smoothed RTT (ms)")
    ax.set_ylabel("fraction of ss samples")
    ax.set_ylim(0, 1.02)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=6)
    return fig


# ----------------------------------------------------------------- report ---

def job_figures(job, points):
    """(name, figure) of every plot the job's [report] asks for."""
    rep = job.get("report", {})
    kinds = rep.get("plots", ["timeseries", "rtt_cdf"])
    xkey = rep.get("x")
    title = job["meta"].get("title") or job["name"]
    figs = []
    for kind in kinds:
        if kind == "timeseries":
            for pt, its, _ in points:
                if its:
                    figs.append(("timeseries-" + pt["id"], plot_timeseries(
                        its[0], "%s: %s (iteration 1)" % (job["name"], pt["id"]))))
        elif kind == "loss_curve":
            figs.append(("loss-curve", plot_curve(job, points, xkey or "loss", title)))
        elif kind in ("buffer_bars", "param_bars"):
            figs.append((kind.replace("_", "-"), plot_bars(
                points, xkey if kind == "buffer_bars" else None, title)))
        elif kind == "rtt_cdf":
            figs.append(("rtt-cdf", plot_rtt_cdf(points, title)))
    return figs


def _label(run, cap):
    text = ("Measured %s on %s, kernel %s, with `%s`."
            % (run.get("date_utc", "?"), run.get("platform", "?"),
               run.get("kernel", "?"), run.get("command", "?")))
    parts = ["%s %s of %s Mbit/s" % (w, c.get("cubic_x4_mbps"), c.get("rate"))
             for w, c in sorted(cap.items())]
    if parts:
        text += (" Capacity check (4 cubic flows through a clean dumbbell; well "
                 "below the rate means the machine, not the link, was the "
                 "bottleneck): " + ", ".join(parts) + ".")
    else:
        text += " No capacity check was recorded for this run."
    return text


def write_report(rdir, formats=("png", "svg"), plots=True):
    """Write summary.md, summary.csv and plots/ under rdir; return the
    markdown."""
    run = {}
    if os.path.exists(os.path.join(rdir, "run.json")):
        with open(os.path.join(rdir, "run.json")) as f:
            run = json.load(f)
    cap = {}
    if os.path.exists(os.path.join(rdir, "capacity.json")):
        with open(os.path.join(rdir, "capacity.json")) as f:
            cap = json.load(f)
    pdir = os.path.join(rdir, "plots")
    os.makedirs(pdir, exist_ok=True)
    md = ["# bbr2-lab results", "", _label(run, cap), ""]
    all_rows = []
    for jpath in sorted(glob.glob(os.path.join(rdir, "*", "job.json"))):
        job, points = summarize_job(os.path.dirname(jpath))
        m = job["meta"]
        rows = [r for _, _, rs in points for r in rs]
        for r in rows:
            r["job"] = job["name"]
        all_rows += rows
        md += ["## %s: %s" % (job["name"], m.get("title", "")), "",
               "%d point(s), %d iteration(s) of %d s each; throughput is iperf3 "
               "receiver goodput, RTT from ss samples every %g s." % (
                   len(points), m["iterations"], m["duration"], m["ss_interval"]), "",
               markdown_table(rows), ""]
        md += cpu_table(os.path.dirname(jpath), job)
        for name, fig in (job_figures(job, points) if plots else []):
            paths = _save(fig, os.path.join(pdir, "%s-%s" % (job["name"], name)), formats)
            plt.close(fig)
            md.append("![%s %s](%s)" % (job["name"], name,
                                          os.path.relpath(paths[0], rdir)))
        md.append("")
    with open(os.path.join(rdir, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["job"] + [k for k, _ in COLUMNS],
                           extrasaction="ignore")
        w.writeheader()
        for r in all_rows:
            w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in ["job"] + [c for c, _ in COLUMNS]})
    text = "\n".join(md)
    with open(os.path.join(rdir, "summary.md"), "w") as f:
        f.write(text + "\n")
    return text
