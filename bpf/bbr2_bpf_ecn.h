/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bbr2_bpf's ECN eligibility: ECN negotiated, as the kernel's
 * tcp_ecn_mode_any().  Since AccECN (6.18) tp->ecn_flags holds the mode in
 * two bits: TCP_ECN_MODE_RFC3168 (bit 0, TCP_ECN_OK before) and
 * TCP_ECN_MODE_ACCECN (bit 4, unused before); bits 1 to 3 (CWR queued or
 * demanded, ECN seen) say nothing about negotiation.  These are
 * preprocessor constants, which BTF does not carry, so the kernel's AccECN
 * support is told at load time by a tcp_sock field that came with it
 * (CO-RE, bbr2_bpf_shim.h) and passed in here.  The BPF object and the
 * model tests both include this header.
 */
#ifndef _BBR2_BPF_ECN_H
#define _BBR2_BPF_ECN_H

#define BBR2_BPF_ECN_MODE_RFC3168	0x01
#define BBR2_BPF_ECN_MODE_ACCECN	0x10

static inline bool bbr2_bpf_ecn_mode_any(u32 ecn_flags, bool accecn_kernel)
{
	u32 any = BBR2_BPF_ECN_MODE_RFC3168;

	if (accecn_kernel)
		any |= BBR2_BPF_ECN_MODE_ACCECN;
	return ecn_flags & any;
}

#endif /* _BBR2_BPF_ECN_H */
