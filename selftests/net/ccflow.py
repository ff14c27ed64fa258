#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One TCP sender with a chosen congestion control, and a sink, for tests
that need what iperf3 cannot do: idle gaps between bursts, and the
sender's own tcp_info (ECN mode, CE deliveries, RTT) of a 7.x kernel.

  sink PORT                        accept connections and discard the data
                                   (runs until killed)
  bursts HOST PORT CC N BYTES GAP  N writes of BYTES, each after GAP seconds
                                   of idle (everything acked first)
  bulk HOST PORT CC SECS           send without pause for SECS seconds,
                                   sampling tcp_info every 0.1 s

Both senders print one JSON object: ecn_mode (0 off, 1 RFC 3168, 2 AccECN,
-1 if the kernel's tcp_info is too short to say), delivered_ce, retrans,
and for bulk rtt_ms_median over the second half of the flow.
"""

import json
import socket
import statistics
import struct
import sys
import time

TCP_CONGESTION = getattr(socket, 'TCP_CONGESTION', 13)
TCP_INFO = getattr(socket, 'TCP_INFO', 11)
# struct tcp_info (include/uapi/linux/tcp.h) offsets
OFF_RTT = 68            # tcpi_rtt, us
OFF_UNACKED = 24        # tcpi_unacked
OFF_TOTAL_RETRANS = 100
OFF_DELIVERED_CE = 196
OFF_ECN_MODE = 276      # tcpi_ecn_mode:2, the low bits of this word (7.x)


def tcp_info(sock):
    raw = sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 512)

    def u32(off):
        return struct.unpack_from('<I', raw, off)[0] if len(raw) >= off + 4 else -1
    mode = u32(OFF_ECN_MODE)
    return {
        'rtt_us': u32(OFF_RTT),
        'unacked': u32(OFF_UNACKED),
        'retrans': u32(OFF_TOTAL_RETRANS),
        'delivered_ce': u32(OFF_DELIVERED_CE),
        'ecn_mode': mode & 3 if mode >= 0 else -1,
    }


def connect(host, port, cc):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, cc.encode())
    s.connect((host, int(port)))
    return s


def wait_acked(sock, limit_s=10):
    end = time.monotonic() + limit_s
    while tcp_info(sock)['unacked'] > 0 and time.monotonic() < end:
        time.sleep(0.005)


def cmd_sink(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(('0.0.0.0', int(port)))
    ls.listen(8)
    print('listening', flush=True)
    while True:
        c, _ = ls.accept()
        while c.recv(1 << 16):
            pass
        c.close()


def cmd_bursts(host, port, cc, n, nbytes, gap):
    s = connect(host, port, cc)
    buf = b'x' * int(nbytes)
    for _ in range(int(n)):
        wait_acked(s)
        time.sleep(float(gap))
        s.sendall(buf)
    wait_acked(s)
    info = tcp_info(s)
    s.close()
    print(json.dumps(info))


def cmd_bulk(host, port, cc, secs):
    s = connect(host, port, cc)
    s.setblocking(False)
    buf = b'x' * (1 << 16)
    start = time.monotonic()
    end = start + float(secs)
    next_sample = start
    rtts = []
    while True:
        now = time.monotonic()
        if now >= end:
            break
        if now >= next_sample:
            info = tcp_info(s)
            if now - start >= float(secs) / 2:
                rtts.append(info['rtt_us'])
            next_sample = now + 0.1
        try:
            s.send(buf)
        except BlockingIOError:
            time.sleep(0.002)
    info = tcp_info(s)
    info['rtt_ms_median'] = statistics.median(rtts) / 1000 if rtts else -1
    s.close()
    print(json.dumps(info))


def main():
    cmds = {'sink': (cmd_sink, 1), 'bursts': (cmd_bursts, 6), 'bulk': (cmd_bulk, 4)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) - 2 != cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    fn, _ = cmds[sys.argv[1]]
    fn(*sys.argv[2:])


if __name__ == '__main__':
    main()
