#!/bin/sh
# run.sh MODE OUT SECONDS HARNESS... - run libFuzzer harnesses built by
# oss-fuzz/build.sh into OUT, each from its seed corpus and dictionary.
#   smoke: each harness SECONDS seconds, one process, fails on any crash
#          (make fuzz-smoke, for CI);
#   fork:  each harness SECONDS seconds in -fork mode with the corpus kept in
#          fuzz/corpus/<harness>/ and crashes in fuzz/crashes/ (make fuzz).
# Everything runs under nice: the machine is shared.
set -eu
mode=$1 out=$2 secs=$3
shift 3
status=0
for h in "$@"; do
	corpus=fuzz/corpus/$h
	mkdir -p "$corpus" fuzz/crashes
	if [ -z "$(ls "$corpus")" ]; then
		(cd "$corpus" && unzip -q -o "../../../$out/${h}_seed_corpus.zip")
	fi
	max=$(sed -n 's/^max_len = //p' "$out/$h.options")
	set -- -dict="$out/$h.dict" -max_len="$max" -timeout=25 -rss_limit_mb=2048 \
		-artifact_prefix=fuzz/crashes/"$h"- -print_final_stats=1
	if [ "$mode" = smoke ]; then
		log=fuzz/crashes/$h-smoke.log
		if nice "$out/$h" "$@" -max_total_time="$secs" "$corpus" >"$log" 2>&1; then
			echo "fuzz-smoke: $h: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | sed 's/.*: //') runs, $(grep '#.*DONE' "$log" | grep -o 'cov: [0-9]* ft: [0-9]*')"
		else
			echo "fuzz-smoke: $h FAILED (see $log)"
			status=1
		fi
	else
		nice "$out/$h" "$@" -fork=1 -ignore_crashes=1 -max_total_time="$secs" "$corpus" \
			2>&1 | tee "fuzz/crashes/$h-fork.log" | grep -E 'INFO: fuzzed|DONE|crash|CRASH' || true
	fi
done
exit $status
