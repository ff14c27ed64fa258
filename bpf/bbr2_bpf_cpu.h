/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bbr2_bpf's per-CPU working copies of the socket's private area (see
 * bbr2_bpf_shim.h) and the discipline by which a hook takes and releases
 * one.  Shared with the loader, whose skeleton maps the program's global
 * data and so must know its layout, and with the model tests, which run
 * these same functions with a second socket's hook interrupting the first.
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
	u32	init_failures;		/* init() skipped: no free slot */
	u32	late_inits;		/* sockets a later hook initialised */
};

#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif

/*
 * A point inside the discipline where the model tests run another hook,
 * as a softirq may; nothing in the BPF object and the loader.
 */
enum bbr2_bpf_slot_step { BBR2_BPF_SLOT_TAKE, BBR2_BPF_SLOT_PUT };
#ifndef bbr2_bpf_slot_point
#define bbr2_bpf_slot_point(c, step, word)	do { } while (0)
#endif

/*
 * Only the compiler may reorder what one CPU does: what another hook on
 * this CPU sees of the slots is program order, fenced here.
 */
#define bbr2_bpf_barrier()	__asm__ __volatile__("" : : : "memory")

/*
 * Take a slot of CPU c and copy the socket's private area into it; false
 * (and nothing taken) if c has no free slot, which strict nesting of
 * process and softirq context never comes near.  The slot is taken before
 * it is filled: a hook that interrupts the copy (a softirq on this CPU
 * while this hook runs in process context) takes the next slot.
 */
static __always_inline bool bbr2_bpf_slot_take(struct bbr2_bpf_cpu *c,
					       const u64 *priv)
{
	u32 d, i;

	d = c->depth;
	if (d >= BBR2_BPF_LEVELS) {
		__sync_fetch_and_add(&c->overflows, 1);
		return false;
	}
	c->depth = d + 1;
	bbr2_bpf_barrier();
	for (i = 0; i < BBR2_BPF_PRIV_WORDS; i++) {
		bbr2_bpf_slot_point(c, BBR2_BPF_SLOT_TAKE, i);
		c->slot[d][i] = priv[i];
	}
	return true;
}

/* The slot the running hook works on: the innermost one taken. */
static __always_inline u64 *bbr2_bpf_slot_cur(struct bbr2_bpf_cpu *c)
{
	return c->slot[(c->depth - 1) & (BBR2_BPF_LEVELS - 1)];
}

/*
 * Copy the running hook's slot back to the socket, then release it: a hook
 * that interrupts the copy finds the slot still taken.
 */
static __always_inline void bbr2_bpf_slot_put(struct bbr2_bpf_cpu *c,
					      u64 *priv)
{
	u32 d, i;

	d = (c->depth - 1) & (BBR2_BPF_LEVELS - 1);
	for (i = 0; i < BBR2_BPF_PRIV_WORDS; i++) {
		bbr2_bpf_slot_point(c, BBR2_BPF_SLOT_PUT, i);
		priv[i] = c->slot[d][i];
	}
	bbr2_bpf_barrier();
	c->depth = d;
}

/*
 * A socket whose init() found no slot has an uninitialised model (the
 * kernel zeroes the private area before init()).  Its next cong_control()
 * initialises it, once the connection is established: before that,
 * cong_control() runs for the handshake's ACK ahead of init() (SYN_SENT,
 * SYN_RECV), which is not a missed init().
 */
#define BBR2_BPF_TCP_SYN_SENT	2
#define BBR2_BPF_TCP_SYN_RECV	3
#define BBR2_BPF_TCP_LISTEN	10

static __always_inline bool bbr2_bpf_late_init_due(bool initialized,
						   unsigned int sk_state)
{
	return !initialized && sk_state != BBR2_BPF_TCP_SYN_SENT &&
	       sk_state != BBR2_BPF_TCP_SYN_RECV &&
	       sk_state != BBR2_BPF_TCP_LISTEN;
}

#endif /* _BBR2_BPF_CPU_H */
