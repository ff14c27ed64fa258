// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2_bpf's ECN eligibility (bpf/bbr2_bpf_ecn.h, the function the BPF
 * object runs) against the kernel's ecn_flags layout, for every value of
 * the flags' low byte, on kernels with and without AccECN:
 *  - bit 0 (TCP_ECN_OK, since 6.18 TCP_ECN_MODE_RFC3168): classic ECN was
 *    negotiated: eligible on every kernel;
 *  - bit 4 (TCP_ECN_MODE_ACCECN): AccECN was negotiated: eligible where the
 *    kernel has AccECN, ignored where it has not (the bit is unused there);
 *  - both mode bits (TCP_ECN_MODE_PENDING, a SYN in flight): the kernel's
 *    tcp_ecn_mode_any() says yes, and so does this;
 *  - bits 1 to 3 (CWR queued, CWR demanded, ECN seen) and bits 5 to 7
 *    never make a connection eligible by themselves.
 * The expected answer comes from these named bits of the kernel's
 * include/net/tcp_ecn.h (6.18) and include/linux/tcp.h (earlier).
 */
#include <linux/types.h>
#include "tap.h"
#include "../../../bpf/bbr2_bpf_ecn.h"

/* The kernel's names for the low bits of tcp_sock.ecn_flags. */
#define K_ECN_MODE_RFC3168	(1U << 0)	/* TCP_ECN_OK before 6.18 */
#define K_ECN_QUEUE_CWR		(1U << 1)
#define K_ECN_DEMAND_CWR	(1U << 2)
#define K_ECN_SEEN		(1U << 3)
#define K_ECN_MODE_ACCECN	(1U << 4)	/* 6.18+ only */

#define N_NAMED(a)		(sizeof(a) / sizeof((a)[0]))

static bool expected(u32 flags, bool accecn_kernel)
{
	if (flags & K_ECN_MODE_RFC3168)
		return true;
	return accecn_kernel && (flags & K_ECN_MODE_ACCECN);
}

int main(void)
{
	static const struct {
		const char *what;
		u32 flags;
		bool accecn_kernel, eligible;
	} named[] = {
		{ "no ECN", 0, false, false },
		{ "no ECN (AccECN kernel)", 0, true, false },
		{ "classic ECN", K_ECN_MODE_RFC3168, false, true },
		{ "classic ECN (AccECN kernel)", K_ECN_MODE_RFC3168, true, true },
		{ "classic ECN, CE seen, CWR queued",
		  K_ECN_MODE_RFC3168 | K_ECN_SEEN | K_ECN_QUEUE_CWR, false, true },
		{ "AccECN", K_ECN_MODE_ACCECN, true, true },
		{ "AccECN, CE seen", K_ECN_MODE_ACCECN | K_ECN_SEEN, true, true },
		{ "bit 4 on a kernel without AccECN", K_ECN_MODE_ACCECN, false, false },
		{ "AccECN pending (both mode bits)",
		  K_ECN_MODE_RFC3168 | K_ECN_MODE_ACCECN, true, true },
		{ "ECN seen, no mode", K_ECN_SEEN, true, false },
		{ "CWR flags, no mode", K_ECN_QUEUE_CWR | K_ECN_DEMAND_CWR, true, false },
	};
	unsigned int i, wrong = 0, first_flags = 0;
	int first_kernel = -1;

	tap_plan((int)N_NAMED(named) + 1);
	for (i = 0; i < N_NAMED(named); i++)
		tap_ok(bbr2_bpf_ecn_mode_any(named[i].flags,
					     named[i].accecn_kernel) ==
		       named[i].eligible,
		       "%s: ecn_flags 0x%02x, %s kernel: %s", named[i].what,
		       named[i].flags,
		       named[i].accecn_kernel ? "AccECN" : "pre-AccECN",
		       named[i].eligible ? "eligible" : "not eligible");
	for (i = 0; i < 512; i++) {
		u32 flags = i & 0xff;
		bool accecn = i >> 8;

		if (bbr2_bpf_ecn_mode_any(flags, accecn) != expected(flags, accecn)) {
			if (!wrong++) {
				first_flags = flags;
				first_kernel = accecn;
			}
		}
	}
	if (wrong)
		tap_diag("first wrong: ecn_flags 0x%02x on a %s kernel", first_flags,
			 first_kernel ? "AccECN" : "pre-AccECN");
	tap_ok(!wrong, "all 256 low-byte ecn_flags values on both kernels: %u wrong",
	       wrong);
	return tap_done();
}
