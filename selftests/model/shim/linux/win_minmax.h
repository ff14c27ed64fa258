/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: windowed min/max filter (Kathleen Nichols' algorithm), the
 * same interface as the kernel's lib/win_minmax.c; implementation in
 * selftests/model/lib/win_minmax.c.
 */
#ifndef _SHIM_LINUX_WIN_MINMAX_H
#define _SHIM_LINUX_WIN_MINMAX_H

#include <linux/types.h>

struct minmax_sample {
	u32 t;	/* when the value was measured */
	u32 v;	/* the value */
};

/* s[0] is the best value in the window, s[1] and s[2] the runners-up
 * from later in the window. */
struct minmax {
	struct minmax_sample s[3];
};

static inline u32 minmax_get(const struct minmax *m)
{
	return m->s[0].v;
}

static inline u32 minmax_reset(struct minmax *m, u32 t, u32 meas)
{
	int i;

	for (i = 0; i < 3; i++) {
		m->s[i].t = t;
		m->s[i].v = meas;
	}
	return meas;
}

u32 minmax_running_max(struct minmax *m, u32 win, u32 t, u32 meas);
u32 minmax_running_min(struct minmax *m, u32 win, u32 t, u32 meas);

#endif
