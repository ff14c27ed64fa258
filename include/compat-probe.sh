#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the -D flags that describe the kernel API tcp_bbr2 is built against.
#
# Usage: compat-probe.sh SRCTREE
#
# Each probe looks for a declaration in the kernel's own headers rather than
# comparing LINUX_VERSION_CODE: distributions backport API changes (Debian's
# 6.1 has get_random_u32_below() from 6.2), and kernels carrying Google's
# BBRv3 patch change the congestion-control ops.  bbr2_compat.h turns these
# flags into shims so that src/ never tests a kernel version.
set -eu

srctree=${1:?usage: compat-probe.sh SRCTREE}
tcp_h=$srctree/include/net/tcp.h
random_h=$srctree/include/linux/random.h

if [ ! -r "$tcp_h" ]; then
	echo "compat-probe.sh: cannot read $tcp_h (are kernel headers installed?)" >&2
	exit 1
fi

has() {	# has FILE EXTENDED-REGEX
	grep -Eq -- "$2" "$1" 2>/dev/null
}

# 5.19: tcp_snd_cwnd()/tcp_snd_cwnd_set() accessors.
has "$tcp_h" 'tcp_snd_cwnd_set\(' && printf ' -DBBR2_HAVE_TCP_SND_CWND'
# 5.16: CE-marked deliveries counted in struct rate_sample.
has "$tcp_h" '^[[:space:]]*s32[[:space:]]+delivered_ce;' &&
	printf ' -DBBR2_HAVE_RS_DELIVERED_CE'
# 6.10: cong_control(sk, ack, flag, rs).
has "$tcp_h" 'cong_control\)\(struct sock \*sk, u32 ack,' &&
	printf ' -DBBR2_HAVE_CONG_CONTROL_ACK_FLAG'
# 6.2 (and backports): get_random_u32_below() replaces prandom_u32_max().
has "$random_h" 'get_random_u32_below\(' &&
	printf ' -DBBR2_HAVE_GET_RANDOM_U32_BELOW'
# Google's BBRv3 patch renames min_tso_segs(sk) to tso_segs(sk, mss).
has "$tcp_h" '\(\*min_tso_segs\)\(struct sock \*sk\)' &&
	printf ' -DBBR2_HAVE_MIN_TSO_SEGS'
echo
