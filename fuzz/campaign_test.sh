#!/bin/sh
# campaign_test.sh - the campaign machinery (fuzz/campaign.sh, its --report,
# fuzz/coverage.sh's replay, fuzz/campaign_report.py) on two tiny libFuzzer
# harnesses, 100000 executions each: one has a planted crashing input in its corpus. The
# summary must give each its executions, corpus sizes and coverage rows, the
# crash with its reproducer kept, and the crashing input must leave the
# corpus (or every later campaign stops on it). TAP.
set -u
if [ "${HAVE_LIBFUZZER:-}" != yes ]; then
	echo "1..0 # SKIP configure found no clang with libFuzzer (Debian: clang libclang-rt-14-dev)"
	exit 0
fi
if ! command -v llvm-cov >/dev/null || ! command -v llvm-profdata >/dev/null; then
	echo "1..0 # SKIP no llvm-cov/llvm-profdata (Debian: llvm)"
	exit 0
fi
s=${top_srcdir:-.}
b=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
mkdir -p "$tmp/src/fuzz" "$tmp/out" "$tmp/cov" "$tmp/corpus/alpha" "$tmp/corpus/beta"
printf 'planted crash\n' >"$tmp/corpus/alpha/planted"
printf 'seed' >"$tmp/corpus/alpha/seed"
printf 'seed' >"$tmp/corpus/beta/seed"
# A crash only the planted input reaches: libFuzzer cannot invert a hash.
hash=$("$PYTHON3" -c '
h = 14695981039346656037
for c in b"planted crash\n":
    h = ((h ^ c) * 1099511628211) % (1 << 64)
print("0x%xull" % h)')
cat >"$tmp/src/fuzz/campaign_tiny.c" <<EOT
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ d[i]) * 1099511628211ull;
	if (h == PLANTED)
		abort();
	if (n > 3 && d[0] == 'F' && d[1] == 'U')
		return d[2] == 'Z';
	return 0;
}
EOT
# beta is the same program without the planted input in its corpus.
clang -DPLANTED="$hash" -fsanitize=fuzzer "$tmp/src/fuzz/campaign_tiny.c" -o "$tmp/out/alpha" &&
	clang -DPLANTED="$hash" -O1 -I"$b" -fprofile-instr-generate -fcoverage-mapping \
		"$tmp/src/fuzz/campaign_tiny.c" "$s/fuzz/harness/replay_main.c" -o "$tmp/cov/alpha" &&
	cp "$tmp/out/alpha" "$tmp/out/beta" && cp "$tmp/cov/alpha" "$tmp/cov/beta"
ok $? "the harness builds (libFuzzer and coverage)"
# Until 100000 executions (time is only a bound: the machine may be loaded),
# so alpha must go on after its crash to get there.
FUZZ_CORPORA=$tmp/corpus FUZZ_CAMPAIGN_RUNS=100000 sh "$s/fuzz/campaign.sh" "$tmp/out" "$tmp/work" 60 alpha beta >"$tmp/log" 2>&1
ok $? "campaign.sh runs both harnesses"
COV_OUT=$tmp/cov COV_WORK=$tmp/covwork COV_REUSE=1 CAMPAIGN_COMMIT=test \
	sh "$s/fuzz/campaign.sh" --report "$tmp/work" "$tmp/2026-01-02" >>"$tmp/log" 2>&1
ok $? "campaign.sh --report writes the summary"
sed 's/^/# /' "$tmp/log"
j=$tmp/2026-01-02/summary.json
md=$tmp/2026-01-02/summary.md
"$PYTHON3" - "$j" <<'EOT'
import json, sys
s = json.load(open(sys.argv[1]))
h = {e["harness"]: e for e in s["harnesses"]}
assert s["date"] == "2026-01-02" and set(h) == {"alpha", "beta"}, h.keys()
for e in h.values():
    assert e["execs"] >= 100000 and e["cov"] > 0 and e["cpu_seconds"] > 0, e
    assert e["corpus_before"]["files"] >= 1 and e["corpus_after"]["files"] >= 1, e
    lines = e["coverage"]["fuzz/campaign_tiny.c"]["lines"]
    assert 0 < lines[0] <= lines[1], lines
assert h["alpha"]["crashes"] >= 1 and h["beta"]["crashes"] == 0, h
assert h["alpha"]["restarts"] >= 2, h["alpha"]
EOT
ok $? "summary.json: executions, corpus sizes, coverage of both, the crash of alpha only"
grep -q '^| `alpha` | [0-9]* s | [0-9]* s | [0-9,]* | [0-9.]* | [0-9.]* | [0-9]* / [0-9]* | 2 files, ' "$md" &&
	grep -q '^| `beta` | [0-9]* s | [0-9]* s | [0-9,]* | .* | 0 | 0 | 0 |$' "$md"
ok $? "summary.md: a row per harness with executions and corpus sizes"
grep -q '^| `alpha` | `fuzz/campaign_tiny.c` | [0-9.]*% ' "$md"
ok $? "summary.md: coverage rows by source file"
c=$(grep -o 'crashes/alpha/crash-[0-9a-f]*' "$md" | head -1)
[ -n "$c" ] && cmp -s "$tmp/2026-01-02/$c" "$tmp/src/../corpus/alpha/../../work/alpha/removed/planted"
ok $? "summary.md: the crash row, its reproducer kept beside the summary"
[ ! -e "$tmp/corpus/alpha/planted" ]
ok $? "the crashing input left the corpus"
echo "1..$n"
exit $fail
