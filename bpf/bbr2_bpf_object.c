// SPDX-License-Identifier: GPL-2.0
/*
 * The choice between bbr2_bpf's two objects.  From 7.1 the kernel calls a
 * cwnd_event_tx_start op for the first transmit after idle and no longer
 * passes CA_EVENT_TX_START to cwnd_event(); a congestion control that does
 * not register the op never sees an idle restart.  libbpf refuses a
 * struct_ops member the running kernel lacks, so one object cannot serve
 * both: the loader asks the kernel's BTF whether the member exists.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include "bbr2_bpf_object.h"

int bbr2_bpf_pick_object(const struct btf *btf)
{
	const struct btf_member *m;
	const struct btf_type *t;
	unsigned int i;
	int id;

	id = btf__find_by_name_kind(btf, "tcp_congestion_ops", BTF_KIND_STRUCT);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);

		if (name && !strcmp(name, "cwnd_event_tx_start"))
			return BBR2_BPF_OBJ_TX_START;
	}
	return BBR2_BPF_OBJ_BASE;
}

const char *bbr2_bpf_object_name(enum bbr2_bpf_object obj)
{
	return obj == BBR2_BPF_OBJ_TX_START ? "bbr2_bpf_tx.bpf.o" :
					      "bbr2_bpf.bpf.o";
}

const char *bbr2_bpf_object_reason(enum bbr2_bpf_object obj)
{
	return obj == BBR2_BPF_OBJ_TX_START ?
	       "the kernel has the cwnd_event_tx_start op (7.1+)" :
	       "the kernel has no cwnd_event_tx_start op: idle restarts come through cwnd_event";
}
