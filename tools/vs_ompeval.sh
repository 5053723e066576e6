#!/bin/sh
# vs_ompeval.sh: felt against OMPEval on the three workloads they share, side by side
# in one run, per CPU second of each process (docs/performance.md, "Against OMPEval").
#
#   tools/vs_ompeval.sh OMPDRV [ROUNDS] [FELT]
#
# OMPDRV is the OMPEval driver built as docs/performance.md says (this script does not
# build it); ROUNDS (default 7) rounds each run felt, then OMPEval, item by item:
# random7 (10^7 random 7-card hands from an array), enum7 (all 133,784,560 7-card
# hands) and mc6 (Monte Carlo showdowns of 6 random hands; felt's mc6_1 on one worker
# against OMPEval's EquityCalculator on one thread). FELT is the felt binary (default:
# built from this checkout into a temporary directory). For every item it prints felt's
# and OMPEval's CPU rates (median, min-max) and felt/OMPEval per round: median, min-max.
# Needs jq. Set HANDS or SAMPLES to change the workload sizes.
set -eu
drv=${1:?usage: tools/vs_ompeval.sh OMPDRV [ROUNDS] [FELT]}
rounds=${2:-7}
hands=${HANDS:-10000000}
samples=${SAMPLES:-2000000}
command -v jq >/dev/null || { echo "vs_ompeval.sh: needs jq" >&2; exit 2; }
[ -x "$drv" ] || { echo "vs_ompeval.sh: $drv is not an executable" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
felt=${3:-}
if [ -z "$felt" ]; then
	felt=$tmp/felt
	(cd "$(dirname "$0")/.." && go build -o "$felt" ./cmd/felt)
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)"
for r in $(seq "$rounds"); do
	for item in random7 enum7 mc6; do
		fitem=$item
		[ "$item" = mc6 ] && fitem=mc6_1
		n=$hands
		[ "$item" = mc6 ] && n=$samples
		f=$("$felt" bench eval --json --rounds 1 --hands "$hands" --samples "$samples" --items "$fitem" |
			jq '.items[0].cpu_rate')
		o=$("$drv" "$item" "$n" | jq '.cpu_rate')
		echo "$item $f $o" >> "$tmp/rates"
	done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)"
echo "$rounds interleaved rounds (felt, OMPEval, item by item), rates per CPU second"
printf '%-8s %22s %22s %24s\n' item "felt median (min-max)" "OMPEval median (min-max)" "felt/OMPEval median (min-max)"
for item in random7 enum7 mc6; do
	grep "^$item " "$tmp/rates" | awk -v item="$item" '
	function sortit(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
	function med(a, n) { return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
	{ n++; f[n] = $2; o[n] = $3; q[n] = $2 / $3 }
	END {
		sortit(f, n); sortit(o, n); sortit(q, n)
		printf "%-8s %7.1fM (%.1f-%.1fM) %7.1fM (%.1f-%.1fM) %10.2fx (%.2f-%.2fx)\n", item,
			med(f, n) / 1e6, f[1] / 1e6, f[n] / 1e6, med(o, n) / 1e6, o[1] / 1e6, o[n] / 1e6, med(q, n), q[1], q[n]
	}'
done
