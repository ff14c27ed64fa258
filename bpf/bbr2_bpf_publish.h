/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How bbr2-bpf publishes a tunables set that every hook sees whole.
 *
 * The program's data holds two sets and the index of the active one; a
 * hook reads the index once and then uses that set throughout.  A publish
 * writes the new set into the inactive slot, flips the index, and waits a
 * grace period: hooks run with preemption off and last far less than it,
 * so none that read the old index is still reading when the next publish
 * writes that slot.  The memory is reached through the operations below,
 * so that the loader runs this on the pinned map and the model tests on a
 * memory that lets a reader run between any two accesses.
 */
#ifndef _BBR2_BPF_PUBLISH_H
#define _BBR2_BPF_PUBLISH_H

struct bbr2_bpf_params_mem {
	u32	(*read_idx)(struct bbr2_bpf_params_mem *m);
	void	(*write_idx)(struct bbr2_bpf_params_mem *m, u32 idx);
	u32	(*read_word)(struct bbr2_bpf_params_mem *m, unsigned int set,
			     unsigned int word);
	void	(*write_word)(struct bbr2_bpf_params_mem *m, unsigned int set,
			      unsigned int word, u32 val);
	/* order the accesses before it against those after it */
	void	(*fence)(struct bbr2_bpf_params_mem *m);
	/* return only after every hook running now has finished */
	void	(*grace)(struct bbr2_bpf_params_mem *m);
	unsigned int nwords;	/* u32 words in one set */
};

/* Copy the active set into out (m->nwords words). */
static inline void bbr2_bpf_params_read(struct bbr2_bpf_params_mem *m,
					u32 *out)
{
	unsigned int set = m->read_idx(m) & 1, i;

	for (i = 0; i < m->nwords; i++)
		out[i] = m->read_word(m, set, i);
}

/* Make in (m->nwords words) the active set, as described above. */
static inline void bbr2_bpf_params_publish(struct bbr2_bpf_params_mem *m,
					   const u32 *in)
{
	unsigned int next = (m->read_idx(m) & 1) ^ 1, i;

	for (i = 0; i < m->nwords; i++)
		m->write_word(m, next, i, in[i]);
	m->fence(m);
	m->write_idx(m, next);
	m->fence(m);
	m->grace(m);
}

#endif /* _BBR2_BPF_PUBLISH_H */
