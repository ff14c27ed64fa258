/* SPDX-License-Identifier: GPL-2.0 */
/* BPF build: vmlinux.h and bbr2_bpf_shim.h, included first, define it all. */
