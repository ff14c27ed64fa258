#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Merge peer-benchmark runs made one iteration at a time into one result.

  peers-merge.py OUT N=SHARD [N=SHARD ...]

A full peer benchmark takes hours of VM time; it is run in shards
(vm-bench-peers ITER=1, one RESULTS directory each, possibly on different
days), and a shard may hold only some scenarios or congestion controls (the
ECN responders on the ECN scenarios, say).  Each SHARD is such a RESULTS
directory holding iter1/<guest>/raw.tsv and a file "commit" with the commit
the module was built from; N is the iteration it becomes in OUT.  Shards
given the same N are joined: their raw.tsv files per guest are
concatenated (a scenario and CC measured twice in one iteration is
refused), and a guest that did not finish in one of them (no raw.tsv: an
emulator fault) is taken from another that ran it again.  Every shard must name the same commit, and not one with
uncommitted changes ("-dirty"): a results page measures one version of
the code.

OUT gets iterN/<guest>/raw.tsv and vm-secs, shards.txt (iteration, shard,
commit), and the report of peers-report.py (raw.csv, summary.json,
report.txt).
"""

import os
import pathlib
import subprocess
import sys


def die(msg):
    sys.exit("peers-merge: " + msg)


# meta lines of one guest run in several shards: these must agree (one
# kernel, one path) ...
META_AGREE = ("kernel", "flow_secs", "rtt_ms", "rate_mbit")


def merge_meta(items):
    """items: [(key, value, shard)] -> {key: value}; the emulator checks
    keep the worst shard's (lowest capacity, any unclean log fails), the
    VM time adds up, the rest keeps the first shard's value."""
    merged = {}
    for key, value, shard in items:
        if key not in merged:
            merged[key] = value
            continue
        if key in META_AGREE:
            if merged[key] != value:
                die(f"meta {key}: {shard} says {value}, an earlier shard {merged[key]}")
        elif key.startswith("capacity_") or key == "kernel_log_clean":
            merged[key] = min(merged[key], value, key=float)
        elif key == "secs_total":
            merged[key] = str(int(float(merged[key]) + float(value)))
    return merged


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    shards = []
    for arg in sys.argv[2:]:
        n, _, path = arg.partition("=")
        if not n.isdigit() or not path:
            die(f"{arg}: want N=SHARD")
        shard = pathlib.Path(path)
        commit_file = shard / "commit"
        if not commit_file.is_file():
            die(f"{shard}: no 'commit' file (which code did it measure?)")
        iters = sorted(p.name for p in shard.glob("iter*") if p.is_dir())
        if iters != ["iter1"]:
            die(f"{shard}: want exactly one iteration (iter1), found {iters}")
        commit = commit_file.read_text().strip()
        if commit == "unknown" or commit.endswith("-dirty"):
            die(f"{shard}: measured {commit}, not a commit")
        shards.append((int(n), shard, commit))

    commits = {c for _, _, c in shards}
    if len(commits) != 1:
        die("shards measured different commits: " +
            ", ".join(f"{s.name}={c[:12]}" for _, s, c in shards))

    # a guest that did not finish in one shard (an emulator fault) counts
    # only if another shard of the same iteration ran it to the end
    finished = {(n, g.name) for n, shard, _ in shards
                for g in (shard / "iter1").iterdir() if (g / "raw.tsv").is_file()}
    for n, shard, _ in shards:
        for g in (shard / "iter1").iterdir():
            if (n, g.name) not in finished:
                die(f"{g}: no raw.tsv (the guest did not finish), and no other "
                    f"shard of iteration {n} ran {g.name}")
    if out.exists() and any(out.iterdir()):
        die(f"{out}: exists and is not empty")
    out.mkdir(parents=True, exist_ok=True)
    seen, metas = {}, {}
    for n, shard, commit in shards:
        for gdir in sorted((shard / "iter1").iterdir()):
            raw = gdir / "raw.tsv"
            if not raw.is_file():
                print(f"peers-merge: {gdir} did not finish; iteration {n} takes "
                      f"{gdir.name} from another shard", file=sys.stderr)
                continue
            dest = out / f"iter{n}" / gdir.name
            dest.mkdir(parents=True, exist_ok=True)
            lines = raw.read_text().splitlines()
            keep = []
            for line in lines:
                parts = line.split("\t")
                if len(parts) != 4:
                    continue
                if parts[0] == "meta":
                    metas.setdefault((n, gdir.name), []).append(
                        (parts[2], parts[3], shard.name))
                    continue
                key = (n, gdir.name, parts[0], parts[1], parts[2])
                if key in seen:
                    die(f"{raw}: {parts[0]} {parts[1]} {parts[2]} already came from "
                        f"{seen[key][1]}")
                seen[key] = (parts[3], shard.name)
                keep.append(line)
            with open(dest / "raw.tsv", "a") as f:
                f.write("\n".join(keep) + "\n")
            secs = gdir / "vm-secs"
            total = int(secs.read_text().strip() or 0) if secs.is_file() else 0
            prev = dest / "vm-secs"
            if prev.is_file():
                total += int(prev.read_text().strip() or 0)
            prev.write_text(f"{total}\n")
    for (n, guest), items in metas.items():
        with open(out / f"iter{n}" / guest / "raw.tsv", "a") as f:
            for key, value in merge_meta(items).items():
                f.write(f"meta\t-\t{key}\t{value}\n")
    with open(out / "shards.txt", "w") as f:
        for n, shard, commit in sorted(shards, key=lambda s: (s[0], s[1].name)):
            f.write(f"{n}\t{shard.name}\t{commit}\n")

    report = pathlib.Path(__file__).resolve().parent / "peers-report.py"
    v3 = os.environ.get("V3_KERNEL")
    peer = ["--peer", v3] if v3 else []
    with open(out / "report.txt", "w") as f:
        subprocess.run([sys.executable, str(report), str(out)] + peer,
                       stdout=f, check=True)
    print(f"peers-merge: {len(shards)} shard(s) of commit {commits.pop()[:12]} -> {out}")


if __name__ == "__main__":
    main()
