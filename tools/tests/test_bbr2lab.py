# SPDX-License-Identifier: GPL-2.0
"""Unit tests of bbr2-lab's job parsing, statistics, report and plots, on
synthetic raw data (no root, no VM):  python3 -m unittest discover tools/tests
"""

import csv
import json
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bbr2lab import jobs, report, stats, runner  # noqa: E402

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fake_iperf(path, flows_mbps, secs=4, retrans=(), delay=0):
    """An iperf3 -J document with one stream per entry of flows_mbps."""
    intervals = []
    for k in range(secs * 2):
        intervals.append({"streams": [
            {"socket": 5 + i, "start": k * 0.5, "end": k * 0.5 + 0.5, "seconds": 0.5,
             "bits_per_second": m * 1e6, "retransmits": (retrans[i] if i < len(retrans) else 0) // (secs * 2),
             "omitted": False} for i, m in enumerate(flows_mbps)],
            "sum": {"start": k * 0.5, "seconds": 0.5}})
    streams = []
    for i, m in enumerate(flows_mbps):
        sent = m * 1e6 / 8 * secs
        streams.append({"sender": {"socket": 5 + i, "bytes": sent,
                                   "retransmits": retrans[i] if i < len(retrans) else 0},
                        "receiver": {"socket": 5 + i, "bits_per_second": m * 1e6}})
    with open(path, "w") as f:
        json.dump({"intervals": intervals, "end": {"streams": streams}}, f)


def fake_ss(path, rows):
    """rows: (t, port, cc, rtt_ms, acked[, sport])"""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=runner.SS_FIELDS, extrasaction="ignore")
        w.writeheader()
        for t, port, cc, rtt, acked, *sport in rows:
            sport = sport[0] if sport else 40000 + port
            w.writerow({"time": t, "flow": "10.0.1.1:%d>10.0.3.2:%d" % (sport, port),
                        "cc": cc, "rtt": rtt, "cwnd": 10, "acked": acked})


JOB_TOML = b"""
[job]
name = "t"
title = "test job"
iterations = 2
duration = 4
[base]
rate = 20
rtt = 10
mix = "bbr2:1"
[[sweep]]
loss = [0.01, 0.1]
mix = ["bbr2:1,cubic:1", "bbr2:2"]
[quick]
iterations = 1
[[quick.sweep]]
loss = [0.1]
[report]
plots = ["timeseries", "loss_curve", "buffer_bars", "rtt_cdf"]
x = "loss"
"""


class JobTests(unittest.TestCase):
    def load(self, data, **kw):
        with tempfile.NamedTemporaryFile(suffix=".toml") as f:
            f.write(data)
            f.flush()
            return jobs.load(f.name, **kw)

    def test_cartesian_points_and_overrides(self):
        job = self.load(JOB_TOML)
        self.assertEqual(len(job["points"]), 4)
        self.assertEqual(job["meta"]["iterations"], 2)
        quick = self.load(JOB_TOML, quick=True)
        self.assertEqual(len(quick["points"]), 1)
        self.assertEqual(quick["meta"]["iterations"], 1)
        self.assertEqual(self.load(JOB_TOML, iterations=7)["meta"]["iterations"], 7)

    def test_mix_syntax(self):
        g = jobs.parse_mix("bbr2v2:8, cubic:2@15/150")
        self.assertEqual((g[0]["cc"], g[0]["n"], g[0]["version"]), ("bbr2", 8, 2))
        self.assertEqual((g[1]["cc"], g[1]["delay"], g[1]["extra_rtt"]), ("cubic", 15.0, 150.0))
        with self.assertRaises(jobs.JobError):
            jobs.parse_mix("bbr2v2:1,bbr2v3:1")
        with self.assertRaises(jobs.JobError):
            jobs.parse_mix("bbr2")

    def test_unknown_key_rejected(self):
        with self.assertRaises(jobs.JobError):
            self.load(b'[job]\nname="x"\n[[sweep]]\nlos = [1]\n')

    def test_buffer_bytes_to_bdp(self):
        self.assertAlmostEqual(jobs.buffer_bdp({"rate": 20, "rtt": 10, "buffer_bytes": 50000,
                                                "buffer_bdp": 9}), 2.0)

    def test_shipped_jobs_parse(self):
        names = set()
        for p in runner.shipped_jobs():
            for quick in (False, True):
                job = jobs.load(p, quick=quick)
                self.assertTrue(job["points"], p)
            names.add(job["name"])
        self.assertTrue({"loss-sweep", "buffer-table", "v1-v2-retrans", "param-sweeps",
                         "pam24"} <= names)


class StatsTests(unittest.TestCase):
    def test_basic_statistics(self):
        self.assertAlmostEqual(stats.cv([10, 10, 10]), 0.0)
        self.assertAlmostEqual(stats.cv([5, 15]), 0.5)
        self.assertAlmostEqual(stats.jain([1, 1, 1, 1]), 1.0)
        self.assertAlmostEqual(stats.jain([1, 0, 0, 0]), 0.25)
        xs = list(range(1, 101))
        self.assertEqual(stats.percentile(xs, 50), 50)
        self.assertEqual(stats.percentile(xs, 95), 95)

    def test_group_names_unique(self):
        g = jobs.parse_mix("bbr2:1/150,bbr2:1,cubic:1")
        self.assertEqual(stats.group_names(g), ["bbr2#1+150ms", "bbr2#2", "cubic"])

    def test_point_summary(self):
        groups = jobs.parse_mix("bbr2:2,cubic:1")
        with tempfile.TemporaryDirectory() as d:
            for k, (a, b, c) in enumerate([(10, 10, 20), (20, 20, 20)], 1):
                idir = os.path.join(d, "iter-%d" % k)
                os.makedirs(idir)
                fake_iperf(os.path.join(idir, "flows-1.json"), [a, b], retrans=(8, 0))
                fake_iperf(os.path.join(idir, "flows-2.json"), [c], retrans=(0,))
                fake_ss(os.path.join(idir, "ss.csv"),
                        [(t, 5401, "bbr2", 10 + t, 1e6) for t in range(10)] +
                        [(t, 5402, "cubic", 50, 1e6) for t in range(10)] +
                        [(0, 5401, "bbr2", 999, 100, 39999)])    # control connection
                with open(os.path.join(idir, "run.json"), "w") as f:
                    json.dump({"rc": 0}, f)
            its = stats.load_point(d, groups)
        self.assertEqual(len(its), 2)
        rows = {r["cc"]: r for r in stats.summarize_point(its)}
        self.assertAlmostEqual(rows["bbr2"]["mbps_mean"], 30.0)
        self.assertAlmostEqual(rows["bbr2"]["mbps_cv"], 1 / 3)
        self.assertEqual((rows["bbr2"]["mbps_min"], rows["bbr2"]["mbps_max"]), (20, 40))
        self.assertAlmostEqual(rows["cubic"]["mbps_cv"], 0.0)
        # 16 retransmits over the bytes two iterations of bbr2 sent
        segs = (20 + 40) * 1e6 / 8 * 4 / stats.MSS
        self.assertAlmostEqual(rows["bbr2"]["retrans_pct"], 100 * 16 / segs)
        self.assertEqual(rows["cubic"]["rtt_p50"], 50)
        self.assertEqual(rows["bbr2"]["rtt_p95"], 19)      # the 999 ms socket is left out
        self.assertAlmostEqual(rows["all"]["cubic_share"], (0.5 + 1 / 3) / 2)
        j1 = stats.jain([10, 10, 20])
        self.assertAlmostEqual(rows["all"]["jain"], (j1 + 1.0) / 2)


class MibTests(unittest.TestCase):
    SNMP = ("Ip: Forwarding DefaultTTL\nIp: 1 64\n"
            "Tcp: MaxConn RetransSegs OutSegs\nTcp: -1 %d %d\n"
            "TcpExt: TCPTimeouts TCPLossProbes TCPSackRecovery\nTcpExt: %d %d %d\n")

    def test_delta_keeps_changed_tcp_counters_and_removes_raw(self):
        with tempfile.TemporaryDirectory() as d:
            for when, vals in (("before", (10, 1000, 2, 0, 5)),
                               ("after", (35, 3000, 2, 4, 9))):
                with open(os.path.join(d, "mib-snd-%s.txt" % when), "w") as f:
                    f.write(self.SNMP % vals)
            delta = runner.mib_delta(d, "snd")
            self.assertEqual(delta, {"Tcp.RetransSegs": 25, "Tcp.OutSegs": 2000,
                                     "TcpExt.TCPLossProbes": 4,
                                     "TcpExt.TCPSackRecovery": 4})
            self.assertEqual(os.listdir(d), [])
            self.assertIsNone(runner.mib_delta(d, "rcv"))

    def test_cpu_busy_from_proc_stat(self):
        with tempfile.TemporaryDirectory() as d:
            for when, line in (("before", "cpu  100 0 100 800 0 0 0 0 0 0\n"),
                               ("after", "cpu  250 0 200 1100 50 0 100 0 0 0\n")):
                with open(os.path.join(d, "cpu-%s.txt" % when), "w") as f:
                    f.write(line)
            # 700 ticks: 350 idle + iowait, 350 user, system, softirq
            self.assertEqual(runner.cpu_busy(d), 0.5)
            self.assertEqual(os.listdir(d), [])
            self.assertIsNone(runner.cpu_busy(d))

    def test_mib_table_sets_kernel_spread_beside_sim_mean(self):
        with tempfile.TemporaryDirectory() as d:
            def point(where, runs):
                os.makedirs(os.path.join(d, where, "j"))
                with open(os.path.join(d, where, "j", "job.json"), "w") as f:
                    json.dump({"points": [{"id": "p", "config": {}}]}, f)
                for k, mib in enumerate(runs, 1):
                    idir = os.path.join(d, where, "j", "p", "iter-%d" % k)
                    os.makedirs(idir)
                    with open(os.path.join(idir, "run.json"), "w") as f:
                        json.dump({"rc": 0, "mib": {"snd": mib}}, f)
            point("vm", [{"Tcp.RetransSegs": 10, "TcpExt.TCPLossProbes": 2},
                         {"Tcp.RetransSegs": 20, "TcpExt.TCPLossProbes": 4}])
            point("sim", [{"Tcp.RetransSegs": 30}])
            table = report.mib_table(os.path.join(d, "vm"), [os.path.join(d, "sim")])
            self.assertIn("| p | RetransSegs | 15 [10-20] | 30 |", table)
            self.assertIn("| p | TCPLossProbes | 3 [2-4] | - |", table)
            self.assertNotIn("TCPTimeouts", table)

    def test_sent_over_paced_from_ss_samples(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "ss.csv"), "w") as f:
                f.write("time,flow,cc,segs_out,pacing_rate\n")
                # 10 Mbit/s paced; 1448-byte packets: 863 per second would be all of it
                for k in range(30):
                    f.write("%d,a,bbr,%d,10.0\n" % (k, 432 * k))
                    f.write("%d,ctl,cubic,3,5.0\n" % k)     # idle: not counted
            self.assertAlmostEqual(report.sent_over_paced(d), 432 * 1448 * 8 / 10e6, places=3)
            with open(os.path.join(d, "ss.csv"), "w") as f:
                f.write("time,flow,cc,rtt\n1,a,bbr,40\n")
            self.assertIsNone(report.sent_over_paced(d))


class ReportTests(unittest.TestCase):
    def make_results(self, d):
        with tempfile.NamedTemporaryFile(suffix=".toml") as f:
            f.write(JOB_TOML)
            f.flush()
            job = jobs.load(f.name)
        jdir = os.path.join(d, "t")
        os.makedirs(jdir)
        with open(os.path.join(jdir, "job.json"), "w") as f:
            json.dump(job, f)
        for pt in job["points"]:
            loss = pt["config"]["loss"]
            for k in (1, 2):
                idir = os.path.join(jdir, pt["id"], "iter-%d" % k)
                os.makedirs(idir)
                for i, g in enumerate(pt["config"]["groups"], 1):
                    fake_iperf(os.path.join(idir, "flows-%d.json" % i),
                               [10 / loss / 100 + k] * g["n"], retrans=(4,) * g["n"])
                fake_ss(os.path.join(idir, "ss.csv"),
                        [(t / 2, 5401, "bbr2", 10 + t % 5, 1e6) for t in range(20)])
                with open(os.path.join(idir, "run.json"), "w") as f:
                    json.dump({"rc": 0}, f)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump({"command": "bbr2-lab run t.toml", "kernel": "test",
                       "platform": "synthetic", "date_utc": "now"}, f)
        with open(os.path.join(d, "capacity.json"), "w") as f:
            json.dump({"before": {"rate": 20, "cubic_x4_mbps": 18.5}}, f)
        return job

    def test_report_tables(self):
        with tempfile.TemporaryDirectory() as d:
            self.make_results(d)
            md = report.write_report(d, formats=("svg",))
            self.assertIn("| point | flows |", md)
            self.assertIn("bbr2-lab run t.toml", md)
            self.assertIn("before 18.5 of 20 Mbit/s", md)
            with open(os.path.join(d, "summary.csv")) as f:
                rows = list(csv.DictReader(f))
            # 4 points: 2 with bbr2+cubic (+ "all"), 2 with bbr2 only
            self.assertEqual(len(rows), 2 * 3 + 2 * 1)
            r = [x for x in rows if x["point"] == "loss=0.1_mix=bbr2-2"][0]
            self.assertAlmostEqual(float(r["mbps_mean"]), 2 * 1.0 + 1.5 * 2, places=3)

    def test_plots_have_data_and_labelled_axes(self):
        with tempfile.TemporaryDirectory() as d:
            job = self.make_results(d)
            _, points = report.summarize_job(os.path.join(d, "t"))
            with open(os.path.join(d, "t", "job.json")) as f:
                figs = report.job_figures(json.load(f), points)
            kinds = {name.split("-")[0] for name, _ in figs}
            self.assertEqual(kinds, {"timeseries", "loss", "buffer", "rtt"})
            self.assertEqual(len([n for n, _ in figs if n.startswith("timeseries")]),
                             len(job["points"]))
            for name, fig in figs:
                for ax in fig.axes:
                    self.assertTrue(ax.get_xlabel() or fig.axes[0].get_xlabel(), name)
                    self.assertTrue(ax.get_ylabel(), name)
                ax = fig.axes[0]
                npts = sum(len(line.get_xdata()) for line in ax.get_lines())
                npts += sum(len(c.get_children()) for c in ax.containers)
                self.assertGreater(npts, 0, "%s has no data" % name)
            report.write_report(d, formats=("svg", "png"))
            plots = os.listdir(os.path.join(d, "plots"))
            self.assertEqual(len([p for p in plots if p.endswith(".png")]), len(figs))
            for p in plots:
                path = os.path.join(d, "plots", p)
                self.assertGreater(os.path.getsize(path), 1000, p)
                if p.endswith(".svg"):
                    with open(path) as f:
                        svg = f.read()
                    self.assertTrue(re.search(r"throughput|RTT|fraction", svg), p)


SIM_RUNS = ("sim-esnet-buffer-table", "sim-esnet-loss-sweep", "sim-google-shallow",
            "sim-pam24-convergence", "sim-dtn-table", "sim-dtn-table-loss-mode",
            "sim-validation-vm",
            "sim-validation-sim", "sim-validation-pkt", "sim-validation-testbed")


class ShippedResultsTests(unittest.TestCase):
    """The numbers tools/README.md shows are what the report makes of the
    raw data of that run (tools/doc/*-raw.tar.xz)."""

    def test_readme_numbers_match_the_run(self):
        import tarfile
        doc = os.path.join(TOOLS, "doc")
        rows = set()
        for run in ("repro-quick", "pacing-quick", "buffer-quick3"):
            with tempfile.TemporaryDirectory() as d:
                with tarfile.open(os.path.join(doc, run + "-raw.tar.xz")) as tar:
                    tar.extractall(d)
                md = report.write_report(os.path.join(d, run), plots=False)
            rows |= {line for line in md.splitlines() if line.startswith("| ")}
        # the simulator's runs (tools/jobs/sim/) and the VM-vs-simulator
        # comparison of sim-validation
        with tempfile.TemporaryDirectory() as d:
            for run in SIM_RUNS:
                with tarfile.open(os.path.join(doc, run + "-raw.tar.xz")) as tar:
                    tar.extractall(d)
                md = report.write_report(os.path.join(d, run), plots=False)
                rows |= {line for line in md.splitlines() if line.startswith("| ")}
            md = report.compare(os.path.join(d, "sim-validation-vm"),
                                [os.path.join(d, "sim-validation-sim"),
                                 os.path.join(d, "sim-validation-pkt"),
                                 os.path.join(d, "sim-validation-testbed")])
            rows |= {line for line in md.splitlines() if line.startswith("| ")}
            # the gaps' second look and the shallow buffer's 16 flows: the kernel with 2
            # and 1 vCPUs, with TCP MIB counters, beside the simulator
            for run, sim_modes in (("sim-validation-gaps", ("sim", "testbed")),
                                   ("shallow16-loss-mode", ("pkt", "testbed"))):
                with tarfile.open(os.path.join(doc, run + "-raw.tar.xz")) as tar:
                    tar.extractall(d)
                sims = [os.path.join(d, run + "-" + m) for m in sim_modes]
                for vm in ("vm", "vm-1cpu"):
                    ref = os.path.join(d, run + "-" + vm)
                    md = report.compare(ref, sims) + report.mib_table(ref, sims)
                    rows |= {line for line in md.splitlines() if line.startswith("| ")}
        self.assertGreater(len(rows), 40)
        for path in (os.path.join(doc, "repro-quick-summary.md"),
                     os.path.join(doc, "pacing-quick-summary.md"),
                     os.path.join(doc, "buffer-quick3-summary.md"),
                     os.path.join(TOOLS, "README.md")):
            with open(path) as f:
                shown = [line for line in f.read().splitlines()
                         if re.match(r"^\| [a-z_]+=|^\| [0-9.]+ \| ", line)]
            self.assertTrue(shown, path)
            for line in shown:
                self.assertTrue(line in rows, "%s shows a row no report makes: %s" % (path, line))


if __name__ == "__main__":
    unittest.main()
