#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bpf_slots.py STATE_PIN MAX_CPUS STRIDE DEPTH_OFF fill|free

Fault injection for the host test: mark every per-CPU slot of a loaded
bbr2_bpf as taken (fill: depth = BBR2_BPF_LEVELS) or give them back (free:
depth = 0), through the pinned .bss map (bbr2-bpf's DIR/state), so that
init() of a socket opened meanwhile finds no slot.  The layout numbers come
from the caller (bpf/bbr2_bpf_cpu.h); the map's size is checked against
them.
"""
import ctypes
import mmap
import os
import struct
import sys

BPF_OBJ_GET = 7
SYS_BPF = 321  # x86_64
LEVELS = 4


def obj_get(path):
    libc = ctypes.CDLL(None, use_errno=True)
    p = ctypes.create_string_buffer(path.encode())
    attr = struct.pack("QII", ctypes.addressof(p), 0, 0) + bytes(128 - 16)
    buf = ctypes.create_string_buffer(attr, len(attr))
    fd = libc.syscall(SYS_BPF, BPF_OBJ_GET, buf, len(attr))
    if fd < 0:
        err = ctypes.get_errno()
        sys.exit(f"bpf_slots.py: {path}: {os.strerror(err)}")
    return fd


def main():
    path, ncpus, stride, depth_off, op = sys.argv[1:6]
    ncpus, stride, depth_off = int(ncpus), int(stride), int(depth_off)
    fd = obj_get(path)
    size = ncpus * stride
    m = mmap.mmap(fd, size, flags=mmap.MAP_SHARED,
                  prot=mmap.PROT_READ | mmap.PROT_WRITE)
    depth = LEVELS if op == "fill" else 0
    for cpu in range(os.cpu_count()):
        struct.pack_into("I", m, cpu * stride + depth_off, depth)
    m.close()
    os.close(fd)


if __name__ == "__main__":
    main()
