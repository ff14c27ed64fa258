#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Many TCP connections, every byte verified.

  stressload.py server --port P [--stall-secs S]
  stressload.py client --dst ADDR --port P [options]   (see --help)

One process per side, non-blocking sockets and epoll, so a thousand
connections cost one interpreter, not a thousand (exec and threads are
expensive under emulation).

Protocol: the client sends a pseudo-random stream and half-closes; the
server answers with the byte count and CRC32 of what it received (12 bytes,
network order) and closes.  The client compares them with its own count and
CRC of what it sent: a connection is "ok" only if both match.

A transfer that ends otherwise is "aborted" (the kernel reported an error
on the socket: reset, timeout, ...; counted per errno in "aborts") or
"corrupt" (the receiver's count or CRC differs: never acceptable).  A
connect() that fails before any byte is a "connect_error".

Client load: --conns slots kept busy until --secs have passed.  A slot is
"long" (--long-frac of them: streams at up to --long-rate until the
deadline) or "short" (a
random 1 KiB - --short-max transfer, then the slot opens a new connection).
With --switch-ccs, --switch-per-sec random live connections per second
change TCP_CONGESTION mid-transfer.  --flows N --size B instead runs exactly
N fixed-size transfers (fault scenarios).  The result is one JSON object
on stdout (or --json FILE).
"""
import argparse
import errno
import json
import os
import random
import re
import selectors
import signal
import socket
import struct
import subprocess
import sys
import time
import zlib

TCP_CONGESTION = getattr(socket, "TCP_CONGESTION", 13)
REPLY = struct.Struct("!QI")
BLOCK = 1 << 20
CHUNK = 64 * 1024


def rto_backoff(ss):
    """True if ss shows the retransmission timer armed with a backoff."""
    m = re.search(r"timer:\(on,[^)]*\).* backoff:(\d+)", ss)
    return bool(m and int(m.group(1)) > 0)


def local_port(c):
    """The connection's local port; 0 once its socket is gone."""
    try:
        return c.sock.getsockname()[1]
    except OSError:
        return 0


def set_cc(sock, cc):
    sock.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, cc.encode())


def get_cc(sock):
    return sock.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0].decode()


# ---------------------------------------------------------------- server --

class ServerConn:
    __slots__ = ("sock", "count", "crc", "reply", "start")

    def __init__(self, sock):
        self.sock = sock
        self.count = 0
        self.crc = 0
        self.reply = None
        self.start = time.monotonic()


def server(args):
    sel = selectors.DefaultSelector()
    lsock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    if args.rcvbuf:
        lsock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, args.rcvbuf)
    lsock.bind(("::", args.port))
    lsock.listen(4096)
    lsock.setblocking(False)
    sel.register(lsock, selectors.EVENT_READ, None)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    served = 0
    buf = bytearray(CHUNK)
    view = memoryview(buf)
    print("listening", flush=True)
    while not stop:
        for key, ev in sel.select(timeout=0.5):
            c = key.data
            if c is None:
                while True:
                    try:
                        s, _ = lsock.accept()
                    except (BlockingIOError, InterruptedError):
                        break
                    s.setblocking(False)
                    sel.register(s, selectors.EVENT_READ, ServerConn(s))
                continue
            if c.reply is None:
                # zero-window receiver: read nothing for the first stall_secs
                if args.stall_secs and time.monotonic() - c.start < args.stall_secs:
                    continue
                try:
                    n = c.sock.recv_into(buf)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    sel.unregister(c.sock)
                    c.sock.close()
                    continue
                if n:
                    c.count += n
                    c.crc = zlib.crc32(view[:n], c.crc)
                    continue
                c.reply = REPLY.pack(c.count, c.crc)
                sel.modify(c.sock, selectors.EVENT_WRITE, c)
            try:
                sent = c.sock.send(c.reply)
                c.reply = c.reply[sent:]
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                c.reply = b""
            if not c.reply:
                sel.unregister(c.sock)
                c.sock.close()
                served += 1
        if args.stall_secs:
            time.sleep(0.01)	# stalled sockets stay readable: do not spin
    print(json.dumps({"served": served}), flush=True)


# ---------------------------------------------------------------- client --

class ClientConn:
    __slots__ = ("sock", "size", "sent", "crc", "reply", "cc", "start", "long",
                 "connected", "switches", "err", "progress")

    def __init__(self, sock, size, cc, long):
        self.sock = sock
        self.size = size
        self.sent = 0
        self.crc = 0
        self.reply = b""
        self.cc = cc
        self.start = time.monotonic()
        self.progress = self.start	# last byte sent or received
        self.long = long
        self.connected = False
        self.switches = 0
        self.err = None


class Client:
    def __init__(self, args):
        self.a = args
        self.rng = random.Random(args.seed)
        self.block = random.Random(args.seed + 1).randbytes(BLOCK)
        self.view = memoryview(self.block)
        self.sel = selectors.DefaultSelector()
        self.live = set()
        self.paused = []	# long streams ahead of --long-rate
        self.res = {"ok": 0, "failed": 0, "corrupt": 0, "aborts": {},
                    "bytes": 0, "switches": 0,
                    "switch_errors": 0, "cc_mismatch": 0, "connect_errors": 0,
                    "errors": [], "flows": [], "max_live": 0, "stalls": [],
                    "waited_for_backoff": 0}
        self.ccs = args.ccs.split(",")
        self.switch_ccs = args.switch_ccs.split(",") if args.switch_ccs else []
        self.family = socket.AF_INET6 if ":" in args.dst else socket.AF_INET

    def fail(self, c, why):
        self.res["failed"] += 1
        if c.err:
            self.res["aborts"][c.err] = self.res["aborts"].get(c.err, 0) + 1
        else:
            self.res["corrupt"] += 1
        if len(self.res["errors"]) < 20:
            self.res["errors"].append("%s (cc %s, sent %d, port %d)" %
                                      (why, c.cc, c.sent, local_port(c)))
        self.close(c, False)

    def close(self, c, ok):
        try:
            self.sel.unregister(c.sock)
        except (KeyError, ValueError):
            pass
        c.sock.close()
        self.live.remove(c)
        if self.a.flows:
            self.res["flows"].append({"cc": c.cc, "bytes": c.sent, "ok": ok,
                                      "secs": round(time.monotonic() - c.start, 3),
                                      "err": c.err})

    def open(self, long, size, cc):
        s = socket.socket(self.family, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            set_cc(s, cc)
            if self.a.mss:
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, self.a.mss)
            # connect_ex() returns what connect() would raise: anything
            # but "in progress" means this socket never connects
            rc = s.connect_ex((self.a.dst, self.a.port))
            if rc not in (0, errno.EINPROGRESS):
                raise OSError(rc, os.strerror(rc))
        except OSError as e:
            self.res["connect_errors"] += 1
            if len(self.res["errors"]) < 20:
                self.res["errors"].append("socket setup: %s" % e)
            s.close()
            return
        c = ClientConn(s, size, cc, long)
        self.live.add(c)
        self.sel.register(s, selectors.EVENT_WRITE, c)
        self.res["max_live"] = max(self.res["max_live"], len(self.live))

    def new_conn(self, long):
        size = 0 if long else self.rng.randint(1024, self.a.short_max)
        self.open(long, size, self.rng.choice(self.ccs))

    def socket_error(self, c, where, e=None, err=None):
        """The kernel ended this connection: say why, count it, drop it."""
        # reading SO_ERROR clears it: a caller that read it passes it on
        if err is None:
            err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if err:
            c.err = errno.errorcode.get(err, str(err))
        elif e is not None and e.errno:
            c.err = errno.errorcode.get(e.errno, str(e.errno))
        else:
            c.err = "closed"
        self.fail(c, "%s: %s" % (where, os.strerror(err) if err else e))

    def step_send(self, c, deadline_passed):
        if not c.connected:
            err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                self.socket_error(c, "connect", err=err)
                return
            c.connected = True
        while True:
            if c.long:
                remaining = CHUNK if not deadline_passed else 0
            else:
                remaining = c.size - c.sent
            if remaining <= 0:
                # a reset that came while the stream was paused surfaces
                # here, as ENOTCONN: SO_ERROR holds the real reason
                try:
                    c.sock.shutdown(socket.SHUT_WR)
                except OSError as e:
                    self.socket_error(c, "shutdown", e)
                    return
                self.sel.modify(c.sock, selectors.EVENT_READ, c)
                return
            off = c.sent % BLOCK
            n = min(remaining, CHUNK, BLOCK - off)
            try:
                sent = c.sock.send(self.view[off:off + n])
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                self.socket_error(c, "send", e)
                return
            c.crc = zlib.crc32(self.view[off:off + sent], c.crc)
            c.sent += sent
            c.progress = time.monotonic()
            # one chunk per turn, so that no connection starves the
            # others; a long stream over its rate waits for resume()
            if c.long and c.sent > self.a.long_rate * (time.monotonic() - c.start):
                self.sel.unregister(c.sock)
                self.paused.append(c)
            return

    def step_recv(self, c):
        try:
            data = c.sock.recv(REPLY.size - len(c.reply))
        except (BlockingIOError, InterruptedError):
            return
        except OSError as e:
            self.socket_error(c, "recv", e)
            return
        if not data:
            c.err = "EOF"
            self.fail(c, "closed before the receiver's count")
            return
        c.reply += data
        c.progress = time.monotonic()
        if len(c.reply) < REPLY.size:
            return
        count, crc = REPLY.unpack(c.reply)
        if count != c.sent or crc != c.crc:
            self.fail(c, "receiver got %d bytes crc %08x, sent %d crc %08x" %
                      (count, crc, c.sent, c.crc))
            return
        self.res["ok"] += 1
        self.res["bytes"] += c.sent
        self.close(c, True)

    def resume(self, deadline_passed):
        now = time.monotonic()
        still = []
        for c in self.paused:
            if c not in self.live:
                continue
            if deadline_passed or c.sent <= self.a.long_rate * (now - c.start):
                self.sel.register(c.sock, selectors.EVENT_WRITE, c)
            else:
                still.append(c)
        self.paused = still

    @staticmethod
    def tcp_state(c):
        """ss's one-line view of the connection (timers, backoff, pacing)."""
        try:
            out = subprocess.run(["ss", "-tinoem", "state", "all",
                                  "sport", "= :%d" % local_port(c)],
                                 capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError) as e:
            return "ss: %s" % e
        return " ".join(out.split())

    def record_stall(self, c, paused, ss):
        """What the kernel says of a connection that never finished: the
        post-mortem a "no result" needs, taken before the socket closes."""
        if len(self.res["stalls"]) >= 5:
            return
        self.res["stalls"].append({
            "port": local_port(c), "cc": c.cc, "long": c.long, "sent": c.sent,
            "size": c.size, "switches": c.switches, "connected": c.connected,
            "paused": paused, "reply": len(c.reply),
            "age": round(time.monotonic() - c.start, 1),
            "idle": round(time.monotonic() - c.progress, 1),
            "ss": ss})

    def switch_some(self, n):
        cands = [c for c in self.live if c.connected and c.sent]
        for c in self.rng.sample(cands, min(n, len(cands))):
            cc = self.rng.choice(self.switch_ccs)
            try:
                set_cc(c.sock, cc)
                if get_cc(c.sock) != cc:
                    self.res["cc_mismatch"] += 1
                c.cc = cc
                c.switches += 1
                self.res["switches"] += 1
            except OSError as e:
                # a socket already closing may refuse; anything else counts
                if e.errno not in (errno.ENOTCONN, errno.EBADF):
                    self.res["switch_errors"] += 1
                    if len(self.res["errors"]) < 20:
                        self.res["errors"].append("switch to %s: %s" % (cc, e))

    def run(self):
        a = self.a
        t0 = time.monotonic()
        deadline = t0 + a.secs
        hard = deadline + a.grace
        extended = a.backoff_grace <= 0
        next_switch = t0
        if a.flows:
            for i in range(a.flows):
                self.open(False, a.size, self.ccs[i % len(self.ccs)])
        else:
            nlong = int(a.conns * a.long_frac)
            self.longs_wanted = nlong
        while True:
            now = time.monotonic()
            passed = now >= deadline
            if not a.flows and not passed:
                # refill the free slots (at most --open-burst per turn)
                want = a.conns - len(self.live)
                nlong = sum(1 for c in self.live if c.long)
                for _ in range(min(want, a.open_burst)):
                    self.new_conn(nlong < self.longs_wanted)
                    nlong += 1
            if self.switch_ccs and now >= next_switch and not passed:
                self.switch_some(max(1, int(a.switch_per_sec / 10)))
                next_switch = now + 0.1
            if self.paused:
                self.resume(passed)
            if not self.live and (passed or a.flows):
                break
            if now >= hard:
                backing_off = []
                for c in list(self.live):
                    ss = self.tcp_state(c)
                    if not extended and rto_backoff(ss):
                        backing_off.append(c)
                        continue
                    c.err = "no-result"
                    self.record_stall(c, c in self.paused, ss)
                    self.fail(c, "no result %.0f s after the deadline" % a.grace)
                if not backing_off:
                    break
                # TCP's retransmission timer backs off to TCP_RTO_MAX
                # (120 s) when a crowded queue keeps dropping the same
                # segment: give those connections one more backoff step
                extended = True
                hard = now + a.backoff_grace
                self.res["waited_for_backoff"] = len(backing_off)
            for key, ev in self.sel.select(timeout=0.1):
                c = key.data
                if c not in self.live:
                    continue
                if ev & selectors.EVENT_WRITE:
                    self.step_send(c, passed)
                else:
                    self.step_recv(c)
        self.res["secs"] = round(time.monotonic() - t0, 1)
        return self.res


def client(args):
    res = Client(args).run()
    out = json.dumps(res)
    if args.json:
        with open(args.json, "w") as f:
            f.write(out + "\n")
    else:
        print(out)
    return 0 if res["failed"] == 0 else 1


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--stall-secs", type=float, default=0,
                   help="read nothing on a new connection for this long")
    s.add_argument("--rcvbuf", type=int, default=0)
    c = sub.add_parser("client")
    c.add_argument("--dst", required=True)
    c.add_argument("--port", type=int, required=True)
    c.add_argument("--conns", type=int, default=100)
    c.add_argument("--secs", type=float, default=30)
    c.add_argument("--grace", type=float, default=120,
                   help="after --secs, how long connections may take to finish")
    c.add_argument("--backoff-grace", type=float, default=0,
                   help="at the end of --grace, how much longer to wait for "
                   "connections whose retransmission timer is backing off")
    c.add_argument("--long-frac", type=float, default=0.3)
    c.add_argument("--long-rate", type=float, default=256 * 1024,
                   help="bytes/s each long stream sends at most")
    c.add_argument("--short-max", type=int, default=256 * 1024)
    c.add_argument("--open-burst", type=int, default=1000,
                   help="most connections opened per turn of the loop")
    c.add_argument("--ccs", default="bbr2")
    c.add_argument("--switch-ccs", default="")
    c.add_argument("--switch-per-sec", type=float, default=20)
    c.add_argument("--flows", type=int, default=0)
    c.add_argument("--size", type=int, default=1 << 20)
    c.add_argument("--mss", type=int, default=0)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--json", default="")
    args = p.parse_args()
    if args.mode == "server":
        server(args)
        return 0
    return client(args)


if __name__ == "__main__":
    sys.exit(main())
