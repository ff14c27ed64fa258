// SPDX-License-Identifier: GPL-2.0
/* API: delivered_ce */
/* 5.16: a rate sample counts the CE-marked packets it delivered. */
#include <net/tcp.h>

s32 bbr2_probe(const struct rate_sample *rs);
s32 bbr2_probe(const struct rate_sample *rs)
{
	return rs->delivered_ce;
}
