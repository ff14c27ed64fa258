# SPDX-License-Identifier: GPL-2.0
"""Running jobs in the model simulator (selftests/model, frame mode).

Each point and iteration runs selftests/model's linksim_run (src/ compiled
unchanged in userspace, the kernel's own tcp_bbr.c and tcp_cubic.c beside
it) and writes, besides its raw JSON line (sim.json), the same files a
netns run leaves, so the report, tables and plots are made by the same
code:
  flows-G.json   iperf3-shaped: per flow the goodput, retransmits and bytes
                 sent, and intervals of ss_interval seconds
  ss.csv         per flow and sample: smoothed RTT, cwnd, pacing rate and
                 packets sent so far
  run.json       rc, config, CPU seconds, "where": "sim", and "mib": the
                 counters a sender's TCP MIB would show (sim_mib)
Iteration k uses random seed k (the loss process); a loss-free point is
deterministic, so its iterations are equal.
"""

import csv
import json
import os
import subprocess
import time

from . import jobs

LAB_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(LAB_DIR))
MODEL = os.path.join(REPO, "selftests", "model")
MSS = 1448
DEFAULT_FRAME = 45          # one 64 KB GSO frame of 1448-byte segments


def log(msg):
    import sys
    print("bbr2-lab: " + msg, file=sys.stderr, flush=True)


def kernel_source():
    """The kernel source files the model links tcp_bbr.c / tcp_cubic.c from
    (selftests/runner/fetch-kernel-source.sh), or None."""
    res = subprocess.run([os.path.join(REPO, "selftests", "runner", "fetch-kernel-source.sh")],
                         capture_output=True, text=True)
    return res.stdout.strip() if res.returncode == 0 else None


def build(ksrc=None):
    """Build linksim_run (with the kernel's CCs if their source is there) and
    return its path."""
    ksrc = ksrc or kernel_source()
    cmd = ["make", "-s", "-C", MODEL, "linksim-run"]
    if ksrc:
        cmd.append("KSRC=" + ksrc)
    else:
        log("no kernel source: bbr (v1) and cubic points will fail")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1]


def sim_args(cfg, meta, seed):
    args = ["rate=%gM" % cfg["rate"], "rtt_ms=%g" % cfg["rtt"],
            "loss=%g" % cfg["loss"], "mix=%s" % cfg["mix"].replace(" ", ""),
            "dur=%g" % meta["duration"], "ts=%g" % meta["ss_interval"],
            "skip=%g" % min(meta.get("skip", 10), meta["duration"]),
            "frame=%d" % meta.get("frame", DEFAULT_FRAME),
            "ack_every=%d" % meta.get("ack_every", 1), "seed=%d" % seed]
    if meta.get("pace_late_us"):
        args.append("pace_late_us=%d" % meta["pace_late_us"])
    if meta.get("link_late_us"):
        args.append("link_late_us=%d" % meta["link_late_us"])
    if cfg.get("buffer_bytes"):
        args.append("buf_bytes=%d" % int(float(cfg["buffer_bytes"])))
    else:
        args.append("buf_bdp=%g" % float(cfg["buffer_bdp"]))
    for name, value in cfg["params"].items():
        args.append("param.%s=%s" % (name, value))
    return args


def write_netns_shaped(doc, cfg, outdir):
    """flows-G.json and ss.csv as a netns run writes them (see stats.py)."""
    ts = doc.get("ts", 0)
    flows = doc["flows"]
    k = 0
    for gi, g in enumerate(cfg["groups"], 1):
        streams, end = [], []
        for _ in range(g["n"]):
            fl = flows[k]
            series = doc["series_bps"][k] if ts else []
            retr = doc["series_retrans"][k] if ts else []
            for i, bps in enumerate(series):
                t = (i + 1) * ts - ts - g["delay"]
                if t < 0:
                    continue
                streams.append((i, {"socket": k, "start": t, "bits_per_second": bps,
                                    "retransmits": int(retr[i])}))
            end.append({"sender": {"socket": k, "retransmits": fl["retrans"],
                                   "bytes": fl["sent"] * MSS},
                        "receiver": {"bits_per_second": fl["goodput_bps"]}})
            k += 1
        intervals = {}
        for i, s in streams:
            intervals.setdefault(i, []).append(s)
        out = {"intervals": [{"streams": intervals[i]} for i in sorted(intervals)],
               "end": {"streams": end}}
        with open(os.path.join(outdir, "flows-%d.json" % gi), "w") as f:
            json.dump(out, f)
    with open(os.path.join(outdir, "ss.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["time", "flow", "cc", "rtt", "minrtt", "cwnd", "acked",
                    "pacing_rate", "segs_out"])
        k = 0
        for gi, g in enumerate(cfg["groups"], 1):
            for _ in range(g["n"]):
                acked = 0.0
                pacing = doc.get("series_pacing_mbps", [[]] * len(flows))[k]
                segs = doc.get("series_segs_out", [[]] * len(flows))[k]
                for i, rtt in enumerate(doc.get("series_srtt_ms", [[]] * len(flows))[k]):
                    acked += doc["series_bps"][k][i] * ts / 8
                    if rtt <= 0:
                        continue
                    w.writerow(["%.3f" % ((i + 1) * ts), "10.0.%d.1:%d" % (k, 5400 + gi),
                                g["cc"], rtt, "", doc["series_cwnd"][k][i], "%.0f" % acked,
                                pacing[i] if i < len(pacing) else "",
                                segs[i] if i < len(segs) else ""])
                k += 1


def sim_mib(doc):
    """The simulator's counters under the names of the sender's TCP MIB
    (runner.mib_delta), summed over its flows, so a netns run and a
    simulated one compare counter by counter.  No TLP, F-RTO or undo is
    modelled: TCPLossProbes and the undo counters have no counterpart."""
    flows = doc.get("flows", [])
    return {"Tcp.OutSegs": sum(f["sent"] for f in flows),
            "Tcp.RetransSegs": sum(f["retrans"] for f in flows),
            "TcpExt.TCPSackRecovery": sum(f.get("recoveries", 0) for f in flows),
            "TcpExt.TCPTimeouts": sum(f.get("rtos", 0) for f in flows)}


def _idle():
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def run_point(binary, point, meta, outdir, seed, nice=0, idle=False):
    cfg = point["config"]
    cmd = ([("nice"), "-n", str(nice)] if nice else []) + [binary] + sim_args(cfg, meta, seed)
    t0 = time.time()
    res = subprocess.run(cmd, capture_output=True, text=True,
                         preexec_fn=_idle if idle else None)
    with open(os.path.join(outdir, "point.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + res.stderr)
    rc = res.returncode
    doc = None
    if rc == 0:
        try:
            doc = json.loads(res.stdout)
        except ValueError:
            rc = 1
    if doc:
        with open(os.path.join(outdir, "sim.json"), "w") as f:
            f.write(res.stdout)
        write_netns_shaped(doc, cfg, outdir)
    info = {"rc": rc, "start": t0, "seconds": round(time.time() - t0, 1),
            "cpu_s": doc["cpu_s"] if doc else None, "config": cfg, "where": "sim",
            "seed": seed, "command": " ".join(cmd[cmd.index(binary):]),
            "version": next((g["version"] for g in cfg["groups"] if g["version"]),
                            3 if any(g["cc"] == "bbr2" for g in cfg["groups"]) else None),
            "kernel": "model simulator (selftests/model, frame=%d)"
                      % meta.get("frame", DEFAULT_FRAME),
            "mib": {"snd": sim_mib(doc)} if doc else None}
    with open(os.path.join(outdir, "run.json"), "w") as f:
        json.dump(info, f, indent=1)
    return rc


def run_sim(job_list, out, nice=0, idle=False):
    binary = build()
    failed, t_start = 0, time.time()
    for job, point, it, idir, done, total in jobs.each_run(job_list, out, resume=True):
        log("[%d/%d] %s %s iter %d (elapsed %ds)" % (
            done, total, job["name"], point["id"], it, time.time() - t_start))
        if run_point(binary, point, job["meta"], idir, it, nice, idle) != 0:
            failed += 1
            log("  FAILED, see %s/point.log" % idir)
    return failed


def buffer_pkts(cfg):
    return jobs.buffer_bdp(cfg) * cfg["rate"] * 125 * cfg["rtt"] / MSS
