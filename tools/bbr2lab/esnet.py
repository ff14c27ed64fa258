# SPDX-License-Identifier: GPL-2.0
"""ESnet testing-harness job files (INI), read unchanged.

Each enabled `[section]` becomes one bbr2-lab job with the same raw-data
layout as a TOML job.  What the harness's options mean here:

  type                  the job's title
  enabled, iterations   as in the harness
  src-cmd               an iperf3 client command run on the sender ({dst}:
                        the receiver's test address); -C and -P name the
                        flow group, -p the port, -t the length; -J is added
                        if missing (the report needs iperf3's JSON)
  dst-cmd               an iperf3 server command run on the receiver,
                        without -D (bbr2-lab keeps the server in its own
                        session to stop it); default `iperf3 -s -1 -p PORT`
  pre-/post-src-cmd,    run on the sender / receiver: pre-* before the
  pre-/post-dst-cmd     first iteration of each point, post-* after each
                        run and after an interrupted one
  netem-lat, lat-sweep  one-way delay, ms: the netem host adds 2 x lat on
                        one interface (the harness's RTT = 2 x lat), or lat
                        on each of two (--netem HOST:IF1,IF2)
  netem-limit, limit-sweep  netem queue limit, packets
  netem-loss            random loss, % ("0.001 gemodel": Gilbert-Elliott)
  pacing                fq maxrate on the sender's interface
  param-sweep           tcp_bbr2/parameters/NAME with sys-module-increment
                        (start, end, step), sys-module-list (values) or
                        sys-module-vector-list (element, values: element N,
                        counted from 1, of a vector such as pacing_gain,
                        the others as the sender has them)
  mpstat                cores whose utilisation is summarised (per-core
                        CPU is always recorded on both hosts)
  user                  the ssh login when --sender/--receiver have none
  src, dst, alias, ss, instrument, src-cmd-once, dst-cmd-once,
  tcpdump-filt          accepted: the hosts come from the command line
                        (dst: the receiver's test address if --dst-addr is
                        not given), ss is always sampled, the rest have no
                        effect in the harness either

Everything else that would do something in the harness (pscheduler
commands, tcpdump, tcptrace, statexec, profiles, pre/post, iperf3 -R,
-u, --bidir, -n, -k, lat-sweep with limit-sweep) is reported as
unsupported and the job is refused.
"""

import configparser
import re
import shlex

from .jobs import JobError, _point_id

ACCEPTED = {"type", "enabled", "iterations", "src-cmd", "dst-cmd", "pre-src-cmd",
            "post-src-cmd", "pre-dst-cmd", "post-dst-cmd", "netem-lat", "lat-sweep",
            "netem-limit", "limit-sweep", "netem-loss", "pacing", "param-sweep",
            "mpstat", "user", "src", "dst", "alias", "ss", "instrument",
            "src-cmd-once", "dst-cmd-once", "tcpdump-filt"}
# harness options bbr2-lab does not do; refused when they would have an effect
UNSUPPORTED = {
    "tcpdump": "packet captures (run tcpdump yourself beside bbr2-lab)",
    "tcptrace": "tcptrace analysis of captures",
    "statexec": "statexec metrics",
    "profile": "netem profiles from profile-file (use netem-lat/-loss/-limit)",
    "profile-file": "netem profiles (use netem-lat/-loss/-limit)",
    "pre": "the harness's per-job pre hook",
    "post": "the harness's per-job post hook",
}
BOOLEAN_UNSUPPORTED = {"tcpdump", "tcptrace", "statexec"}
IPERF_REFUSED = {"-R": "reverse mode (the sender would be the receiver host)",
                 "--reverse": "reverse mode (the sender would be the receiver host)",
                 "--bidir": "bidirectional tests", "-u": "UDP tests",
                 "--udp": "UDP tests", "-n": "byte-count tests (give -t)",
                 "--bytes": "byte-count tests (give -t)",
                 "-k": "block-count tests (give -t)",
                 "--blockcount": "block-count tests (give -t)",
                 "--sctp": "SCTP tests"}
PARAM_PREFIX = "tcp_bbr2/parameters/"
SS_INTERVAL = 0.1                       # the harness samples ss every 0.1 s


def _opt_value(args, names, default=None):
    for i, a in enumerate(args):
        for n in names:
            if a == n and i + 1 < len(args):
                return args[i + 1]
            if n.startswith("--") and a.startswith(n + "="):
                return a.split("=", 1)[1]
            if not n.startswith("--") and a.startswith(n) and len(a) > len(n):
                return a[len(n):]
    return default


def parse_iperf3(cmd, role):
    """An iperf3 command line -> (prefix, iperf3 words) or JobError.  The
    prefix (numactl, taskset, ...) is kept as it is."""
    words = shlex.split(cmd)
    idx = next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] == "iperf3"), None)
    if idx is None:
        what = "pscheduler" if any("pscheduler" in w for w in words) else words[0] if words else ""
        raise JobError("%s: %r is not an iperf3 command (%s is not supported; "
                       "give the equivalent iperf3 command)" % (role, cmd, what))
    return words[:idx], words[idx:]


def client_spec(cmd):
    """src-cmd -> {"prefix" (up to iperf3 itself), "args", "cc", "n",
    "port", "secs", "notes"}."""
    prefix, words = parse_iperf3(cmd, "src-cmd")
    args = words[1:]
    for a in args:
        if a in IPERF_REFUSED:
            raise JobError("src-cmd: iperf3 %s: %s are not supported" % (a, IPERF_REFUSED[a]))
    if "-c" not in args and "--client" not in args:
        raise JobError("src-cmd: %r is not an iperf3 client (-c {dst})" % cmd)
    notes = []
    if "-J" not in args and "--json" not in args:
        args.append("-J")
        notes.append("src-cmd: -J added (the report reads iperf3's JSON)")
    try:
        n = int(_opt_value(args, ["-P", "--parallel"], 1))
        port = int(_opt_value(args, ["-p", "--port"], 5201))
        secs = float(_opt_value(args, ["-t", "--time"], 10))
    except ValueError as e:
        raise JobError("src-cmd: %s" % e)
    cc = _opt_value(args, ["-C", "--congestion"], "default")
    return {"prefix": prefix + words[:1], "args": args, "cc": cc, "n": n, "port": port,
            "secs": secs, "notes": notes}


def server_spec(cmd, port):
    """dst-cmd -> (words, notes): -D/--daemon dropped."""
    if not cmd:
        return ["iperf3", "-s", "-1", "-p", str(port)], []
    prefix, words = parse_iperf3(cmd, "dst-cmd")
    if "-s" not in words and "--server" not in words:
        raise JobError("dst-cmd: %r is not an iperf3 server (-s)" % cmd)
    notes = []
    kept = [w for w in words if w not in ("-D", "--daemon")]
    if len(kept) != len(words):
        notes.append("dst-cmd: -D dropped (bbr2-lab runs the server in its own "
                     "session and stops it after each run)")
    if _opt_value(kept, ["-p", "--port"], "5201") != str(port):
        raise JobError("dst-cmd listens on port %s, src-cmd connects to %d"
                       % (_opt_value(kept, ["-p", "--port"], "5201"), port))
    return prefix + kept, notes


def parse_param_sweep(text):
    """'tcp_bbr2/parameters/NAME, KIND, ...' -> (name, element or 0,
    [values])."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) < 3:
        raise JobError("param-sweep %r: want PATH, KIND, VALUES..." % text)
    path, kind, rest = parts[0], parts[1], parts[2:]
    if not path.startswith(PARAM_PREFIX) or "/" in path[len(PARAM_PREFIX):]:
        raise JobError("param-sweep %r: only tcp_bbr2 parameters "
                       "(tcp_bbr2/parameters/NAME) are supported" % text)
    name = path[len(PARAM_PREFIX):]
    try:
        nums = [int(x) for x in rest]
    except ValueError:
        raise JobError("param-sweep %r: values must be integers" % text)
    if kind == "sys-module-increment":
        if len(nums) != 3 or nums[2] <= 0:
            raise JobError("param-sweep %r: sys-module-increment wants START, END, STEP" % text)
        return name, 0, list(range(nums[0], nums[1] + 1, nums[2]))
    if kind == "sys-module-list":
        return name, 0, nums
    if kind == "sys-module-vector-list":
        if len(nums) < 2 or nums[0] < 1:
            raise JobError("param-sweep %r: sys-module-vector-list wants ELEMENT (from 1), "
                           "VALUES..." % text)
        return name, nums[0], nums[1:]
    raise JobError("param-sweep %r: kind %r is not supported (sys-module-increment, "
                   "sys-module-list, sys-module-vector-list)" % (text, kind))


def _floats(text, key):
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise JobError("%s %r: want numbers" % (key, text))


def _netem_loss(text):
    parts = text.split()
    try:
        float(parts[0])
    except (IndexError, ValueError):
        raise JobError("netem-loss %r: want PERCENT [gemodel]" % text)
    if len(parts) > 2 or (len(parts) == 2 and parts[1] != "gemodel"):
        raise JobError("netem-loss %r: want PERCENT [gemodel]" % text)
    return parts[0], (parts[1] if len(parts) == 2 else None)


def unsupported_options(section):
    """[(key, why)] of options in a section bbr2-lab would not honour."""
    out = []
    for key, value in section.items():
        value = (value or "").strip()
        if key in ACCEPTED:
            continue
        if key in UNSUPPORTED:
            if key in BOOLEAN_UNSUPPORTED and value.lower() in ("", "false", "no", "off", "0"):
                continue
            if not value:
                continue
            out.append((key, UNSUPPORTED[key]))
        else:
            out.append((key, "not an option bbr2-lab knows"))
    return out


def section_job(name, sec, iterations=None):
    """One enabled section -> a bbr2-lab job (see jobs.expand's result)."""
    get = lambda k: (sec.get(k) or "").strip() or None   # noqa: E731
    if not get("src-cmd"):
        raise JobError("[%s]: no src-cmd" % name)
    client = client_spec(get("src-cmd"))
    server, snotes = server_spec(get("dst-cmd"), client["port"])
    if get("lat-sweep") and get("limit-sweep"):
        raise JobError("[%s]: lat-sweep and limit-sweep together (the harness "
                       "refuses this too)" % name)
    try:
        iters = int(get("iterations") or 1)
    except ValueError:
        raise JobError("[%s]: iterations %r" % (name, get("iterations")))
    loss, loss_model = _netem_loss(get("netem-loss")) if get("netem-loss") else (None, None)
    lats = _floats(get("lat-sweep"), "lat-sweep") if get("lat-sweep") else \
        ([float(get("netem-lat"))] if get("netem-lat") else [None])
    limits = [int(x) for x in _floats(get("limit-sweep"), "limit-sweep")] if get("limit-sweep") \
        else ([int(get("netem-limit"))] if get("netem-limit") else [None])
    sweep = parse_param_sweep(get("param-sweep")) if get("param-sweep") else None
    pvalues = sweep[2] if sweep else [None]

    points = []
    for lat in lats:
        for limit in limits:
            for pv in pvalues:
                swept = {}
                if get("lat-sweep"):
                    swept["netem_lat"] = lat
                if get("limit-sweep"):
                    swept["netem_limit"] = limit
                pset = {}
                if sweep:
                    pname, elem, _ = sweep
                    key = "param.%s_%d" % (pname, elem) if elem else "param." + pname
                    swept[key] = pv
                    pset = {"name": pname, "element": elem, "value": pv}
                netem = None
                if lat is not None or limit is not None or loss is not None:
                    netem = {"lat_ms": lat, "limit": limit, "loss": loss,
                             "loss_model": loss_model}
                group = {"label": client["cc"], "cc": client["cc"], "n": client["n"],
                         "delay": 0.0, "extra_rtt": 0.0, "version": None,
                         "port": client["port"]}
                points.append({"id": _point_id(swept), "swept": swept, "config": {
                    "groups": [group], "mix": "%s:%d" % (client["cc"], client["n"]),
                    "netem": netem, "param_set": pset, "params": {},
                    "pacing": get("pacing"), "client": client, "server": server,
                    "pre_src": get("pre-src-cmd"), "post_src": get("post-src-cmd"),
                    "pre_dst": get("pre-dst-cmd"), "post_dst": get("post-dst-cmd"),
                    "mpstat_cores": get("mpstat"), "dst": get("dst"),
                    "user": get("user"), "alias": get("alias")}})
    plots = ["timeseries", "rtt_cdf"]
    report = {"plots": plots}
    if sweep:
        plots.append("param_bars")
    if get("lat-sweep") or get("limit-sweep"):
        plots.append("loss_curve")
        report["x"] = "netem_lat" if get("lat-sweep") else "netem_limit"
    meta = {"iterations": iterations or iters, "duration": client["secs"],
            "ss_interval": SS_INTERVAL, "title": get("type") or name,
            "note": "ESnet testing-harness job [%s]" % name,
            "notes": client["notes"] + snotes}
    jname = re.sub(r"[^A-Za-z0-9_.-]", "-", name)
    return {"name": jname, "meta": meta, "points": points, "report": report,
            "format": "esnet-ini"}


def load(path, iterations=None, allow_unsupported=False, log=None):
    """An ESnet INI job file -> [job]; JobError listing every unsupported
    option of the enabled sections unless allow_unsupported."""
    parser = configparser.ConfigParser(allow_no_value=True)
    try:
        with open(path) as f:
            parser.read_file(f)
    except (OSError, configparser.Error) as e:
        raise JobError("%s: %s" % (path, e))
    jobs, problems = [], []
    for name in parser.sections():
        sec = parser[name]
        if not sec.getboolean("enabled", True):
            if log:
                log("%s [%s]: enabled = false, skipped" % (path, name))
            continue
        bad = unsupported_options(sec)
        for key, why in bad:
            problems.append("[%s] %s = %s: not supported: %s" % (
                name, key, (sec.get(key) or "").strip(), why))
        try:
            jobs.append(section_job(name, sec, iterations))
        except JobError as e:
            problems.append("[%s] %s" % (name, e))
    if problems and not allow_unsupported:
        raise JobError("%s: %d option(s) bbr2-lab does not support (nothing was run; "
                       "--skip-unsupported runs the rest without them):\n  %s"
                       % (path, len(problems), "\n  ".join(problems)))
    for p in problems:
        if log:
            log("%s: IGNORED %s" % (path, p))
    if not jobs:
        raise JobError("%s: no enabled job section bbr2-lab can run" % path)
    return jobs


def is_ini(path):
    return path.endswith(".ini")
