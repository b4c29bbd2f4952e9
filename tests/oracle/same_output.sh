#!/bin/sh
# make check-oracle-same ORACLE_BASE=/path/to/old/gcoracle: a faster
# gcoracle must say exactly what the old one said. Over generated streams of
# every container, profile and mode, with every fault class gcgen can inject
# into that container (stream, payload and container faults) and a spread of
# writer shapes, both binaries run with --json, --cbor and --quiet (and
# --strict); every output byte and exit status must agree.
#
#   same_output.sh OLD NEW [GCGEN]
#   SAME_SEEDS=N      seeds per (container, fault class) (default 3)
#   SAME_BIG=1        also compare on 100000-GC streams (partial flushes of
#                     the time-order window; outputs compared by checksum)
#   SAME_JOBS=N       streams checked at once (default 2)
# Prints one line per difference and a count; exit 1 when anything differs.
set -u
old=$1 new=$2
gcgen=${3:-./gen/gcgen}
seeds=${SAME_SEEDS:-3}
jobs=${SAME_JOBS:-2}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT INT TERM

# run_both ID FILE: every output mode through both binaries.
run_both() {
	id=$1 f=$2 d=$work/$1
	for mode in --json --cbor --quiet "--quiet --strict" ""; do
		# shellcheck disable=SC2086
		"$old" $mode "$f" >"$d.old" 2>&1; so=$?
		# shellcheck disable=SC2086
		"$new" $mode "$f" >"$d.new" 2>&1; sn=$?
		if [ $so != $sn ] || ! cmp -s "$d.old" "$d.new"; then
			echo "DIFF $id ${mode:-text}: status $so/$sn; $(cmp "$d.old" "$d.new" 2>&1 | head -1)"
		fi
	done
	rm -f "$d.old" "$d.new"
}

# one ID GCGEN-ARGS...: write a stream, compare, remove it.
one() {
	id=$1
	shift
	f=$work/$id.in
	if "$gcgen" -q "$@" -o "$f" 2>"$work/$id.err"; then
		run_both "$id" "$f"
		echo "$id" >>"$work/done"
	else
		echo "$id $(head -1 "$work/$id.err")" >>"$work/skipped"
	fi
	rm -rf "$f" "$work/$id.err"
}

# Writer shapes and options, chosen by seed so that each fault meets several.
shape() {
	fmt=$1 s=$2
	case $((s % 6)) in
	0) echo "" ;;
	1) echo "--pointer-size 4" ;;
	2) echo "--heaps 4" ;;
	3) echo "--stacks" ;;
	4) case $fmt in nettrace*) echo "-O sp-every=2 -O block-bytes=2000" ;; *) echo "--heaps 2 --pointer-size 4" ;; esac ;;
	5) case $fmt in nettrace*) echo "--uncompressed-headers --metadata upfront" ;; *) echo "--stacks --heaps 3" ;; esac ;;
	esac
}

: >"$work/done"
: >"$work/skipped"
{
	for fmt in $("$gcgen" --list-formats); do
		for prof in $("$gcgen" --list-profiles | awk '{print $1}'); do
			for mode in realistic exhaustive; do
				s=1
				while [ $s -le "$seeds" ]; do
					echo "$fmt.$prof.$mode.$s --format $fmt --profile $prof --mode $mode --seed $s --gcs 20 $(shape "$fmt" $s)"
					s=$((s + 1))
				done
			done
		done
		for class in $("$gcgen" --list-mutations="$fmt" | awk '{print $1}'); do
			s=1
			while [ $s -le "$seeds" ]; do
				echo "$fmt.$class.$s --format $fmt --mutate $class --seed $s --gcs 12 $(shape "$fmt" $((s + 3)))"
				s=$((s + 1))
			done
		done
		s=1
		while [ $s -le "$seeds" ]; do
			echo "$fmt.all.$s --format $fmt --mutate all --seed $s --gcs 30 $(shape "$fmt" $s)"
			s=$((s + 1))
		done
	done
} >"$work/list"

running=0
while read -r id args; do
	# shellcheck disable=SC2086
	one "$id" $args &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait
		running=0
	fi
done <"$work/list" >"$work/diffs"
wait

if [ "${SAME_BIG:-0}" = 1 ]; then
	for fmt in nettrace-v5 nettrace-v6 etl ctf cbor; do
		f=$work/big.$fmt
		"$gcgen" -q --format "$fmt" --gcs 100000 -o "$f" || continue
		for mode in --json --quiet; do
			a=$("$old" $mode "$f" 2>&1 | cksum)
			b=$("$new" $mode "$f" 2>&1 | cksum)
			[ "$a" = "$b" ] || echo "DIFF big.$fmt $mode: $a / $b" >>"$work/diffs"
		done
		echo "big.$fmt" >>"$work/done"
		rm -rf "$f"
	done
fi

cat "$work/diffs"
[ -n "${SAME_VERBOSE:-}" ] && cat "$work/skipped"
n=$(wc -l <"$work/done")
d=$(grep -c '^DIFF' "$work/diffs")
echo "same_output: $n streams, $d differences ($(wc -l <"$work/skipped") that gcgen would not write)"
[ "$d" = 0 ]
