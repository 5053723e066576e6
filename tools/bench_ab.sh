#!/bin/sh
# bench_ab.sh: two felt builds measured interleaved (OLD, NEW, OLD, NEW, ...), one
# "felt bench eval" round each, per CPU second of each process; prints for every item
# each build's rates per round and NEW/OLD per round with its median and min-max
# (docs/performance.md).
#
#   tools/bench_ab.sh OLD NEW [ROUNDS] [ITEMS] [felt bench eval flags...]
#
# OLD and NEW are felt binaries; ROUNDS defaults to 7, ITEMS (comma-separated, as for
# --items) to all. Needs jq.
set -eu
old=${1:?usage: tools/bench_ab.sh OLD NEW [ROUNDS] [ITEMS] [flags...]}
new=${2:?usage: tools/bench_ab.sh OLD NEW [ROUNDS] [ITEMS] [flags...]}
rounds=${3:-7}
items=${4:-random7,enum7,exact_aa_kk,exact_ranges,mc6,mc6_1}
shift $(($# < 4 ? $# : 4))
command -v jq >/dev/null || { echo "bench_ab.sh: needs jq" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)"
for r in $(seq "$rounds"); do
	"$old" bench eval --json --rounds 1 --items "$items" "$@" | jq -r '.items[] | "\(.name) \(.cpu_rate)"' > "$tmp/o"
	"$new" bench eval --json --rounds 1 --items "$items" "$@" | jq -r '.items[] | "\(.name) \(.cpu_rate)"' > "$tmp/n"
	paste "$tmp/o" "$tmp/n" >> "$tmp/rates"
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)"
echo "$rounds interleaved rounds, rates per CPU second (units per second; exact_aa_kk: calculations)"
awk '
function sortit(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function med(a, n) { return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
{ if (!($1 in n)) order[++items] = $1; k = ++n[$1]; o[$1, k] = $2; w[$1, k] = $4 }
END {
	for (i = 1; i <= items; i++) {
		name = order[i]; m = n[name]; so = ""; sn = ""
		for (k = 1; k <= m; k++) { q[k] = w[name, k] / o[name, k]; x[k] = o[name, k]; y[k] = w[name, k]
			so = so sprintf(" %.4g", o[name, k]); sn = sn sprintf(" %.4g", w[name, k]) }
		sortit(q, m); sortit(x, m); sortit(y, m)
		printf "%-12s old median %.4g, new median %.4g; new/old median %.3f (min %.3f, max %.3f)\n", name, med(x, m), med(y, m), med(q, m), q[1], q[m]
		printf "%-12s   old:%s\n%-12s   new:%s\n", "", so, "", sn
	}
}' "$tmp/rates"
