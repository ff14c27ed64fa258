#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-module-index.sh KVER KO OUTDIR: the module index files (modules.dep,
# modules.dep.bin, ...) of /lib/modules/KVER as they would be with KO
# installed in updates/, written to OUTDIR.  Runs depmod on the host over a
# tree of symlinks: a TCG guest needs minutes to read every module itself.
set -euo pipefail

kver=$1 ko=$2 out=$3
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib/modules" "$out"
cp -as "/lib/modules/$kver" "$stage/lib/modules/"
mkdir -p "$stage/lib/modules/$kver/updates"
cp "$ko" "$stage/lib/modules/$kver/updates/tcp_bbr2.ko"
depmod -b "$stage" "$kver"
grep -q '^updates/tcp_bbr2.ko:' "$stage/lib/modules/$kver/modules.dep"
cp "$stage/lib/modules/$kver"/modules.* "$out/"
