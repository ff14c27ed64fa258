# SPDX-License-Identifier: GPL-2.0
"""Job files: what to run.

A job file is TOML:

  [job]      name, title, iterations, duration (s), ss_interval (s), note
  [base]     rate (Mbit/s), rtt (ms), loss (%), buffer_bdp or buffer_bytes,
             mix, maxrate (fq maxrate, e.g. "40mbit" or ""), [base.params]
  [[sweep]]  keys from [base] (or "param.NAME") mapped to lists of values;
             the points of one [[sweep]] are the cartesian product of its
             lists, a job's points the union of its sweeps
  [quick]    overrides of [job] keys and a replacement [[quick.sweep]] list,
             used by --quick (a reduced run of the same experiment)
  [report]   plots = [...], x = the swept key curves are drawn against

A mix is a comma-separated list of flow groups "CC:N[@DELAY][/EXTRA_RTT]":
N flows of CC (one iperf3 client), started DELAY s after the run began,
with EXTRA_RTT ms more base RTT than the dumbbell's.  CC "bbr2v2" and
"bbr2v3" are bbr2 with the module's version parameter set to 2 or 3.
"""

import itertools
import json
import os
import re

try:
    import tomllib
except ImportError:                     # python < 3.11
    import tomli as tomllib

BASE_DEFAULTS = {
    "rate": 50, "rtt": 20, "loss": 0.0, "buffer_bdp": 2.0, "buffer_bytes": None,
    "mix": "bbr2:1", "maxrate": "", "params": {},
}
JOB_DEFAULTS = {"iterations": 10, "duration": 20, "ss_interval": 0.5,
                "title": "", "note": ""}
CC_ALIASES = {"bbr2v2": ("bbr2", 2), "bbr2v3": ("bbr2", 3)}
GROUP_RE = re.compile(r"^([a-z0-9_]+):(\d+)(?:@([0-9.]+))?(?:/([0-9.]+))?$")


class JobError(Exception):
    pass


def parse_mix(mix):
    """'bbr2:1,cubic:1@5/30' -> [{'label', 'cc', 'n', 'delay', 'extra_rtt',
    'version'}]"""
    groups = []
    for part in mix.replace(" ", "").split(","):
        m = GROUP_RE.match(part)
        if not m:
            raise JobError("bad flow group %r in mix %r (want CC:N[@DELAY][/EXTRA_RTT])"
                           % (part, mix))
        label = m.group(1)
        cc, version = CC_ALIASES.get(label, (label, None))
        groups.append({"label": label, "cc": cc, "n": int(m.group(2)),
                       "delay": float(m.group(3) or 0),
                       "extra_rtt": float(m.group(4) or 0), "version": version})
    versions = {g["version"] for g in groups if g["version"]}
    if len(versions) > 1:
        raise JobError("mix %r needs bbr2 versions %s at once" % (mix, sorted(versions)))
    return groups


def _point_id(swept):
    parts = []
    for k, v in swept.items():
        parts.append("%s=%s" % (k.replace("param.", ""), "none" if v == "" else v))
    pid = "_".join(parts) or "base"
    return re.sub(r"[^A-Za-z0-9_.=+-]", "-", pid)


def expand(job_doc, quick=False, iterations=None, duration=None):
    """A parsed job file -> a job dict with its list of points."""
    meta = dict(JOB_DEFAULTS)
    meta.update(job_doc.get("job", {}))
    if "name" not in meta:
        raise JobError("[job] needs a name")
    sweeps = job_doc.get("sweep", [])
    if isinstance(sweeps, dict):
        sweeps = [sweeps]
    if quick and "quick" in job_doc:
        q = job_doc["quick"]
        meta.update({k: v for k, v in q.items() if k != "sweep"})
        if "sweep" in q:
            sweeps = q["sweep"] if isinstance(q["sweep"], list) else [q["sweep"]]
    if iterations is not None:
        meta["iterations"] = iterations
    if duration is not None:
        meta["duration"] = duration
    base = dict(BASE_DEFAULTS)
    base.update(job_doc.get("base", {}))
    base["params"] = dict(base.get("params") or {})

    points, seen = [], set()
    for sweep in sweeps or [{}]:
        keys = list(sweep)
        for key in keys:
            if not key.startswith("param.") and key not in BASE_DEFAULTS:
                raise JobError("unknown sweep key %r" % key)
            if not isinstance(sweep[key], list) or not sweep[key]:
                raise JobError("sweep key %r needs a non-empty list" % key)
        for values in itertools.product(*(sweep[k] for k in keys)):
            swept = dict(zip(keys, values))
            cfg = dict(base)
            cfg["params"] = dict(base["params"])
            for k, v in swept.items():
                if k.startswith("param."):
                    cfg["params"][k[len("param."):]] = v
                else:
                    cfg[k] = v
            pid = _point_id(swept)
            if pid in seen:
                continue
            seen.add(pid)
            cfg["groups"] = parse_mix(cfg["mix"])
            for g in cfg["groups"]:
                if g["delay"] >= meta["duration"]:
                    raise JobError("group %s starts after the run ends" % g["label"])
            points.append({"id": pid, "swept": swept, "config": cfg})
    return {"name": meta["name"], "meta": meta, "points": points,
            "report": job_doc.get("report", {})}


def load(path, **kw):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    return expand(doc, **kw)


def buffer_bdp(cfg):
    """The bottleneck buffer in BDPs (buffer_bytes converted if given)."""
    if cfg.get("buffer_bytes"):
        bdp = cfg["rate"] * 125 * cfg["rtt"]
        return float(cfg["buffer_bytes"]) / bdp
    return float(cfg["buffer_bdp"])


def each_run(job_list, out, resume=False):
    """Every run of the jobs in the order they run, as (job, point,
    iteration, run directory, its number, how many there are), each job's
    job.json written to OUT/<job>/ before its first run.  With resume, a
    run whose run.json says it succeeded (kept from an earlier, interrupted
    run into the same OUT) is passed over; its number still counts."""
    total = sum(len(j["points"]) * j["meta"]["iterations"] for j in job_list)
    n = 0
    for job in job_list:
        jdir = os.path.join(out, job["name"])
        os.makedirs(jdir, exist_ok=True)
        with open(os.path.join(jdir, "job.json"), "w") as f:
            json.dump(job, f, indent=1)
        for it in range(1, job["meta"]["iterations"] + 1):
            for point in job["points"]:
                n += 1
                idir = os.path.join(jdir, point["id"], "iter-%d" % it)
                prev = os.path.join(idir, "run.json")
                if resume and os.path.exists(prev):
                    with open(prev) as f:
                        if json.load(f)["rc"] == 0:
                            continue
                os.makedirs(idir, exist_ok=True)
                yield job, point, it, idir, n, total
