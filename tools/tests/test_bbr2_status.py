# SPDX-License-Identifier: GPL-2.0
"""Unit tests of tools/bbr2-status on a described host (files and command
outputs given here; no root): python3 -m unittest discover tools/tests
The VM test selftests/net/bbr2_status_and_boot_unit.sh runs it on a real
kernel with the module and bbr2_bpf loaded."""

import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import tempfile
import unittest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_loader = importlib.machinery.SourceFileLoader("bbr2_status", os.path.join(TOOLS, "bbr2-status"))
_spec = importlib.util.spec_from_loader("bbr2_status", _loader)
status = importlib.util.module_from_spec(_spec)
_loader.exec_module(status)

SS = """\
ESTAB 0 0 10.0.0.1:5201 10.0.0.2:40000
\t bbr2 wscale:7,7 rto:204 rtt:0.1/0.05 cwnd:10
ESTAB 0 0 10.0.0.1:5202 10.0.0.2:40001
\t cubic wscale:7,7 rto:204 rtt:0.1/0.05 cwnd:10
ESTAB 0 0 10.0.0.1:5203 10.0.0.2:40002
\t bbr2_bpf wscale:7,7 rto:204
ESTAB 0 0 10.0.0.1:5204 10.0.0.2:40003
\t bbr2 wscale:7,7 rto:204
"""
ROUTES4 = """\
default via 192.0.2.1 dev eth0
198.51.100.0/24 via 192.0.2.1 dev eth1 congctl bbr2
203.0.113.0/24 via 192.0.2.1 dev eth1 congctl lock bbr2_bpf
10.9.0.0/16 via 192.0.2.1 dev eth1 congctl cubic
local 127.0.0.1 dev lo table local proto kernel scope host src 127.0.0.1
"""


class FakeHost:
    def __init__(self, files=None, cmds=None, kernels=None):
        self.files = files or {}
        self.cmds = cmds or {}
        self._kernels = kernels or {}

    def read(self, path):
        v = self.files.get(path)
        return None if v is None else v.strip()

    def run(self, argv):
        return self.cmds.get(" ".join(argv))

    def kernels(self):
        return self._kernels


def base_files(**over):
    f = {"/proc/sys/net/ipv4/tcp_available_congestion_control": "reno cubic bbr2",
         "/proc/sys/net/ipv4/tcp_congestion_control": "bbr2",
         "/proc/sys/net/core/default_qdisc": "fq",
         "/proc/sys/net/ipv4/tcp_rmem": "4096 131072 268435456",
         "/proc/sys/net/ipv4/tcp_wmem": "4096 16384 268435456",
         "/proc/sys/net/core/rmem_max": "268435456",
         "/proc/sys/net/core/wmem_max": "268435456",
         "/sys/module/tcp_bbr2/initstate": "live",
         "/sys/module/tcp_bbr2/version": "1.0.0",
         "/sys/module/tcp_bbr2/parameters/version": "3",
         "/sys/module/tcp_bbr2/parameters/loss_mode": "1"}
    f.update(over)
    return {k: v for k, v in f.items() if v is not None}


def base_cmds(**over):
    c = {"ip -4 route show table all": ROUTES4, "ip -6 route show table all": "",
         "ss -tinH": SS,
         # as tc prints it for "show dev X": without "dev X"
         "tc qdisc show dev eth0": "qdisc fq 8001: root refcnt 2 limit 10000p\n",
         "tc qdisc show dev eth1":
             "qdisc mq 0: dev eth1 root\n"
             "qdisc fq 0: dev eth1 parent :2 limit 10000p\n"
             "qdisc fq_codel 0: dev eth1 parent :1 limit 10240p\n",
         "dkms status tcp_bbr2":
             "tcp_bbr2/1.0.0, 6.1.0-50-amd64, x86_64: installed\n"}
    c.update(over)
    return {k: v for k, v in c.items() if v is not None}


def run(host, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = status.main(list(args) + ["--json"], host=host)
    return rc, json.loads(out.getvalue())


class Parse(unittest.TestCase):
    def test_rate_and_rtt(self):
        self.assertEqual(status.parse_rate("10G"), 10e9)
        self.assertEqual(status.parse_rate("400m"), 400e6)
        self.assertEqual(status.parse_rate("2.5T"), 2.5e12)
        self.assertAlmostEqual(status.parse_rtt("100ms"), 0.1)
        self.assertAlmostEqual(status.parse_rtt("0.2"), 0.2)
        self.assertAlmostEqual(status.parse_rtt("250us"), 250e-6)
        for bad in ("", "ten", "-1G", "0"):
            with self.assertRaises(ValueError):
                status.parse_rate(bad)
        for bad in ("", "1h", "0ms"):
            with self.assertRaises(ValueError):
                status.parse_rtt(bad)


class Report(unittest.TestCase):
    def host(self, files=None, cmds=None, kernels=None):
        return FakeHost(base_files(**(files or {})), base_cmds(**(cmds or {})),
                        kernels if kernels is not None else
                        {"6.1.0-50-amd64": (True, True)})

    def test_module_version_and_behaviour(self):
        _, st = run(self.host())
        m = st["loaded"]["module"]
        self.assertEqual(m["module_version"], "1.0.0")
        self.assertEqual(m["params"], {"version": "3", "loss_mode": "1"})
        self.assertTrue(m["registered"])
        self.assertIsNone(st["loaded"]["bpf"])
        self.assertTrue(st["default"]["is_bbr2"])

    def test_bbr2_not_from_the_module(self):
        files = {f"/sys/module/tcp_bbr2/{p}": None for p in
                 ("initstate", "version", "parameters/version", "parameters/loss_mode")}
        rc, st = run(self.host(files=files))
        self.assertTrue(st["loaded"]["foreign_bbr2"])
        self.assertIsNone(st["loaded"]["module"])
        self.assertEqual(rc, 1)

    def test_bpf_tunables_through_the_loader(self):
        files = {"/proc/sys/net/ipv4/tcp_available_congestion_control": "reno cubic bbr2_bpf",
                 "/proc/sys/net/ipv4/tcp_congestion_control": "cubic",
                 "/sys/module/tcp_bbr2/initstate": None, "/sys/module/tcp_bbr2/version": None}
        cmds = {"bbr2-bpf get version loss_mode": "version=2\nloss_mode=0\n"}
        _, st = run(self.host(files=files, cmds=cmds))
        self.assertEqual(st["loaded"]["bpf"]["params"], {"version": "2", "loss_mode": "0"})
        self.assertFalse(st["default"]["is_bbr2"])
        self.assertEqual(st["sockets"], {"bbr2_bpf": 1})

    def test_routes_and_sockets(self):
        _, st = run(self.host(files={
            "/proc/sys/net/ipv4/tcp_available_congestion_control": "cubic bbr2 bbr2_bpf"}))
        self.assertEqual(len(st["routes"]), 2)
        self.assertTrue(all("congctl" in r and "cubic" not in r for r in st["routes"]))
        self.assertEqual(st["sockets"], {"bbr2": 2, "bbr2_bpf": 1})

    def test_pacing_per_interface(self):
        rc, st = run(self.host())
        ifs = st["pacing"]["interfaces"]
        self.assertEqual(sorted(ifs), ["eth0", "eth1"])
        self.assertTrue(ifs["eth0"]["fq"])
        self.assertFalse(ifs["eth1"]["fq"])		# one queue of two is fq_codel
        self.assertIn("fq on 1 of 2", ifs["eth1"]["text"])
        self.assertEqual(rc, 1)
        cmds = {"tc qdisc show dev eth1": "qdisc mq 0: dev eth1 root\n"
                "qdisc fq 0: dev eth1 parent :2 limit 10000p\n"
                "qdisc fq 0: dev eth1 parent :1 limit 10000p\n"}
        rc, st = run(self.host(cmds=cmds))
        self.assertTrue(st["pacing"]["interfaces"]["eth1"]["fq"])
        self.assertEqual(rc, 0)
        cmds = {"tc qdisc show dev eth0": "qdisc noqueue 0: root refcnt 2\n"}
        _, st = run(self.host(cmds=cmds))
        self.assertFalse(st["pacing"]["interfaces"]["eth0"]["fq"])

    def test_buffers_against_twice_the_bdp(self):
        # 10 Gbit/s x 100 ms: BDP 125 MB, a buffer needs 250 MB
        _, st = run(self.host(), "--rate", "10G", "--rtt", "100ms")
        b = st["buffers"]
        self.assertEqual(b["bdp"], 125e6)
        self.assertTrue(all(v["fits"] for v in b["limits"].values()))
        files = {"/proc/sys/net/ipv4/tcp_rmem": "4096 131072 249999999"}
        rc, st = run(self.host(files=files), "--rate", "10G", "--rtt", "100ms")
        self.assertFalse(st["buffers"]["limits"]["net.ipv4.tcp_rmem max"]["fits"])
        self.assertTrue(st["buffers"]["limits"]["net.ipv4.tcp_wmem max"]["fits"])
        self.assertEqual(rc, 1)
        # past the kernel's 2 GiB limit no setting fits one flow
        rc, st = run(self.host(), "--rate", "100G", "--rtt", "200ms")
        self.assertFalse(st["buffers"]["possible"])
        self.assertEqual(rc, 1)

    def test_dkms_for_every_kernel(self):
        kernels = {"6.1.0-50-amd64": (True, True), "6.12.9-amd64": (False, True),
                   "6.13.1-amd64": (False, False)}
        rc, st = run(self.host(kernels=kernels))
        k = st["dkms"]["kernels"]
        self.assertEqual(k["6.1.0-50-amd64"]["dkms"], "1.0.0 installed")
        self.assertFalse(k["6.12.9-amd64"]["module"])
        self.assertEqual(rc, 1)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status.main([], host=self.host(kernels=kernels))
        text = out.getvalue()
        self.assertIn("! dkms     6.12.9-amd64: no tcp_bbr2 module", text)
        self.assertIn("dkms autoinstall -k 6.12.9-amd64", text)
        self.assertIn("6.13.1-amd64: no tcp_bbr2 module; no headers", text)

    def test_all_well_exits_zero(self):
        cmds = {"tc qdisc show dev eth1": "qdisc fq 8002: dev eth1 root\n"}
        rc, st = run(self.host(cmds=cmds))
        self.assertEqual(rc, 0)
        self.assertFalse(st["attention"])

    def test_real_modules_dir(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(f"{d}/6.1.0-1-amd64/updates/dkms")
            open(f"{d}/6.1.0-1-amd64/updates/dkms/tcp_bbr2.ko.xz", "w").close()
            os.makedirs(f"{d}/6.2.0-1-amd64/build")
            open(f"{d}/6.2.0-1-amd64/build/Makefile", "w").close()
            os.makedirs(f"{d}/not-a-kernel")
            self.assertEqual(status.Host(d).kernels(),
                             {"6.1.0-1-amd64": (True, False), "6.2.0-1-amd64": (False, True)})


if __name__ == "__main__":
    unittest.main()
