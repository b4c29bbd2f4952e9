#!/bin/sh
# Container faults through the CLI: for every container fault class of every
# container format, over several seeds, `gcgen --mutate CLASS --expect E`
# writes a file on which `gcoracle --expect E` agrees (every required
# diagnostic at its byte offset, no unlisted error). The same expectations
# fail on the valid file, so the agreement is not vacuous. TAP.
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
seeds=${CONTAINER_SEEDS:-5}
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

formats=$("$gcgen" --help | awk '/^Formats:/ {f = 1; next} f {print $1}')
nclasses=0
for format in $formats; do
	classes=$("$gcgen" --format "$format" --list-mutations | awk '$2 == "container" {print $1}')
	for class in $classes; do
		nclasses=$((nclasses + 1))
		bad=""
		s=1
		while [ $s -le "$seeds" ]; do
			# A trace whose metadata a fault emptied is not recognisably
			# gcgen's, and gcgen will not replace it: start afresh.
			rm -rf "$t/m"
			if ! "$gcgen" -q --format "$format" --seed $s --gcs 300 --mutate "$class" \
				-o "$t/m" --expect "$t/e" 2>"$t/err"; then
				bad="gcgen failed at seed $s: $(head -1 "$t/err")"; break
			fi
			if ! grep -v '"may"' "$t/e" | grep -q '"code":"GC-'; then
				bad="seed $s: no required diagnostic recorded"; break
			fi
			if ! "$oracle" --expect "$t/e" "$t/m" >"$t/out" 2>&1; then
				bad="seed $s: $(head -2 "$t/out" | tr '\n' ' ')"; break
			fi
			s=$((s + 1))
		done
		[ -z "$bad" ]; ok $? "$format $class: gcoracle reports what gcgen recorded over $seeds seeds${bad:+ ($bad)}"
		# Not vacuous: the valid file does not meet the expectations.
		rm -rf "$t/m"
		"$gcgen" -q --format "$format" --seed 1 --gcs 300 -o "$t/v" &&
			"$gcgen" -q --format "$format" --seed 1 --gcs 300 --mutate "$class" -o "$t/m" --expect "$t/e" &&
			! diff -r -q "$t/v" "$t/m" >/dev/null 2>&1 && ! "$oracle" --expect "$t/e" "$t/v" >/dev/null 2>&1
		ok $? "$format $class: the faulty file differs from the valid one, which fails the expectations"
	done
done
[ "$nclasses" -gt 0 ]; ok $? "some format has container fault classes ($nclasses class/format pairs)"

# The listing: reach and formats; container classes only where they apply.
"$gcgen" --list-mutations=all | awk '$1 == "undefined-metadata" && $2 == "container" && $4 ~ /nettrace-v5/' | grep -q .
ok $? "--list-mutations=all lists container classes with their reach and formats"
"$gcgen" --list-mutations | awk '$2 == "container" && $4 != "cbor"' | grep -q .
[ $? = 1 ]; ok $? "--list-mutations for the default format (cbor) lists only the model stream's container classes"
"$gcgen" --format nettrace-v6 --list-mutations | grep -q '^bad-padding '
[ $? = 1 ]; ok $? "a V4/V5-only class is not listed for nettrace-v6"

# Usage errors.
"$gcgen" --format cbor --mutate truncate -o "$t/x" 2>"$t/err"; r=$?
[ $r = 2 ] && grep -q "container fault class for nettrace" "$t/err"
ok $? "a container class on a format it does not apply to exits 2 naming its formats"
"$gcgen" --format nettrace-v6 --mutate bad-padding -o "$t/x" 2>"$t/err"; r=$?
[ $r = 2 ] && grep -q "nettrace-v5" "$t/err"
ok $? "a V4/V5-only class on nettrace-v6 exits 2"
"$gcgen" --format nettrace-v5 --mutate truncate,no-end -o "$t/x" 2>/dev/null; [ $? = 2 ]
ok $? "two container classes at once exit 2"
"$gcgen" --format nettrace-v5 --mutate truncate,drop-gcend -o "$t/x" 2>/dev/null; [ $? = 2 ]
ok $? "a container class with a stream class exits 2"
[ ! -e "$t/x" ]; ok $? "no output file is left by a refused run"

# Determinism.
"$gcgen" -q -f nettrace-v6 --seed 9 --gcs 100 --mutate undefined-thread -o "$t/a" --expect "$t/ea" &&
	"$gcgen" -q -f nettrace-v6 --seed 9 --gcs 100 --mutate undefined-thread -o "$t/b" --expect "$t/eb" &&
	cmp -s "$t/a" "$t/b" && cmp -s "$t/ea" "$t/eb"
ok $? "same arguments give the same faulty file and expectations"
echo "1..$n"
exit $fail
