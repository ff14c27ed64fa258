// SPDX-License-Identifier: GPL-2.0
/*
 * Not an API probe: it must always compile.  If it does not, the toolchain
 * or the kernel tree is broken and every other probe's failure would be
 * meaningless, so compat-probe.sh stops.
 */
#include <net/tcp.h>

u32 bbr2_probe(const struct tcp_sock *tp);
u32 bbr2_probe(const struct tcp_sock *tp)
{
	return tp->mss_cache;
}
