#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of peers-merge.py: shards of one iteration each become one
result; shards of different commits or of a tree with uncommitted
changes, a measurement made twice in one iteration and a shard of several
iterations are refused.

  python3 -m unittest discover -s selftests/bench -p 'test_*.py'
"""

import csv
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
MERGE = HERE / "peers-merge.py"


def shard(top, name, commit, guests, cap_before="47.4"):
    """A RESULTS directory of one iteration; guests: {guest: [(scenario,
    spec, metric, value)]}."""
    d = top / name
    for guest, rows in guests.items():
        g = d / "iter1" / guest
        g.mkdir(parents=True)
        meta = {"kernel": "6.12.117-bbr3" if guest == "v3" else "6.12.117+deb12-amd64",
                "flow_secs": "20", "rtt_ms": "40", "rate_mbit": "50",
                "capacity_before_ok": "1", "capacity_after_ok": "1",
                "capacity_before_mbit": cap_before, "capacity_after_mbit": "47.4",
                "kernel_log_clean": "1", "secs_total": "100"}
        lines = ["meta\t-\t%s\t%s" % kv for kv in meta.items()]
        lines += ["\t".join(r) for r in rows]
        (g / "raw.tsv").write_text("\n".join(lines) + "\n")
        (g / "vm-secs").write_text("120\n")
    (d / "commit").write_text(commit + "\n")
    return d


def merge(out, *args):
    return subprocess.run([sys.executable, str(MERGE), str(out)] + list(args),
                          capture_output=True, text=True)


class Merge(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.top = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_shards_become_iterations_and_join(self):
        a = shard(self.top, "i1", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")],
            "v3": [("loss1", "bbr", "goodput_mbit", "40.0")]}, cap_before="47.0")
        b = shard(self.top, "ecn-i1", "c0ffee", {
            "debian": [("ecn", "dctcp", "goodput_mbit", "41.0")]}, cap_before="46.0")
        c = shard(self.top, "i2", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "45.0")]})
        out = self.top / "merged"
        r = merge(out, f"1={a}", f"1={b}", f"2={c}")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out / "raw.csv") as f:
            rows = {(x["iter"], x["guest"], x["spec"], x["scenario"]): x["value"]
                    for x in csv.DictReader(f)}
        self.assertEqual(rows[("1", "debian", "bbr2", "loss1")], "44.0")
        self.assertEqual(rows[("1", "debian", "dctcp", "ecn")], "41.0")
        self.assertEqual(rows[("1", "v3", "bbr", "loss1")], "40.0")
        self.assertEqual(rows[("2", "debian", "bbr2", "loss1")], "45.0")
        meta = (out / "iter1" / "debian" / "raw.tsv").read_text()
        # one meta line per key; the worst capacity of the two shards;
        # their VM time added up
        self.assertEqual(meta.count("\tkernel\t"), 1)
        self.assertIn("capacity_before_mbit\t46.0", meta)
        self.assertIn("secs_total\t200", meta)
        self.assertEqual((out / "iter1" / "debian" / "vm-secs").read_text().strip(), "240")
        # V3_KERNEL was not in the environment, but the shards hold v3 runs
        report = (out / "report.txt").read_text()
        self.assertNotIn("NOT GIVEN", report)
        self.assertIn("v3 = `bbr` of the peer kernel", report)
        self.assertEqual(len((out / "shards.txt").read_text().splitlines()), 3)

    def test_an_unfinished_guest_comes_from_its_rerun(self):
        a = shard(self.top, "i1", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")],
            "v3": []})
        (a / "iter1" / "v3" / "raw.tsv").unlink()      # the guest crashed
        r = merge(self.top / "alone", f"1={a}")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("did not finish", r.stderr)
        b = shard(self.top, "v3-i1", "c0ffee", {
            "v3": [("loss1", "bbr", "goodput_mbit", "40.0")]})
        out = self.top / "merged"
        r = merge(out, f"1={a}", f"1={b}")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out / "raw.csv") as f:
            guests = {(x["guest"], x["spec"]) for x in csv.DictReader(f)}
        self.assertEqual(guests, {("debian", "bbr2"), ("v3", "bbr")})

    def test_different_commits_are_refused(self):
        a = shard(self.top, "i1", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")]})
        b = shard(self.top, "i2", "decade", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "45.0")]})
        r = merge(self.top / "m", f"1={a}", f"2={b}")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("different commits", r.stderr)
        self.assertFalse((self.top / "m").exists())

    def test_one_measurement_twice_is_refused(self):
        a = shard(self.top, "i1", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")]})
        b = shard(self.top, "again", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "45.0")]})
        r = merge(self.top / "m", f"1={a}", f"1={b}")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("already came from", r.stderr)

    def test_a_shard_of_several_iterations_is_refused(self):
        a = shard(self.top, "i1", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")]})
        os.rename(a / "iter1", a / "iter2")
        r = merge(self.top / "m", f"1={a}")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("exactly one iteration", r.stderr)

    def test_a_dirty_tree_is_refused(self):
        a = shard(self.top, "i1", "c0ffee-dirty", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")]})
        r = merge(self.top / "m", f"1={a}")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not a commit", r.stderr)

    def test_a_shard_without_commit_is_refused(self):
        a = shard(self.top, "i1", "c0ffee", {
            "debian": [("loss1", "bbr2", "goodput_mbit", "44.0")]})
        (a / "commit").unlink()
        r = merge(self.top / "m", f"1={a}")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no 'commit' file", r.stderr)


if __name__ == "__main__":
    unittest.main()
