// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2-bpf load's choice of object (bpf/bbr2_bpf_object.c, the code the
 * loader runs) from a kernel's BTF, built here with libbpf's BTF writer:
 *  - struct tcp_congestion_ops without cwnd_event_tx_start (before 7.1):
 *    bbr2_bpf.bpf.o, whose cwnd_event() sees CA_EVENT_TX_START;
 *  - with it (7.1+, where cwnd_event() no longer sees that event):
 *    bbr2_bpf_tx.bpf.o, which registers the op;
 *  - the member under another struct only: still the base object;
 *  - no struct tcp_congestion_ops at all: no object (an error);
 * each also after a round trip through the raw BTF bytes, the form the
 * kernel's /sys/kernel/btf/vmlinux has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "tap.h"
#include "../../../bpf/bbr2_bpf_object.h"

/* A kernel's BTF: the ops struct with the members named, then others. */
static struct btf *kernel_btf(const char *ops_struct, bool tx_start,
			      const char *other_struct)
{
	static const char * const base_members[] = {
		"ssthresh", "cong_avoid", "set_state", "cwnd_event",
		"in_ack_event", "pkts_acked", "min_tso_segs", "cong_control",
		"undo_cwnd", "sndbuf_expand", "get_info", "name", "flags",
		"init", "release",
	};
	struct btf *btf = btf__new_empty();
	unsigned int i, n = sizeof(base_members) / sizeof(base_members[0]);
	unsigned int off = 0;
	int u64_id, sid;

	if (!btf)
		abort();
	u64_id = btf__add_int(btf, "long long unsigned int", 8, 0);
	if (u64_id < 0)
		abort();
	if (ops_struct) {
		sid = btf__add_struct(btf, ops_struct, (n + tx_start) * 8);
		if (sid < 0)
			abort();
		for (i = 0; i < n; i++) {
			if (btf__add_field(btf, base_members[i], u64_id, off, 0))
				abort();
			off += 64;
			/* 7.1 put it right after cwnd_event */
			if (!tx_start || strcmp(base_members[i], "cwnd_event"))
				continue;
			if (btf__add_field(btf, "cwnd_event_tx_start", u64_id, off, 0))
				abort();
			off += 64;
		}
	}
	if (other_struct) {
		sid = btf__add_struct(btf, other_struct, 8);
		if (sid < 0 || btf__add_field(btf, "cwnd_event_tx_start", u64_id, 0, 0))
			abort();
	}
	return btf;
}

/* The same BTF as the kernel exports it: raw bytes, parsed again. */
static struct btf *round_trip(const struct btf *btf)
{
	__u32 size;
	const void *raw = btf__raw_data(btf, &size);
	struct btf *copy = raw ? btf__new(raw, size) : NULL;

	if (!copy)
		abort();
	return copy;
}

static void check(const char *what, struct btf *btf, int want)
{
	struct btf *raw = round_trip(btf);
	int got = bbr2_bpf_pick_object(btf), got_raw = bbr2_bpf_pick_object(raw);

	tap_ok(got == want && got_raw == want,
	       "%s: %s (got %s, raw BTF %s)", what,
	       want < 0 ? "no object" : bbr2_bpf_object_name(want),
	       got < 0 ? "no object" : bbr2_bpf_object_name(got),
	       got_raw < 0 ? "no object" : bbr2_bpf_object_name(got_raw));
	btf__free(raw);
	btf__free(btf);
}

int main(void)
{
	tap_plan(4);
	check("tcp_congestion_ops without cwnd_event_tx_start (before 7.1)",
	      kernel_btf("tcp_congestion_ops", false, NULL), BBR2_BPF_OBJ_BASE);
	check("tcp_congestion_ops with cwnd_event_tx_start (7.1+)",
	      kernel_btf("tcp_congestion_ops", true, NULL), BBR2_BPF_OBJ_TX_START);
	check("cwnd_event_tx_start in another struct only",
	      kernel_btf("tcp_congestion_ops", false, "tcp_congestion_ops_other"),
	      BBR2_BPF_OBJ_BASE);
	check("no tcp_congestion_ops in the BTF",
	      kernel_btf(NULL, false, "sock"), -ENOENT);
	return tap_done();
}
