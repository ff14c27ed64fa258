// SPDX-License-Identifier: GPL-2.0
/*
 * Windowed running min/max over a time window, for the userspace shim.
 *
 * Kathleen Nichols' idea: instead of keeping every sample of the window,
 * keep the best value and the best values seen in the second and last
 * parts of the window. When the best ages out, the second-best (which is
 * younger) takes over, so the estimate never needs a rescan. The estimate
 * can be off by at most the change within a quarter or half window, which
 * is what the kernel's filter guarantees too.
 *
 * s[0]: best in window, s[1]: best since s[0]'s quarter, s[2]: newest best.
 * "Better" is larger for max and smaller for min; better_or_equal() hides
 * the direction so one routine serves both.
 */
#include <linux/win_minmax.h>

static inline bool better_or_equal(bool is_max, u32 a, u32 b)
{
	return is_max ? a >= b : a <= b;
}

/* Age the three samples against the window once a new one arrived. */
static u32 minmax_age(struct minmax *m, u32 win, const struct minmax_sample *val)
{
	u32 age = val->t - m->s[0].t;

	if (age > win) {
		/* The best expired: promote the runners-up, the new sample
		 * becomes the youngest. The promoted one may be stale as
		 * well, so check once more. */
		m->s[0] = m->s[1];
		m->s[1] = m->s[2];
		m->s[2] = *val;
		if (val->t - m->s[0].t > win) {
			m->s[0] = m->s[1];
			m->s[1] = m->s[2];
			m->s[2] = *val;
		}
	} else if (m->s[1].t == m->s[0].t && age > win / 4) {
		/* A quarter of the window passed with no second choice:
		 * take the new sample as second and third choice. */
		m->s[1] = *val;
		m->s[2] = *val;
	} else if (m->s[2].t == m->s[1].t && age > win / 2) {
		/* Half the window passed with no third choice. */
		m->s[2] = *val;
	}
	return m->s[0].v;
}

static u32 minmax_running(struct minmax *m, bool is_max, u32 win, u32 t, u32 meas)
{
	struct minmax_sample val = { .t = t, .v = meas };

	if (better_or_equal(is_max, meas, m->s[0].v) ||	/* new best */
	    t - m->s[2].t > win)			/* nothing left in window */
		return minmax_reset(m, t, meas);

	if (better_or_equal(is_max, meas, m->s[1].v)) {
		m->s[1] = val;
		m->s[2] = val;
	} else if (better_or_equal(is_max, meas, m->s[2].v)) {
		m->s[2] = val;
	}
	return minmax_age(m, win, &val);
}

u32 minmax_running_max(struct minmax *m, u32 win, u32 t, u32 meas)
{
	return minmax_running(m, true, win, t, meas);
}

u32 minmax_running_min(struct minmax *m, u32 win, u32 t, u32 meas)
{
	return minmax_running(m, false, win, t, meas);
}
