# SPDX-License-Identifier: GPL-2.0
"""Running jobs: here (root, a kernel that loads tcp_bbr2) or in the VM.

Raw data layout under OUT:
  run.json                         how, where and when it was run
  <job>/job.json                   the expanded job (points, settings)
  <job>/<point>/iter-<k>/          point.sh output: flows-G.json (iperf3),
                                   ss.txt -> ss.csv, qdisc.txt, run.json
                                   (with the end hosts' TCP MIB deltas)
"""

import csv
import datetime
import glob
import json
import os
import shlex
import subprocess
import sys
import time

from . import jobs

LAB_DIR = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(LAB_DIR)
REPO = os.path.dirname(TOOLS)
SELFTESTS = os.path.join(REPO, "selftests")
PARAMS_DIR = "/sys/module/tcp_bbr2/parameters"
SS_FIELDS = ("time", "flow", "cc", "rtt", "minrtt", "cwnd", "acked", "retrans",
             "bw", "mrtt", "pacing_gain", "cwnd_gain", "pacing_rate", "segs_out",
             "rwnd_limited", "sndbuf_limited")


def log(msg):
    print("bbr2-lab: " + msg, file=sys.stderr, flush=True)


def vm_abi():
    conf = os.path.join(SELFTESTS, "vm", "kernels.conf")
    out = subprocess.run(["bash", "-c", "source %s && echo ${KERNEL_ABIS%%%% *}"
                          % shlex.quote(conf)], capture_output=True, text=True)
    return out.stdout.strip()


def cc_available(cc):
    with open("/proc/sys/net/ipv4/tcp_available_congestion_control") as f:
        return cc in f.read().split()


def can_run_here():
    """Root, and bbr2 is (or can be made) available in this kernel."""
    if os.geteuid() != 0:
        return False
    if cc_available("bbr2"):
        return True
    return os.environ.get("BBR2_LAB_GUEST") == "1"


def prepare_here(ko):
    for m in ("tcp_bbr", "sch_netem", "sch_tbf", "sch_fq", "sch_prio", "cls_u32", "veth"):
        subprocess.run(["modprobe", m], stderr=subprocess.DEVNULL)
    if not cc_available("bbr2"):
        if not ko or not os.path.exists(ko):
            raise SystemExit("bbr2-lab: bbr2 not available and no module %r" % ko)
        subprocess.run(["insmod", ko], check=True)


def set_params(version, params):
    """Every point starts from the defaults of its version: every parameter
    is written "default" (a value set explicitly survives a version switch,
    see Documentation/parameters.rst), then version, then the point's."""
    if not os.path.isdir(PARAMS_DIR):
        return
    for _ in range(2):  # a rule between two parameters may refuse the first
        for name in sorted(os.listdir(PARAMS_DIR)):
            try:
                with open(os.path.join(PARAMS_DIR, name), "w") as f:
                    f.write("default\n")
            except OSError:
                pass  # a module without "default": version below reloads
    with open(os.path.join(PARAMS_DIR, "version"), "w") as f:
        f.write("%d\n" % (version or 3))
    for name, value in params.items():
        path = os.path.join(PARAMS_DIR, name)
        with open(path, "w") as f:
            f.write("%s\n" % value)


def ss_to_csv(txt, out_csv):
    """tcpsample.py lines -> CSV with one row per socket per sample."""
    with open(txt) as src, open(out_csv, "w", newline="") as dst:
        w = csv.DictWriter(dst, fieldnames=SS_FIELDS, extrasaction="ignore")
        w.writeheader()
        for line in src:
            parts = line.split()
            if len(parts) < 3:
                continue
            row = {"time": parts[0], "flow": parts[1]}
            for kv in parts[2:]:
                k, _, v = kv.partition("=")
                row[k] = v
            w.writerow(row)


def read_mib(path):
    """/proc/net/snmp + netstat: pairs of header and value lines
    ("Tcp: RtoAlgorithm ...", "Tcp: 1 ...") -> {"Tcp.RetransSegs": n}."""
    counters, header = {}, None
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or not words[0].endswith(":"):
                continue
            if header is None or header[0] != words[0]:
                header = words
                continue
            for name, value in zip(header[1:], words[1:]):
                try:
                    counters[header[0][:-1] + "." + name] = int(value)
                except ValueError:
                    pass
            header = None
    return counters


def mib_delta(outdir, side):
    """The counters a point changed on one end host (mib-SIDE-before/after.txt,
    removed once read); None when either snapshot is missing."""
    paths = [os.path.join(outdir, "mib-%s-%s.txt" % (side, when))
             for when in ("before", "after")]
    if not all(os.path.exists(p) for p in paths):
        return None
    before, after = (read_mib(p) for p in paths)
    for p in paths:
        os.unlink(p)
    return {k: v - before.get(k, 0) for k, v in sorted(after.items())
            if v != before.get(k, 0) and not k.startswith(("Ip.", "IpExt.", "Icmp"))}


def cpu_busy(outdir):
    """Share (0-1) of the CPUs' time not idle between cpu-before.txt and
    cpu-after.txt (/proc/stat "cpu" lines, removed once read); None without
    them."""
    paths = [os.path.join(outdir, "cpu-%s.txt" % when) for when in ("before", "after")]
    try:
        ticks = []
        for p in paths:
            with open(p) as f:
                ticks.append([int(v) for v in f.read().split()[1:]])
    except (OSError, ValueError):
        return None
    finally:
        for p in paths:
            if os.path.exists(p):
                os.unlink(p)
    delta = [a - b for a, b in zip(ticks[1], ticks[0])]
    total = sum(delta[:8])		# user .. steal; guest time is inside user
    idle = sum(delta[3:5])		# idle, iowait
    return round(1.0 - idle / total, 3) if total > 0 else None


def run_point(point, meta, outdir):
    cfg = point["config"]
    groups = " ".join("%s:%d:%g:%g" % (g["cc"], g["n"], g["delay"], g["extra_rtt"])
                      for g in cfg["groups"])
    version = next((g["version"] for g in cfg["groups"] if g["version"]), None)
    set_params(version, cfg["params"])
    env = dict(os.environ, OUT=outdir, RATE=str(cfg["rate"]), RTT=str(cfg["rtt"]),
               LOSS=str(cfg["loss"]), BUF_BDP="%.4f" % jobs.buffer_bdp(cfg),
               SECS=str(meta["duration"]), FLOW_GROUPS=groups,
               MAXRATE=str(cfg.get("maxrate") or ""),
               SS_INTERVAL=str(meta["ss_interval"]))
    t0 = time.time()
    with open(os.path.join(outdir, "point.log"), "w") as logf:
        rc = subprocess.run([os.path.join(LAB_DIR, "point.sh")], env=env,
                            stdout=logf, stderr=subprocess.STDOUT).returncode
    ss_txt = os.path.join(outdir, "ss.txt")
    if os.path.exists(ss_txt):
        ss_to_csv(ss_txt, os.path.join(outdir, "ss.csv"))
        os.unlink(ss_txt)
    info = {"rc": rc, "start": t0, "seconds": round(time.time() - t0, 1),
            "config": cfg, "version": version or (3 if any(
                g["cc"] == "bbr2" for g in cfg["groups"]) else None),
            "kernel": os.uname().release,
            "mib": {side: mib_delta(outdir, side) for side in ("snd", "rcv")},
            "cpu_busy": cpu_busy(outdir)}
    with open(os.path.join(outdir, "run.json"), "w") as f:
        json.dump(info, f, indent=1)
    return rc


def measure_capacity(out, rate, when):
    """How much of a clean `rate` dumbbell 4 cubic flows get (capacity.sh),
    recorded in OUT/capacity.json for the report."""
    res = subprocess.run([os.path.join(LAB_DIR, "capacity.sh"), str(rate),
                          os.path.join(out, "capacity-" + when)],
                         capture_output=True, text=True)
    try:
        mbps = float(res.stdout.split()[-1])
    except (IndexError, ValueError):
        mbps = None
    path = os.path.join(out, "capacity.json")
    cap = {}
    if os.path.exists(path):
        with open(path) as f:
            cap = json.load(f)
    cap[when] = {"rate": rate, "cubic_x4_mbps": mbps}
    with open(path, "w") as f:
        json.dump(cap, f, indent=1)
    log("capacity %s: cubic x4 carried %s of %s Mbit/s" % (when, mbps, rate))


def run_here(job_list, out, ko, capacity=True):
    prepare_here(ko)
    rate = max((p["config"]["rate"] for j in job_list for p in j["points"]), default=0)
    if capacity and rate:
        measure_capacity(out, rate, "before")
    failed, t_start = 0, time.time()
    for job, point, it, idir, done, total in jobs.each_run(job_list, out, resume=True):
        elapsed = time.time() - t_start
        eta = elapsed / max(done - 1, 1) * (total - done + 1) if done > 1 else 0
        log("[%d/%d] %s %s iter %d/%d (elapsed %ds, eta %ds)"
            % (done, total, job["name"], point["id"], it,
               job["meta"]["iterations"], elapsed, eta))
        if run_point(point, job["meta"], idir) != 0:
            failed += 1
            log("  FAILED, see %s/point.log" % idir)
    set_params(3, {})
    if capacity and rate:
        measure_capacity(out, rate, "after")
    return failed


def run_vm(job_paths, out, args):
    """Re-run this tool inside one guest boot for all the jobs."""
    abi = args.kernel or vm_abi()
    ko = os.path.join(REPO, "tcp_bbr2.ko")
    if not args.no_build:
        subprocess.run(["make", "-C", REPO, "KVER=" + abi], check=True,
                       stdout=subprocess.DEVNULL)
    cmd = [os.path.join(SELFTESTS, "vm", "vm-run"), "-k", abi, "-t", str(args.vm_timeout),
           "-c", str(getattr(args, "vm_cpus", 2)), "-r", out, "-e", "BBR2_LAB_GUEST=1", "--",
           sys.executable, os.path.join(TOOLS, "bbr2-lab"), "run", "--where", "here",
           "--out", out, "--module", ko]
    if args.quick:
        cmd.append("--quick")
    if args.iterations:
        cmd += ["--iterations", str(args.iterations)]
    if args.duration:
        cmd += ["--duration", str(args.duration)]
    if args.no_capacity_check:
        cmd.append("--no-capacity-check")
    cmd += job_paths
    log("booting the test VM (%s) for %d job(s)" % (abi, len(job_paths)))
    return subprocess.run(cmd).returncode


def write_run_info(out, args, where):
    info = {"command": " ".join(shlex.quote(a) for a in sys.argv),
            "where": where, "date_utc": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
            "host_kernel": os.uname().release}
    if where == "sim":
        unit = ("per-packet mode" if getattr(args, "frame", None) == 0
                else "frame mode")
        late = ["%s %d us late" % (what, us) for what, us in
                (("fq's watchdog", getattr(args, "pace_late", None)),
                 ("the bottleneck tbf's watchdog", getattr(args, "link_late", None)))
                if us]
        info["kernel"] = "none: model simulator (selftests/model/linksim.c, %s%s)" % (
            unit, "".join(", " + x for x in late))
        info["platform"] = "userspace simulation of the 6.1 TCP sender and a dumbbell"
    elif where == "ssh":
        info["kernel"] = "see hosts.json"
        info["platform"] = "two hosts over SSH: sender %s, receiver %s%s" % (
            args.sender, args.receiver, ", netem %s" % args.netem if args.netem else "")
    elif where == "vm":
        info["kernel"] = args.kernel or vm_abi()
        info["platform"] = "QEMU TCG guest (selftests/vm/vm-run), 2 vCPUs"
    else:
        info["kernel"] = os.uname().release
        info["platform"] = ("QEMU TCG guest (selftests/vm/vm-run), 2 vCPUs"
                            if os.environ.get("BBR2_LAB_GUEST") == "1" else "host")
    path = os.path.join(out, "run.json")
    if where == "here" and os.path.exists(path):
        return                          # the host side wrote it
    os.makedirs(out, exist_ok=True)
    with open(path, "w") as f:
        json.dump(info, f, indent=1)


def shipped_jobs():
    return sorted(glob.glob(os.path.join(TOOLS, "jobs", "*.toml")))
