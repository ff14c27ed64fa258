/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: SNMP counters are counted nowhere. */
#ifndef _SHIM_NET_SNMP_H
#define _SHIM_NET_SNMP_H
enum {
	LINUX_MIB_NUM = 0,
	LINUX_MIB_TCPHYSTARTTRAINDETECT,
	LINUX_MIB_TCPHYSTARTTRAINCWND,
	LINUX_MIB_TCPHYSTARTDELAYDETECT,
	LINUX_MIB_TCPHYSTARTDELAYCWND,
};
#define NET_INC_STATS(net, field)	do { (void)(net); (void)(field); } while (0)
#define __NET_INC_STATS(net, field)	NET_INC_STATS(net, field)
#define NET_ADD_STATS(net, field, adnd)	do { (void)(net); (void)(field); (void)(adnd); } while (0)
#define __NET_ADD_STATS(net, field, adnd) NET_ADD_STATS(net, field, adnd)
#define TCP_INC_STATS(net, field)	NET_INC_STATS(net, field)
#endif
