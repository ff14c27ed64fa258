#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sample the TCP state `ss -ti` shows, every PERIOD seconds, cheaply.

  tcpsample.py DST_IPV4 PERIOD_S OUT

Under QEMU TCG every exec costs hundreds of milliseconds, so running `ss` in
a loop samples ~3 times a second: too coarse to see a 200 ms PROBE_RTT.  This
asks the kernel the same question ss asks (a sock_diag dump with
INET_DIAG_INFO, _CONG and the CC's own info, i.e. what ss prints as
"bbr:(...)") from one long-lived process, and writes one line per socket per
sample:

  <epoch_s> <local>><remote> cc=<name> rtt=<ms> minrtt=<ms> cwnd=<pkts>
      acked=<bytes> retrans=<segs> pacing_rate=<Mbit/s> segs_out=<data segs>
      [rwnd_limited=<ms> sndbuf_limited=<ms>] [bw=<Mbit/s> mrtt=<ms>
      pacing_gain=<x> cwnd_gain=<x>]

(segs_out over time against pacing_rate shows whether the sender sends at
the rate it paces at: under an emulator whose timers run late it does not;
the limited times, whether the receiver's window or the socket buffer held
it back.)

for established IPv4 TCP sockets towards DST_IPV4, until killed.
"""

import socket
import struct
import sys
import time

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
INET_DIAG_INFO, INET_DIAG_VEGASINFO, INET_DIAG_CONG = 2, 3, 4
INET_DIAG_BBRINFO = 16
TCP_ESTABLISHED = 1


def request(seq):
    ext = (1 << (INET_DIAG_INFO - 1)) | (1 << (INET_DIAG_VEGASINFO - 1)) | \
          (1 << (INET_DIAG_CONG - 1))
    # inet_diag_req_v2 with a zero socket id: dump everything, filter here
    req = struct.pack("=BBBxI", socket.AF_INET, socket.IPPROTO_TCP, ext,
                      1 << TCP_ESTABLISHED) + bytes(48)
    hdr = struct.pack("=IHHII", 16 + len(req), SOCK_DIAG_BY_FAMILY,
                      NLM_F_REQUEST | NLM_F_DUMP, seq, 0)
    return hdr + req


def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from("=HH", buf, off)
        if alen < 4:
            break
        yield atype & 0x3fff, buf[off + 4:off + alen]
        off += (alen + 3) & ~3


def describe(msg):
    sport, dport = struct.unpack_from("!HH", msg, 4)
    src = socket.inet_ntoa(msg[8:12])
    dst = socket.inet_ntoa(msg[24:28])
    out = {"key": "%s:%d>%s:%d" % (src, sport, dst, dport), "dst": dst}
    for atype, data in attrs(msg[72:]):
        if atype == INET_DIAG_CONG:
            out["cc"] = data.split(b"\0")[0].decode()
        elif atype == INET_DIAG_INFO and len(data) >= 160:
            rtt, _, _, cwnd = struct.unpack_from("=IIII", data, 68)
            total_retrans, = struct.unpack_from("=I", data, 100)
            pacing_rate, = struct.unpack_from("=Q", data, 104)
            acked, = struct.unpack_from("=Q", data, 120)
            min_rtt, = struct.unpack_from("=I", data, 148)
            segs_out, = struct.unpack_from("=I", data, 156)
            out.update(rtt=rtt / 1000.0, minrtt=min_rtt / 1000.0, cwnd=cwnd,
                       acked=acked, retrans=total_retrans, segs_out=segs_out)
            if pacing_rate != (1 << 64) - 1:
                out["pacing_rate"] = pacing_rate * 8 / 1e6
            if len(data) >= 192:	# tcpi_rwnd_limited, _sndbuf_limited (4.10+), us
                rwnd, sndbuf = struct.unpack_from("=QQ", data, 176)
                out.update(rwnd_limited=rwnd / 1000.0, sndbuf_limited=sndbuf / 1000.0)
        elif atype == INET_DIAG_BBRINFO and len(data) >= 20:
            bw_lo, bw_hi, mrtt, pg, cg = struct.unpack_from("=IIIII", data)
            out.update(bw=((bw_hi << 32) | bw_lo) * 8 / 1e6, mrtt=mrtt / 1000.0,
                       pacing_gain=pg / 256.0, cwnd_gain=cg / 256.0)
    return out


def sample(sk, seq, dst):
    sk.send(request(seq))
    socks = []
    while True:
        buf = sk.recv(1 << 20)
        off = 0
        while off + 16 <= len(buf):
            mlen, mtype = struct.unpack_from("=IH", buf, off)
            if mtype == NLMSG_DONE or mtype == NLMSG_ERROR:
                return socks
            d = describe(buf[off + 16:off + mlen])
            if d["dst"] == dst and "cwnd" in d:
                socks.append(d)
            off += (mlen + 3) & ~3


FIELDS = ("cc", "rtt", "minrtt", "cwnd", "acked", "retrans", "pacing_rate",
          "segs_out", "rwnd_limited", "sndbuf_limited",
          "bw", "mrtt", "pacing_gain", "cwnd_gain")


def main():
    dst, period, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG)
    seq = 0
    with open(path, "w", buffering=1) as out:
        while True:
            seq += 1
            now = time.time()
            for d in sample(sk, seq, dst):
                kv = " ".join("%s=%s" % (k, ("%.3f" % d[k]) if isinstance(d[k], float)
                                         else d[k]) for k in FIELDS if k in d)
                out.write("%.4f %s %s\n" % (now, d["key"], kv))
            time.sleep(max(0.0, period - (time.time() - now)))


if __name__ == "__main__":
    main()
