# SPDX-License-Identifier: GPL-2.0
"""Unit tests of bbr2-lab's two-host mode without hosts: the ESnet INI
reader, the restore logic (parameters, qdiscs), the samplers' parsers and
the rule that nothing is touched before every host answered.  The same
code over real SSH is tested in the VM
(selftests/tools/bbr2_lab_runs_between_ssh_hosts_and_restores.sh)."""

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bbr2lab import esnet, hostrun, jobs, remote, samples  # noqa: E402

INI = """
# a harness file as researchers write them
[iperf3_bbr2_gain]
type = iperf3 1 stream, bbr2
enabled = true
iterations = 3
dst-cmd = numactl -N 0 /usr/local/bin/iperf3 -s -D -1 --logfile srv.log -p 5205
src-cmd = numactl -N 0 /usr/local/bin/iperf3 -c {dst} -t 30 -C bbr2 -p 5205 -P 4 -J
lat-sweep = 5,20
netem-loss = 0.001 gemodel
mpstat = 4-5
param-sweep = tcp_bbr2/parameters/pacing_gain, sys-module-vector-list, 1,288,320,384

[iperf3_loss_thresh]
type = iperf3 1 stream
iterations = 1
src-cmd = iperf3 -c {dst} -t 10
limit-sweep = 100,1000
param-sweep = tcp_bbr2/parameters/loss_thresh, sys-module-increment,2,6,2

[switched_off]
enabled = false
src-cmd = pscheduler task throughput --dest {dst}
tcpdump = true
"""


def load_ini(text, **kw):
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(text)
    try:
        return esnet.load(f.name, **kw)
    finally:
        os.unlink(f.name)


class EsnetIniTests(unittest.TestCase):
    def test_sweeps_expand_to_points(self):
        gain, thresh = load_ini(INI)
        self.assertEqual(gain["meta"]["iterations"], 3)
        self.assertEqual(gain["meta"]["duration"], 30.0)
        self.assertEqual(gain["meta"]["ss_interval"], 0.1)
        self.assertEqual(len(gain["points"]), 2 * 3)       # lat x gain values
        pt = gain["points"][0]
        self.assertEqual(pt["swept"], {"netem_lat": 5.0, "param.pacing_gain_1": 288})
        self.assertEqual(pt["config"]["param_set"], {"name": "pacing_gain", "element": 1,
                                                     "value": 288})
        self.assertEqual(pt["config"]["netem"], {"lat_ms": 5.0, "limit": None,
                                                 "loss": "0.001", "loss_model": "gemodel"})
        g = pt["config"]["groups"][0]
        self.assertEqual((g["cc"], g["n"], g["port"]), ("bbr2", 4, 5205))
        self.assertEqual(pt["config"]["mpstat_cores"], "4-5")
        self.assertEqual([p["swept"]["param.loss_thresh"] for p in thresh["points"][:3]],
                         [2, 4, 6])
        self.assertEqual(len(thresh["points"]), 2 * 3)
        self.assertEqual(thresh["report"]["x"], "netem_limit")

    def test_commands_kept_but_daemon_and_json_handled(self):
        gain, thresh = load_ini(INI)
        cfg = gain["points"][0]["config"]
        self.assertEqual(cfg["client"]["prefix"], ["numactl", "-N", "0", "/usr/local/bin/iperf3"])
        self.assertIn("{dst}", cfg["client"]["args"])
        self.assertNotIn("-D", cfg["server"])
        self.assertEqual(cfg["server"][:3], ["numactl", "-N", "0"])
        self.assertTrue(any("-D dropped" in n for n in gain["meta"]["notes"]))
        # no -J in src-cmd: added, and said so
        self.assertIn("-J", thresh["points"][0]["config"]["client"]["args"])
        self.assertTrue(any("-J added" in n for n in thresh["meta"]["notes"]))
        self.assertEqual(thresh["points"][0]["config"]["server"],
                         ["iperf3", "-s", "-1", "-p", "5201"])

    def test_unsupported_options_are_listed_not_ignored(self):
        text = INI.replace("mpstat = 4-5", "mpstat = 4-5\ntcpdump = true\nprofile = WAN\n"
                           "statexec = true\nfrobnicate = 1")
        with self.assertRaises(jobs.JobError) as e:
            load_ini(text)
        msg = str(e.exception)
        for key in ("tcpdump", "profile", "statexec", "frobnicate"):
            self.assertIn("%s = " % key, msg)
        self.assertIn("nothing was run", msg)
        # a disabled section is skipped whatever it holds; tcpdump = false
        # is what the harness does without it
        load_ini(INI.replace("mpstat = 4-5", "mpstat = 4-5\ntcpdump = false"))
        seen = []
        jobs_ = load_ini(text, allow_unsupported=True, log=seen.append)
        self.assertEqual(len(jobs_), 2)
        self.assertTrue(any("IGNORED" in s and "tcpdump" in s for s in seen))

    def test_commands_bbr2lab_cannot_run_are_refused(self):
        for bad, word in (("pscheduler task throughput --dest {dst}", "pscheduler"),
                          ("iperf3 -c {dst} -R", "reverse"),
                          ("iperf3 -c {dst} -u", "UDP"),
                          ("iperf3 -c {dst} -n 1G", "byte-count")):
            with self.assertRaises(jobs.JobError) as e:
                load_ini("[j]\nsrc-cmd = %s\n" % bad)
            self.assertIn(word, str(e.exception))
        with self.assertRaises(jobs.JobError) as e:
            load_ini("[j]\nsrc-cmd = iperf3 -c {dst}\nlat-sweep = 1\nlimit-sweep = 2\n")
        self.assertIn("lat-sweep and limit-sweep", str(e.exception))
        with self.assertRaises(jobs.JobError):
            load_ini("[j]\nsrc-cmd = iperf3 -c {dst}\nparam-sweep = tcp_bbr/parameters/x, "
                     "sys-module-list, 1\n")
        with self.assertRaises(jobs.JobError) as e:
            load_ini("[j]\nsrc-cmd = iperf3 -c {dst} -p 6000\ndst-cmd = iperf3 -s -p 5201\n")
        self.assertIn("port", str(e.exception))

    def test_netem_arguments(self):
        gain, _ = load_ini(INI)
        cfg = gain["points"][0]["config"]
        # one interface: the harness's RTT (2 x lat) on it, loss on it
        self.assertEqual(hostrun.netem_args(cfg, 1, False),
                         [["delay", "10ms", "loss", "gemodel", "0.001%"]])
        # two: lat on each, loss on the first only
        self.assertEqual(hostrun.netem_args(cfg, 2, False),
                         [["delay", "5ms", "loss", "gemodel", "0.001%"], ["delay", "5ms"]])
        toml = {"rate": 20, "rtt": 40, "loss": 0.01}
        a = hostrun.netem_args(toml, 1, True)[0]
        self.assertEqual(a[2:], ["delay", "40ms", "loss", "0.01%"])
        self.assertGreater(int(a[1]), 20 * 125 * 40 / 1514)

    def test_toml_jobs_that_need_the_dumbbell_are_refused(self):
        job = jobs.expand({"job": {"name": "b"}, "sweep": [{"buffer_bdp": [1, 2]}]})
        with self.assertRaises(jobs.JobError):
            hostrun.check_toml_job(job)
        job = jobs.expand({"job": {"name": "r"}, "base": {"mix": "bbr2:1/100"}})
        with self.assertRaises(jobs.JobError):
            hostrun.check_toml_job(job)
        hostrun.check_toml_job(jobs.expand({"job": {"name": "ok"},
                                            "sweep": [{"mix": ["bbr2:1", "cubic:1"]}]}))


class FakeParams:
    """tcp_bbr2's parameter files: writing version reloads the defaults."""
    DEFAULTS = {2: {"version": "2", "loss_thresh": "5", "beta": "76",
                    "pacing_gain": "320,192,256,256,256,256,256,256"},
                3: {"version": "3", "loss_thresh": "5", "beta": "76",
                    "pacing_gain": "320,232,256,256,256,256,256,256"}}

    def __init__(self, values):
        self.values = dict(values)
        self.writes = []

    def read(self):
        return dict(self.values)

    def write(self, name, value):
        self.writes.append((name, str(value)))
        if name == "version":
            self.values = dict(self.DEFAULTS[int(value)])
        else:
            self.values[name] = str(value)


class RestoreTests(unittest.TestCase):
    def test_params_restored_after_a_version_reload(self):
        before = dict(FakeParams.DEFAULTS[3], loss_thresh="7")
        store = FakeParams(before)
        store.write("version", 2)           # the run: v2 defaults, a sweep
        store.write("pacing_gain", "384,192,256,256")
        self.assertEqual(remote.restore_params(store, before), {})
        self.assertEqual(store.values, before)
        # version first, then only what differs from its defaults
        self.assertEqual(store.writes[2:], [("version", "3"), ("loss_thresh", "7")])

    def test_params_untouched_need_no_write(self):
        store = FakeParams(FakeParams.DEFAULTS[3])
        self.assertEqual(remote.restore_params(store, FakeParams.DEFAULTS[3]), {})
        self.assertEqual(store.writes, [])

    def test_param_that_will_not_restore_is_reported(self):
        before = dict(FakeParams.DEFAULTS[3], beta="80")
        store = FakeParams(before)
        store.write("beta", "50")
        store.write = lambda n, v: None     # writes fail silently
        self.assertEqual(remote.restore_params(store, before), {"beta": ("80", "50")})

    def test_qdisc_restore_commands(self):
        self.assertEqual(remote.qdisc_restore_cmds("eth0", "qdisc noqueue 0: root refcnt 2 \n"),
                         [["qdisc", "del", "dev", "eth0", "root"]])
        mq = ("qdisc mq 0: root \nqdisc fq_codel 0: parent :2 limit 10240p flows 1024\n"
              "qdisc fq_codel 0: parent :1 limit 10240p flows 1024\n")
        self.assertEqual(remote.qdisc_restore_cmds("eth0", mq)[0][1], "del")
        netem = "qdisc netem 8001: root refcnt 2 limit 1000 delay 10ms loss 1%\n"
        self.assertEqual(remote.qdisc_restore_cmds("r1b", netem),
                         [["qdisc", "replace", "dev", "r1b", "root", "netem", "limit", "1000",
                           "delay", "10ms", "loss", "1%"]])
        fq = ("qdisc fq 8002: root refcnt 2 limit 10000p flow_limit 100p buckets 1024 "
              "quantum 3028b initial_quantum 15140b maxrate 1Gbit\n")
        self.assertEqual(remote.qdisc_restore_cmds("s0", fq)[0][5:11],
                         ["fq", "limit", "10000", "flow_limit", "100", "buckets"])
        tree = ("qdisc prio 1: root refcnt 2 bands 3\n"
                "qdisc netem 10: parent 1:1 limit 1000 delay 5ms\n")
        with self.assertRaises(remote.RemoteError):
            remote.qdisc_restore_cmds("r1b", tree)
        self.assertEqual(remote.normalize_qdisc(netem),
                         remote.normalize_qdisc(netem.replace("8001:", "8003:")
                                                .replace("refcnt 2", "refcnt 3")))

    def test_qdisc_guard_puts_back_and_verifies(self):
        class Host:
            role = "netem"
            show = "qdisc netem 8001: root refcnt 2 limit 1000 delay 10ms\n"
            calls = []

            def qdisc_show(self, dev):
                return self.show

            def tc(self, args, check=True):
                self.calls.append(args)
                if args[1] == "replace":
                    self.show = "qdisc %s 80%02d: root refcnt 2 %s\n" % (
                        args[5], len(self.calls), " ".join(args[6:]))

        h = Host()
        g = remote.QdiscGuard(h, "r1b")
        self.assertIsNone(g.restore())      # nothing changed, nothing done
        self.assertEqual(h.calls, [])
        g.replace("netem", ["delay", "40ms"])
        self.assertIn("40ms", h.show)
        self.assertIsNone(g.restore())
        self.assertIn("delay 10ms", h.show)
        g.replace("netem", ["delay", "40ms"])
        h.tc = lambda args, check=True: None    # tc does nothing: reported
        self.assertIn("qdisc was", g.restore())

    def test_host_specs(self):
        self.assertEqual(remote.parse_host("dtn1"), (None, "dtn1", None))
        self.assertEqual(remote.parse_host("me@dtn1.example.org:2222"),
                         ("me", "dtn1.example.org", 2222))
        self.assertEqual(remote.parse_host("root@[fd00::1]:22"), ("root", "fd00::1", 22))
        self.assertEqual(remote.parse_host("fd00::1"), (None, "fd00::1", None))
        for bad in ("@dtn", "dtn:0", "dtn:x"):
            with self.assertRaises(remote.RemoteError):
                remote.parse_host(bad)


class LocalShellHost(remote.Host):
    """A Host whose remote shell is a local sh."""

    def sh(self, script, check=True):
        import subprocess
        r = subprocess.run(["sh", "-s"], input=script, capture_output=True, text=True)
        if check and r.returncode:
            raise remote.RemoteError(r.stderr)
        return r.stdout


class ParamScriptTests(unittest.TestCase):
    def test_params_to_defaults_writes_every_parameter(self):
        """Every file gets "default"; one that refuses (here: a directory
        in its place) neither stops the others nor fails the call."""
        with tempfile.TemporaryDirectory() as d:
            for n in ("loss_thresh", "version", "zz_last"):
                with open(os.path.join(d, n), "w") as f:
                    f.write("7\n")
            os.mkdir(os.path.join(d, "refuses"))
            old, remote.PARAMS_DIR = remote.PARAMS_DIR, d
            try:
                h = LocalShellHost("sender", "localhost", d)
                h.params_to_defaults()
                got = h.read_params()
            finally:
                remote.PARAMS_DIR = old
            self.assertEqual(got, {"loss_thresh": "default", "version": "default",
                                   "zz_last": "default"})

    def test_metadata_has_every_parameter(self):
        with tempfile.TemporaryDirectory() as d:
            for n, v in (("loss_thresh", "7"), ("pacing_gain", "320,232,256")):
                with open(os.path.join(d, n), "w") as f:
                    f.write(v + "\n")
            old, remote.PARAMS_DIR = remote.PARAMS_DIR, d
            try:
                meta = remote.host_metadata(LocalShellHost("sender", "localhost", d),
                                            "127.0.0.1")
            finally:
                remote.PARAMS_DIR = old
            self.assertEqual(meta["params"], {"loss_thresh": "7",
                                              "pacing_gain": "320,232,256"})
            self.assertTrue(meta["kernel"])


class FakeHost:
    """A host that records every command; connect fails for 'down'."""
    log = []

    def __init__(self, role, spec, ctl_dir, **kw):
        self.role, self.spec, self.host = role, spec, spec
        self.connected = False
        self.state = None

    def connect(self):
        if "down" in self.spec:
            raise remote.RemoteError("cannot reach the %s %s over SSH (exit 255): "
                                     "No route to host" % (self.role, self.spec))
        self.connected = True

    def sh(self, script, **kw):
        FakeHost.log.append((self.role, script))
        return ""

    def kill_all(self):
        return []

    def close(self):
        self.connected = False


def run_on_fake_hosts(host_class, receiver, netem, check_out=None):
    """hostrun.run_remote() of a one-point job that sets loss_thresh,
    with every remote.Host a host_class; check_out(out) sees the output
    directory before it goes.  Returns the exit code."""
    real = remote.Host
    remote.Host = host_class
    FakeHost.log = []
    try:
        job = jobs.expand({"job": {"name": "j", "duration": 1},
                           "base": {"params": {"loss_thresh": 3}}})
        with tempfile.TemporaryDirectory() as out:
            args = argparse.Namespace(sender="root@snd", receiver=receiver,
                                      netem=netem, dst_addr=None,
                                      ssh_config=None, ssh_option=None, sudo=False)
            rc = hostrun.run_remote([job], out, args)
            if check_out:
                check_out(out)
            return rc
    finally:
        remote.Host = real


class NothingBeforeEveryHostAnswers(unittest.TestCase):
    def test_unreachable_receiver_changes_nothing_on_the_sender(self):
        rc = run_on_fake_hosts(FakeHost, "root@down", "root@nm:eth1",
                               lambda out: self.assertEqual(os.listdir(out), []))
        self.assertEqual(rc, 2)
        self.assertEqual(FakeHost.log, [])


class SetUpOnEveryHostAtOnce(unittest.TestCase):
    """The set-up's per-host steps (ControlMaster, metadata, state
    directory) run on all hosts at once, and a failure or a signal is
    raised only once every host's step has ended: the restore that follows
    must not race a step still running."""

    def test_steps_overlap_and_keep_the_hosts_order(self):
        together = threading.Barrier(3, timeout=10)

        def step(h):
            together.wait()         # breaks unless all three are in flight
            return h * 10

        self.assertEqual(hostrun.on_every_host([1, 2, 3], step), [10, 20, 30])

    def test_an_error_waits_for_the_other_hosts(self):
        ended = []

        def step(h):
            if h == 1:
                raise remote.RemoteError("host 1 refused")
            time.sleep(0.3)
            ended.append(h)

        with self.assertRaisesRegex(remote.RemoteError, "host 1 refused"):
            hostrun.on_every_host([1, 2, 3], step)
        self.assertEqual(sorted(ended), [2, 3])

    def test_a_signal_waits_for_the_other_hosts(self):
        ended = []

        def step(h):
            if h == 1:
                os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)
            ended.append(h)

        old = signal.signal(signal.SIGTERM, hostrun._on_signal)
        try:
            with self.assertRaises(hostrun.Interrupted):
                hostrun.on_every_host([1, 2, 3], step)
        finally:
            signal.signal(signal.SIGTERM, old)
        self.assertEqual(sorted(ended), [1, 2, 3])


class SignalDuringSetUpHost(FakeHost):
    """A host whose state directory is made while SIGNAL arrives."""
    signal = signal.SIGINT

    def sh(self, script, **kw):
        FakeHost.log.append((self.role, script))
        if script.startswith("peer="):              # remote.META_SCRIPT
            return ("dev=eth0\nhas_iperf3=1\nhas_setsid=1\nhas_ss=1\n"
                    "tcp_available_congestion_control=reno cubic bbr2\n"
                    "param.loss_thresh=5\n")
        return ""

    def make_state_dir(self):
        os.kill(os.getpid(), SignalDuringSetUpHost.signal)
        time.sleep(0.2)
        self.state = "/tmp/bbr2-lab.fake"

    def kill_all(self):
        FakeHost.log.append((self.role, "kill_all"))
        return []

    def read_params(self):
        return {"loss_thresh": "5"}

    def write_param(self, name, value):
        FakeHost.log.append((self.role, "write %s=%s" % (name, value)))


class InterruptedRunRestores(unittest.TestCase):
    """SIGINT (a terminal's ^C) and SIGTERM (kill, a job scheduler) end a
    run the same way: exit 130, every host's processes stopped, the
    parameters compared with the snapshot, the handlers put back.  The VM
    test interrupts real runs over SSH with SIGTERM."""

    def interrupted_run(self, sig):
        SignalDuringSetUpHost.signal = sig
        return run_on_fake_hosts(SignalDuringSetUpHost, "root@rcv", None)

    def test_sigint_and_sigterm(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            before = signal.getsignal(sig)
            rc = self.interrupted_run(sig)
            self.assertEqual(rc, 130, sig)
            self.assertIn(("sender", "kill_all"), FakeHost.log)
            self.assertIn(("receiver", "kill_all"), FakeHost.log)
            self.assertFalse([e for e in FakeHost.log if e[1].startswith("write ")])
            self.assertIs(signal.getsignal(sig), before)


class SamplerParserTests(unittest.TestCase):
    SS = ("@1700000000.25\n"
          "0      0      10.0.1.1:40580 10.0.3.2:5201\n"
          "\t bbr2 wscale:7,7 rto:240 rtt:41.5/2.1 mss:1448 cwnd:120 bytes_acked:9000000 "
          "bbr:(bw:18.5Mbps,mrtt:40.1,pacing_gain:1.25,cwnd_gain:2) retrans:0/12 minrtt:40.1\n"
          "0      0      [fd00:1::1]:40590 [fd00:3::2]:5201\n"
          "\t cubic wscale:7,7 rtt:55/3 cwnd:30 bytes_acked:100 minrtt:41\n"
          "@1700000000.45\n")

    def test_ss(self):
        rows = samples.parse_ss(self.SS)
        self.assertEqual(len(rows), 2)
        r = rows[0]
        self.assertEqual((r["flow"], r["cc"], r["rtt"], r["cwnd"], r["acked"], r["retrans"]),
                         ("10.0.1.1:40580>10.0.3.2:5201", "bbr2", "41.5", "120", "9000000", "12"))
        self.assertEqual((r["bw"], r["pacing_gain"], r["minrtt"]), ("18.500", "1.25", "40.1"))
        self.assertEqual(rows[1]["flow"], "[fd00:1::1]:40590>[fd00:3::2]:5201")
        self.assertIn("dport = :5201 or dport = :5401", samples.ss_command([5401, 5201], 0.1))

    def test_mpstat_and_proc_stat(self):
        mp = ("Linux 6.1.0 (snd) \t2026-11-23 \t_x86_64_\t(2 CPU)\n\n"
              "11:35:53     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  "
              "%guest  %gnice   %idle\n"
              "11:35:54     all   10.00    0.00   10.00    0.00    0.00    0.00    0.00    "
              "0.00    0.00   80.00\n"
              "11:35:54       0   20.00    0.00   20.00    0.00    0.00    0.00    0.00    "
              "0.00    0.00   60.00\n"
              "11:35:54       1    0.00    0.00    0.00    0.00    0.00    0.00    0.00    "
              "0.00    0.00  100.00\n"
              "Average:     all   10.00    0.00   10.00    0.00    0.00    0.00    0.00    "
              "0.00    0.00   80.00\n")
        rows = samples.parse_mpstat(mp)
        self.assertEqual([(c, round(b)) for _, c, b in rows], [("all", 20), ("0", 40), ("1", 0)])
        ps = ("@100.0\ncpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n"
              "cpu1 50 0 50 400 0 0 0 0 0 0\n"
              "@101.0\ncpu  200 0 200 1000 0 0 0 0 0 0\ncpu0 140 0 140 420 0 0 0 0 0 0\n"
              "cpu1 60 0 60 580 0 0 0 0 0 0\n")
        rows = samples.parse_proc_stat(ps)
        busy = {c: round(b) for _, c, b in rows}
        self.assertEqual(busy, {"all": 50, "0": 90, "1": 10})
        self.assertEqual([c for _, c, _ in samples.select_cores(rows, "1")], ["all", "1"])
        s = samples.cpu_summary(rows + [(102.0, "0", 70.0)])
        self.assertEqual(s["busiest"], "0")
        self.assertEqual(s["cores"]["0"]["mean"], 80.0)
        self.assertEqual(s["cores"]["0"]["max"], 90.0)
        self.assertEqual(s["cores"]["0"]["cv"], 0.125)


if __name__ == "__main__":
    unittest.main()
