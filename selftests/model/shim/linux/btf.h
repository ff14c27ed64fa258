/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: BTF kfunc registration is accepted and ignored. */
#ifndef _SHIM_LINUX_BTF_H
#define _SHIM_LINUX_BTF_H

#include <linux/types.h>
#include <linux/compiler.h>

struct module;
struct btf_id_set8 {
	u32 cnt;
	u32 flags;
};
struct btf_kfunc_id_set {
	struct module *owner;
	struct btf_id_set8 *set;
};
enum bpf_prog_type { BPF_PROG_TYPE_UNSPEC, BPF_PROG_TYPE_STRUCT_OPS = 27 };

static inline int register_btf_kfunc_id_set(enum bpf_prog_type t,
					    const struct btf_kfunc_id_set *s)
{
	(void)t; (void)s;
	return 0;
}

#endif
