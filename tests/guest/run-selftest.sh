#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-selftest.sh LIMIT STALL SCRIPT ARG...: run a kselftest SCRIPT (in the
# current directory) with ARGs, its output going to a file in the guest's
# RAM rather than through the emulated serial console (tc_actions.sh alone
# would print the 2 MiB its ncat receives), then print that output. The
# script is stopped after LIMIT seconds in all, or after STALL seconds
# without a byte of output (a case waiting for something that never
# comes). The last line is "run-selftest: status N" with the script's exit
# status, or "run-selftest: stalled after N s without output" or
# "run-selftest: timed out after N s". With SELFTEST_SAMPLES set to a file
# name, each second in which the output grew appends "UPTIME COUNT" there:
# the guest's uptime and how many "TEST:" lines the script had printed
# (tests/lib/dsa.py derives each case's guest time from them).
set -u
limit=${1:?usage: run-selftest.sh LIMIT STALL SCRIPT ARG...}
stall=${2:?}
shift 2
out=$(mktemp)
verdict=

sample() {
	local up _
	read -r up _ </proc/uptime
	echo "$up $(grep -c '^TEST: ' "$out")" >>"$SELFTEST_SAMPLES"
}
[ -n "${SELFTEST_SAMPLES:-}" ] && : >"$SELFTEST_SAMPLES"

"$@" >"$out" 2>&1 &
pid=$!
start=$SECONDS
last_size=-1
last_change=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
	sleep 1
	size=$(stat -c %s "$out")
	if [ "$size" != "$last_size" ]; then
		last_size=$size
		last_change=$SECONDS
		[ -n "${SELFTEST_SAMPLES:-}" ] && sample
	elif [ $((SECONDS - last_change)) -ge "$stall" ]; then
		verdict="stalled after $stall s without output"
	fi
	[ $((SECONDS - start)) -ge "$limit" ] && verdict="timed out after $limit s"
	if [ -n "$verdict" ]; then
		# The script and everything it started (ncat, mausezahn...).
		pkill -TERM -P "$pid" 2>/dev/null
		kill -TERM "$pid" 2>/dev/null
		sleep 2
		pkill -KILL -P "$pid" 2>/dev/null
		kill -KILL "$pid" 2>/dev/null
		break
	fi
done
wait "$pid" 2>/dev/null
status=$?
[ -n "${SELFTEST_SAMPLES:-}" ] && sample
# NULs (ncat's received zeros) are not text.
tr -d '\000' <"$out"
rm -f "$out"
if [ -n "$verdict" ]; then
	echo "run-selftest: $verdict"
else
	echo "run-selftest: status $status"
fi
