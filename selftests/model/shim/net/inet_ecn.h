/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_NET_INET_ECN_H
#define _SHIM_NET_INET_ECN_H
#include <net/sock.h>
enum {
	INET_ECN_NOT_ECT = 0,
	INET_ECN_ECT_1 = 1,
	INET_ECN_ECT_0 = 2,
	INET_ECN_CE = 3,
	INET_ECN_MASK = 3,
};
/* ECT marking is decided by the simulator from tp->ecn_flags. */
#define INET_ECN_xmit(sk)	do { (void)(sk); } while (0)
#define INET_ECN_dontxmit(sk)	do { (void)(sk); } while (0)
#endif
