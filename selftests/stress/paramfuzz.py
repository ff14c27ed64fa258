#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes to /sys/module/tcp_bbr2/parameters/*, checked one by one.

  paramfuzz.py fuzz  --ko KO [--per-param N] [--seed S]
  paramfuzz.py churn --ko KO --stop-file F [--seed S]

Every parameter present in sysfs is covered (listed from the directory, so
a new one is fuzzed without touching this file); its valid range comes from
the module's own description ("[lo..hi; ...]", modinfo -F parm KO).

fuzz:  random bytes, empty, out of range, huge, negative, junk around
       numbers, arrays of wrong length.  A write the module rejects must
       fail with EINVAL and leave every parameter as it was; a write it
       accepts must read back in range.
churn: until STOP_FILE exists, rewrite parameters with random valid values
       (read back exactly, or refused whole by a rule between parameters)
       and invalid ones (rejected, value unchanged), and flip version,
       loss_mode and ecn_enable, as fast as one process can, while
       connections run.

Both end by writing "default" to every parameter: the module's defaults.

Prints one JSON object; exit status 0 only if no write misbehaved.
"""
import argparse
import errno
import json
import os
import random
import re
import subprocess
import sys
import time

PDIR = "/sys/module/tcp_bbr2/parameters"
GAIN_MIN, GAIN_MAX, CYCLE = 1, 1023, 8


def ranges(ko):
    out = subprocess.run(["modinfo", "-F", "parm", ko], capture_output=True,
                         text=True, check=True).stdout
    r = {}
    for line in out.splitlines():
        name, _, desc = line.partition(":")
        m = re.search(r"\[(\d+)\.\.(\d+);", desc)
        if m:
            r[name] = (int(m.group(1)), int(m.group(2)))
    return r


def read(name):
    with open(os.path.join(PDIR, name), errors="backslashreplace") as f:
        return f.read()


def write(name, data):
    """0 if accepted, else the errno."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    try:
        fd = os.open(os.path.join(PDIR, name), os.O_WRONLY)
    except OSError as e:
        return e.errno
    try:
        os.write(fd, data)
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def in_range(name, val, rng):
    val = val.rstrip("\n")
    if name == "version":
        return val in ("2", "3")
    if name == "pacing_gain":
        parts = val.split(",")
        return (len(parts) == CYCLE and all(p.isdigit() and GAIN_MIN <= int(p) <= GAIN_MAX
                                            for p in parts))
    lo, hi = rng[name]
    return val.isdigit() and lo <= int(val) <= hi


def valid_value(name, rng, r):
    if name == "version":
        return str(r.choice((2, 3)))
    if name == "pacing_gain":
        up, down = r.randint(257, GAIN_MAX), r.randint(GAIN_MIN, 255)
        cruise, refill = r.randint(192, GAIN_MAX), r.randint(192, GAIN_MAX)
        gains = [up, down, cruise, refill] + [256] * (r.choice((4, 8)) - 4)
        return ",".join(map(str, gains))
    lo, hi = rng[name]
    return str(r.choice((lo, hi, r.randint(lo, hi))))


# Bytes that a number, or a list of them, can be made of (kstrtouint()
# takes "+", "0x" and one trailing newline; pacing_gain splits on ",").
NUMBER_BYTES = frozenset(b"0123456789abcdefABCDEFxX+,\n")


def random_junk(r):
    """1-63 random bytes that cannot parse as a number: b"1" is as random
    as any other byte string, and a valid write would be accepted."""
    while True:
        data = bytes(r.randrange(1, 256) for _ in range(r.randrange(1, 64)))
        if not NUMBER_BYTES.issuperset(data):
            return data


def invalid_value(name, rng, r):
    lo, hi = rng.get(name, (GAIN_MIN, GAIN_MAX))
    if name == "version":
        lo, hi = 2, 3
    k = r.randrange(12)
    if k == 0:
        return random_junk(r)
    if k == 1:
        return "\n"
    if k == 2:
        return str(hi + 1 + r.randrange(1000))
    if k == 3:
        return str(lo - 1) if lo > 0 else "-%d" % r.randint(1, 10)
    if k == 4:
        return r.choice(("18446744073709551616", "4294967296", "-4294967295", "0x",
                         "1e3", "+", "-", " ", "1 2", "nan", "9" * 300))
    if k == 5:
        return "%s%d%s" % (r.choice(("--", "x", "+-")), r.randint(lo, hi),
                           r.choice(("x", ",", ".5", " 1")))
    if k in (6, 7) and name == "pacing_gain":	# wrong lengths and orders
        n = r.choice((1, 2, 3, 5, 6, 7, 9, 16))
        return ",".join(str(r.randint(GAIN_MIN, GAIN_MAX)) for _ in range(n))
    if k in (6, 7):
        return ",".join(str(r.randint(lo, hi)) for _ in range(r.randint(2, 8)))
    if k == 8 and name == "pacing_gain":	# UP not above 1.0
        return ",".join(["200", "100"] + ["256"] * 6)
    return "%d" % (hi + r.randint(1, 1 << 40))


def reset(names):
    """Every parameter back to following the version's default (twice: a
    rule between two parameters may refuse the first); version=3 on a
    module that does not know "default"."""
    for _ in range(2):
        for n in names:
            write(n, "default")
    if write("version", "default"):
        write("version", "3")


def snapshot(names):
    return {n: read(n) for n in names}


def fuzz(args, names, rng):
    """Each write is checked against a full snapshot of all parameters:
    only the written one (or, for version, all) may change, and only if
    the write was accepted.  Reads are cheap next to the writes' checks,
    but not free under emulation: the snapshot is kept up to date
    instead of being re-read before every write."""
    r = random.Random(args.seed)
    res = {"params": len(names), "writes": 0, "rejected": 0, "accepted": 0,
           "bad": [], "not_einval": 0}
    reset(names)
    state = snapshot(names)
    for name in names:
        for i in range(args.per_param):
            data = invalid_value(name, rng, r) if r.random() < 0.8 else valid_value(name, rng, r)
            rc = write(name, data)
            res["writes"] += 1
            full = name == "version" or i % 25 == 0
            after = snapshot(names) if full else dict(state, **{name: read(name)})
            if rc:
                res["rejected"] += 1
                if rc != errno.EINVAL:
                    res["not_einval"] += 1
                changed = [n for n in names if state[n] != after[n]]
                if changed and len(res["bad"]) < 10:
                    res["bad"].append("%s=%r rejected but changed %s" % (name, data, changed))
            else:
                res["accepted"] += 1
                wrong = [n for n in (names if full else [name])
                         if not in_range(n, after[n], rng)]
                if wrong and len(res["bad"]) < 10:
                    res["bad"].append("%s=%r accepted, %s out of range" % (name, data, wrong))
            state = after
            if name == "version" or r.random() < 0.05:
                reset(names)
                state = snapshot(names)
    reset(names)
    return res


FLIPS = ("version", "loss_mode", "ecn_enable")


def churn(args, names, rng):
    r = random.Random(args.seed)
    res = {"params": len(names), "valid": 0, "invalid": 0, "refused_by_rule": 0,
           "flips": {n: 0 for n in FLIPS}, "bad": []}
    while not os.path.exists(args.stop_file):
        if r.random() < 0.3:
            # what changes a live socket's behaviour most: flip it
            name = r.choice(FLIPS)
            cur = read(name).rstrip("\n")
            if name == "version":
                v = "2" if cur == "3" else "3"
            else:
                v = "0" if cur == "1" else "1"
            rc = write(name, v)
            res["flips"][name] += 1
            if rc == errno.EINVAL and read(name).rstrip("\n") == cur:
                # a version whose defaults would break a rule with a value
                # set explicitly (e.g. full_bw_thresh above its high_gain)
                res["refused_by_rule"] += 1
            elif (rc or read(name).rstrip("\n") != v) and len(res["bad"]) < 10:
                res["bad"].append("flip %s %s->%s: rc %d, reads %r" % (name, cur, v, rc,
                                                                    read(name)))
        elif r.random() < 0.5:
            name = r.choice(names)
            v = valid_value(name, rng, r)
            before = read(name)
            rc = write(name, v)
            res["valid"] += 1
            if name == "pacing_gain" and v.count(",") == 3:
                v += ",256" * 4
            if rc == errno.EINVAL and read(name) == before:
                res["refused_by_rule"] += 1
            elif (rc or read(name).rstrip("\n") != v) and len(res["bad"]) < 10:
                res["bad"].append("valid %s=%s: rc %d, reads %r" % (name, v, rc, read(name)))
        else:
            name = r.choice(names)
            v = invalid_value(name, rng, r)
            before = read(name)
            rc = write(name, v)
            res["invalid"] += 1
            if (not rc or read(name) != before) and len(res["bad"]) < 10:
                res["bad"].append("invalid %s=%r: rc %d, %r -> %r" % (name, v, rc, before,
                                                                      read(name)))
        if r.random() < 0.02:
            reset(names)
        time.sleep(args.pause)
    reset(names)
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=("fuzz", "churn"))
    p.add_argument("--ko", required=True)
    p.add_argument("--per-param", type=int, default=200)
    p.add_argument("--stop-file", default="")
    p.add_argument("--pause", type=float, default=0.002)
    p.add_argument("--seed", type=int, default=int(time.time()))
    args = p.parse_args()
    rng = ranges(args.ko)
    names = sorted(os.listdir(PDIR))
    missing = [n for n in names if n not in rng and n not in ("version", "pacing_gain")]
    res = fuzz(args, names, rng) if args.mode == "fuzz" else churn(args, names, rng)
    res["seed"] = args.seed
    res["no_range"] = missing
    print(json.dumps(res))
    return 0 if not res["bad"] and not missing and not res.get("not_einval") else 1


if __name__ == "__main__":
    sys.exit(main())
