# SPDX-License-Identifier: GPL-2.0
"""Hosts reached over SSH, and the settings bbr2-lab changes on them.

Every remote command is a POSIX sh script fed to `ssh HOST sh -s`, so the
remote login shell (bash, csh, ...) does not matter.  One ControlMaster
per host carries all of a run's commands.  Long-running commands (iperf3,
the ss and CPU samplers) run in their own session on the remote host with
their process-group id in a per-run state directory there, so that stopping
them, or cleaning up after an interrupted run, kills exactly what was
started and nothing else.

What needs root on a host (or `--sudo`, then through `sudo -n`):
writing /sys/module/tcp_bbr2/parameters/* (sender) and `tc qdisc`
(netem host; the sender too when a job paces with fq maxrate).
"""

import os
import re
import shlex
import subprocess
import tempfile
import time

PARAMS_DIR = os.environ.get("BBR2_LAB_PARAMS_DIR", "/sys/module/tcp_bbr2/parameters")
# $BBR2_LAB_SSH_TRACE=FILE: one line per remote command (start, seconds,
# host, first line of the script), to see where a slow host's time goes
SSH_TRACE = os.environ.get("BBR2_LAB_SSH_TRACE")
SSH_BASE_OPTS = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                 "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"]


class RemoteError(Exception):
    pass


def parse_host(spec):
    """'user@host:port' (user and port optional; [v6addr]:port) ->
    (user, host, port)."""
    user = None
    if "@" in spec:
        user, spec = spec.rsplit("@", 1)
        if not user:
            raise RemoteError("empty user in host %r" % spec)
    port = None
    m = re.match(r"^\[([^\]]+)\](?::(\d+))?$", spec)
    if m:
        host, port = m.group(1), m.group(2)
    elif spec.count(":") == 1:
        host, port = spec.split(":")
    else:
        host = spec
    if not host:
        raise RemoteError("empty host name")
    if port is not None and not (port.isdigit() and 0 < int(port) < 65536):
        raise RemoteError("bad port %r" % port)
    return user, host, int(port) if port else None


class Host:
    """One machine reached with plain ssh (BatchMode, a ControlMaster)."""

    def __init__(self, role, spec, ctl_dir, ssh_config=None, ssh_opts=(), sudo=False):
        self.role = role
        self.spec = spec
        self.user, self.host, self.port = parse_host(spec)
        self.ctl_path = os.path.join(ctl_dir, role)
        self.ssh_config = ssh_config
        self.ssh_opts = list(ssh_opts)
        self.sudo = "sudo -n " if sudo else ""
        self.state = None           # remote state directory of this run
        self.connected = False

    def _ssh(self, master=False):
        cmd = ["ssh"]
        if self.ssh_config:
            cmd += ["-F", self.ssh_config]
        cmd += SSH_BASE_OPTS + self.ssh_opts
        cmd += ["-o", "ControlPath=" + self.ctl_path]
        if master:
            cmd += ["-o", "ControlMaster=yes", "-o", "ControlPersist=600", "-f", "-N"]
        else:
            cmd += ["-o", "ControlMaster=no"]
        if self.port:
            cmd += ["-p", str(self.port)]
        if self.user:
            cmd += ["-l", self.user]
        return cmd + [self.host]

    def connect(self):
        """Open the ControlMaster; RemoteError (with ssh's own message) if
        the host cannot be reached or does not let us in."""
        with tempfile.TemporaryFile() as err:
            # -f backgrounds the master: its stderr must not be a pipe we
            # wait on, or we would wait for the master to exit
            rc = subprocess.run(self._ssh(master=True), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True).returncode
            err.seek(0)
            msg = err.read().decode(errors="replace").strip()
        if rc != 0:
            raise RemoteError("cannot reach the %s %s over SSH (exit %d): %s"
                              % (self.role, self.spec, rc, msg or "no message"))
        self.connected = True

    def close(self):
        if self.connected:
            subprocess.run(self._ssh()[:-1] + ["-O", "exit", self.host],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
            self.connected = False

    def sh(self, script, check=True, timeout=120):
        """Run a sh script on the host; returns its stdout."""
        start = time.time()
        try:
            res = subprocess.run(self._ssh() + ["sh", "-s"], input=script.encode(),
                                 capture_output=True, timeout=timeout,
                                 start_new_session=True)
        except subprocess.TimeoutExpired:
            raise RemoteError("%s %s: command timed out after %d s" % (
                self.role, self.spec, timeout))
        finally:
            self._trace(start, script)
        out = res.stdout.decode(errors="replace")
        if check and res.returncode != 0:
            raise RemoteError("%s %s: command failed (exit %d): %s\n--- script:\n%s" % (
                self.role, self.spec, res.returncode,
                res.stderr.decode(errors="replace").strip(), script.strip()))
        return out

    def _trace(self, start, script):
        if not SSH_TRACE:
            return
        first = script.strip().splitlines()[0] if script.strip() else ""
        with open(SSH_TRACE, "a") as f:
            f.write("%.3f %6.3f %s %s\n" % (start, time.time() - start,
                                             self.role, first[:100]))

    # -- background commands, each in its own session, killable by pgid --

    def make_state_dir(self):
        self.state = self.sh("mktemp -d /tmp/bbr2-lab.XXXXXX\n").strip()
        if not self.state.startswith("/tmp/bbr2-lab."):
            raise RemoteError("%s: mktemp gave %r" % (self.role, self.state))

    def spawn(self, name, command, stdout_path):
        """Start `command` (a sh command line) on the host in a new session;
        its stdout streams into the local file stdout_path, its stderr into
        stdout_path + '.err'.  Returns the local ssh Popen."""
        pidfile = "%s/%s.pid" % (self.state, name)
        inner = "echo $$ > %s; %s" % (shlex.quote(pidfile), command)
        script = "exec setsid -w sh -c %s\n" % shlex.quote(inner)
        out = open(stdout_path, "wb")
        err = open(stdout_path + ".err", "wb")
        p = subprocess.Popen(self._ssh() + ["sh", "-s"], stdin=subprocess.PIPE,
                             stdout=out, stderr=err, start_new_session=True)
        out.close()
        err.close()
        p.stdin.write(script.encode())
        p.stdin.close()
        self._trace(time.time(), "spawn " + name)
        p.bbr2lab_name = name
        return p

    def signal(self, name, sig="TERM"):
        """Signal the process group of a spawned command (if still there)."""
        pidfile = "%s/%s.pid" % (self.state, name)
        self.sh("p=$(cat %s 2>/dev/null) && [ -n \"$p\" ] && "
                "kill -%s -\"$p\" 2>/dev/null; exit 0\n"
                % (shlex.quote(pidfile), sig), check=False, timeout=30)

    def kill_all(self):
        """Kill every process group this run started here and remove the
        state directory; returns the names of those still alive at first."""
        if not self.state:
            return []
        st = shlex.quote(self.state)
        script = """cd %s 2>/dev/null || exit 0
alive=""
for f in *.pid; do
	[ -f "$f" ] || continue
	p=$(cat "$f")
	[ -n "$p" ] || continue
	if kill -0 -"$p" 2>/dev/null; then
		alive="$alive ${f%%.pid}"
		kill -TERM -"$p" 2>/dev/null
	fi
done
for i in 1 2 3 4 5 6 7 8 9 10; do
	left=0
	for f in *.pid; do
		[ -f "$f" ] && kill -0 -"$(cat "$f")" 2>/dev/null && left=1
	done
	[ $left = 0 ] && break
	sleep 0.3
done
for f in *.pid; do
	[ -f "$f" ] && kill -KILL -"$(cat "$f")" 2>/dev/null
done
cd / && rm -rf %s
echo "$alive"
""" % (st, st)
        out = self.sh(script, check=False, timeout=60)
        self.state = None
        return out.split()

    # -- privileged settings --

    def write_param(self, name, value):
        self.sh("printf '%%s\\n' %s | %stee %s/%s >/dev/null\n" % (
            shlex.quote(str(value)), self.sudo, PARAMS_DIR, shlex.quote(name)))

    def params_to_defaults(self):
        """Every parameter back to following its version's default (a value
        set explicitly survives a version switch); twice, as a rule between
        two parameters may refuse the first.  A module without "default"
        refuses each write: version then reloads the defaults."""
        # one shell writes every file: a process per parameter costs
        # seconds on a slow host
        self.sh("""d=%s
[ -d "$d" ] || exit 0
%ssh -c 'for _ in 1 2; do for f in "$1"/*; do printf "default\\n" >"$f"; done; done 2>/dev/null
exit 0' sh "$d"
exit 0
""" % (PARAMS_DIR, self.sudo))

    def read_params(self):
        """{name: value} of every tcp_bbr2 parameter ({} if not loaded)."""
        out = self.sh("""d=%s
[ -d "$d" ] || exit 0
# one process for every file: a cat per parameter costs seconds on a slow host
awk '{ n = FILENAME; sub(".*/", "", n); print n "=" $0 }' "$d"/*
""" % PARAMS_DIR)
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def tc(self, args, check=True):
        return self.sh("%stc %s\n" % (self.sudo, " ".join(shlex.quote(a) for a in args)),
                       check=check)

    def qdisc_show(self, dev):
        return self.sh("tc qdisc show dev %s\n" % shlex.quote(dev))


# ------------------------------------------------------- parameter restore ---

def restore_params(store, snapshot):
    """Bring tcp_bbr2's parameters back to `snapshot` ({name: value}).

    `store` has read() -> {name: value} and write(name, value).  Writing
    `version` moves every parameter not set explicitly to that version's
    default, so it is written first, then whatever still differs.  Returns the
    parameters that still differ afterwards ({name: (want, have)})."""
    if not snapshot:
        return {}
    cur = store.read()
    if cur == snapshot:
        return {}
    if "version" in snapshot:
        store.write("version", snapshot["version"])
        cur = store.read()
    for name in sorted(snapshot):
        if name != "version" and cur.get(name) != snapshot[name]:
            store.write(name, snapshot[name])
    cur = store.read()
    return {n: (v, cur.get(n)) for n, v in snapshot.items() if cur.get(n) != v}


class HostParams:
    """restore_params' store on a Host."""

    def __init__(self, host):
        self.host = host

    def read(self):
        return self.host.read_params()

    def write(self, name, value):
        self.host.write_param(name, value)


# ---------------------------------------------------------- qdisc restore ---

QDISC_LINE = re.compile(r"^qdisc (\S+) (\S+) (root|parent \S+)(?: refcnt \d+)?\s*(.*)$")


def parse_qdiscs(show):
    """`tc qdisc show dev X` -> [{"kind", "handle", "parent", "opts"}]."""
    out = []
    for line in show.splitlines():
        m = QDISC_LINE.match(line.strip())
        if m:
            out.append({"kind": m.group(1), "handle": m.group(2),
                        "parent": m.group(3), "opts": m.group(4).split()})
    return out


def normalize_qdisc(show):
    """Qdisc lines without handles and refcounts: what must be equal
    after a restore (a re-created qdisc gets a new handle)."""
    return [" ".join([q["kind"], "root" if q["parent"] == "root" else "child"] + q["opts"])
            for q in parse_qdiscs(show)]


# tc's show output is not always accepted back as input: fq prints packet
# counts as "10000p", netem "loss 0%"; fix such words per kind
def _fix_opts(kind, opts):
    out = []
    i = 0
    while i < len(opts):
        w = opts[i]
        if kind == "fq" and w in ("limit", "flow_limit") and i + 1 < len(opts):
            out += [w, opts[i + 1].rstrip("p")]
            i += 2
            continue
        out.append(w)
        i += 1
    return out


def qdisc_restore_cmds(dev, show):
    """tc argument lists that bring the root qdisc of dev back to what
    `show` (its `tc qdisc show` before the run) describes.  Raises
    RemoteError for trees bbr2-lab cannot re-create (child qdiscs under a
    root it would have to replace)."""
    qs = parse_qdiscs(show)
    root = next((q for q in qs if q["parent"] == "root"), None)
    if root is None or root["handle"] == "0:":
        # the kernel's default root (noqueue, pfifo_fast, mq + children):
        # deleting ours brings it back
        return [["qdisc", "del", "dev", dev, "root"]]
    if any(q["parent"] != "root" for q in qs):
        raise RemoteError("%s has a qdisc tree (%s): bbr2-lab only replaces and "
                          "re-creates a single root qdisc; clear it or use another "
                          "interface" % (dev, ", ".join(q["kind"] for q in qs)))
    return [["qdisc", "replace", "dev", dev, "root", root["kind"]]
            + _fix_opts(root["kind"], root["opts"])]


class QdiscGuard:
    """The root qdisc of one interface of one host, saved before bbr2-lab
    replaces it and put back afterwards."""

    def __init__(self, host, dev):
        self.host = host
        self.dev = dev
        self.before = host.qdisc_show(dev)
        self.cmds = qdisc_restore_cmds(dev, self.before)   # fails early
        self.changed = False

    def replace(self, kind, opts):
        self.changed = True
        self.host.tc(["qdisc", "replace", "dev", self.dev, "root", kind] + list(opts))

    def restore(self):
        """Returns None if the qdisc is as before, else a description."""
        if not self.changed:
            return None
        for c in self.cmds:
            self.host.tc(c, check=c[1] != "del")
        after = self.host.qdisc_show(self.dev)
        if normalize_qdisc(after) != normalize_qdisc(self.before):
            return "%s %s: qdisc was %r, is %r" % (self.host.role, self.dev,
                                                     self.before.strip(), after.strip())
        self.changed = False
        return None


# ---------------------------------------------------------------- metadata ---

META_SCRIPT = r"""peer=%(peer)s
dev=%(dev)s
if [ -z "$dev" ]; then
	addr=$(getent ahosts "$peer" 2>/dev/null | awk 'NR == 1 { print $1 }')
	dev=$(ip -o route get "${addr:-$peer}" 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p')
fi
echo "hostname=$(uname -n)"
echo "kernel=$(uname -r)"
echo "machine=$(uname -m)"
echo "nproc=$(nproc 2>/dev/null || grep -c ^processor /proc/cpuinfo)"
echo "dev=$dev"
if [ -n "$dev" ]; then
	echo "mtu=$(cat /sys/class/net/$dev/mtu 2>/dev/null)"
	drv=$(ethtool -i "$dev" 2>/dev/null | sed -n 's/^driver: //p')
	[ -n "$drv" ] || drv=$(basename "$(readlink /sys/class/net/$dev/device/driver 2>/dev/null)" 2>/dev/null)
	echo "driver=$drv"
	echo "speed=$(cat /sys/class/net/$dev/speed 2>/dev/null)"
	echo "qdisc=$(tc qdisc show dev "$dev" 2>/dev/null | tr '\n' ';')"
fi
echo "tcp_congestion_control=$(cat /proc/sys/net/ipv4/tcp_congestion_control)"
echo "tcp_available_congestion_control=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
echo "tcp_rmem=$(cat /proc/sys/net/ipv4/tcp_rmem)"
echo "tcp_wmem=$(cat /proc/sys/net/ipv4/tcp_wmem)"
echo "tcp_bbr2_version=$(cat /sys/module/tcp_bbr2/version 2>/dev/null)"
echo "tcp_bbr2_srcversion=$(cat /sys/module/tcp_bbr2/srcversion 2>/dev/null)"
for t in iperf3 mpstat ss tc setsid ethtool; do
	command -v $t >/dev/null 2>&1 && echo "has_$t=1" || echo "has_$t=0"
done
d=%(params)s
if [ -d "$d" ]; then
	awk '{ n = FILENAME; sub(".*/", "", n); print "param." n "=" $0 }' "$d"/*
fi
"""


def host_metadata(host, peer, dev=None):
    """Kernel, NIC (driver, MTU, speed, qdisc) towards peer, CC settings,
    tcp_bbr2 version and every parameter's value, tools present."""
    out = host.sh(META_SCRIPT % {"peer": shlex.quote(peer), "dev": shlex.quote(dev or ""),
                                 "params": shlex.quote(PARAMS_DIR)})
    meta = {"ssh": host.spec, "role": host.role, "params": {}}
    for line in out.splitlines():
        k, sep, v = line.partition("=")
        if not sep:
            continue
        if k.startswith("param."):
            meta["params"][k[6:]] = v
        elif k.startswith("has_"):
            meta[k] = v == "1"
        else:
            meta[k] = v
    return meta
