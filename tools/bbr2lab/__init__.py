# SPDX-License-Identifier: GPL-2.0
"""bbr2-lab: declared congestion-control experiments on the netns dumbbell."""
