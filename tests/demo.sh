#!/bin/sh
# The main job: gcgen writes a small corpus (every runtime profile in every
# container it knows, plus one stream per fault class) and gcoracle checks it.
# Prints one screen: per container, what was decoded and what was found; per
# fault reach, how many injected faults were reported as recorded.
# Exit status 1 if a valid stream has errors or a fault goes unreported.
set -u
builddir=$1
gcgen=$builddir/gen/gcgen
oracle=$builddir/oracle/gcoracle
out=$builddir/demo-corpus
rm -rf "$out" && mkdir -p "$out" || exit 2
status=0

# "errors warnings events gcs" from gcoracle's JSON summary line.
summary() {
	"$oracle" --json "$1" 2>/dev/null | sed -n 's/^{"type":"summary",//p' |
		awk -F'[:,]' '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
			END { print v["\"errors\""] + 0, v["\"warnings\""] + 0, v["\"events\""] + 0, v["\"gcs\""] + 0 }'
}

echo "gcconform demo: gcgen writes, gcoracle checks ($out)"
echo
printf '  %-14s %7s %9s %7s %5s %6s %8s %13s\n' container streams bytes events GCs errors warnings faults-found
profiles=$("$gcgen" --list-profiles | awk '{print $1}')
for format in cbor nettrace-v5 nettrace-v6 nettrace-v4 ctf etl; do
	# Containers land one by one; show the ones this gcgen writes.
	"$gcgen" -q --format "$format" --gcs 1 -o "$out/probe" 2>/dev/null || continue
	rm -rf "$out/probe"
	files=0 bytes=0 events=0 gcs=0 errors=0 warnings=0
	for profile in $profiles; do
		for mode in realistic exhaustive; do
			[ "$mode" = exhaustive ] && [ "$profile" != net10 ] && continue
			f=$out/y_${format}_${profile}_${mode}
			"$gcgen" -q --format "$format" --profile "$profile" --mode "$mode" \
				--seed 7 --gcs 30 -o "$f" || { status=1; continue; }
			set -- $(summary "$f")
			files=$((files + 1)) errors=$((errors + $1)) warnings=$((warnings + $2))
			events=$((events + $3)) gcs=$((gcs + $4))
			bytes=$((bytes + $(du -sb "$f" | cut -f1)))
			[ "$1" -eq 0 ] || { status=1; echo "  ! $f: $1 errors"; }
		done
	done
	# One stream per fault class that applies to this container: stream and
	# payload faults in every container, container faults in their own.
	injected=0 found=0
	for class in $("$gcgen" --list-mutations="$format" | awk '{print $1}'); do
		f=$out/n_${format}_$class
		# A class that needs more of a file (two EventBlocks) gets a longer stream.
		if ! "$gcgen" -q --format "$format" --mutate "$class" --seed 7 --gcs 12 \
			-o "$f" --expect "$f.expect" 2>/dev/null &&
			! "$gcgen" -q --format "$format" --mutate "$class" --seed 7 --gcs 100 \
				-o "$f" --expect "$f.expect" 2>"$out/err"; then
			echo "  ! fault $class in $format: gcgen cannot inject it: $(head -1 "$out/err")"
			status=1; continue
		fi
		injected=$((injected + 1))
		if "$oracle" --quiet --expect "$f.expect" "$f" >/dev/null 2>&1; then
			found=$((found + 1))
		else
			echo "  ! fault $class in $format: not reported as recorded ($f)"; status=1
		fi
	done
	printf '  %-14s %7d %9d %7d %5d %6d %8d %6d of %-4d\n' "$format" $files $bytes \
		$events $gcs $errors $warnings $found $injected
done
echo
echo "  streams: every runtime profile realistic, plus net10 exhaustive (every event-version"
echo "  and map value); faults-found: gcoracle reported exactly the diagnostics gcgen recorded."
echo
[ $status -eq 0 ] && echo "demo: every valid stream clean, every fault found" ||
	echo "demo: FAILED (see the lines marked !)"
exit $status
