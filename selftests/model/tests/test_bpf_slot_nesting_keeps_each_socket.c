// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2_bpf's per-CPU slots (bpf/bbr2_bpf_cpu.h, the functions the BPF
 * object runs): a hook that runs while another hook of the same CPU is
 * taking or releasing its slot, as a softirq may interrupt a hook running
 * in process context, gets a slot of its own, and each socket's private
 * area comes back as its own hook left it.
 *
 * A "hook" here takes a slot for its socket, transforms every word of the
 * slot with a value of its socket, and releases the slot.  The interrupting
 * hooks run at chosen points: before each word that take and put copy.
 */
#include <string.h>
#include <linux/types.h>
#include "tap.h"

struct bbr2_bpf_cpu;
static void interrupt_point(struct bbr2_bpf_cpu *c, int step, unsigned int word);
#define bbr2_bpf_slot_point(c, step, word)	interrupt_point(c, step, word)
#include "../../../bpf/bbr2_bpf_cpu.h"

#define NSOCKS	(BBR2_BPF_LEVELS + 1)
#define NPOINTS	(2 * BBR2_BPF_PRIV_WORDS)	/* TAKE 0..12, PUT 0..12 */

struct test_sock {
	u64	priv[BBR2_BPF_PRIV_WORDS];
	u64	tag;
	bool	ran;
};

static struct bbr2_bpf_cpu cpu;
static struct test_sock socks[NSOCKS];
static char why[128];

/* Pending interruptions, in the order they fire: at point, run sock. */
static struct {
	int	point;		/* step * BBR2_BPF_PRIV_WORDS + word */
	int	sock;
} pending[NSOCKS];
static int npending, next_pending;

static bool hook(struct test_sock *s)
{
	u64 *w;
	unsigned int i;

	if (!bbr2_bpf_slot_take(&cpu, s->priv))
		return false;
	w = bbr2_bpf_slot_cur(&cpu);
	for (i = 0; i < BBR2_BPF_PRIV_WORDS; i++)
		w[i] = w[i] * 31 + s->tag;
	bbr2_bpf_slot_put(&cpu, s->priv);
	s->ran = true;
	return true;
}

static void interrupt_point(struct bbr2_bpf_cpu *c, int step, unsigned int word)
{
	int point = step * BBR2_BPF_PRIV_WORDS + (int)word;

	if (next_pending < npending && pending[next_pending].point == point)
		hook(&socks[pending[next_pending++].sock]);
}

static u64 initial(int s, unsigned int i)
{
	return 0x1000ULL * (s + 1) + i;
}

static void reset(void)
{
	int s;
	unsigned int i;

	memset(&cpu, 0, sizeof(cpu));
	memset(why, 0, sizeof(why));
	for (s = 0; s < NSOCKS; s++) {
		for (i = 0; i < BBR2_BPF_PRIV_WORDS; i++)
			socks[s].priv[i] = initial(s, i);
		socks[s].tag = 0x100000ULL * (s + 1);
		socks[s].ran = false;
	}
	npending = next_pending = 0;
}

/* Each socket that ran holds its own words transformed once; others untouched. */
static bool each_socket_its_own(char *why, size_t len)
{
	int s;
	unsigned int i;

	for (s = 0; s < NSOCKS; s++)
		for (i = 0; i < BBR2_BPF_PRIV_WORDS; i++) {
			u64 want = socks[s].ran ?
				   initial(s, i) * 31 + socks[s].tag : initial(s, i);

			if (socks[s].priv[i] != want) {
				snprintf(why, len, "socket %d word %u: %#llx, expected %#llx",
					 s, i, socks[s].priv[i], want);
				return false;
			}
		}
	if (cpu.depth) {
		snprintf(why, len, "depth %u after the outermost hook", cpu.depth);
		return false;
	}
	return true;
}

static const char *point_name(int point, char *buf, size_t len)
{
	snprintf(buf, len, "%s word %d", point < BBR2_BPF_PRIV_WORDS ? "take" : "put",
		 point % BBR2_BPF_PRIV_WORDS);
	return buf;
}

int main(void)
{
	char where[32], where2[32];
	int p, q, bad, s;
	bool ok;

	tap_plan(4);

	/* Two levels: socket 1's hook inside socket 0's, at each point. */
	bad = 0;
	for (p = 0; p < NPOINTS; p++) {
		reset();
		pending[npending++] = (typeof(pending[0])){ p, 1 };
		ok = hook(&socks[0]) && socks[1].ran && each_socket_its_own(why, sizeof(why));
		if (!ok && !bad++)
			tap_diag("interrupted at %s: %s", point_name(p, where, sizeof(where)),
				 socks[1].ran ? why : "the interrupting hook did not run");
	}
	tap_ok(!bad, "a hook interrupted at any of %d points keeps its socket's area and the other's (%d points failed)",
	       NPOINTS, bad);

	/* Three levels: socket 2 inside socket 1 inside socket 0, all point pairs. */
	bad = 0;
	for (p = 0; p < NPOINTS; p++)
		for (q = 0; q < NPOINTS; q++) {
			reset();
			pending[npending++] = (typeof(pending[0])){ p, 1 };
			pending[npending++] = (typeof(pending[0])){ q, 2 };
			ok = hook(&socks[0]) && socks[1].ran && socks[2].ran &&
			     each_socket_its_own(why, sizeof(why));
			if (!ok && !bad++)
				tap_diag("interrupted at %s, then at %s: %s",
					 point_name(p, where, sizeof(where)),
					 point_name(q, where2, sizeof(where2)),
					 socks[2].ran ? why : "an interrupting hook did not run");
		}
	tap_ok(!bad, "three nested hooks, %d x %d points: every area its own (%d pairs failed)",
	       NPOINTS, NPOINTS, bad);

	/*
	 * One more hook than there are slots, each nested inside the previous
	 * one while it takes its slot: the last finds none, is counted, and
	 * leaves its socket untouched; the others are unharmed.
	 */
	reset();
	for (s = 1; s < NSOCKS; s++)
		pending[npending++] = (typeof(pending[0])){ s % BBR2_BPF_PRIV_WORDS, s };
	ok = hook(&socks[0]);
	tap_ok(ok && !socks[NSOCKS - 1].ran && cpu.overflows == 1 &&
	       each_socket_its_own(why, sizeof(why)),
	       "%d nested hooks on %d slots: the last is refused and counted (overflows %u)%s%s",
	       NSOCKS, BBR2_BPF_LEVELS, cpu.overflows, *why ? ": " : "", why);

	/* After an overflow, the slots work as before. */
	reset();
	cpu.overflows = 7;
	ok = hook(&socks[0]) && hook(&socks[1]) && each_socket_its_own(why, sizeof(why));
	tap_ok(ok && cpu.overflows == 7, "hooks one after the other reuse slot 0%s%s",
	       *why ? ": " : "", why);

	return tap_done();
}
