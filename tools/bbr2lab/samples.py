# SPDX-License-Identifier: GPL-2.0
"""Samplers run on remote hosts, and parsers of what they print.

ss:  `ss -tinH` of the data connections every INTERVAL s on the sender,
     each sample preceded by "@<epoch seconds>"; parsed into the rows of
     ss.csv (runner.SS_FIELDS), the same file the netns runs write.
CPU: per-core utilisation on each host, from `mpstat -P CORES 1` when the
     host has mpstat (sysstat), else from /proc/stat deltas, into rows
     (time, cpu, busy %).
"""

import re
import shlex
import statistics

SS_LOOP = ("while :; do echo \"@$(date +%%s.%%N)\"; "
           "ss -tinH state established %s; sleep %s; done")
PROC_STAT_LOOP = ("while :; do echo \"@$(date +%%s.%%N)\"; "
                  "grep '^cpu' /proc/stat; sleep %s; done")


def ss_command(ports, interval):
    """The sampler's sh command line: data sockets towards `ports`."""
    filt = " or ".join("dport = :%d" % p for p in sorted(set(ports)))
    return SS_LOOP % (shlex.quote("( %s )" % filt), interval)


def cpu_command(use_mpstat, cores, interval, count):
    if use_mpstat:
        return "env LC_ALL=C S_TIME_FORMAT=ISO mpstat -P %s %s %d" % (
            shlex.quote(cores or "ALL"), interval, count)
    return PROC_STAT_LOOP % interval


_UNITS = {"": 1e-6, "k": 1e-3, "K": 1e-3, "M": 1.0, "G": 1e3, "T": 1e6}


def _rate_mbps(text):
    m = re.match(r"^([0-9.]+)([kKMGT]?)bps$", text)
    return float(m.group(1)) * _UNITS[m.group(2)] if m else None


def parse_ss(text):
    """ss sampler output -> [{"time", "flow", "cc", "rtt", "minrtt",
    "cwnd", "acked", "retrans", "bw", "mrtt", "pacing_gain",
    "cwnd_gain"}], one per socket per sample."""
    rows = []
    t = None
    cur = None
    for line in text.splitlines():
        if line.startswith("@"):
            try:
                t = float(line[1:])
            except ValueError:
                t = None
            continue
        if not line.strip() or t is None:
            continue
        if not line[0].isspace():
            # "ESTAB 0 0 local peer" or, with a state filter, "0 0 local peer"
            parts = line.split()
            addrs = [p for p in parts if ":" in p]
            if len(addrs) >= 2:
                cur = {"time": "%.3f" % t, "flow": "%s>%s" % (addrs[0], addrs[1])}
                rows.append(cur)
            else:
                cur = None
            continue
        if cur is None:
            continue
        toks = line.split()
        if toks and ":" not in toks[0]:
            cur["cc"] = toks[0]
        for tok in toks:
            k, _, v = tok.partition(":")
            if k == "rtt":
                cur["rtt"] = v.split("/")[0]
            elif k == "minrtt":
                cur["minrtt"] = v
            elif k == "cwnd":
                cur["cwnd"] = v
            elif k == "bytes_acked":
                cur["acked"] = v
            elif k == "retrans":
                cur["retrans"] = v.split("/")[-1]
            elif k in ("bbr", "bbr2"):
                for kv in v.strip("()").split(","):
                    bk, _, bv = kv.partition(":")
                    if bk == "bw":
                        bw = _rate_mbps(bv)
                        cur["bw"] = "%.3f" % bw if bw is not None else ""
                    elif bk in ("mrtt", "pacing_gain", "cwnd_gain"):
                        cur[bk] = bv
        cur = None
    return [r for r in rows if "rtt" in r]


def parse_mpstat(text, t0=0.0):
    """`mpstat -P ... 1 N` (LC_ALL=C, ISO times) -> [(t, cpu, busy %)];
    t counts the report intervals from t0 (mpstat prints wall-clock times
    without a date).  The Average: block is skipped."""
    rows = []
    cols = None
    stamps = []
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("Average"):
            continue
        if "%idle" in parts:
            cols = parts
            continue
        if cols is None or len(parts) != len(cols):
            continue
        try:
            busy = 100.0 - float(parts[cols.index("%idle")])
        except ValueError:
            continue
        if not stamps or stamps[-1] != parts[0]:
            stamps.append(parts[0])
        rows.append((t0 + len(stamps), parts[1], busy))
    return rows


def parse_proc_stat(text):
    """Samples of /proc/stat's cpu lines -> [(t, cpu, busy %)] per
    interval (idle and iowait count as not busy)."""
    samples = []
    for line in text.splitlines():
        if line.startswith("@"):
            try:
                samples.append((float(line[1:]), {}))
            except ValueError:
                pass
            continue
        parts = line.split()
        if samples and parts and parts[0].startswith("cpu"):
            try:
                vals = [int(x) for x in parts[1:]]
            except ValueError:
                continue
            name = "all" if parts[0] == "cpu" else parts[0][3:]
            samples[-1][1][name] = (sum(vals[:8]), vals[3] + (vals[4] if len(vals) > 4 else 0))
    rows = []
    for (_, a), (t, b) in zip(samples, samples[1:]):
        for cpu, (tot, idle) in b.items():
            if cpu not in a:
                continue
            dt = tot - a[cpu][0]
            if dt > 0:
                rows.append((t, cpu, 100.0 * (dt - (idle - a[cpu][1])) / dt))
    return rows


def select_cores(rows, cores):
    """Keep the rows of the cores an INI `mpstat = 4-5,7` names (and the
    "all" row); None or "ALL" keeps everything."""
    if not cores or cores.upper() == "ALL":
        return rows
    want = set()
    for part in cores.split(","):
        a, _, b = part.partition("-")
        want.update(str(c) for c in range(int(a), int(b or a) + 1))
    return [r for r in rows if r[1] in want or r[1] == "all"]


def cpu_summary(rows):
    """{"all": mean busy % of the host (of the sampled cores when mpstat
    was limited to some), "cores": {cpu: {"mean",
    "max", "stdev", "cv"}}, "busiest": the core with the highest mean}."""
    per = {}
    for _, cpu, busy in rows:
        per.setdefault(cpu, []).append(busy)
    cores = {}
    for cpu, xs in per.items():
        m = statistics.fmean(xs)
        sd = statistics.pstdev(xs) if len(xs) > 1 else 0.0
        cores[cpu] = {"mean": round(m, 2), "max": round(max(xs), 2),
                      "stdev": round(sd, 2), "cv": round(sd / m, 3) if m else None}
    real = {c: v for c, v in cores.items() if c != "all"}
    busiest = max(real, key=lambda c: real[c]["mean"]) if real else None
    if "all" in cores:
        overall = cores["all"]["mean"]
    else:                               # only some cores sampled (INI mpstat = 4-5)
        overall = round(statistics.fmean(v["mean"] for v in real.values()), 2) if real else None
    return {"all": overall, "busiest": busiest,
            "cores": cores}
