#!/bin/sh
# coverage.sh HARNESS DIR... - line and branch coverage of the oracle by a
# harness's corpus: builds the harnesses with clang's source-based coverage
# through oss-fuzz/build.sh (the replay main as the "engine"), replays DIR...
# and prints llvm-cov's report for oracle/. For campaign reports:
#   make fuzz-coverage HARNESS=nettrace CORPUS=fuzz/corpus/nettrace_s
set -eu
h=$1
shift
s=${top_srcdir:-.}
b=${top_builddir:-.}
w=$b/fuzz/work-cov
mkdir -p "$w" "$b/fuzz/cov"
clang -c -O1 -I"$b" "$s/fuzz/harness/replay_main.c" -o "$w/replay_main.o"
export LLVM_PROFILE_FILE="$w/build-%p.profraw"
env SRC="$(cd "$s/.." && pwd)" GCCONFORM_SRC="$(cd "$s" && pwd)" GCCONFORM_BUILD="$(cd "$b" && pwd)" \
	OUT="$b/fuzz/cov" WORK="$w" CC=clang CXX=clang++ \
	CFLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping" \
	CXXFLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping" \
	LIB_FUZZING_ENGINE="$w/replay_main.o" sh "$s/fuzz/oss-fuzz/build.sh" >"$w/build.log" 2>&1 || { tail "$w/build.log" >&2; exit 1; }
rm -f "$w"/run-*.profraw
LLVM_PROFILE_FILE="$w/run-%p.profraw" "$b/fuzz/cov/$h" "$@"
llvm-profdata merge -sparse "$w"/run-*.profraw -o "$w/$h.profdata"
llvm-cov report "$b/fuzz/cov/$h" -instr-profile="$w/$h.profdata" "$s"/oracle/*.c
