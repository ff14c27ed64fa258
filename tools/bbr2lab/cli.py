# SPDX-License-Identifier: GPL-2.0
"""bbr2-lab command line (see tools/README.md)."""

import argparse
import os
import sys

from . import jobs, runner


def _add_run_opts(p):
    p.add_argument("--out", help="results directory (default tools/results/<time>)")
    p.add_argument("--iterations", type=int, help="override the jobs' iterations")
    p.add_argument("--duration", type=int, help="override the jobs' run length, s")
    p.add_argument("--quick", action="store_true",
                   help="the jobs' reduced [quick] variants (VM-sized)")
    p.add_argument("--where", choices=("auto", "here", "vm", "sim"), default="auto",
                   help="here: this machine (root, loads tcp_bbr2); vm: one "
                   "QEMU guest boot for all jobs; sim: the model simulator "
                   "(selftests/model, any rate); auto: here if bbr2 is loaded")
    p.add_argument("--nice", type=int, default=0,
                   help="with --where sim: run the simulator under nice -n N")
    p.add_argument("--idle", action="store_true",
                   help="with --where sim: run the simulator as SCHED_IDLE (only on "
                   "otherwise idle CPU: QEMU TCG guests on the same host lose "
                   "throughput even to a nice 19 process)")
    p.add_argument("--frame", type=int,
                   help="with --where sim: frame size in MSS (default 45, a 64 KB "
                   "GSO frame; 0: the per-packet mode)")
    p.add_argument("--ack-every", type=int,
                   help="with --where sim: ACK every N frames (packets); default 1")
    p.add_argument("--pace-late", type=int, metavar="US",
                   help="with --where sim: fq's pacing timer fires up to US "
                   "microseconds late, as in the QEMU/TCG test bed (default 0)")
    p.add_argument("--link-late", type=int, metavar="US",
                   help="with --where sim: the bottleneck is the test bed's tbf, "
                   "its watchdog up to US microseconds late (default 0: an "
                   "exact link)")
    p.add_argument("--kernel", help="VM kernel ABI (default: selftests/vm/kernels.conf)")
    p.add_argument("--module", default=os.path.join(runner.REPO, "tcp_bbr2.ko"),
                   help="tcp_bbr2.ko to insmod when bbr2 is not loaded")
    p.add_argument("--no-build", action="store_true", help="use tcp_bbr2.ko as it is")
    p.add_argument("--vm-timeout", type=int, default=5400)
    p.add_argument("--vm-cpus", type=int, default=2,
                   help="the guest's vCPUs (default 2; 1: no packet of a flow is "
                   "processed on another CPU than the one before it, so the netns "
                   "path does not reorder, at half the guest's CPU)")
    p.add_argument("--no-report", action="store_true", help="raw data only")
    p.add_argument("--no-capacity-check", action="store_true",
                   help="skip measuring the emulator's capacity before and after")
    p.add_argument("--formats", default="png,svg", help="plot formats")
    g = p.add_argument_group("between real hosts over SSH (tools/README.md, "
                             "\"Running between your DTNs\")")
    g.add_argument("--sender", metavar="[USER@]HOST[:PORT]",
                   help="the sending host (iperf3 clients, tcp_bbr2 parameters)")
    g.add_argument("--receiver", metavar="[USER@]HOST[:PORT]",
                   help="the receiving host (iperf3 servers)")
    g.add_argument("--netem", metavar="[USER@]HOST[:PORT]:IF[,IF2]",
                   help="host and interface(s) where the jobs' netem goes")
    g.add_argument("--dst-addr", help="address the sender sends to (default: the "
                   "receiver's SSH host name, or an ESnet job's dst)")
    g.add_argument("--ssh-config", default=os.environ.get("BBR2_LAB_SSH_CONFIG"),
                   help="ssh -F FILE for every connection (default: "
                   "$BBR2_LAB_SSH_CONFIG, else ssh's own)")
    g.add_argument("--ssh-option", action="append", metavar="OPT=VALUE",
                   help="ssh -o OPT=VALUE (repeatable)")
    g.add_argument("--sudo", action="store_true",
                   help="privileged commands (tc, parameter writes) through sudo -n")
    g.add_argument("--skip-unsupported", action="store_true",
                   help="ESnet INI: run without the options bbr2-lab does not "
                   "support instead of refusing the file")


def _default_out():
    import datetime
    return os.path.join(runner.TOOLS, "results",
                        datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))


def load_jobs(args, job_paths):
    from . import esnet
    job_list = []
    for p in job_paths:
        if esnet.is_ini(p):
            if not (getattr(args, "sender", None) and getattr(args, "receiver", None)):
                raise jobs.JobError("%s: ESnet INI jobs run between hosts: give "
                                    "--sender and --receiver" % p)
            job_list += esnet.load(p, iterations=args.iterations,
                                   allow_unsupported=args.skip_unsupported,
                                   log=runner.log)
        else:
            job_list.append(jobs.load(p, quick=args.quick, iterations=args.iterations,
                                      duration=args.duration))
    names = [j["name"] for j in job_list]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise jobs.JobError("two jobs named %s" % ", ".join(dup))
    return job_list


def cmd_run_remote(args, job_list, out):
    from . import hostrun
    # an ESnet job's "user" is the login where the command line names none
    users = {p["config"].get("user") for j in job_list for p in j["points"]} - {None}
    if len(users) > 1:
        raise jobs.JobError("the jobs name different users (%s)" % ", ".join(sorted(users)))
    if users:
        user = users.pop()
        for opt in ("sender", "receiver", "netem"):
            v = getattr(args, opt)
            if v and "@" not in v:
                setattr(args, opt, "%s@%s" % (user, v))
    runner.write_run_info(out, args, "ssh")
    n = sum(len(j["points"]) * j["meta"]["iterations"] for j in job_list)
    runner.log("%d job(s), %d runs between %s and %s; results in %s"
               % (len(job_list), n, args.sender, args.receiver, out))
    rc = hostrun.run_remote(job_list, out, args)
    if rc in (0, 1) and not args.no_report:
        cmd_report(argparse.Namespace(dir=out, formats=args.formats))
    return rc


def cmd_run(args, job_paths):
    out = os.path.abspath(args.out or _default_out())
    job_list = load_jobs(args, job_paths)
    if args.sender or args.receiver or args.netem:
        if not (args.sender and args.receiver):
            raise jobs.JobError("--sender and --receiver go together")
        return cmd_run_remote(args, job_list, out)
    where = args.where
    if where == "auto":
        where = "here" if runner.can_run_here() else "vm"
    runner.write_run_info(out, args, where)
    n = sum(len(j["points"]) * j["meta"]["iterations"] for j in job_list)
    secs = sum(len(j["points"]) * j["meta"]["iterations"] * (j["meta"]["duration"] + 8)
               for j in job_list)
    runner.log("%d job(s), %d runs, about %d min; results in %s"
               % (len(job_list), n, secs // 60 + 1, out))
    if where == "sim":
        from . import sim
        for j in job_list:
            if args.frame is not None:
                j["meta"]["frame"] = args.frame
            if args.ack_every is not None:
                j["meta"]["ack_every"] = args.ack_every
            if args.pace_late is not None:
                j["meta"]["pace_late_us"] = args.pace_late
            if args.link_late is not None:
                j["meta"]["link_late_us"] = args.link_late
        failed = sim.run_sim(job_list, out, nice=args.nice, idle=args.idle)
        if failed:
            runner.log("%d run(s) failed" % failed)
        rc = 1 if failed else 0
        if not args.no_report:
            rc = cmd_report(argparse.Namespace(dir=out, formats=args.formats)) or rc
        return rc
    if where == "here":
        failed = runner.run_here(job_list, out, args.module,
                                 capacity=not args.no_capacity_check)
        if failed:
            runner.log("%d run(s) failed" % failed)
        return 1 if failed else 0
    rc = runner.run_vm([os.path.abspath(p) for p in job_paths], out, args)
    if rc == 0 and not args.no_report:
        rc = cmd_report(argparse.Namespace(dir=out, formats=args.formats))
    return rc


def cmd_report(args):
    from . import report
    tables = report.write_report(args.dir, formats=args.formats.split(","))
    print(tables)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bbr2-lab", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run", help="run job files")
    p.add_argument("jobs", nargs="+", help="job files (tools/jobs/*.toml, or ESnet "
                   "testing-harness .ini files with --sender/--receiver)")
    _add_run_opts(p)
    p = sub.add_parser("reproduce", help="run every shipped job (tools/jobs) and report")
    _add_run_opts(p)
    p = sub.add_parser("report", help="summary tables and plots from raw data")
    p.add_argument("dir", help="a results directory of bbr2-lab run")
    p.add_argument("--formats", default="png,svg")
    p = sub.add_parser("compare", help="per point and flow group: a reference "
                       "run's (the VM's) spread beside other runs' means")
    p.add_argument("ref", help="results directory of the reference (VM) run")
    p.add_argument("others", nargs="*", help="results directories to compare (sim runs)")
    p.add_argument("--c-table", action="store_true",
                   help="print the reference's 50 Mbit/s x 40 ms points as the C table of "
                   "selftests/model/tests/vm_results.h")
    p.add_argument("--mib", action="store_true",
                   help="also the sender's TCP MIB counters per point (recoveries, "
                   "timeouts, loss probes, undos) beside the simulator's")
    p = sub.add_parser("list", help="the points a job file declares")
    p.add_argument("jobs", nargs="+")
    p.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "run":
            return cmd_run(args, args.jobs)
        if args.cmd == "reproduce":
            return cmd_run(args, runner.shipped_jobs())
        if args.cmd == "report":
            return cmd_report(args)
        if args.cmd == "compare":
            from . import report
            if args.c_table:
                print(report.vm_c_table(args.ref))
            else:
                print(report.compare(args.ref, args.others))
                if args.mib:
                    print(report.mib_table(args.ref, args.others))
            return 0
        from . import esnet
        listed = []
        for path in args.jobs:
            if esnet.is_ini(path):
                listed += esnet.load(path, log=runner.log)
            else:
                listed.append(jobs.load(path, quick=args.quick))
        for job in listed:
            m = job["meta"]
            print("%s: %d points x %d iterations x %d s" % (
                job["name"], len(job["points"]), m["iterations"], m["duration"]))
            for pt in job["points"]:
                print("  " + pt["id"])
        return 0
    except jobs.JobError as e:
        print("bbr2-lab: %s" % e, file=sys.stderr)
        return 2
