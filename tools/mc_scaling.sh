#!/bin/sh
# mc_scaling.sh: felt equity's Monte Carlo on 1 worker and on W workers, alternately,
# the same showdowns and seed each time; per run the wall time and the process CPU time
# (user + system, from /usr/bin/time), and per round the ratios (docs/performance.md,
# "Monte Carlo on one core and on two").
#
#   tools/mc_scaling.sh FELT [ROUNDS] [SAMPLES] [W]
#
# FELT is the felt binary; ROUNDS defaults to 7, SAMPLES (showdowns of six random
# hands) to 40000000, W to 2. The order alternates by round (1 then W, W then 1) so
# that a busy spell falls on both. Prints every run with the one-minute load average
# read just before it, then per round: speedup (wall on 1 / wall on W) and CPU cost
# (CPU on W / CPU on 1), median and min-max. Needs jq.
set -eu
felt=${1:?usage: tools/mc_scaling.sh FELT [ROUNDS] [SAMPLES] [W]}
rounds=${2:-7}
samples=${3:-40000000}
w=${4:-2}
command -v jq >/dev/null || { echo "mc_scaling.sh: needs jq" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # run WORKERS: prints "WORKERS wall cpu load"
	load=$(cut -d' ' -f1 /proc/loadavg)
	/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$felt" equity random random random random random random \
		--mc --samples "$samples" --seed 1 --workers "$1" --json | jq -e ".showdowns == $samples" >/dev/null
	read -r e u s < "$tmp/t"
	echo "$1 $e $(echo "$u $s" | awk '{ printf "%.2f", $1 + $2 }') $load"
}
echo "felt equity (6 x random) --mc --samples $samples --seed 1, workers 1 and $w, $rounds rounds"
echo "workers wall_s cpu_s load1"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) = 1 ]; then a=$(run 1); b=$(run "$w"); else b=$(run "$w"); a=$(run 1); fi
	echo "$a"
	echo "$b"
	echo "$a $b" >> "$tmp/rounds"
done
awk -v w="$w" '
function sortit(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function med(a, n) { return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
{ n++; s[n] = $2 / $6; c[n] = $7 / $3; l[n] = $4; l[n + 1000] = $8 }
END {
	sortit(s, n); sortit(c, n)
	printf "speedup, wall on 1 / wall on %d: median %.2fx (%.2f-%.2f)\n", w, med(s, n), s[1], s[n]
	printf "CPU on %d / CPU on 1:           median %.2fx (%.2f-%.2f)\n", w, med(c, n), c[1], c[n]
}' "$tmp/rounds"
