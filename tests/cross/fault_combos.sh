#!/bin/sh
# Fault classes together: `gcgen --mutate all` and random lists of two or
# three classes give streams whose recorded diagnostics gcoracle reports
# exactly (gcoracle --expect), in every container gcgen writes. Classes act
# one after another (docs/faults.md), so each must still record its own
# fault: a run records at least one required diagnostic per class.
#   COMBO_ALL_SEEDS  seeds of --mutate all per container (default 10; a
#                    third with 50 GCs, where most classes go to the
#                    stream's end, a third with 100, where later ones do,
#                    a third with 400, where every class finds its target)
#   COMBO_RUNS       random lists per container (default 40 for cbor, a
#                    quarter of that for the others)
#   CROSS_FORMATS    containers (default: gcgen --list-formats)
# `make check-faults` runs many more.
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
all_seeds=${COMBO_ALL_SEEDS:-10}
runs=${COMBO_RUNS:-40}
formats=${CROSS_FORMATS:-$("$gcgen" --list-formats)}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
# classes_of FORMAT: the stream and payload classes that apply to it (the
# process classes only to containers that name each event's process).
classes_of() {
	"$gcgen" --list-mutations="$1" | awk '$2 != "container" {print $1}'
}
n=0 fail=0

# check ARGS...: one gcgen run with --expect, then gcoracle; sets $bad.
check() {
	rm -rf "$work/m"
	if ! "$gcgen" -q -o "$work/m" --expect "$work/e" "$@" 2>"$work/err"; then
		bad="gcgen $*: $(head -1 "$work/err")"; return 1
	fi
	if ! "$oracle" --expect "$work/e" "$work/m" >"$work/out" 2>&1; then
		bad="gcgen $*: $(head -2 "$work/out" | tr '\n' ' ')"; return 1
	fi
	return 0
}

for format in $formats; do
	n=$((n + 1))
	bad=""
	nclasses=$(classes_of "$format" | wc -l)
	s=1
	while [ $s -le "$all_seeds" ]; do
		case $((s % 3)) in 0) gcs=400 ;; 1) gcs=50 ;; *) gcs=100 ;; esac
		check --format "$format" --mutate all --seed $s --gcs $gcs || break
		must=$(grep -vc '"may"' "$work/e")
		if [ "$must" -lt "$nclasses" ]; then
			bad="seed $s: $must required diagnostics for $nclasses classes"; break
		fi
		s=$((s + 1))
	done
	if [ -z "$bad" ]; then
		echo "ok $n - $format --mutate all ($nclasses classes): reported as recorded over $all_seeds seeds"
	else
		echo "not ok $n - $format --mutate all: $bad"; fail=1
	fi
done

# Random lists of two or three distinct classes, the same for every run of
# the test (awk's generator, seeded per container).
for format in $formats; do
	n=$((n + 1))
	last=$runs
	[ "$format" = cbor ] || last=$(( (runs + 3) / 4 ))
	classes_of "$format" >"$work/classes"
	awk -v runs="$last" -v seed="$n" 'BEGIN { srand(seed) }
		{ c[NR] = $0 }
		END {
			for (r = 1; r <= runs; r++) {
				k = 2 + int(rand() * 2); list = ""; delete used
				while (k > 0) {
					i = 1 + int(rand() * NR)
					if (i in used) continue
					used[i] = 1; list = list (list == "" ? "" : ",") c[i]; k--
				}
				print 1 + int(rand() * 1000), 8 + int(rand() * 40), int(rand() * 3), list
			}
		}' "$work/classes" >"$work/lists"
	bad=""
	# Heaps 0 to 2: workstation or server GC (whose threads' suspensions
	# interleave and whose joins restart under pseudo-heaps).
	while read -r seed gcs heaps list; do
		check --format "$format" --mutate "$list" --seed "$seed" --gcs "$gcs" --heaps "$heaps" || break
	done <"$work/lists"
	if [ -z "$bad" ]; then
		echo "ok $n - $format: $last random lists of two or three classes reported as recorded"
	else
		echo "not ok $n - $format random lists: $bad"; fail=1
	fi
done

# A class given twice is refused: it would record its fault twice for a
# checker that has seen it once.
n=$((n + 1))
"$gcgen" -q --mutate drop-gcend,drop-gcend -o "$work/m" 2>"$work/err"
rc=$?
if [ $rc = 2 ] && grep -q "given twice" "$work/err"; then
	echo "ok $n - a class given twice is a usage error"
else
	echo "not ok $n - a class given twice: exit $rc, $(head -1 "$work/err")"; fail=1
fi
echo "1..$n"
exit $fail
