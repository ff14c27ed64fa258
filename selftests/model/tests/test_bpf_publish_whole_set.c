// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2-bpf set publishes a tunables set (bpf/bbr2_bpf_publish.h, the code
 * the loader runs) while hooks read it: every hook sees one whole set, one
 * of those published, never a mix of two.
 *
 * The program's data (two sets and an index) is simulated memory.  Each
 * access the publisher makes is one step; before every step, hooks start
 * (one per reading pace) and the hooks already running make the reads due
 * by then, as BPF hooks on other CPUs would, at any point of the publish.
 * A hook reads the index once, then the words of that set, one word every
 * PACE steps (PACE 0: all at once).  The publisher's grace period returns
 * only once the hooks running at its start have finished: a hook is far
 * shorter than it.  When a hook finishes, its snapshot must equal one of
 * the sets published so far (or the one being published).
 *
 * Three broken publishers run against the same checker, each of which must
 * be caught: writing the active set in place (what tunables kept in one
 * set, written where they are read, do), flipping the index before the
 * words are written, and publishing again without the grace period.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "tap.h"
#include "bbr2_params.h"
#include "../../../bpf/bbr2_bpf_publish.h"

#define NW		(sizeof(struct bbr2_tunables) / sizeof(u32))
#define NSETS		4		/* the boot set, then 3 publishes */
#define MAX_HOOKS	8192	/* > NPACES x the steps of NSETS - 1 publishes */

static const unsigned int paces[] = { 0, 1, 2, 3, 7, 20 };
#define NPACES		(sizeof(paces) / sizeof(paces[0]))

struct hook {
	unsigned int	set;		/* the index it read */
	unsigned int	pace;
	unsigned int	start;		/* step of its index read */
	unsigned int	next;		/* next word to read */
	u32		snap[NW];
};

struct sim {
	struct bbr2_bpf_params_mem mem;	/* first: the callbacks' m */
	u32		idx;
	u32		sets[2][NW];
	unsigned int	step;
	struct hook	hooks[MAX_HOOKS];
	unsigned int	nhooks;		/* started */
	unsigned int	first_running;	/* hooks below have finished */
	unsigned int	published;	/* sets in pub[] that may be seen */
	u32		pub[NSETS][NW];
	unsigned int	reads, torn;
	bool		no_grace;	/* broken: grace returns at once */
	bool		done;		/* publisher finished: no new hooks */
};

static void hook_finish(struct sim *s, struct hook *h)
{
	unsigned int k;

	s->reads++;
	for (k = 0; k < s->published; k++)
		if (!memcmp(h->snap, s->pub[k], sizeof(h->snap)))
			return;
	if (!s->torn)
		tap_diag("first torn read: hook of step %u, pace %u, mixes two sets",
			 h->start, h->pace);
	s->torn++;
}

/* Let running hooks make the reads due by now; true once all are done. */
static void hook_advance(struct sim *s, struct hook *h, bool to_end)
{
	while (h->next < NW &&
	       (to_end || h->start + h->pace * h->next <= s->step)) {
		h->snap[h->next] = s->sets[h->set][h->next];
		h->next++;
	}
}

static void run_hooks(struct sim *s, bool to_end)
{
	unsigned int i;

	for (i = s->first_running; i < s->nhooks; i++) {
		struct hook *h = &s->hooks[i];

		if (h->next == NW)
			continue;
		hook_advance(s, h, to_end);
		if (h->next == NW)
			hook_finish(s, h);
	}
	while (s->first_running < s->nhooks &&
	       s->hooks[s->first_running].next == NW)
		s->first_running++;
}

/* Before each access of the publisher: hooks start, running ones read. */
static void step(struct sim *s)
{
	unsigned int p;

	for (p = 0; p < NPACES && !s->done; p++) {
		if (s->nhooks == MAX_HOOKS)
			abort();	/* sized for the publishes below */
		struct hook *h = &s->hooks[s->nhooks++];

		h->set = s->idx & 1;
		h->pace = paces[p];
		h->start = s->step;
		h->next = 0;
	}
	run_hooks(s, false);
	s->step++;
}

static struct sim *to_sim(struct bbr2_bpf_params_mem *m)
{
	return (struct sim *)m;
}

static u32 sim_read_idx(struct bbr2_bpf_params_mem *m)
{
	step(to_sim(m));
	return to_sim(m)->idx;
}

static void sim_write_idx(struct bbr2_bpf_params_mem *m, u32 idx)
{
	step(to_sim(m));
	to_sim(m)->idx = idx;
}

static u32 sim_read_word(struct bbr2_bpf_params_mem *m, unsigned int set,
			 unsigned int word)
{
	step(to_sim(m));
	return to_sim(m)->sets[set & 1][word];
}

static void sim_write_word(struct bbr2_bpf_params_mem *m, unsigned int set,
			   unsigned int word, u32 val)
{
	step(to_sim(m));
	to_sim(m)->sets[set & 1][word] = val;
}

static void sim_fence(struct bbr2_bpf_params_mem *m)
{
	step(to_sim(m));
}

static void sim_grace(struct bbr2_bpf_params_mem *m)
{
	struct sim *s = to_sim(m);

	step(s);
	if (!s->no_grace)
		run_hooks(s, true);
}

/* Broken publishers, each a plausible mistake. */
static void publish_in_place(struct bbr2_bpf_params_mem *m, const u32 *in)
{
	unsigned int cur = m->read_idx(m) & 1, i;

	for (i = 0; i < m->nwords; i++)
		m->write_word(m, cur, i, in[i]);
	m->fence(m);
	m->grace(m);
}

static void publish_flip_first(struct bbr2_bpf_params_mem *m, const u32 *in)
{
	unsigned int next = (m->read_idx(m) & 1) ^ 1, i;

	m->write_idx(m, next);
	m->fence(m);
	for (i = 0; i < m->nwords; i++)
		m->write_word(m, next, i, in[i]);
	m->fence(m);
	m->grace(m);
}

typedef void (*publish_fn)(struct bbr2_bpf_params_mem *m, const u32 *in);

/*
 * The boot set in both slots (as bbr2-bpf load writes them), then three
 * publishes, each of a set that differs from the others in every word.
 * Returns the number of torn reads; *reads the number checked.
 */
static unsigned int run(publish_fn publish, bool no_grace, unsigned int *reads)
{
	struct sim *s = calloc(1, sizeof(*s));
	unsigned int k, i, torn;

	if (!s)
		abort();
	s->mem = (struct bbr2_bpf_params_mem) {
		.read_idx = sim_read_idx, .write_idx = sim_write_idx,
		.read_word = sim_read_word, .write_word = sim_write_word,
		.fence = sim_fence, .grace = sim_grace, .nwords = NW,
	};
	s->no_grace = no_grace;
	for (k = 0; k < NSETS; k++)
		for (i = 0; i < NW; i++)
			s->pub[k][i] = 1000 * (k + 1) + i;
	memcpy(s->sets[0], s->pub[0], sizeof(s->sets[0]));
	memcpy(s->sets[1], s->pub[0], sizeof(s->sets[1]));
	s->published = 1;
	for (k = 1; k < NSETS; k++) {
		s->published = k + 1;	/* may be seen from its first write */
		publish(&s->mem, s->pub[k]);
	}
	/* hooks still running read on, as they would after the publisher */
	s->done = true;
	while (s->first_running < s->nhooks)
		step(s);
	/* the last publish is active and whole */
	tap_diag("%u words a set, %u steps, %u hooks", (unsigned int)NW,
		 s->step, s->nhooks);
	torn = s->torn;
	*reads = s->reads;
	if (memcmp(s->sets[s->idx & 1], s->pub[NSETS - 1], sizeof(s->pub[0])))
		torn++;
	free(s);
	return torn;
}

int main(void)
{
	unsigned int reads, torn;

	tap_plan(4);
	torn = run(bbr2_bpf_params_publish, false, &reads);
	tap_ok(torn == 0 && reads > 500,
	       "publish: every hook sees one whole published set (%u torn of %u reads)",
	       torn, reads);
	torn = run(publish_in_place, false, &reads);
	tap_ok(torn > 0, "the checker catches writing the active set in place (%u torn of %u)",
	       torn, reads);
	torn = run(publish_flip_first, false, &reads);
	tap_ok(torn > 0, "... flipping the index before writing the set (%u torn of %u)",
	       torn, reads);
	torn = run(bbr2_bpf_params_publish, true, &reads);
	tap_ok(torn > 0, "... and publishing again without the grace period (%u torn of %u)",
	       torn, reads);
	return tap_done();
}
