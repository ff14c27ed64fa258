# SPDX-License-Identifier: GPL-2.0
"""Running jobs between real hosts over SSH (bbr2-lab run --sender ...).

  controller (this machine) --ssh--> sender   iperf3 clients, ss and CPU
                                              samplers, tcp_bbr2 parameters,
                                              fq pacing
                            --ssh--> receiver iperf3 servers, CPU sampler
                            --ssh--> netem    netem on one or two interfaces

Nothing is changed on any host before every host has answered.  What is
changed (parameters, qdiscs) is saved first (OUT/restore.json) and put
back at the end, also after SIGINT/SIGTERM or a failure; every process
started on a host runs in its own session and is killed at the end.

Raw data land in the layout of runner.py, so `report` works on them:
  OUT/hosts.json                       each host's metadata before the run
  OUT/<job>/job.json
  OUT/<job>/<point>/iter-<k>/          flows-<i>.json (iperf3 -J), ss.csv,
                                       cpu-sender.csv, cpu-receiver.csv,
                                       params.json, qdisc-*.txt, run.json
"""

import csv
import json
import os
import shlex
import signal
import tempfile
import threading
import time

from . import jobs, remote, samples
from .jobs import JobError
from .runner import SS_FIELDS, log


class Interrupted(BaseException):
    pass


def _on_signal(signum, _frame):
    raise Interrupted(signal.Signals(signum).name)


def on_every_host(hosts, fn):
    """fn(host) for every host at the same time: the set-up's SSH key
    exchanges and remote commands cost round trips per host, which overlap
    instead of adding up.  Returns the results in the hosts' order once
    every call has ended.  A call's exception is raised then (the first
    host's first), and so is a SIGINT or SIGTERM that came meanwhile: it
    is held back and raised again after the calls, so that what follows
    (the restore) never runs beside a call still changing a host."""
    results = [None] * len(hosts)
    errors = [None] * len(hosts)
    held = []

    def call(i, host):
        try:
            results[i] = fn(host)
        except Exception as e:      # handed to the caller's thread
            errors[i] = e

    def hold(signum, _frame):
        held.append(signum)

    old = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        threads = [threading.Thread(target=call, args=(i, h), daemon=True)
                   for i, h in enumerate(hosts)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if held:
        signal.raise_signal(held[0])
    for e in errors:
        if e is not None:
            raise e
    return results


def check_toml_job(job):
    """TOML jobs describe the dumbbell; between real hosts only what the
    hosts can set applies."""
    for pt in job["points"]:
        for k in pt["swept"]:
            if k in ("rate", "buffer_bdp", "buffer_bytes"):
                raise JobError("job %s sweeps %s: between real hosts the path's own "
                               "bottleneck applies; drop that sweep" % (job["name"], k))
        for g in pt["config"]["groups"]:
            if g["extra_rtt"]:
                raise JobError("job %s: per-group extra RTT (/%g) needs the netns "
                               "dumbbell" % (job["name"], g["extra_rtt"]))


def netem_args(cfg, ndevs, toml):
    """[args for dev 0, args for dev 1 (if two)] of one point."""
    if toml:
        limit = int((cfg["rate"] * 125 * cfg["rtt"] * 11) / 1514 + 1000)
        return [["limit", str(limit), "delay", "%gms" % cfg["rtt"], "loss", "%g%%" % cfg["loss"]]]
    n = cfg.get("netem")
    if not n:
        return None
    out = []
    for i in range(ndevs):
        a = []
        if n.get("limit") is not None:
            a += ["limit", str(n["limit"])]
        if n.get("lat_ms") is not None:
            a += ["delay", "%gms" % (n["lat_ms"] * (2 if ndevs == 1 else 1))]
        if i == 0 and n.get("loss") is not None:
            a += ["loss"] + (["gemodel"] if n.get("loss_model") else []) + ["%s%%" % n["loss"]]
        out.append(a)
    return out


class Lab:
    def __init__(self, args, out):
        self.out = out
        self.ctl_dir = tempfile.mkdtemp(prefix="bbr2lab-ssh-")
        kw = {"ssh_config": args.ssh_config, "ssh_opts": sum(
            (["-o", o] for o in (args.ssh_option or [])), []), "sudo": args.sudo}
        self.sender = remote.Host("sender", args.sender, self.ctl_dir, **kw)
        self.receiver = remote.Host("receiver", args.receiver, self.ctl_dir, **kw)
        self.netem = None
        self.netem_devs = []
        if args.netem:
            spec, sep, devs = args.netem.rpartition(":")
            if not sep or not spec or not devs:
                raise JobError("--netem wants HOST:IF[,IF2], got %r" % args.netem)
            self.netem = remote.Host("netem", spec, self.ctl_dir, **kw)
            self.netem_devs = devs.split(",")
            if len(self.netem_devs) > 2:
                raise JobError("--netem: at most two interfaces")
        self.dst_addr = args.dst_addr
        self.hosts = [h for h in (self.sender, self.receiver, self.netem) if h]
        self.param_snapshot = None
        self.guards = {}            # (role, dev) -> QdiscGuard
        self.post_cmds = {}         # pending post-* commands: role -> cmd
        self.meta = {}
        self.seq = 0
        self.procs = []

    # ------------------------------------------------------------ set-up ---

    def connect(self):
        """Every host answers, or RemoteError before anything changed."""
        def connect(h):
            try:
                h.connect()
            except remote.RemoteError as e:
                return str(e)
            return None

        errors = [e for e in on_every_host(self.hosts, connect) if e]
        if errors:
            raise remote.RemoteError("%s\nnothing was changed on any host" % "\n".join(errors))

    def prepare(self, job_list):
        dst = self.dst_addr or self.receiver.host

        def metadata(h):
            if h is self.sender:
                return remote.host_metadata(h, dst)
            if h is self.receiver:
                return remote.host_metadata(h, self.sender.host)
            meta = remote.host_metadata(h, dst, self.netem_devs[0])
            meta["qdiscs"] = {d: h.qdisc_show(d) for d in self.netem_devs}
            return meta

        for h, meta in zip(self.hosts, on_every_host(self.hosts, metadata)):
            self.meta[h.role] = meta
        problems = []
        for role in ("sender", "receiver"):
            m = self.meta[role]
            for tool in ("iperf3", "setsid", "ss") if role == "sender" else ("iperf3", "setsid"):
                if not m.get("has_" + tool):
                    problems.append("%s %s: %s not found" % (role, m["ssh"], tool))
        if self.netem and not self.meta["netem"].get("has_tc"):
            problems.append("netem host: tc not found")
        needs_params = any(p["config"].get("param_set") or p["config"].get("params")
                           or any(g.get("version") for g in p["config"]["groups"])
                           for j in job_list for p in j["points"])
        if needs_params and not self.meta["sender"]["params"]:
            problems.append("sender %s: tcp_bbr2 is not loaded (%s missing)"
                            % (self.sender.spec, remote.PARAMS_DIR))
        ccs = set(self.meta["sender"].get("tcp_available_congestion_control", "").split())
        for j in job_list:
            for p in j["points"]:
                for g in p["config"]["groups"]:
                    if g["cc"] != "default" and g["cc"] not in ccs:
                        problems.append("sender: congestion control %s not available (%s)"
                                        % (g["cc"], " ".join(sorted(ccs))))
        if problems:
            raise remote.RemoteError("\n".join(sorted(set(problems))) +
                                     "\nnothing was changed on any host")
        # qdisc trees we could not put back are refused before any change
        if self.netem:
            for d in self.netem_devs:
                self.guards["netem", d] = remote.QdiscGuard(self.netem, d)
        if any(p["config"].get("pacing") or p["config"].get("maxrate")
               for j in job_list for p in j["points"]):
            d = self.meta["sender"]["dev"]
            self.guards["sender", d] = remote.QdiscGuard(self.sender, d)
        self.param_snapshot = dict(self.meta["sender"]["params"])
        with open(os.path.join(self.out, "hosts.json"), "w") as f:
            json.dump(self.meta, f, indent=1)
        with open(os.path.join(self.out, "restore.json"), "w") as f:
            json.dump({"sender_params": self.param_snapshot,
                       "qdiscs": {"%s:%s" % k: g.before for k, g in self.guards.items()}},
                      f, indent=1)
        on_every_host(self.hosts, lambda h: h.make_state_dir())

    # --------------------------------------------------------- restoring ---

    def restore(self):
        """Stop everything, put every setting back; returns problems."""
        problems = []
        for h in self.hosts:
            if not h.connected:
                continue
            try:
                left = h.kill_all()
                if left:
                    log("%s: stopped %s" % (h.role, " ".join(left)))
            except remote.RemoteError as e:
                problems.append(str(e))
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()
        self.procs = []
        for role, cmd in list(self.post_cmds.items()):
            self._post(role, cmd, None)
        if self.param_snapshot:
            try:
                diff = remote.restore_params(remote.HostParams(self.sender), self.param_snapshot)
                if diff:
                    problems.append("sender parameters not restored: %s" % diff)
            except remote.RemoteError as e:
                problems.append(str(e))
        for g in self.guards.values():
            try:
                bad = g.restore()
                if bad:
                    problems.append(bad)
            except remote.RemoteError as e:
                problems.append(str(e))
        for h in self.hosts:
            h.close()
        try:
            os.rmdir(self.ctl_dir)
        except OSError:
            pass
        return problems

    # ------------------------------------------------------------ a run ---

    def _spawn(self, host, kind, command, path):
        self.seq += 1
        name = "%s-%d" % (kind, self.seq)
        p = host.spawn(name, command, path)
        p.bbr2lab_host = host
        self.procs.append(p)
        return p

    def _stop(self, p, sig="TERM", wait=15):
        if p.poll() is None:
            p.bbr2lab_host.signal(p.bbr2lab_name, sig)
        try:
            p.wait(timeout=wait)
        except Exception:
            p.kill()
            p.wait()
        self.procs.remove(p)

    def _pre(self, role, cmd, idir):
        host = self.sender if role == "src" else self.receiver
        out = host.sh(cmd + "\n", check=False, timeout=300)
        if idir:
            with open(os.path.join(idir, "pre-%s-cmd.txt" % role), "w") as f:
                f.write(out)

    def _post(self, role, cmd, idir):
        host = self.sender if role == "src" else self.receiver
        try:
            out = host.sh(cmd + "\n", check=False, timeout=300)
        except remote.RemoteError as e:
            out = str(e)
        self.post_cmds.pop(role, None)
        if idir:
            with open(os.path.join(idir, "post-%s-cmd.txt" % role), "w") as f:
                f.write(out)

    def _wait_listening(self, ports, deadline_s=20):
        filt = " or ".join("sport = :%d" % p for p in ports)
        t_end = time.time() + deadline_s
        while time.time() < t_end:
            out = self.receiver.sh("ss -ltnH %s\n" % shlex.quote("( %s )" % filt), check=False)
            if len(out.strip().splitlines()) >= len(set(ports)):
                return True
            time.sleep(0.3)
        return False

    def _apply(self, job, point, idir):
        cfg = point["config"]
        toml = job.get("format") != "esnet-ini"
        if self.netem:
            nargs = netem_args(cfg, len(self.netem_devs), toml)
            if nargs:
                for d, a in zip(self.netem_devs, nargs if len(nargs) > 1 else nargs * len(self.netem_devs)):
                    self.guards["netem", d].replace("netem", a)
        if toml and self.param_snapshot:
            # each point starts from its version's defaults, as on the dumbbell
            version = next((g["version"] for g in cfg["groups"] if g["version"]), None) or 3
            self.sender.params_to_defaults()
            self.sender.write_param("version", version)
            for name, value in cfg["params"].items():
                self.sender.write_param(name, value)
        elif cfg.get("param_set"):
            ps = cfg["param_set"]
            value = ps["value"]
            if ps["element"]:
                vec = self.param_snapshot.get(ps["name"], "").split(",")
                if ps["element"] > len(vec):
                    raise JobError("%s has %d elements, not %d" % (ps["name"], len(vec),
                                                                   ps["element"]))
                vec[ps["element"] - 1] = str(value)
                value = ",".join(vec)
            self.sender.write_param(ps["name"], value)
        pacing = cfg.get("pacing") or cfg.get("maxrate")
        sdev = self.meta["sender"]["dev"]
        if pacing:
            self.guards["sender", sdev].replace("fq", ["maxrate", pacing])
        elif ("sender", sdev) in self.guards:
            bad = self.guards["sender", sdev].restore()
            if bad:
                raise remote.RemoteError(bad)
        now = self.sender.read_params()
        with open(os.path.join(idir, "params.json"), "w") as f:
            json.dump(now, f, indent=1)
        for (role, d), g in self.guards.items():
            with open(os.path.join(idir, "qdisc-%s-%s.txt" % (role, d)), "w") as f:
                f.write(g.host.qdisc_show(d))

    def run_point(self, job, point, it, idir):
        cfg = point["config"]
        meta = job["meta"]
        toml = job.get("format") != "esnet-ini"
        dst = self.dst_addr or cfg.get("dst") or self.receiver.host
        secs = meta["duration"]
        t0 = time.time()
        self._apply(job, point, idir)
        if it == 1:
            for role in ("src", "dst"):
                if cfg.get("pre_" + role):
                    self._pre(role, cfg["pre_" + role], idir)
        for role in ("src", "dst"):
            if cfg.get("post_" + role):
                self.post_cmds[role] = cfg["post_" + role]
        groups = cfg["groups"]
        ports = [g.get("port") or 5400 + i for i, g in enumerate(groups, 1)]
        servers = []
        for i, port in enumerate(ports, 1):
            words = cfg["server"] if not toml else ["iperf3", "-s", "-1", "-p", str(port)]
            servers.append(self._spawn(self.receiver, "server", " ".join(
                shlex.quote(w) for w in words), os.path.join(idir, "server-%d.txt" % i)))
        if not self._wait_listening(ports):
            raise remote.RemoteError("receiver: iperf3 server not listening on %s; see %s"
                                     % (ports, idir))
        ss = self._spawn(self.sender, "ss", samples.ss_command(ports, meta["ss_interval"]),
                         os.path.join(idir, "ss.txt"))
        cpu = {}
        cores = cfg.get("mpstat_cores")
        for host in (self.sender, self.receiver):
            mp = self.meta[host.role].get("has_mpstat")
            cpu[host.role] = (mp, self._spawn(host, "cpu", samples.cpu_command(
                mp, cores, 1, int(secs) + 5), os.path.join(
                idir, "cpu-%s.txt" % host.role)))
        clients = []
        for i, (g, port) in enumerate(zip(groups, ports), 1):
            if toml:
                words = ["iperf3", "-c", dst, "-p", str(port), "-t", "%d" % (secs - g["delay"]),
                         "-P", str(g["n"]), "-C", g["cc"], "-J", "-i", "0.5"]
            else:
                c = cfg["client"]
                words = c["prefix"] + [w.replace("{dst}", dst) for w in c["args"]]
            line = " ".join(shlex.quote(w) for w in words)
            if g["delay"]:
                line = "sh -c %s" % shlex.quote("sleep %g; exec %s" % (g["delay"], line))
            clients.append(self._spawn(self.sender, "client", line,
                                       os.path.join(idir, "flows-%d.json" % i)))
        rc = 0
        t_end = time.time() + secs + 60
        for p in clients:
            try:
                p.wait(timeout=max(1, t_end - time.time()))
            except Exception:
                log("  client did not finish in time; stopping it")
            if p.poll() is None:
                self._stop(p)
                rc = 1
            else:
                self.procs.remove(p)
                rc = rc or p.returncode
        self._stop(ss)
        for role, (mp, p) in cpu.items():
            self._stop(p, "INT" if mp else "TERM")
        for p in servers:
            self._stop(p)
        for role in ("src", "dst"):
            if role in self.post_cmds:
                self._post(role, self.post_cmds[role], idir)
        self._convert(idir, cpu, cores)
        info = {"rc": rc, "start": t0, "seconds": round(time.time() - t0, 1),
                "config": cfg, "version": None,
                "kernel": self.meta["sender"].get("kernel"),
                "hosts": {h.role: h.spec for h in self.hosts},
                "cpu": self._cpu_summaries(idir)}
        try:
            with open(os.path.join(idir, "params.json")) as f:
                info["version"] = int(json.load(f).get("version", 0)) or None
        except (OSError, ValueError):
            pass
        with open(os.path.join(idir, "run.json"), "w") as f:
            json.dump(info, f, indent=1)
        return rc

    def _convert(self, idir, cpu, cores):
        ss_txt = os.path.join(idir, "ss.txt")
        if os.path.exists(ss_txt):
            with open(ss_txt) as f:
                rows = samples.parse_ss(f.read())
            with open(os.path.join(idir, "ss.csv"), "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=SS_FIELDS, extrasaction="ignore")
                w.writeheader()
                w.writerows(rows)
        for role, (mp, _) in cpu.items():
            path = os.path.join(idir, "cpu-%s.txt" % role)
            if not os.path.exists(path):
                continue
            with open(path) as f:
                text = f.read()
            rows = samples.parse_mpstat(text) if mp else samples.parse_proc_stat(text)
            rows = samples.select_cores(rows, cores)
            with open(os.path.join(idir, "cpu-%s.csv" % role), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["time", "cpu", "busy"])
                for t, c, b in rows:
                    w.writerow(["%.3f" % t, c, "%.2f" % b])

    @staticmethod
    def _cpu_summaries(idir):
        out = {}
        for role in ("sender", "receiver"):
            path = os.path.join(idir, "cpu-%s.csv" % role)
            if not os.path.exists(path):
                continue
            with open(path, newline="") as f:
                rows = [(float(r["time"]), r["cpu"], float(r["busy"])) for r in csv.DictReader(f)]
            out[role] = samples.cpu_summary(rows)
        return out


def _note_kernels(out, meta):
    path = os.path.join(out, "run.json")
    try:
        with open(path) as f:
            info = json.load(f)
    except (OSError, ValueError):
        return
    info["kernel"] = ", ".join("%s %s" % (r, m.get("kernel")) for r, m in meta.items())
    with open(path, "w") as f:
        json.dump(info, f, indent=1)


def run_remote(job_list, out, args):
    """Run every job between the hosts; returns the exit code."""
    for j in job_list:
        if j.get("format") != "esnet-ini":
            check_toml_job(j)
    lab = Lab(args, out)
    old = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    failed, rc = 0, 0
    try:
        lab.connect()
        lab.prepare(job_list)
        _note_kernels(out, lab.meta)
        if not lab.netem and any(j.get("format") != "esnet-ini" for j in job_list):
            log("no --netem: the jobs' rtt and loss are not applied; the path's own are measured")
        for job in job_list:
            for note in job["meta"].get("notes", []):
                log("%s: %s" % (job["name"], note))
        for job, point, it, idir, done, total in jobs.each_run(job_list, out):
            log("[%d/%d] %s %s iter %d/%d: %s -> %s" % (
                done, total, job["name"], point["id"], it, job["meta"]["iterations"],
                lab.sender.spec, lab.receiver.spec))
            if lab.run_point(job, point, it, idir) != 0:
                failed += 1
                log("  FAILED, see %s" % idir)
    except Interrupted as e:
        log("interrupted (%s): stopping and restoring every host" % e)
        rc = 130
    except (remote.RemoteError, JobError) as e:
        log(str(e))
        rc = 2
    finally:
        for s in old:
            signal.signal(s, signal.SIG_IGN)    # the restore is not interrupted
        problems = lab.restore()
        for s, h in old.items():
            signal.signal(s, h)
    if problems:
        for p in problems:
            log("RESTORE FAILED: " + p)
        log("saved settings: %s" % os.path.join(out, "restore.json"))
        return 3
    if lab.param_snapshot is not None:
        log("restored: sender parameters%s; nothing left running" % "".join(
            ", %s %s qdisc" % k for k in lab.guards))
    if rc:
        return rc
    if failed:
        log("%d run(s) failed" % failed)
        return 1
    return 0
