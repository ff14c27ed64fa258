/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the two embedded bbr2_bpf objects fits a kernel, decided from
 * the kernel's BTF (bbr2_bpf_object.c).
 */
#ifndef _BBR2_BPF_OBJECT_H
#define _BBR2_BPF_OBJECT_H

struct btf;

enum bbr2_bpf_object {
	BBR2_BPF_OBJ_BASE,	/* bbr2_bpf.bpf.o: TX_START through cwnd_event */
	BBR2_BPF_OBJ_TX_START,	/* bbr2_bpf_tx.bpf.o: the cwnd_event_tx_start op */
};

/*
 * The object for the kernel whose types btf holds: BBR2_BPF_OBJ_TX_START if
 * its struct tcp_congestion_ops has a cwnd_event_tx_start member, else
 * BBR2_BPF_OBJ_BASE; -ENOENT if it has no struct tcp_congestion_ops.
 */
int bbr2_bpf_pick_object(const struct btf *btf);

/* "bbr2_bpf.bpf.o" or "bbr2_bpf_tx.bpf.o", and why that one. */
const char *bbr2_bpf_object_name(enum bbr2_bpf_object obj);
const char *bbr2_bpf_object_reason(enum bbr2_bpf_object obj);

#endif /* _BBR2_BPF_OBJECT_H */
