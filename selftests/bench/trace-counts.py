#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count what bbr2's tracepoints say a run's flows did, to set beside the
simulator's bench/loss_sources (entries into PROBE_UP, inflight_lo cuts).

  trace-counts.py FILE.trace [FILE.trace ...]

FILE is the ftrace text vm-bench-peers.sh saves for a traced scenario
(TRACE=...): bbr2_state and bbr2_loss_ecn lines of every flow.  Prints per
file the loss/ECN reactions, the cuts of inflight_lo and inflight_hi (all
and after the first 2 s, i.e. after STARTUP) and the entries into
PROBE_BW's UP phase.  A diagnostic: prints, asserts nothing.
"""
import re
import sys

LOSS = re.compile(r" ([\d.]+): bbr2_loss_ecn: \S+ .*inflight_hi (\d+)->(\d+) "
                  r"inflight_lo (\d+)->(\d+)")
STATE = re.compile(r"bbr2_state: \S+ mode \d\.\d->(\d)\.(\d)")
STAMP = re.compile(r" ([\d.]+): bbr2_")
PROBE_BW, PROBE_UP = "2", "0"		# enum bbr2_mode, enum bbr2_cycle_phase


def counts(path):
    c = dict(events=0, lo_cuts=0, lo_cuts_after_2s=0, hi_cuts=0,
             hi_cuts_after_2s=0, probe_up=0)
    t0 = None
    with open(path) as f:
        for line in f:
            t = STAMP.search(line)
            if not t:
                continue
            if t0 is None:
                t0 = float(t.group(1))
            m = LOSS.search(line)
            if m:
                late = float(m.group(1)) - t0 > 2
                hi0, hi1, lo0, lo1 = map(int, m.groups()[1:])
                c["events"] += 1
                if lo1 < lo0:
                    c["lo_cuts"] += 1
                    c["lo_cuts_after_2s"] += late
                if hi1 < hi0:
                    c["hi_cuts"] += 1
                    c["hi_cuts_after_2s"] += late
            s = STATE.search(line)
            if s and s.groups() == (PROBE_BW, PROBE_UP):
                c["probe_up"] += 1
    return c


def main():
    for path in sys.argv[1:]:
        c = counts(path)
        print("%s: %d loss/ECN reactions, inflight_lo cuts %d (%d after 2 s), "
              "inflight_hi cuts %d (%d after 2 s), PROBE_UP entries %d"
              % (path, c["events"], c["lo_cuts"], c["lo_cuts_after_2s"],
                 c["hi_cuts"], c["hi_cuts_after_2s"], c["probe_up"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
