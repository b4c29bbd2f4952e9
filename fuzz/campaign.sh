#!/bin/sh
# campaign.sh OUT WORK SECONDS HARNESS[:SECONDS]... - a fuzzing campaign with
# evidence (make fuzz-campaign). Each harness runs SECONDS (or its own
# :SECONDS) from its corpus in fuzz/corpus/<harness>/ (seeded from
# OUT/<harness>_seed_corpus.zip when empty; kept, so the next campaign
# resumes from it), one libFuzzer process at a time; a crash, timeout or OOM
# is kept and the harness restarts for the rest of its time. WORK/<harness>/
# gets the logs, the artifacts and a `result` file (key=value) that
# campaign_report.py turns into the dated summary;
#   campaign.sh --report WORK DIR
# then measures each own harness's coverage and writes DIR/summary.md and
# DIR/summary.json.
#   FUZZ_CAMPAIGN_JOBS  harnesses run at once (default 1: the machine is shared)
#   FUZZ_CAMPAIGN_RUNS  stop a harness after this many executions instead
#   FUZZ_CORPORA        where the corpora live (default fuzz/corpus)
# Harnesses: every libFuzzer binary in OUT; bt2ctf (babeltrace2's CTF reader,
# OUT/bt2ctf built by make fuzz-bt2-build, each input run by fuzz/bt2ctf in a
# child); traceevent (TraceEvent under gcextrun on the nettrace seeds and 20
# gcmutator mutants of them per batch, no coverage feedback: it counts
# decoder runs).
set -eu
s=${top_srcdir:-.}
b=${top_builddir:-.}
if [ "${1:-}" = --report ]; then
	# campaign.sh --report WORK DIR: coverage of every own harness's final
	# corpus (one coverage build for all), then DIR/summary.{md,json}.
	work=$2 dir=$3
	reuse=${COV_REUSE:-}
	if command -v llvm-cov >/dev/null && command -v llvm-profdata >/dev/null; then
		for r in "$work"/*/result; do
			h=$(sed -n 's/^harness=//p' "$r")
			grep -q '^kind=libfuzzer$' "$r" && [ "$h" != bt2ctf ] || continue
			echo "fuzz-campaign: coverage of $h"
			COV_REUSE=$reuse COV_JSON=$work/$h/coverage.json sh "$s/fuzz/coverage.sh" "$h" \
				"$(sed -n 's/^corpus=//p' "$r")" >"$work/$h/coverage.txt" 2>&1 ||
				echo "fuzz-campaign: no coverage for $h (see $work/$h/coverage.txt)"
			reuse=1
		done
	else
		echo "fuzz-campaign: no llvm-cov/llvm-profdata: the summary has no coverage"
	fi
	exec env CAMPAIGN_COMMIT="${CAMPAIGN_COMMIT:-$(git -C "$s" rev-parse --short HEAD 2>/dev/null || echo unknown)}" \
		CAMPAIGN_CLANG="${CAMPAIGN_CLANG:-$(clang --version 2>/dev/null | head -1)}" \
		"${PYTHON3:-python3}" "$s/fuzz/campaign_report.py" "$work" "$dir"
fi
if [ "${1:-}" = --one ]; then
	one=1
	shift
fi
out=$(cd "$1" && pwd) work=$2 secs=$3
shift 3
corpora=${FUZZ_CORPORA:-fuzz/corpus}

count() { # files and bytes under $1
	find "$1" -type f -printf '%s\n' 2>/dev/null | awk '{n++; t += $1} END {printf "%d %d\n", n, t}'
}

# The executions, restarts and artifacts of one libFuzzer log: libFuzzer
# prints its final stats on a crash too; a run killed before them counts
# what its last status line ("#N ...") said.
execs_of() {
	e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1)
	[ -n "$e" ] || e=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$1" | tail -1)
	echo "${e:-0}"
}

cpu() { # $1=CPU seconds (user + system) of this shell's children so far
	times >"$w/times" # here: in $(...) it would be the subshell's children
	eval "$1=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$w/times")"
}

fuzz_one() { # libFuzzer harness $1 for $2 seconds
	h=$1 t=$2 w=$work/$1
	bin=$out/$h
	c=$corpora/$h
	mkdir -p "$c" "$w/artifacts"
	if [ -z "$(ls -A "$c")" ]; then
		if [ "$h" = bt2ctf ]; then
			sh "$s/fuzz/seeds.sh" ctf "$c" "$b/gen/gcgen" "$b/fuzz/fuzz_tool"
		else
			(cd "$c" && unzip -q -o "$out/${h}_seed_corpus.zip")
		fi
	fi
	set -- -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$w/artifacts/"
	if [ -f "$out/$h.options" ]; then
		set -- "$@" -dict="$out/$h.dict" -max_len="$(sed -n 's/^max_len = //p' "$out/$h.options")"
	else
		set -- "$@" -max_len=262144
	fi
	[ -z "${FUZZ_CAMPAIGN_RUNS:-}" ] || set -- "$@" -runs="$FUZZ_CAMPAIGN_RUNS"
	before=$(count "$c")
	start=$(date +%s) execs=0 restarts=0 cov= ft=
	cpu cpu0
	while :; do
		left=$((t - ($(date +%s) - start)))
		[ "$left" -gt 0 ] || break
		log=$w/run-$restarts.log
		BT2CTF=$b/fuzz/bt2ctf BT2_FINDINGS=$w/artifacts GCCONFORM_CORPUS=${GCCONFORM_CORPUS:-} \
			nice "$bin" "$@" -max_total_time="$left" "$c" >"$log" 2>&1 && rc=0 || rc=$?
		execs=$((execs + $(execs_of "$log")))
		st=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
		[ -z "$st" ] || { cov=$(echo "$st" | sed -n 's/.*cov: \([0-9]*\).*/\1/p'); ft=$(echo "$st" | sed -n 's/.* ft: \([0-9]*\).*/\1/p'); }
		restarts=$((restarts + 1))
		# An input that crashes is kept among the artifacts, not in the
		# corpus, or every restart (and the next campaign) stops on it.
		for a in "$w"/artifacts/crash-* "$w"/artifacts/leak-* "$w"/artifacts/oom-* "$w"/artifacts/timeout-*; do
			[ -f "$a" ] || continue
			for f in "$c"/*; do
				! cmp -s "$a" "$f" || { mkdir -p "$w/removed" && mv "$f" "$w/removed/"; }
			done
		done
		# Clean exit: time (or runs) used up. A harness that fails at once
		# (or keeps failing) would only spin.
		[ "$rc" -ne 0 ] || break
		[ "$restarts" -lt 20 ] || break
		[ -n "${FUZZ_CAMPAIGN_RUNS:-}" ] && [ "$execs" -ge "$FUZZ_CAMPAIGN_RUNS" ] && break
	done
	end=$(date +%s)
	cpu cpu1
	{
		echo "harness=$h"
		echo "kind=libfuzzer"
		echo "seconds=$((end - start))"
		echo "cpu_seconds=$(echo "$cpu0 $cpu1" | awk '{ printf "%.1f", $2 - $1 }')"
		echo "load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
		echo "execs=$execs"
		echo "restarts=$restarts"
		echo "cov=$cov"
		echo "ft=$ft"
		echo "corpus=$c"
		echo "corpus_before=$before"
		echo "corpus_after=$(count "$c")"
	} >"$w/result"
}

traceevent_one() { # TraceEvent on nettrace mutants for $1 seconds, batch by batch
	t=$1 w=$work/traceevent
	# gcextrun reads every input of each batch again, so the seeds (a dozen
	# files), not nettrace's grown corpus (hundreds, 2 s each for .NET).
	c=$w/seeds
	mkdir -p "$w/artifacts"
	sh "$s/fuzz/seeds.sh" nettrace "$c" "$b/gen/gcgen" "$b/fuzz/fuzz_tool"
	start=$(date +%s) batch=0 execs=0 crash=0 timeout=0 accept=0 reject=0
	before=$(count "$c")
	while [ $(($(date +%s) - start)) -lt "$t" ]; do
		batch=$((batch + 1))
		nice sh "$s/fuzz/ext/run-traceevent.sh" -q -i "$c" -n 20 -s "$batch" -t 30 \
			-o "$w/artifacts" >"$w/batch.log" 2>&1 || :
		line=$(grep -E '^[0-9]+ accept, [0-9]+ reject, [0-9]+ crash, [0-9]+ timeout' "$w/batch.log" | tail -1)
		[ -n "$line" ] || { cat "$w/batch.log" >"$w/failed.log"; break; }
		set -- $line
		accept=$((accept + $1)) reject=$((reject + $3)) crash=$((crash + $5)) timeout=$((timeout + $7))
		# Only the mutants are new inputs; the seeds are read again in every batch.
		execs=$((execs + 20))
	done
	{
		echo "harness=traceevent"
		echo "kind=gcextrun"
		echo "seconds=$(($(date +%s) - start))"
		echo "execs=$((accept + reject + crash + timeout))"
		echo "mutants=$execs"
		echo "verdicts=$accept accept, $reject reject, $crash crash, $timeout timeout"
		echo "corpus=$c"
		echo "corpus_before=$before"
		echo "corpus_after=$before"
	} >"$w/result"
}

run_one() {
	h=${1%%:*} t=$secs
	[ "$h" = "$1" ] || t=${1#*:}
	rm -rf "${work:?}/$h"
	mkdir -p "$work/$h"
	echo "fuzz-campaign: $h, $t s ($(date -u +%H:%M:%S))"
	case $h in
	traceevent)
		if command -v dotnet >/dev/null; then traceevent_one "$t"; else
			printf 'harness=traceevent\nkind=skipped\nreason=no dotnet SDK\n' >"$work/$h/result"; fi ;;
	*)
		if [ -x "$out/$h" ]; then fuzz_one "$h" "$t"; else
			printf 'harness=%s\nkind=skipped\nreason=not built (%s)\n' "$h" "$out/$h" >"$work/$h/result"; fi ;;
	esac
	sed -n 's/^\(execs\|seconds\|reason\)=/  \1: /p' "$work/$h/result"
}

if [ -n "${one:-}" ]; then
	run_one "$1"
	exit 0
fi
mkdir -p "$work"
if [ "${FUZZ_CAMPAIGN_JOBS:-1}" -le 1 ]; then
	for h in "$@"; do run_one "$h"; done
else
	printf '%s\n' "$@" | xargs -P "$FUZZ_CAMPAIGN_JOBS" -I{} sh "$0" --one "$out" "$work" "$secs" {}
fi
