#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of nettool.py kernel-complaints: which kernel-log reports a
test counts against the kernel under test."""

import importlib.util
import os
import unittest

_spec = importlib.util.spec_from_file_location(
    "nettool", os.path.join(os.path.dirname(os.path.abspath(__file__)), "nettool.py"))
nettool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nettool)


def warn_report(where, rip, frames):
    """A WARN report as 6.12 prints it, with the loaded modules listed."""
    return [
        "[  579.682776] ------------[ cut here ]------------",
        "[  579.682776] WARNING: CPU: 1 PID: 2710 at %s" % where,
        "[  579.682801] Modules linked in: tcp_bbr2(OE) sch_tbf sch_netem veth",
        "[  579.682850] CPU: 1 UID: 0 PID: 2710 Comm: iperf3 Tainted: G           OE      6.12.117+deb12-amd64 #1",
        "[  579.682860] RIP: 0010:%s" % rip,
        "[  579.682900] Call Trace:",
    ] + ["[  579.682901]  %s" % f for f in frames] + [
        "[  579.682990] ---[ end trace 0000000000000000 ]---",
    ]


DEBUG_TRAP = "arch/x86/kernel/traps.c:1120 exc_debug_kernel+0xca/0x160"
DEBUG_TRAP_FRAMES = ["<#DB>", "asm_exc_debug+0x1d/0x40", "</#DB>",
                     "tcp_sendmsg_locked+0x2f1/0xf30"]


def kinds(lines, emulated=True):
    return [k for k, _ in nettool.kernel_complaints(lines, emulated)]


class KernelComplaints(unittest.TestCase):
    def test_clean_log_has_none(self):
        self.assertEqual(kinds(["[    1.0] bbr2-selftest: begin x",
                                "[    2.0] tcp_bbr2: registered bbr2 and bbr2_ref"]), [])

    def test_emulated_debug_trap_without_our_frames_is_the_emulators(self):
        log = warn_report(DEBUG_TRAP, "exc_debug_kernel+0xca/0x160", DEBUG_TRAP_FRAMES)
        self.assertEqual(kinds(log), ["emulator"])

    def test_debug_trap_on_real_hardware_counts(self):
        log = warn_report(DEBUG_TRAP, "exc_debug_kernel+0xca/0x160", DEBUG_TRAP_FRAMES)
        self.assertEqual(kinds(log, emulated=False), ["counted"])

    def test_debug_trap_in_our_code_counts(self):
        log = warn_report(DEBUG_TRAP, "exc_debug_kernel+0xca/0x160",
                          ["<#DB>", "asm_exc_debug+0x1d/0x40", "</#DB>",
                           "bbr2_main+0x41/0x5a0 [tcp_bbr2]"])
        self.assertEqual(kinds(log), ["counted"])

    def test_other_warning_counts_on_an_emulated_cpu(self):
        log = warn_report("net/ipv4/tcp_output.c:1234 tcp_write_xmit+0x1/0x2",
                          "tcp_write_xmit+0x1/0x2", ["tcp_push+0x3/0x4"])
        self.assertEqual(kinds(log), ["counted"])

    def test_complaint_inside_a_debug_trap_report_counts(self):
        log = warn_report(DEBUG_TRAP, "exc_debug_kernel+0xca/0x160",
                          DEBUG_TRAP_FRAMES + ["BUG: scheduling while atomic"])
        self.assertEqual(kinds(log), ["counted"])

    def test_each_report_is_judged_on_its_own(self):
        log = (warn_report(DEBUG_TRAP, "exc_debug_kernel+0xca/0x160", DEBUG_TRAP_FRAMES) +
               ["[  600.000000] BUG: kernel NULL pointer dereference, address: 0"])
        self.assertEqual(kinds(log), ["emulator", "counted"])

    def test_report_without_end_marker_stops_after_a_bound(self):
        log = ["[ 1.0] BUG: soft lockup - CPU#0 stuck for 22s!"] + ["[ 1.1] x"] * 200
        (kind, report), = nettool.kernel_complaints(log, True)
        self.assertEqual(kind, "counted")
        self.assertEqual(len(report), nettool.REPORT_MAX_LINES)


if __name__ == "__main__":
    unittest.main()
