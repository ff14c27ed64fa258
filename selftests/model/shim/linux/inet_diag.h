/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the parts of uapi <linux/inet_diag.h> a congestion
 * control's get_info() fills (the 6.1 layout).
 */
#ifndef _SHIM_LINUX_INET_DIAG_H
#define _SHIM_LINUX_INET_DIAG_H

#include <linux/types.h>

enum {
	INET_DIAG_NONE,
	INET_DIAG_MEMINFO,
	INET_DIAG_INFO,
	INET_DIAG_VEGASINFO,
	INET_DIAG_CONG,
	INET_DIAG_TOS,
	INET_DIAG_TCLASS,
	INET_DIAG_SKMEMINFO,
	INET_DIAG_SHUTDOWN,
	INET_DIAG_DCTCPINFO,	/* request as INET_DIAG_VEGASINFO */
	INET_DIAG_PROTOCOL,
	INET_DIAG_SKV6ONLY,
	INET_DIAG_LOCALS,
	INET_DIAG_PEERS,
	INET_DIAG_PAD,
	INET_DIAG_MARK,
	INET_DIAG_BBRINFO,	/* request as INET_DIAG_VEGASINFO */
	INET_DIAG_CLASS_ID,
	INET_DIAG_MD5SIG,
	INET_DIAG_ULP_INFO,
	INET_DIAG_SK_BPF_STORAGES,
	INET_DIAG_CGROUP_ID,
	INET_DIAG_SOCKOPT,
	__INET_DIAG_MAX,
};
#define INET_DIAG_MAX (__INET_DIAG_MAX - 1)

struct tcpvegas_info {
	__u32 tcpv_enabled;
	__u32 tcpv_rttcnt;
	__u32 tcpv_rtt;
	__u32 tcpv_minrtt;
};

struct tcp_dctcp_info {
	__u16 dctcp_enabled;
	__u16 dctcp_ce_state;
	__u32 dctcp_alpha;
	__u32 dctcp_ab_ecn;
	__u32 dctcp_ab_tot;
};

struct tcp_bbr_info {
	/* u64 bw: max-filtered bw estimate in bytes per second */
	__u32 bbr_bw_lo;	/* lower 32 bits of bw */
	__u32 bbr_bw_hi;	/* upper 32 bits of bw */
	__u32 bbr_min_rtt;	/* min-filtered RTT in us */
	__u32 bbr_pacing_gain;	/* pacing gain << 8 */
	__u32 bbr_cwnd_gain;	/* cwnd gain << 8 */
};

union tcp_cc_info {
	struct tcpvegas_info vegas;
	struct tcp_dctcp_info dctcp;
	struct tcp_bbr_info bbr;
};

#endif
