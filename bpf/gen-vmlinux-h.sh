#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gen-vmlinux-h.sh OUT [BTF]: write the kernel's types (vmlinux.h) for the
# BPF build.  BTF is a file bpftool reads (/sys/kernel/btf/vmlinux, a
# vmlinux ELF) or a compressed kernel image (/boot/vmlinuz-*), whose
# embedded ELF is extracted first.  Default: the Debian 6.12 kernel the VM
# test bed installs, so that every build sees the same types; the program
# is CO-RE, so it loads on other kernels whose layout differs.
set -eu

out=$1
btf=${2:-/boot/vmlinuz-6.12.117+deb12-amd64}
[ -r "$btf" ] || btf=/sys/kernel/btf/vmlinux
[ -r "$btf" ] || { echo "gen-vmlinux-h.sh: no BTF source ($btf); pass BTF=FILE" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $btf in
*vmlinuz*|*bzImage*)
	# The ELF follows a compression magic; try each until one gives ELF.
	python3 - "$btf" "$tmp/vmlinux" <<'PY'
import gzip, lzma, subprocess, sys
data = open(sys.argv[1], 'rb').read()
magics = [(b'\x28\xb5\x2f\xfd', 'zstd'), (b'\xfd7zXZ\x00', 'xz'),
          (b'\x1f\x8b\x08', 'gzip')]
for magic, kind in magics:
    off = data.find(magic)
    while off >= 0:
        try:
            if kind == 'zstd':
                elf = subprocess.run(['zstd', '-dc'], input=data[off:],
                                     capture_output=True).stdout
            elif kind == 'xz':
                elf = lzma.LZMADecompressor().decompress(data[off:])
            else:
                elf = gzip.GzipFile(fileobj=__import__('io').BytesIO(data[off:])).read()
        except Exception:
            elf = b''
        if elf[:4] == b'\x7fELF':
            open(sys.argv[2], 'wb').write(elf)
            sys.exit(0)
        off = data.find(magic, off + 1)
sys.exit('gen-vmlinux-h.sh: no ELF kernel found in ' + sys.argv[1])
PY
	btf=$tmp/vmlinux
	;;
esac
bpftool btf dump file "$btf" format c > "$tmp/vmlinux.h"
mv "$tmp/vmlinux.h" "$out"
