#!/bin/sh
# coverage.sh HARNESS DIR... - line and branch coverage of the oracle by a
# harness's corpus: builds the harnesses with clang's source-based coverage
# through oss-fuzz/build.sh (the replay main as the "engine"), replays DIR...
# and prints llvm-cov's report for every source file under oracle/. For
# campaign reports:
#   make fuzz-coverage HARNESS=nettrace CORPUS=fuzz/corpus/nettrace_s
# COV_REUSE=1 keeps a build already in fuzz/cov/ (a campaign measures a dozen
# corpora with one build); COV_JSON=FILE also writes llvm-cov's per-file
# summary of every instrumented file (oracle, gen, gcmutator) as JSON;
# COV_OUT and COV_WORK move the build (fuzz/cov, fuzz/work-cov).
set -eu
h=$1
shift
s=${top_srcdir:-.}
b=${top_builddir:-.}
w=${COV_WORK:-$b/fuzz/work-cov}
cov=${COV_OUT:-$b/fuzz/cov}
mkdir -p "$w" "$cov"
if [ -z "${COV_REUSE:-}" ] || [ ! -x "$cov/$h" ]; then
	clang -c -O1 -I"$b" "$s/fuzz/harness/replay_main.c" -o "$w/replay_main.o"
	export LLVM_PROFILE_FILE="$w/build-%p.profraw"
	env SRC="$(cd "$s/.." && pwd)" GCCONFORM_SRC="$(cd "$s" && pwd)" GCCONFORM_BUILD="$(cd "$b" && pwd)" \
		OUT="$cov" WORK="$w" CC=clang CXX=clang++ \
		CFLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping" \
		CXXFLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping" \
		LIB_FUZZING_ENGINE="$w/replay_main.o" sh "$s/fuzz/oss-fuzz/build.sh" >"$w/build.log" 2>&1 || { tail "$w/build.log" >&2; exit 1; }
	rm -f "$w"/build-*.profraw
fi
r=$w/run-$h
rm -rf "$r"
mkdir -p "$r"
# The replay driver prints a line per directory; a corpus input that fails an
# invariant aborts it, which leaves the profiles of the inputs before it.
LLVM_PROFILE_FILE="$r/%p.profraw" "$cov/$h" "$@" >"$r/replay.log" 2>&1 ||
	echo "coverage.sh: $h: the replay failed (see $r/replay.log)" >&2
llvm-profdata merge -sparse "$r"/*.profraw -o "$w/$h.profdata"
[ -z "${COV_JSON:-}" ] ||
	llvm-cov export -summary-only "$cov/$h" -instr-profile="$w/$h.profdata" >"$COV_JSON"
llvm-cov report "$cov/$h" -instr-profile="$w/$h.profdata" $(find "$s/oracle" -name '*.c' | sort)
