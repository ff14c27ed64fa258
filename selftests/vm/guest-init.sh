#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run by vm-run inside the guest before the test command: fixes for the
# guest's view of the host's file system.  Best effort; never fails.
#
# The guest's root file system is the host's, over 9p (an overlay on top
# of it in places).  FreeType reads a font a few hundred small pieces per
# text label, each one a round trip to the host: 1.7 s per label under
# TCG, four minutes for one bbr2-lab report with three plots.  A RAM copy
# of matplotlib's fonts mounted over them (only inside the guest) makes
# that 5-10 ms per label.

# Debian's python3-matplotlib (what setup-deps.sh installs); asking
# python3 where its matplotlib is would cost ~7 s of every boot
fonts=/usr/share/matplotlib/mpl-data/fonts/ttf
[ -d "$fonts" ] || exit 0
copy=$(mktemp -d /tmp/guest-fonts.XXXXXX) || exit 0
cp -rL "$fonts/." "$copy/" 2>/dev/null && mount --bind "$copy" "$fonts" 2>/dev/null
exit 0
