#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of peers-report.py (the peer benchmark's tables) on small
hand-made raw data: the rows of the tiny, nosack, ecn, vscubic8 and
transperf4 scenarios and deep16's early queueing delay, with every number
they show computed here by hand from the raw values; and persec.py, which
makes transperf4's per-second goodputs from ccinfo's samples.

  python3 -m unittest discover -s selftests/bench -p 'test_*.py'
"""

import importlib.util
import io
import json
import os
import shutil
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))


def load_report():
    spec = importlib.util.spec_from_file_location(
        "peers_report", os.path.join(HERE, "peers-report.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# transperf4, one run: 4 flows, 6 one-second buckets through 50 Mbit/s.
# Aggregates 30 46 48 48 48 40: tput 100 x mean / 50 = 86.667 %; the
# buckets ending at 4 s or later are the last three: worst aggregate 40 =
# 80 % of the link; their Jain x100: 100, 100 and 12,12,10,6 ->
# 1600 / (4 x 424) = 94.340, mean 98.113.  Flow totals 80 65 63 52 ->
# Jain 260^2 / (4 x 17298) = 0.97699.  Worst retransmits 1.5 % -> loss_avoid
# 98.5; worst RTT ratio 40 / 120 -> rtt_med 33.333.  Targets met: conv_tput
# (>= 80), tput, fair_avg, conv_jain_min; not loss_avoid (99), rtt_med (40).
TP_FLOWS = [
    ("20,12,12,12,12,12", "0.5", "40", "50"),
    ("5,12,12,12,12,12", "0.2", "40", "50"),
    ("5,12,12,12,12,10", "1.5", "40", "120"),
    ("0,10,12,12,12,6", "0.1", "41", "50"),
]


def raw_lines(guest):
    """raw.tsv lines of one guest run (peers-guest.sh's format)."""
    meta = {"kernel": "6.12.117-bbr3" if guest == "v3" else "6.12.117+deb12-amd64",
            "flow_secs": "20", "rtt_ms": "40", "rate_mbit": "50",
            "capacity_before_ok": "1", "capacity_after_ok": "1",
            "capacity_before_mbit": "47.4", "capacity_after_mbit": "47.4",
            "kernel_log_clean": "1", "secs_total": "600"}
    out = ["meta\t-\t%s\t%s" % kv for kv in meta.items()]
    specs = ["bbr"] if guest == "v3" else ["bbr2", "bbr2:ecn_enable=1", "dctcp"]
    for n, spec in enumerate(specs):
        g = 9.0 - n            # bbr 9.0; bbr2 9.0, ...=1 8.0, dctcp 7.0
        out += ["tiny1\t%s\tgoodput_mbit\t%.1f" % (spec, g),
                "tiny1\t%s\tretrans_pct\t1.0" % spec,
                "tiny3\t%s\tgoodput_mbit\t%.1f" % (spec, g - 3),
                "tiny3\t%s\tretrans_pct\t3.1" % spec,
                "nosack01\t%s\tgoodput_mbit\t%.1f" % (spec, 45 - n),
                "nosack01\t%s\trcv_tcp_sack\t0" % spec,
                "nosack1\t%s\tgoodput_mbit\t%.1f" % (spec, 30 - n),
                "nosack1\t%s\trcv_tcp_sack\t0" % spec,
                "ecn\t%s\tgoodput_mbit\t46.%d" % (spec, n),
                "ecn\t%s\tqdelay_med_ms\t%d.0" % (spec, 2 + n),
                "ecn\t%s\tce_marks\t%d" % (spec, 100 * n),
                "ecn2\t%s\tgoodput_mbit\t47.0" % spec,
                "ecn2\t%s\tjain\t0.9%d" % (spec, n),
                "vscubic8q\t%s\tgoodput_mbit\t%.1f" % (spec, 20 + n),
                "vscubic8q\t%s\tcubic_mbit\t%.1f" % (spec, 27 - n),
                "vscubic8q\t%s\tshare\t0.%d" % (spec, 4 + n),
                "vscubic8\t%s\tshare\t0.3%d" % (spec, n),
                "deep16\t%s\tqdelay_med_ms\t10.0" % spec,
                "deep16\t%s\tqdelay_early_p95_ms\t%.1f" % (spec, 30 + 10 * n),
                "deep16\t%s\tqdelay_early_max_ms\t%.1f" % (spec, 35 + 10 * n),
                "deep16\t%s\tping_early_samples\t20" % spec]
    tp = ["transperf4\t%s\tlink_mbit\t50" % "bbr", "transperf4\tbbr\tsecs\t6"]
    for k, (persec, retr, lo, med) in enumerate(TP_FLOWS, 1):
        tp += ["transperf4\tbbr\tflow%d_persec_mbit\t%s" % (k, persec),
               "transperf4\tbbr\tflow%d_retrans_pct\t%s" % (k, retr),
               "transperf4\tbbr\tflow%d_srtt_min_ms\t%s" % (k, lo),
               "transperf4\tbbr\tflow%d_srtt_med_ms\t%s" % (k, med)]
    if guest == "v3":
        out += tp
    else:
        # bbr2: every flow even, 12 Mbit/s in every second, no retransmits,
        # RTT ratio 40/44: every score met
        out += ["transperf4\tbbr2\tlink_mbit\t50", "transperf4\tbbr2\tsecs\t6"]
        for k in range(1, 5):
            out += ["transperf4\tbbr2\tflow%d_persec_mbit\t12,12,12,12,12,12" % k,
                    "transperf4\tbbr2\tflow%d_retrans_pct\t0" % k,
                    "transperf4\tbbr2\tflow%d_srtt_min_ms\t40" % k,
                    "transperf4\tbbr2\tflow%d_srtt_med_ms\t44" % k]
    return "\n".join(out) + "\n"


class PeersReportNewScenarios(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="peers-report-test-")
        for guest in ("v3", "debian"):
            d = os.path.join(cls.dir, "iter1", guest)
            os.makedirs(d)
            with open(os.path.join(d, "raw.tsv"), "w") as f:
                f.write(raw_lines(guest))
        report = load_report()
        buf = io.StringIO()
        argv = report.sys.argv
        report.sys.argv = ["peers-report.py", cls.dir, "--peer", "bzImage"]
        try:
            with redirect_stdout(buf):
                report.main()
        finally:
            report.sys.argv = argv
        cls.text = buf.getvalue()
        with open(os.path.join(cls.dir, "summary.json")) as f:
            cls.summary = json.load(f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def stat(self, scenario, key):
        sc = self.summary["scenarios"].get(scenario)
        self.assertIsNotNone(sc, "no %s table" % scenario)
        self.assertIn(key, sc["stats"], "%s: no %s" % (scenario, key))
        return sc["stats"][key]["mean"]

    def row(self, scenario, cc):
        """The table line of cc under scenario's heading."""
        lines = self.text.splitlines()
        heads = [i for i, line in enumerate(lines) if line.startswith(scenario + ": ")]
        self.assertEqual(len(heads), 1, "one %s table" % scenario)
        for line in lines[heads[0] + 3:]:
            if not line.strip():
                break
            if line.split()[0] == cc:
                return line.split()
        self.fail("%s: no row for %s" % (scenario, cc))

    def test_tiny_and_nosack_goodput(self):
        self.assertAlmostEqual(self.stat("tiny1", "v3/goodput_mbit"), 9.0)
        self.assertAlmostEqual(self.stat("tiny3", "dctcp/goodput_mbit"), 4.0)
        self.assertAlmostEqual(self.stat("nosack01", "bbr2/goodput_mbit"), 45.0)
        self.assertAlmostEqual(self.stat("nosack1", "dctcp/goodput_mbit"), 28.0)
        # 29.0 against v3's 30.0: the ratio column says 0.97
        self.assertEqual(self.row("nosack1", "bbr2:ecn_enable=1")[:2], ["bbr2:ecn_enable=1", "29.0"])
        self.assertIn("0.97", self.row("nosack1", "bbr2:ecn_enable=1"))
        self.assertIn("receiver without SACK", self.text)

    def test_ecn_rows(self):
        self.assertAlmostEqual(self.stat("ecn", "dctcp/qdelay_med_ms"), 4.0)
        self.assertAlmostEqual(self.stat("ecn", "bbr2:ecn_enable=1/ce_marks"), 100)
        self.assertAlmostEqual(self.stat("ecn2", "dctcp/jain"), 0.92)
        self.assertIn("ecn_low", self.text)
        self.assertEqual(self.row("ecn", "dctcp")[1], "46.2")

    def test_vscubic8_share(self):
        self.assertAlmostEqual(self.stat("vscubic8q", "bbr2/share"), 0.4)
        self.assertAlmostEqual(self.stat("vscubic8q", "v3/cubic_mbit"), 27.0)
        self.assertAlmostEqual(self.stat("vscubic8", "dctcp/share"), 0.32)

    def test_deep16_early_row(self):
        self.assertAlmostEqual(self.stat("deep16:early", "v3/qdelay_early_p95_ms"), 30.0)
        self.assertAlmostEqual(self.stat("deep16:early", "dctcp/qdelay_early_max_ms"), 55.0)
        # its own table, beside deep16's median one
        self.assertEqual(self.row("deep16:early", "bbr2")[1], "30.0")
        self.assertAlmostEqual(self.stat("deep16", "bbr2/qdelay_med_ms"), 10.0)

    def test_transperf4_scores_by_hand(self):
        v = lambda k: self.stat("transperf4", "v3/" + k)
        self.assertAlmostEqual(v("tput_pct"), 86.667, places=3)
        self.assertAlmostEqual(v("conv_tput_min_pct"), 80.0, places=3)
        self.assertAlmostEqual(v("conv_jain_min"), 94.340, places=3)
        self.assertAlmostEqual(v("fair_avg"), 98.113, places=3)
        self.assertAlmostEqual(v("jain"), 0.977, places=3)
        self.assertAlmostEqual(v("loss_avoid"), 98.5, places=3)
        self.assertAlmostEqual(v("rtt_med"), 33.333, places=3)
        self.assertEqual(v("pass"), 4)
        b = lambda k: self.stat("transperf4", "bbr2/" + k)
        self.assertAlmostEqual(b("conv_tput_min_pct"), 96.0, places=3)
        self.assertAlmostEqual(b("jain"), 1.0, places=3)
        self.assertEqual(b("pass"), 6)
        # judged on the convergence score: bbr2 96 against v3's 80
        self.assertEqual(self.row("transperf4", "bbr2")[1], "96.0")
        self.assertIn("1.20", self.row("transperf4", "bbr2"))

    def test_transperf_scores_need_a_convergence_bucket(self):
        report = load_report()
        m = {"link_mbit": "50", "flow1_persec_mbit": "10,10,10"}
        self.assertEqual(report.transperf_scores(m), {})
        m["flow1_persec_mbit"] = "10,10,10,10"
        self.assertAlmostEqual(report.transperf_scores(m)["conv_tput_min_pct"], 20.0)
        self.assertEqual(report.transperf_scores({"flow1_persec_mbit": "1"}), {})


class PerSecond(unittest.TestCase):
    """persec.py: per-second goodput from ccinfo's samples, interpolated."""

    SAMPLES = [
        # flow A from t0 on, 10 Mbit/s in both seconds
        "100.000 40001>5301 cc=bbr2 rtt_us=40000 retrans_total=0 bytes_acked=0",
        "101.000 40001>5301 cc=bbr2 rtt_us=44000 retrans_total=0 bytes_acked=1250000",
        "102.000 40001>5301 cc=bbr2 rtt_us=42000 retrans_total=2 bytes_acked=2500000",
        # flow B starts half a second late: 625000 bytes by 101.0 (5 Mbit/s
        # in the first second), 15 Mbit/s in the second
        "100.500 40003>5302 cc=bbr2 rtt_us=41000 retrans_total=0 bytes_acked=0",
        "101.500 40003>5302 cc=bbr2 rtt_us=41000 retrans_total=0 bytes_acked=1250000",
        "102.000 40003>5302 cc=bbr2 rtt_us=41000 retrans_total=10 bytes_acked=2500000",
        # iperf3's control connection: not a flow
        "100.000 40000>5301 cc=bbr2 rtt_us=40000 retrans_total=0 bytes_acked=5000",
        "101.000 40000>5301 cc=bbr2 rtt_us=40000 retrans_total=0 bytes_acked=5001",
    ]

    @classmethod
    def setUpClass(cls):
        spec = importlib.util.spec_from_file_location(
            "persec", os.path.join(HERE, "persec.py"))
        cls.persec = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.persec)

    def test_flows(self):
        persec = self.persec
        with tempfile.NamedTemporaryFile("w", suffix=".ccinfo") as f:
            f.write("\n".join(self.SAMPLES) + "\n")
            f.flush()
            flows = persec.flows(f.name, 100.0, 2)
        self.assertEqual([fl[0] for fl in flows], ["40001>5301", "40003>5302"])
        (_, a, ra, amin, amed), (_, b, rb, _, _) = flows
        for got, want in zip(a + b, [10.0, 10.0, 5.0, 15.0]):
            self.assertAlmostEqual(got, want)
        # 2 retransmits over 2500000 / 1448 acknowledged segments plus them
        self.assertAlmostEqual(ra, 100.0 * 2 / (2500000 / 1448 + 2))
        self.assertAlmostEqual(rb, 100.0 * 10 / (2500000 / 1448 + 10))
        self.assertEqual((amin, amed), (40.0, 42.0))

    def test_qdelay(self):
        persec = self.persec
        with tempfile.NamedTemporaryFile("w", suffix=".ccinfo") as f:
            f.write("\n".join(self.SAMPLES) + "\n")
            f.flush()
            # from 101.5 on: A's 42 ms, B's 41 and 41; less a 40-ms base
            med, p95, n = persec.qdelay(f.name, 100.0, 1.5, 40.0)
            self.assertIsNone(persec.qdelay(f.name, 100.0, 5.0, 40.0))
        self.assertEqual(n, 3)
        self.assertAlmostEqual(med, 1.0)
        self.assertAlmostEqual(p95, 2.0)


if __name__ == "__main__":
    unittest.main()
