#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module parameters (/sys/module/tcp_bbr2/parameters/*) are a user
# interface: every one is readable; a valid write takes effect; an invalid
# write fails with a write error and leaves the value unchanged.
#
# Invalid values are tried generically on EVERY writable parameter:
# "abc", "-1", "99999999999", an empty line, and, where the parameter's
# description states a range "[lo..hi", lo-1 and hi+1; array parameters
# (comma lists) also get a list one element too long and one too short.

source "$(dirname "$0")/lib.sh"

require_root
PDIR=/sys/module/$BBR2_MODULE/parameters
# No bbr2 at all: nothing to test.  A bbr2 without our parameters is a
# wrong module under test, and fails.
[ -d "$PDIR" ] || cc_available "$BBR2_CC" ||
	ktap_skip_all "$BBR2_MODULE not loaded and no $BBR2_CC registered"
ktap_header
dmesg_mark
if [ ! -d "$PDIR" ]; then
	ktap_fail "$BBR2_CC is registered but $PDIR does not exist"
	ktap_finished
fi

# ranges from the parameter descriptions ("name:desc [lo..hi; ...")
declare -A LO HI
bbr2_param_ranges

# save everything; restore in the end ("version", which reloads every other
# parameter's defaults, first)
declare -A ORIG
for f in "$PDIR"/*; do
	ORIG[${f##*/}]=$(cat "$f" 2>/dev/null)
done
# shellcheck disable=SC2317 # called from the exit trap
restore_all()
{
	local p

	[ -w "$PDIR/version" ] && echo "${ORIG[version]}" >"$PDIR/version"
	for p in "${!ORIG[@]}"; do
		[ "$p" = version ] || [ ! -w "$PDIR/$p" ] || echo "${ORIG[$p]}" >"$PDIR/$p"
	done
}
on_exit restore_all

# try_write FILE VALUE: 0 if the write() succeeded
try_write()
{
	(printf '%s\n' "$2" >"$1") 2>/dev/null
}

for f in "$PDIR"/*; do
	p=${f##*/}
	if ! val=$(cat "$f" 2>/dev/null); then
		ktap_fail "$p: readable"
		continue
	fi
	if [ ! -w "$f" ] || [ "$(( $(stat -c %#a "$f") & 0222 ))" = 0 ]; then
		ktap_pass "$p: readable ('$val'), read-only"
		continue
	fi
	bad=(abc -1 99999999999 "")
	if [ -n "${HI[$p]:-}" ]; then
		bad+=("$(( HI[$p] + 1 ))")
		[ "${LO[$p]}" -gt 0 ] && bad+=("$(( LO[$p] - 1 ))")
	fi
	if [[ $val == *,* ]]; then
		first=${val%%,*}
		bad+=("$val,$first" "${val%,*}")
		[ -n "${HI[$p]:-}" ] && bad+=("$(( HI[$p] + 1 )),${val#*,}")
	fi
	wrong=""
	for v in "${bad[@]}"; do
		if try_write "$f" "$v"; then
			wrong+=" '$v'(accepted)"
		fi
		now=$(cat "$f")
		if [ "$now" != "$val" ]; then
			wrong+=" '$v'(value now '$now')"
			echo "$val" >"$f" 2>/dev/null
		fi
	done
	if [ -z "$wrong" ]; then
		ktap_pass "$p: readable ('$val'), rejects ${#bad[@]} invalid writes, value unchanged"
	else
		ktap_info "$p: invalid writes not rejected:$wrong"
		ktap_fail "$p: readable ('$val'), rejects ${#bad[@]} invalid writes, value unchanged"
	fi
done

# valid writes take effect
valid_write()
{
	local p=$1 v=$2 f=$PDIR/$1

	if [ ! -e "$f" ]; then
		ktap_skip "$p=$v: valid write takes effect" "no parameter $p"
		return
	fi
	if try_write "$f" "$v" && [ "$(cat "$f")" = "$v" ]; then
		ktap_pass "$p=$v: valid write takes effect"
	else
		ktap_info "$p: wrote '$v', reads '$(cat "$f")'"
		ktap_fail "$p=$v: valid write takes effect"
	fi
	echo "${ORIG[$p]}" >"$f"
}
valid_write ecn_enable 1
valid_write loss_thresh 10
valid_write beta 100
if [ -n "${ORIG[pacing_gain]:-}" ]; then
	valid_write pacing_gain "300,${ORIG[pacing_gain]#*,}"
else
	ktap_skip "pacing_gain list: valid write takes effect" "no parameter pacing_gain"
fi

dmesg_check
ktap_finished
