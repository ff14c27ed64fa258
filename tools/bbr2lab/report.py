# SPDX-License-Identifier: GPL-2.0
"""Summary tables (markdown and CSV) and plots from a results directory."""

import csv
import glob
import json
import math
import os

from . import stats


def _pyplot():
    """matplotlib's pyplot, imported on the first plot: a run without
    plots (or the tables alone) does not pay for its import."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt

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


def _sim_files(pdir, cfg):
    """A simulator run ships sim.json only (tools/doc/sim-*-raw.tar.xz): make
    the netns-shaped flows-G.json and ss.csv the statistics read from it."""
    for sj in glob.glob(os.path.join(pdir, "iter-*", "sim.json")):
        idir = os.path.dirname(sj)
        if not os.path.exists(os.path.join(idir, "flows-1.json")):
            from . import sim
            with open(sj) as f:
                sim.write_netns_shaped(json.load(f), cfg, idir)


def summarize_job(jdir):
    """(job, [(point, iterations, rows)]) of one job directory."""
    with open(os.path.join(jdir, "job.json")) as f:
        job = json.load(f)
    out = []
    for pt in job["points"]:
        _sim_files(os.path.join(jdir, pt["id"]), pt["config"])
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
    fig, ax = _pyplot().subplots(figsize=(8, 4.5))
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
    fig, ax = _pyplot().subplots(figsize=(8, 4.5))
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



def _rows_by_x_and_cc(points, x_of):
    """Each point's per-CC rows (not the "all" row) keyed by (x, cc), x
    being x_of(point) (None leaves the point out); with the x values and
    the CCs in the order they first appear."""
    xs, ccs, val = [], [], {}
    for pt, _, rows in points:
        x = x_of(pt)
        if x is None:
            continue
        if x not in xs:
            xs.append(x)
        for r in rows:
            if r["cc"] == "all":
                continue
            if r["cc"] not in ccs:
                ccs.append(r["cc"])
            val[x, r["cc"]] = r
    return xs, ccs, val


def plot_bars(points, xkey, title):
    """Grouped bars: mean throughput per flow group at each value of xkey
    (the buffer-size table), min..max as error bars; retransmit % printed
    above each bar."""
    fig, ax = _pyplot().subplots(figsize=(8, 4.5))
    xs, ccs, val = _rows_by_x_and_cc(
        points, lambda pt: str(pt["swept"].get(xkey, pt["id"])) if xkey else pt["id"])
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


def _panel_key(cfg):
    return (cfg["rate"], cfg["rtt"])


def _rate_label(mbit):
    return "%g Gbit/s" % (mbit / 1000.0) if mbit >= 1000 else "%g Mbit/s" % mbit


def plot_loss_grid(points, title):
    """One panel per (rate, RTT): goodput as a fraction of the link vs
    random loss, a colour per flow group and a line style per buffer (the
    DTN table at a glance)."""
    panels = sorted({_panel_key(pt["config"]) for pt, _, _ in points})
    ncol = 2 if len(panels) > 1 else 1
    nrow = (len(panels) + ncol - 1) // ncol
    fig, axes = _pyplot().subplots(nrow, ncol, figsize=(5 * ncol, 3.4 * nrow), squeeze=False,
                             sharey=True)
    styles = ["-", "--", ":", "-."]
    bufs = sorted({jobs_buffer(pt["config"]) for pt, _, _ in points})
    colors = {}
    for i, key in enumerate(panels):
        ax = axes[i // ncol][i % ncol]
        lines = {}
        for pt, _, rows in points:
            cfg = pt["config"]
            if _panel_key(cfg) != key:
                continue
            for r in rows:
                if r["cc"] == "all":
                    continue
                lines.setdefault((r["cc"], jobs_buffer(cfg)), []).append(
                    (max(float(cfg["loss"]), 1e-4), r["mbps_mean"] / cfg["rate"]))
        for (cc, buf), pts in sorted(lines.items()):
            pts.sort()
            c = colors.setdefault(cc, "C%d" % len(colors))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, lw=1,
                    color=c, ls=styles[bufs.index(buf) % len(styles)],
                    label="%s, %g BDP" % (cc, buf))
        ax.set_xscale("log")
        ax.set_title("%s x %g ms" % (_rate_label(key[0]), key[1]), fontsize=9)
        ax.set_xlabel("random loss (%; 0 drawn at 0.0001)")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        if i % ncol == 0:
            ax.set_ylabel("goodput / link rate")
    axes[0][0].legend(fontsize=6, ncol=2)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_mix_panels(points, xkey, title):
    """One panel per mix: each flow group's throughput (bars) against the
    swept xkey (e.g. the buffer), retransmit % above each bar; the
    ESnet buffer table, where the same CC label recurs across mixes."""
    mixes = []
    for pt, _, _ in points:
        if pt["config"]["mix"] not in mixes:
            mixes.append(pt["config"]["mix"])
    ncol = 2 if len(mixes) > 1 else 1
    nrow = (len(mixes) + ncol - 1) // ncol
    fig, axes = _pyplot().subplots(nrow, ncol, figsize=(5.5 * ncol, 3.2 * nrow), squeeze=False,
                             sharey=True)
    for i, mix in enumerate(mixes):
        ax = axes[i // ncol][i % ncol]
        def x_of(pt, mix=mix):
            if pt["config"]["mix"] != mix:
                return None
            x = pt["swept"].get(xkey, pt["id"])
            if xkey == "buffer_bytes":
                x = "%g MB" % (float(x) / 1e6)
            return x
        xs, ccs, val = _rows_by_x_and_cc(points, x_of)
        width = 0.8 / max(len(ccs), 1)
        for j, cc in enumerate(ccs):
            idx = [k for k, x in enumerate(xs) if (x, cc) in val]
            rs = [val[xs[k], cc] for k in idx]
            bars = ax.bar([k - 0.4 + width * (j + 0.5) for k in idx],
                          [r["mbps_mean"] / 1000.0 for r in rs], width, label=cc,
                          color=PLOT_COLORS.get(cc))
            for b, r in zip(bars, rs):
                ax.annotate("%.1f%%" % r["retrans_pct"], (b.get_x() + b.get_width() / 2,
                            b.get_height()), ha="center", va="bottom", fontsize=5)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, fontsize=7)
        ax.set_title(mix, fontsize=8)
        ax.legend(fontsize=6)
        if i % ncol == 0:
            ax.set_ylabel("Gbit/s (labels: retransmit %)")
    for k in range(len(mixes), nrow * ncol):
        axes[k // ncol][k % ncol].axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


PLOT_COLORS = {"bbr2": "C0", "bbr2v2": "C2", "bbr2v3": "C0", "bbr": "C1", "cubic": "C3"}


def jobs_buffer(cfg):
    from . import jobs
    return round(jobs.buffer_bdp(cfg), 3)


def pivot_loss_tables(points):
    """Markdown: per (rate, RTT), rows buffer x loss, a column per flow
    group: goodput in Gbit/s, retransmit %, and the median queueing delay
    (ss RTT p50 minus the base RTT)."""
    out = []
    for key in sorted({_panel_key(pt["config"]) for pt, _, _ in points}):
        ccs, cells, rows_order = [], {}, []
        for pt, _, rows in points:
            cfg = pt["config"]
            if _panel_key(cfg) != key:
                continue
            rk = (jobs_buffer(cfg), float(cfg["loss"]))
            if rk not in rows_order:
                rows_order.append(rk)
            for r in rows:
                if r["cc"] == "all":
                    continue
                if r["cc"] not in ccs:
                    ccs.append(r["cc"])
                cells[rk, r["cc"]] = "%.2f / %.2f %% / %+.1f ms" % (
                    r["mbps_mean"] / 1000.0, r["retrans_pct"], r["rtt_p50"] - cfg["rtt"])
        out += ["%s x %g ms: goodput Gbit/s / retransmits / median queueing delay"
                % (_rate_label(key[0]), key[1]), "",
                "| buffer BDP | loss % | " + " | ".join(ccs) + " |",
                "|---|---|" + "|".join("---" for _ in ccs) + "|"]
        for rk in sorted(rows_order):
            out.append("| %g | %g | " % rk + " | ".join(cells.get((rk, c), "-") for c in ccs)
                       + " |")
        out.append("")
    return "\n".join(out)


def pivot_mix_table(points, xkey):
    """Markdown: a row per value of xkey (e.g. the buffer), a column per
    flow group of each mix with more than one group: Gbit/s (retransmit %)."""
    cols, cells, xs = [], {}, []
    for pt, _, rows in points:
        if len(pt["config"]["groups"]) < 2 or xkey not in pt["swept"]:
            continue
        x = pt["swept"][xkey]
        if x not in xs:
            xs.append(x)
        for r in rows:
            if r["cc"] == "all":
                continue
            col = "%s: %s" % (pt["config"]["mix"], r["cc"])
            if col not in cols:
                cols.append(col)
            cells[x, col] = "%.2f (%.1f %%)" % (r["mbps_mean"] / 1000.0, r["retrans_pct"])
    if not cols:
        return ""
    label = {"buffer_bytes": "buffer MB", "buffer_bdp": "buffer BDP"}.get(xkey, xkey)
    conv = (lambda v: "%g" % (float(v) / 1e6)) if xkey == "buffer_bytes" else str
    out = ["Gbit/s (retransmit %) per flow group, competing flows", "",
           "| %s | " % label + " | ".join(cols) + " |",
           "|---|" + "|".join("---" for _ in cols) + "|"]
    for x in xs:
        out.append("| %s | " % conv(x) + " | ".join(cells.get((x, c), "-") for c in cols) + " |")
    return "\n".join(out)


def plot_rtt_cdf(points, title):
    """CDF of the smoothed RTT samples, per flow group (per point when
    there are few points, pooled by CC label otherwise)."""
    fig, ax = _pyplot().subplots(figsize=(8, 4.5))
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
        elif kind == "mix_panels":
            figs.append(("mix-panels", plot_mix_panels(points, xkey, title)))
        elif kind == "loss_grid":
            figs.append(("loss-grid", plot_loss_grid(points, title)))
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
        if job.get("report", {}).get("pivot") == "loss":
            md += [pivot_loss_tables(points), ""]
        elif job.get("report", {}).get("pivot") == "mix":
            md += [pivot_mix_table(points, job["report"].get("x")), ""]
        md += cpu_table(os.path.dirname(jpath), job)
        for name, fig in (job_figures(job, points) if plots else []):
            paths = _save(fig, os.path.join(pdir, "%s-%s" % (job["name"], name)), formats)
            _pyplot().close(fig)
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


# --------------------------------------------------------------- compare ---

COMPARE_METRICS = (("mbps", "goodput Mbit/s", 0.02, 0.0),
                   ("retrans_pct", "retrans %", 0.0, 0.1),
                   ("qdelay", "queueing delay ms", 0.0, 2.0))


def _per_iteration(its, groups):
    """Per flow group: lists over iterations of goodput (Mbit/s, summed over
    the group's flows), retransmit % and median queueing delay (ms, ss RTT
    samples minus the group's base RTT)."""
    out = {}
    for it in its:
        by = {}
        for fl in it["flows"]:
            d = by.setdefault(fl["group"], {"mbps": 0.0, "retrans": 0, "segs": 0.0})
            d["mbps"] += fl["mbps"]
            d["retrans"] += fl["retrans"]
            d["segs"] += fl["segs"]
        rtts = {}
        for r in it["ss"]:
            rtts.setdefault(r["group"], []).append(r["rtt"])
        for name, d in by.items():
            o = out.setdefault(name, {"mbps": [], "retrans_pct": [], "rtt": []})
            o["mbps"].append(d["mbps"])
            o["retrans_pct"].append(100.0 * d["retrans"] / d["segs"] if d["segs"] else 0.0)
            o["rtt"].append(stats.percentile(rtts.get(name, []), 50))
    return out


def compare(ref_dir, other_dirs):
    """Markdown: per job, point and flow group, the reference runs' (the VM's)
    mean and min-max beside each other directory's mean; a value is "in"
    the spread if within [min, max] widened by the range itself and a floor
    (2 % of goodput, 0.1 point of retransmits, 2 ms of delay), else "OUT"."""
    lines = []
    for jpath in sorted(glob.glob(os.path.join(ref_dir, "*", "job.json"))):
        jname = os.path.basename(os.path.dirname(jpath))
        with open(jpath) as f:
            job = json.load(f)
        heads = ["point", "flows", "metric", "kernel mean [min-max]"]
        heads += [os.path.basename(os.path.normpath(d)) for d in other_dirs]
        lines += ["## %s" % jname, "", "| " + " | ".join(heads) + " |",
                  "|" + "|".join("---" for _ in heads) + "|"]
        outside = 0
        for pt in job["points"]:
            cfg = pt["config"]
            groups = cfg["groups"]
            names = stats.group_names(groups)
            base = {n: cfg["rtt"] + g.get("extra_rtt", 0) for n, g in zip(names, groups)}
            ref = _per_iteration(stats.load_point(os.path.join(ref_dir, jname, pt["id"]),
                                                  groups), groups)
            others = [_per_iteration(stats.load_point(os.path.join(d, jname, pt["id"]),
                                                      groups), groups) for d in other_dirs]
            for name in names:
                if name not in ref:
                    continue
                for key, label, rel, floor in COMPARE_METRICS:
                    src = "rtt" if key == "qdelay" else key
                    vals = [v - base[name] if key == "qdelay" else v
                            for v in ref[name][src] if not math.isnan(v)]
                    if not vals:
                        continue
                    lo, hi, m = min(vals), max(vals), mean_(vals)
                    slack = (hi - lo) + max(rel * abs(m), floor)
                    cells = [pt["id"], name, label, "%.2f [%.2f-%.2f]" % (m, lo, hi)]
                    for o in others:
                        ov = [v - base[name] if key == "qdelay" else v
                              for v in o.get(name, {}).get(src, []) if not math.isnan(v)]
                        if not ov:
                            cells.append("-")
                            continue
                        om = mean_(ov)
                        ok = lo - slack <= om <= hi + slack
                        outside += not ok
                        cells.append("%.2f %s" % (om, "in" if ok else "**OUT**"))
                    lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "%d value(s) outside the kernel's spread." % outside, ""]
    return "\n".join(lines)


def mean_(xs):
    return sum(xs) / len(xs)


# The sender's TCP counters worth setting side by side: the first four the
# simulator keeps too (sim.sim_mib); the rest are what the kernel does that
# the simulator does not model (TLP, undo, reordering, lost retransmits).
MIB_COUNTERS = ("Tcp.OutSegs", "Tcp.RetransSegs", "TcpExt.TCPSackRecovery",
                "TcpExt.TCPTimeouts", "TcpExt.TCPLossProbes",
                "TcpExt.TCPLossProbeRecovery", "TcpExt.TCPLostRetransmit",
                "TcpExt.TCPDSACKRecv", "TcpExt.TCPDSACKOfoRecv",
                "TcpExt.TCPFullUndo", "TcpExt.TCPPartialUndo",
                "TcpExt.TCPDSACKUndo", "TcpExt.TCPLossUndo",
                "TcpExt.TCPSpuriousRTOs", "TcpExt.TCPSACKReorder",
                "TcpExt.TCPSackFailures", "TcpExt.TCPSACKReneging",
                "TcpExt.TCPSpuriousRtxHostQueues", "TcpExt.TCPSlowStartRetrans",
                "TcpExt.TCPFastRetrans")


def _run_infos(pdir):
    """Every iteration's run.json of a point, in iteration order."""
    infos = []
    for rj in sorted(glob.glob(os.path.join(pdir, "iter-*", "run.json"))):
        with open(rj) as f:
            infos.append(json.load(f))
    return infos


def _mib_runs(pdir, side="snd"):
    runs = []
    for info in _run_infos(pdir):
        mib = (info.get("mib") or {}).get(side)
        if info.get("rc") == 0 and mib is not None:
            runs.append(mib)
    return runs


def sent_over_paced(idir, mss=1448, skip=10.0):
    """From one run's ss.csv: data packets sent (retransmits included) over
    what the flows' pacing rates allowed, summed over flows and the sample
    intervals after the first `skip` seconds in which the flow sent
    something; None without the columns (runs recorded without them).  Below 1 where cwnd, not pacing, held a flow
    back -- and where the host sent slower than it paced."""
    path = os.path.join(idir, "ss.csv")
    if not os.path.exists(path):
        return None
    last, t0, sent, paced = {}, None, 0.0, 0.0
    with open(path) as f:
        for r in csv.DictReader(f):
            try:
                t, segs, rate = float(r["time"]), float(r["segs_out"]), float(r["pacing_rate"])
            except (KeyError, TypeError, ValueError):
                continue
            t0 = t if t0 is None else t0
            prev = last.get(r["flow"])
            last[r["flow"]] = (t, segs, rate)
            # a flow that sent nothing (iperf3's control connection) is idle,
            # not held back by its pacing
            if prev and t - t0 > skip and t > prev[0] and segs > prev[1]:
                sent += (segs - prev[1]) * mss * 8 / 1e6
                paced += prev[2] * (t - prev[0])
    return sent / paced if paced > 0 else None


def mib_table(ref_dir, other_dirs):
    """Markdown: per job and point, the sender's TCP MIB counters (per run:
    the whole point, every flow) in the reference runs, mean [min-max],
    beside each other directory's mean; counters a simulated run does not
    keep show "-" there, counters zero everywhere are left out.  First, per
    point, the packets the flows sent over what their pacing allowed
    (sent_over_paced: how closely the host kept its pacing rate)."""
    lines = []
    for jpath in sorted(glob.glob(os.path.join(ref_dir, "*", "job.json"))):
        jname = os.path.basename(os.path.dirname(jpath))
        with open(jpath) as f:
            job = json.load(f)
        heads = ["point", "counter", "kernel mean [min-max]"]
        heads += [os.path.basename(os.path.normpath(d)) for d in other_dirs]
        lines += ["## %s: sender TCP MIB" % jname, "", "| " + " | ".join(heads) + " |",
                  "|" + "|".join("---" for _ in heads) + "|"]
        for pt in job["points"]:
            ref = _mib_runs(os.path.join(ref_dir, jname, pt["id"]))
            others = [_mib_runs(os.path.join(d, jname, pt["id"])) for d in other_dirs]
            if not ref:
                continue
            ratios = [[v for v in (sent_over_paced(i) for i in sorted(glob.glob(
                os.path.join(d, jname, pt["id"], "iter-*")))) if v is not None]
                for d in [ref_dir] + list(other_dirs)]
            if ratios[0]:
                r0 = ratios[0]
                lines.append("| %s | sent / paced (ss) | %.2f [%.2f-%.2f] | %s |" % (
                    pt["id"], mean_(r0), min(r0), max(r0),
                    " | ".join("%.2f" % mean_(r) if r else "-" for r in ratios[1:])))
            busy = [100.0 * i["cpu_busy"]
                    for i in _run_infos(os.path.join(ref_dir, jname, pt["id"]))
                    if i.get("cpu_busy") is not None]
            if busy:
                lines.append("| %s | CPU busy %% (host) | %.0f [%.0f-%.0f] | %s |" % (
                    pt["id"], mean_(busy), min(busy), max(busy),
                    " | ".join("-" for _ in other_dirs)))
            for name in MIB_COUNTERS:
                vals = [r.get(name, 0) for r in ref]
                if not any(vals) and not any(o.get(name) for runs in others for o in runs):
                    continue
                cells = [pt["id"], name.split(".", 1)[1],
                         "%.0f [%d-%d]" % (mean_(vals), min(vals), max(vals))]
                for runs in others:
                    ov = [o[name] for o in runs if name in o]
                    cells.append("%.0f" % mean_(ov) if ov else "-")
                lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def vm_c_table(ref_dir, job="sim-validation", rate=50, rtt=40):
    """The C table of selftests/model/tests/vm_results.h: per point of the
    reference run at rate x rtt with one flow group, the kernel's mean, min
    and max goodput (Mbit/s, all the group's flows), retransmit % and median
    queueing delay."""
    with open(os.path.join(ref_dir, job, "job.json")) as f:
        jb = json.load(f)
    lines = []
    for pt in jb["points"]:
        cfg = pt["config"]
        groups = cfg["groups"]
        if cfg["rate"] != rate or cfg["rtt"] != rtt or len(groups) != 1:
            continue
        name = stats.group_names(groups)[0]
        its = stats.load_point(os.path.join(ref_dir, job, pt["id"]), groups)
        per = _per_iteration(its, groups).get(name)
        if not per:
            continue
        q = [v - cfg["rtt"] for v in per["rtt"]]
        trip = []
        for vals in (per["mbps"], per["retrans_pct"], q):
            trip.append("{ %.2f, %.2f, %.2f }" % (mean_(vals), min(vals), max(vals)))
        lines.append('\t{ "%s", %d, %g, %d, %s, { NULL, NULL, NULL } },  /* %d runs */' % (
            groups[0]["label"], groups[0]["n"], jobs_buffer(cfg),
            round(float(cfg["loss"]) * 10000), ", ".join(trip), len(per["mbps"])))
    return "\n".join(lines)
