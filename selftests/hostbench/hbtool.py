# SPDX-License-Identifier: GPL-2.0
"""Numbers for the host tier (host-bench.sh): one JSON line per run from
iperf3's and pathemu's own reports, and the same scenarios in the simulator.

  hbtool.py bytes RATE RTT_MS X     X bandwidth-delay products, in bytes
  hbtool.py record ... EMU IPERF... one run's JSON line (see record())
  hbtool.py field KEY               KEY of the JSON line on stdin
  hbtool.py meta ...                where and how the runs were made
  hbtool.py rerecord RUNS RAW       RUNS' lines again from the raw files
  hbtool.py sim --runs RUNS.jsonl   each scenario of RUNS in the simulator
                                    (selftests/model linksim_run), seeds
                                    1..ITER, one JSON line per run

The metrics, host and simulator alike, over the scenario's window (from
SKIP seconds to the end): goodput (the new payload bytes the path delivered
to the receiver, per flow, as pathemu counts them; the receiving
application's reads, "app_goodput_mbps", beside it), retransmitted
segments in % of segments sent, median smoothed RTT minus the path's base
RTT (the queueing delay), for "late" Jain's index of the two flows over the
last 10 s, for "vscubic" the CC's share of the two flows' goodput.
"""

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

MSS = 1448
HDR = 52 + 14      # IPv4 + TCP with timestamps, Ethernet (pathemu --overhead 14)
LATE_WINDOW = 10   # s: the "late" scenario is judged over its last 10 s
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def rate_bps(s):
    mult = {"k": 1e3, "m": 1e6, "g": 1e9}
    s = str(s).lower()
    return float(s[:-1]) * mult[s[-1]] if s[-1] in mult else float(s)


def bdp_bytes(rate, rtt_ms, x):
    """X BDPs of wire bytes (headers counted, as the queue counts them)."""
    return int(rate_bps(rate) * rtt_ms / 1e3 / 8 * float(x))


def ceiling_mbps(rate):
    """The most goodput a link of RATE carries: payload of its wire bytes."""
    return rate_bps(rate) * MSS / (MSS + HDR) / 1e6


def jain(xs):
    s = sum(xs)
    q = sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q else 0.0


def median(xs):
    return statistics.median(xs) if xs else None


# ---------------------------------------------------------------- record

def server_intervals(doc):
    """Receiver-side (start, end, bits) per interval (--get-server-output)."""
    srv = doc.get("server_output_json") or {}
    out = []
    for iv in srv.get("intervals", []):
        s = iv["sum"]
        if s.get("omitted"):
            continue
        out.append((s["start"], s["end"], s["bytes"] * 8.0))
    return out


def window_mbps(ivs, t0, t1, offset=0.0):
    """Mean rate over [t0, t1] of intervals shifted by offset seconds.  A
    partial interval (the receiver's last, after the sender stopped: the
    path's in-flight data arriving in a fraction of a second) is left out,
    or the pipe's drain would count as rate."""
    bits = dur = 0.0
    for s, e, b in ivs:
        s, e = s + offset, e + offset
        if e - s < 0.5:
            continue
        if s >= t0 - 0.01 and e <= t1 + 0.5:
            bits += b
            dur += e - s
    return bits / dur / 1e6 if dur else 0.0


DATA_FLOW_BYTES = 1e6   # a flow that carried less is iperf3's control connection


def path_flows(emu):
    """The data flows pathemu saw (its per-flow goodput series), by the
    time their first payload crossed the path, or None without them."""
    fl = (emu or {}).get("flows")
    if not fl:
        return None
    out = [f for f in fl["flows"] if f["bytes"] >= DATA_FLOW_BYTES]
    for f in out:
        f["bucket_s"] = fl["bucket_ms"] / 1e3
    return sorted(out, key=lambda f: f["first_s"]) or None


def path_mbps(flows, t0, t1):
    """Mean goodput of flows over [t0, t1) of the emulator's clock."""
    if not flows:
        return 0.0
    bs = flows[0]["bucket_s"]
    k0, k1 = int(round(t0 / bs)), int(round(t1 / bs))
    total = 0
    for f in flows:
        ser, b0 = f["series"], f["bucket0"]
        total += sum(ser[max(0, k0 - b0):max(0, k1 - b0)])
    return total * 8 / ((k1 - k0) * bs) / 1e6 if k1 > k0 else 0.0


def path_window(rec, flows, secs, skip, mode):
    """Goodput (and per flow, Jain's index or share) from pathemu's series:
    the window is taken from the first data flow's first payload, the
    moment iperf3's measurement starts, plus SKIP (or the last LATE_WINDOW
    seconds for "late") to SECS."""
    o = flows[0]["first_s"]
    if mode.startswith("late:") or mode == "vscubic":
        a = [f for f in flows if f["dport"] == 5301]
        b = [f for f in flows if f["dport"] == 5302]
        t0 = o + (secs - LATE_WINDOW if mode != "vscubic" else skip)
        ga, gb = path_mbps(a, t0, o + secs), path_mbps(b, t0, o + secs)
        rec.update(goodput_mbps=round(ga + gb, 1), flow_mbps=[round(ga, 1), round(gb, 1)])
        if mode == "vscubic":
            rec["share"] = round(ga / (ga + gb), 4) if ga + gb else 0
        else:
            rec["jain"] = round(jain([ga, gb]), 4)
    else:
        rec["goodput_mbps"] = round(path_mbps(flows, o + skip, o + secs), 1)
    rec["goodput_src"] = "path"
    rec["path_dup_mb"] = round(sum(f["dup_bytes"] for f in flows) / 1e6, 2)


MIB_KEYS = ("TcpExtTCPTimeouts", "TcpExtTCPLossProbes", "TcpExtTCPLossProbeRecovery",
            "TcpExtTCPSackRecovery", "TcpExtTCPSpuriousRTOs", "TcpExtTCPDSACKRecv",
            "TcpExtTCPDSACKOfoRecv", "TcpExtTCPDSACKUndo", "TcpExtTCPLossUndo",
            "TcpExtTCPFullUndo", "TcpExtTCPPartialUndo", "TcpExtTCPSACKReorder",
            "TcpExtTCPTSReorder", "TcpExtTCPLostRetransmit", "TcpExtTCPFastRetrans",
            "TcpExtTCPSlowStartRetrans", "TcpExtTCPRetransFail", "TcpExtTCPSpuriousRtxHostQueues",
            "TcpRetransSegs", "TcpOutSegs", "TcpInSegs", "TcpExtDelayedACKs",
            "TcpExtTCPOFOQueue", "TcpExtTCPOFODrop", "TcpExtTCPRcvQDrop", "TcpExtPruneCalled",
            "TcpExtRcvPruned", "TcpExtOfoPruned", "TcpExtTCPBacklogDrop",
            "TcpExtTCPDSACKOldSent", "TcpExtTCPDSACKOfoSent", "TcpExtTCPRcvCoalesce",
            "TcpExtTCPAutoCorking", "TcpExtTCPWantZeroWindowAdv", "TcpExtTCPFromZeroWindowAdv",
            "TcpExtTCPToZeroWindowAdv", "TcpExtTCPAckCompressed", "TcpExtTCPSackMerged",
            "TcpExtTCPSACKDiscard", "TcpExtTCPDSACKIgnoredOld", "TcpExtTCPDSACKIgnoredNoUndo",
            "TcpExtTCPHystartTrainDetect", "TcpExtTCPHystartTrainCwnd",
            "TcpExtTCPHystartDelayDetect", "TcpExtTCPHystartDelayCwnd")


def load_snapshots(before, after):
    """The two JSON snapshots host-bench.sh's tun_stats takes around a run,
    (before, after), or None when either is missing or unreadable."""
    try:
        with open(before) as fh:
            b = json.load(fh)
        with open(after) as fh:
            a = json.load(fh)
    except (OSError, ValueError, TypeError):
        return None
    return b, a


def mib_deltas(before, after):
    """The two stacks' TCP counters over the run (host-bench.sh's tun_stats
    snapshots), {"snd": {...}, "rcv": {...}}, or None without them."""
    pair = load_snapshots(before, after)
    if pair is None:
        return None
    b, a = pair
    out = {}
    for side in ("snd", "rcv"):
        mb, ma = b.get(side + "_mib"), a.get(side + "_mib")
        if not mb or not ma:
            return None
        out[side] = {k: ma[k] - mb[k] for k in MIB_KEYS if k in ma and k in mb}
    return out


SS_NUM = {"rwnd_limited": r"rwnd_limited:(\d+)ms", "sndbuf_limited": r"sndbuf_limited:(\d+)ms",
          "busy": r"busy:(\d+)ms", "reord_seen": r"reord_seen:(\d+)",
          "dsack_dups": r"dsack_dups:(\d+)", "bytes_acked": r"bytes_acked:(\d+)"}


def ss_summary(path):
    """The sender's data sockets as `ss -tin` last saw them (host-bench.sh's
    ss_start): the share of their busy time that the receive window or the
    send buffer limited, reordering seen, DSACKs, and how many of the
    samples were application-limited; None without the file."""
    try:
        with open(path) as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    last, early, app_lim, samples, sock, t, t0 = {}, {}, 0, 0, None, 0.0, None
    for line in lines:
        if line.startswith("t "):
            t = float(line.split()[1])
            t0 = t if t0 is None else t0
            continue
        f = line.split()
        if len(f) >= 4 and ":" in f[-1] and not line[:1].isspace():
            sock = f[-2]
            continue
        if sock is None:
            continue
        v = {k: int(m.group(1)) for k, rx in SS_NUM.items() for m in [re.search(rx, line)] if m}
        if v.get("bytes_acked", 0) < DATA_FLOW_BYTES:
            continue
        samples += 1
        app_lim += " app_limited" in line
        last[sock] = v
        if t - t0 <= 2.5:
            early[sock] = v
        sock = None
    if not last:
        return None
    busy = sum(v.get("busy", 0) for v in last.values())
    return {"rwnd_limited_pct": round(100 * sum(v.get("rwnd_limited", 0) for v in last.values()) /
                                      busy, 2) if busy else 0,
            "sndbuf_limited_pct": round(100 * sum(v.get("sndbuf_limited", 0)
                                                  for v in last.values()) / busy, 2) if busy else 0,
            # per data socket, mean: the time the receiver's window held it back
            "rwnd_limited_ms": round(sum(v.get("rwnd_limited", 0) for v in last.values()) /
                                     len(last)),
            # of which in the first two seconds or so
            "rwnd_limited_ms_2s": round(sum(v.get("rwnd_limited", 0) for v in early.values()) /
                                        len(last)),
            "reord_seen": sum(v.get("reord_seen", 0) for v in last.values()),
            "dsack_dups": sum(v.get("dsack_dups", 0) for v in last.values()),
            "app_limited_frac": round(app_lim / samples, 3) if samples else 0}


def rtt_samples(doc, skip):
    """Smoothed RTTs (ms) the sender reported at each interval's end."""
    out = []
    for iv in doc.get("intervals", []):
        if iv["sum"]["start"] < skip - 0.01:
            continue
        for st in iv.get("streams", []):
            if st.get("rtt"):
                out.append(st["rtt"] / 1e3)
    return out


def cwnd_median(doc, skip):
    """The first flow's median congestion window (packets) over the window,
    from the sender's per-second reports."""
    xs = []
    for iv in doc.get("intervals", []):
        if iv["sum"]["start"] < skip - 0.01:
            continue
        st = iv.get("streams", [])
        if st and st[0].get("snd_cwnd"):
            xs.append(st[0]["snd_cwnd"] / MSS)
    return round(median(xs)) if xs else None


def sent_segs(doc):
    end = doc.get("end", {}).get("sum_sent", {})
    return end.get("bytes", 0) / MSS, end.get("retransmits", 0)


def tun_wait(d, a):
    """Frames that waited in a TUN device's queue before pathemu read them
    (from their TCP timestamps, whole ms, high by up to 1 ms): the fraction
    that waited more than 1 ms for certain (2 ms or more as measured) and
    the longest wait, both directions."""
    wd, wa = d.get("tun_wait"), a.get("tun_wait")
    if not wd or not wa:
        return {}
    n = wd["frames"] + wa["frames"]
    over = wd["over_ms"]["1"] + wa["over_ms"]["1"]
    return {"tunwait_frac": round(over / n, 5) if n else 0.0,
            "tunwait_max_ms": max(wd["max_ms"], wa["max_ms"]),
            "tunwait_unusable": wd["unusable"] + wa["unusable"]}


def emu_summary(emu, late_fraction, max_late_ms):
    """The emulator's account of a run.  It was out of the way ("behind" is
    false) when at most late_fraction of its frame releases came more than
    1 ms after their schedule, none later than max_late_ms, and it neither
    ran out of ring space nor failed a write."""
    d, a = emu["data"], emu["acks"]
    releases = d["frames_out"] + a["frames_out"]
    late = d["late"] + a["late"]
    late_frac = late / releases if releases else 0.0
    max_late = max(d["max_late_us"], a["max_late_us"]) / 1e3
    behind = late_frac > late_fraction or max_late > max_late_ms \
        or d["ring_full"] or a["ring_full"] or d["write_err"] or a["write_err"]
    return {
        "emu_cpu_s": round(emu["cpu_s"], 3),
        "emu_cpu_frac": round(emu["cpu_s"] / emu["wall_s"], 3) if emu["wall_s"] else 0,
        "emu_busy_frac": emu["busy_frac"],
        "late_frac": round(late_frac, 5),
        "max_late_ms": round(max_late, 2),
        "max_loop_ms": round(emu["max_loop_us"] / 1e3, 2),
        "link_util": round(d["link_busy_s"] / d["active_s"], 4) if d["active_s"] else 0,
        "mean_backlog": int(d["mean_backlog"]),
        "max_backlog": d["max_backlog"],
        "queue_drops": d["queue_drops"],
        "lost_segs": d["lost_segs"],
        "split_frames": d["split_frames"],
        "segs_per_frame": round(d["segs_in"] / d["frames_in"], 1) if d["frames_in"] else 0,
        # how long frames waited in the TUN devices' own queues
        **tun_wait(d, a),
        "behind": bool(behind),
    }


def tun_drops(before, after):
    """Frames dropped at either TUN device between two `ip -s -j link`
    snapshots (host-bench.sh's tun_stats), or None without them."""
    pair = load_snapshots(before, after)
    if pair is None:
        return None
    b, a = pair
    n = 0
    for side in ("snd", "rcv"):
        for way in ("tx", "rx"):
            n += a[side][0]["stats64"][way]["dropped"] - b[side][0]["stats64"][way]["dropped"]
        q = side + "_qdisc"
        n += sum(x.get("drops", 0) for x in a.get(q, [])) - \
            sum(x.get("drops", 0) for x in b.get(q, []))
    return n


def record(args):
    docs = []
    for f in args.iperf:
        try:
            with open(f) as fh:
                docs.append(json.load(fh))
        except (OSError, ValueError):
            docs.append({})
    try:
        with open(args.emu) as fh:
            emu = json.load(fh)
    except (OSError, ValueError):
        emu = None
    secs, skip = args.secs, args.skip
    rec = {"scenario": args.scenario, "cc": args.cc, "iter": args.iter,
           "rate": args.rate, "rtt_ms": args.rtt_ms, "buf_bdp": args.buf_bdp,
           "buf_bytes": args.buf_bytes, "loss_pct": args.loss_pct, "secs": secs,
           "skip": skip, "flows": args.flows, "mode": args.mode,
           "ceiling_mbps": round(ceiling_mbps(args.rate), 1),
           "rate_bps": int(rate_bps(args.rate)), "late_limit": args.late_fraction,
           "max_late_limit_ms": args.max_late_ms, "attempt": args.attempt,
           "error": None}
    if any("error" in d or not d for d in docs) or emu is None:
        rec["error"] = "; ".join(d.get("error", "no output") for d in docs if
                                 "error" in d or not d) or "no pathemu stats"
    ivs = [server_intervals(d) for d in docs]
    segs = sum(sent_segs(d)[0] for d in docs)
    retr = sum(sent_segs(d)[1] for d in docs)
    if args.mode.startswith("late:"):
        late = float(args.mode.split(":")[1])
        a = window_mbps(ivs[0], secs - LATE_WINDOW, secs)
        b = window_mbps(ivs[1], secs - LATE_WINDOW, secs, late) if len(ivs) > 1 else 0
        rec.update(goodput_mbps=round(a + b, 1), flow_mbps=[round(a, 1), round(b, 1)],
                   jain=round(jain([a, b]), 4))
    elif args.mode == "vscubic":
        a = window_mbps(ivs[0], skip, secs)
        b = window_mbps(ivs[1], skip, secs) if len(ivs) > 1 else 0
        rec.update(goodput_mbps=round(a + b, 1), flow_mbps=[round(a, 1), round(b, 1)],
                   share=round(a / (a + b), 4) if a + b else 0)
        # retransmits and delay of the CC's own flow
        segs, retr = sent_segs(docs[0]) if docs else (0, 0)
    else:
        rec["goodput_mbps"] = round(window_mbps(ivs[0], skip, secs), 1) if ivs else 0
    # the receiving application's reads; pathemu's count, where it has one,
    # is the goodput
    rec["app_goodput_mbps"] = rec["goodput_mbps"]
    if "flow_mbps" in rec:
        rec["app_flow_mbps"] = rec["flow_mbps"]
    flows = path_flows(emu)
    if flows:
        path_window(rec, flows, secs, skip, args.mode)
    # the two stacks' CPU (iperf3's own account of sender and receiver)
    cpu = docs[0].get("end", {}).get("cpu_utilization_percent", {}) if docs else {}
    rec["snd_cpu_pct"] = round(cpu.get("host_total", 0), 1)
    rec["rcv_cpu_pct"] = round(cpu.get("remote_total", 0), 1)
    rtts = rtt_samples(docs[0], skip) if docs else []
    rec["retrans_pct"] = round(100.0 * retr / segs, 4) if segs else 0
    rec["qdelay_ms"] = round(median(rtts) - args.rtt_ms, 2) if rtts else None
    rec["cwnd_pkts"] = cwnd_median(docs[0], skip) if docs else None
    if emu:
        rec.update(emu_summary(emu, args.late_fraction, args.max_late_ms))
        # the segments the path dropped (its random loss and its queue), in
        # % of the segments the senders handed it
        d = emu["data"]
        rec["drops_pct"] = round(100.0 * (d["queue_drops"] + d["lost_segs"]) / d["segs_in"],
                                 4) if d["segs_in"] else 0
    else:
        rec["behind"] = True
    drops = tun_drops(args.tun, args.tun_after)
    if drops is not None:
        # a frame the kernel dropped at a TUN device is one the emulator did
        # not read in time: a loss of the emulator's, not of the path
        rec["tun_drops"] = drops
        rec["behind"] = rec["behind"] or drops > 0
        try:
            with open(args.tun_after) as fh:
                rec["tun_txqlen"] = json.load(fh)["snd"][0].get("txqlen")
        except (OSError, ValueError, KeyError, IndexError):
            pass
    mib = mib_deltas(args.tun, args.tun_after)
    if mib:
        rec["mib"] = mib
    sss = ss_summary(os.path.join(os.path.dirname(args.emu), "ss.txt"))
    if sss:
        rec["ss"] = sss
    rec["capacity_ok"] = bool(emu and not rec["error"] and not rec["behind"] and
                              rec["goodput_mbps"] >= 0.9 * rec["ceiling_mbps"])
    print(json.dumps(rec, sort_keys=True))


def run_tag(r):
    """The raw directory of a run, as host-bench.sh names it (a run repeated
    because the emulator fell behind gets the attempt's number)."""
    if r["scenario"] == "capacity":
        tag = "capacity-%s-%g" % (r["rate"], r["rtt_ms"])
        tag += "-i%d" % r["iter"] if r["iter"] > 1 else ""
    else:
        tag = "%s-%s-%d" % (r["scenario"], r["cc"], r["iter"])
    return tag + ("-a%d" % r["attempt"] if r.get("attempt", 1) > 1 else "")


def rerecord(args):
    """runs.jsonl again from the raw files under RAW/<scenario>-<cc>-<iter>/."""
    with open(args.runs) as fh:
        runs = [json.loads(line) for line in fh if line.strip()]
    for r in runs:
        d = os.path.join(args.raw, run_tag(r))
        files = sorted(f for f in os.listdir(d) if f.startswith("iperf-"))
        ns = argparse.Namespace(
            scenario=r["scenario"], cc=r["cc"], iter=r["iter"], rate=r["rate"],
            mode=r["mode"], buf_bytes=r["buf_bytes"], flows=r["flows"], rtt_ms=r["rtt_ms"],
            buf_bdp=r["buf_bdp"], loss_pct=r["loss_pct"], secs=r["secs"], skip=r["skip"],
            late_fraction=r["late_limit"], max_late_ms=r.get("max_late_limit_ms", 1e9),
            attempt=r.get("attempt", 1), emu=os.path.join(d, "pathemu.json"),
            tun=os.path.join(d, "tun-before.json"), tun_after=os.path.join(d, "tun-after.json"),
            iperf=[os.path.join(d, f) for f in files])
        record(ns)


# ------------------------------------------------------------------ meta

def git(*args):
    try:
        return subprocess.run(["git", "-C", REPO] + list(args), capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def meta(args):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    dirty = git("status", "--porcelain", "--untracked-files=no")
    print(json.dumps({
        "commit": git("rev-parse", "--short=12", "HEAD") + (" (modified)" if dirty else ""),
        "kernel": platform.release(),
        "host": "%s, %d CPUs, %.0f GB" % (cpu, os.cpu_count() or 0,
                                          os.sysconf("SC_PAGE_SIZE") *
                                          os.sysconf("SC_PHYS_PAGES") / 1e9),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": args.command, "profile": args.profile, "iterations": args.iter,
        "iter_first": args.iter_first,
        "ccs": args.ccs.split(), "iperf3": subprocess.run(
            ["iperf3", "--version"], capture_output=True, text=True).stdout.split("\n")[0],
    }, sort_keys=True))


def merge(args):
    """The shards of one full run (host-bench.sh with ITER_FIRST/ITER, the
    same commit, the same CCs) as one: OUT/runs.jsonl, OUT/meta.json and
    OUT/raw.tar.xz, the iterations in order."""
    metas, runs = [], []
    for d in args.shards:
        with open(os.path.join(d, "meta.json")) as fh:
            metas.append(json.load(fh))
        with open(os.path.join(d, "runs.jsonl")) as fh:
            runs += [json.loads(line) for line in fh if line.strip()]
    if len({m["commit"] for m in metas}) != 1 or "modified" in metas[0]["commit"]:
        sys.exit("merge: the shards must be of one clean commit: %s" %
                 ", ".join(m["commit"] for m in metas))
    if len({" ".join(m["ccs"]) for m in metas}) != 1:
        sys.exit("merge: the shards ran different CCs")
    metas.sort(key=lambda m: m.get("iter_first", 1))
    meta = dict(metas[0])
    meta.update(iterations=max(m["iterations"] for m in metas), iter_first=1,
                shards=len(metas), date=metas[-1]["date"],
                started=metas[0]["date"])
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "meta.json"), "w") as fh:
        fh.write(json.dumps(meta, sort_keys=True) + "\n")
    runs.sort(key=lambda r: (r["scenario"] != "capacity", r["iter"]))
    with open(os.path.join(args.out, "runs.jsonl"), "w") as fh:
        for r in runs:
            fh.write(json.dumps(r, sort_keys=True) + "\n")
    cmd = ["tar", "-cJf", os.path.join(os.path.abspath(args.out), "raw.tar.xz")]
    for d in args.shards:
        cmd += ["-C", os.path.abspath(d), "raw"]
    subprocess.run(cmd, check=True)


# ------------------------------------------------------------------- sim

SIM_CC = {"bbr2_bpf": "bbr2", "bbr2_bpf-v2": "bbr2v2", "bbr2_bpf-lm": "bbr2", "bbr": "bbr",
          "cubic": "cubic"}
SIM_PARAMS = {"bbr2_bpf": ["param.loss_mode=0"], "bbr2_bpf-lm": ["param.loss_mode=1"]}


def sim_build():
    ksrc = subprocess.run([os.path.join(REPO, "selftests", "runner", "fetch-kernel-source.sh")],
                          capture_output=True, text=True).stdout.strip()
    cmd = ["make", "-s", "-C", os.path.join(REPO, "selftests", "model"), "linksim-run"]
    if ksrc:
        cmd.append("KSRC=" + ksrc)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1]


# The path's own timing noise, modelled: the emulator releases frames up
# to a few ms late when the CPU it shares with both stacks is busy, so they
# leave in bursts; linksim's link_late_us makes the bottleneck's departures
# late by up to that much, in bursts, the same way.
JITTER_US = 1000


def ack_every(runs):
    """The host receiver's ACK ratio over a scenario's runs: data frames
    the emulator carried per ACK it carried back (GRO and delayed ACKs
    make it 1 to 3), rounded; linksim's frame mode ACKs every that many
    frames (its ack_every counts frames there)."""
    ratios = []
    for r in runs:
        try:
            with open(r["_emu"]) as fh:
                e = json.load(fh)
        except (KeyError, OSError, ValueError):
            continue
        if e["acks"]["frames_in"]:
            ratios.append(e["data"]["frames_in"] / e["acks"]["frames_in"])
    return max(1, int(median(ratios) + 0.5)) if ratios else 1


def sim_point(binary, r, seed, jitter_us=0, acks=1):
    cc = SIM_CC[r["cc"]]
    mode, secs, skip = r["mode"], r["secs"], r["skip"]
    if mode.startswith("late:"):
        mix = "%s:1,%s:1@%s" % (cc, cc, mode.split(":")[1])
    elif mode == "vscubic":
        mix = "%s:1,cubic:1" % cc
    else:
        mix = "%s:%d" % (cc, r["flows"])
    args = [binary, "rate=%d" % rate_bps(r["rate"]), "rtt_ms=%g" % r["rtt_ms"],
            "buf_bytes=%d" % r["buf_bytes"], "loss=%g" % r["loss_pct"], "mix=" + mix,
            "dur=%g" % secs, "skip=%g" % skip, "frame=45", "fq=0", "hdr=%d" % HDR,
            "ts=1", "seed=%d" % seed, "ack_every=%d" % acks]
    if jitter_us:
        args.append("link_late_us=%d" % jitter_us)
    args += SIM_PARAMS.get(r["cc"], [])
    d = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    # what reached the receiver for the first time, as pathemu counts the
    # host's goodput (the cumulative ACK jumps past a hole's backlog)
    series = d["series_rcv_bps"]

    def win(k, t0, t1):
        xs = series[k][int(t0):int(t1)]
        return sum(xs) / len(xs) / 1e6 if xs else 0.0

    rec = {k: r.get(k) for k in ("scenario", "cc", "rate", "rate_bps", "rtt_ms", "buf_bdp",
                                 "buf_bytes", "loss_pct", "secs", "skip", "flows", "mode",
                                 "ceiling_mbps")}
    rec.update(iter=seed, where="sim", sim_cpu_s=d["cpu_s"], jitter_us=jitter_us,
               ack_every=acks)
    g0 = d["groups"][0]
    if mode.startswith("late:"):
        a, b = win(0, secs - LATE_WINDOW, secs), win(1, secs - LATE_WINDOW, secs)
        rec.update(goodput_mbps=round(a + b, 1), flow_mbps=[round(a, 1), round(b, 1)],
                   jain=round(jain([a, b]), 4))
        sent = sum(g["sent"] for g in d["groups"])
        retr = sum(g["retrans"] for g in d["groups"])
    elif mode == "vscubic":
        a, b = win(0, skip, secs), win(1, skip, secs)
        rec.update(goodput_mbps=round(a + b, 1), flow_mbps=[round(a, 1), round(b, 1)],
                   share=round(a / (a + b), 4) if a + b else 0)
        sent, retr = g0["sent"], g0["retrans"]
    else:
        rec["goodput_mbps"] = round(g0["goodput_rcv_tail_bps"] / 1e6, 1)
        sent, retr = g0["sent"], g0["retrans"]
    rec["retrans_pct"] = round(100.0 * retr / sent, 4) if sent else 0
    allsent = sum(g["sent"] for g in d["groups"])
    rec["drops_pct"] = round(100.0 * (d["drops_queue"] + d["drops_random"]) / allsent,
                             4) if allsent else 0
    rec["rtos"] = sum(f["rtos"] for f in d["flows"])
    cw = d["series_cwnd"][0][int(skip):]
    rec["cwnd_pkts"] = round(median(cw)) if cw else None
    rtts = [x for x in d["series_srtt_ms"][0][int(skip):] if x > 0]
    rec["qdelay_ms"] = round(median(rtts) - r["rtt_ms"], 2) if rtts else None
    return rec


def sim(args):
    binary = sim_build()
    if args.meta:
        with open(args.meta, "w") as fh:
            fh.write(json.dumps({"commit": git("rev-parse", "--short=12", "HEAD") + (
                " (modified)" if git("status", "--porcelain", "--untracked-files=no") else ""),
                "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "command": "hbtool.py sim"}, sort_keys=True) + "\n")
    seen = set()
    with open(args.runs) as fh:
        runs = [json.loads(line) for line in fh if line.strip()]
    for r in runs:
        r["_emu"] = os.path.join(args.raw, run_tag(r), "pathemu.json") if args.raw else ""
    for r in runs:
        key = (r["scenario"], r["cc"], r["rate"], r["rtt_ms"])
        if key in seen or r["cc"] not in SIM_CC:
            continue
        seen.add(key)
        acks = ack_every([x for x in runs if (x["scenario"], x["cc"], x["rate"], x["rtt_ms"])
                          == key and not x.get("behind")])
        for jitter in (0, JITTER_US):
            for seed in range(1, args.iter + 1):
                print(json.dumps(sim_point(binary, r, seed, jitter, acks), sort_keys=True),
                      flush=True)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("bytes")
    p.add_argument("rate")
    p.add_argument("rtt_ms", type=float)
    p.add_argument("x")
    p = sub.add_parser("field")
    p.add_argument("key")
    p = sub.add_parser("record")
    for name in ("scenario", "cc", "rate", "mode"):
        p.add_argument("--" + name, required=True)
    for name in ("iter", "buf-bytes", "flows"):
        p.add_argument("--" + name, type=int, required=True)
    for name in ("rtt-ms", "buf-bdp", "loss-pct", "secs", "skip", "late-fraction"):
        p.add_argument("--" + name, type=float, required=True)
    p.add_argument("--max-late-ms", type=float, required=True)
    p.add_argument("--attempt", type=int, default=1)
    p.add_argument("--tun")
    p.add_argument("--tun-after")
    p.add_argument("--emu", required=True)
    p.add_argument("iperf", nargs="+")
    p = sub.add_parser("meta")
    p.add_argument("--profile", required=True)
    p.add_argument("--iter", type=int, required=True)
    p.add_argument("--iter-first", type=int, default=1)
    p.add_argument("--ccs", required=True)
    p.add_argument("--command", required=True)
    p.add_argument("--repo")
    p = sub.add_parser("rerecord")
    p.add_argument("runs")
    p.add_argument("raw")
    p = sub.add_parser("merge")
    p.add_argument("out")
    p.add_argument("shards", nargs="+")
    p = sub.add_parser("sim")
    p.add_argument("--runs", required=True)
    p.add_argument("--iter", type=int, default=3)
    p.add_argument("--raw", help="the runs' raw directories (RESULTS/raw)")
    p.add_argument("--meta", help="write the simulator's commit and date there")
    a = ap.parse_args()
    if a.cmd == "bytes":
        print(bdp_bytes(a.rate, a.rtt_ms, a.x))
    elif a.cmd == "field":
        v = json.loads(sys.stdin.read()).get(a.key)
        print("-" if v is None else v)
    elif a.cmd == "record":
        record(a)
    elif a.cmd == "meta":
        meta(a)
    elif a.cmd == "sim":
        sim(a)
    elif a.cmd == "merge":
        merge(a)
    elif a.cmd == "rerecord":
        rerecord(a)


if __name__ == "__main__":
    main()
