/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bbr2_bpf's per-CPU working copies of the socket's private area (see
 * bbr2_bpf_shim.h); shared with the loader, whose skeleton maps the
 * program's global data and so must know its layout.
 */
#ifndef _BBR2_BPF_CPU_H
#define _BBR2_BPF_CPU_H

#define BBR2_BPF_MAX_CPUS	8192	/* CONFIG_NR_CPUS of Debian's amd64 kernels */
#define BBR2_BPF_LEVELS		4	/* process, softirq, and spare */
#define BBR2_BPF_PRIV_WORDS	13	/* ICSK_CA_PRIV_SIZE / 8 */

struct bbr2_bpf_cpu {
	u64	slot[BBR2_BPF_LEVELS][BBR2_BPF_PRIV_WORDS];
	u32	depth;			/* slots in use */
	u32	overflows;		/* hooks skipped: no free slot */
};

#endif /* _BBR2_BPF_CPU_H */
