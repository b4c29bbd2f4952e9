#!/bin/sh
# cflite_test.sh - the ClusterFuzzLite template (fuzz/clusterfuzzlite/) as a
# decoder project uses it: gcconform installed (here in a DESTDIR), the
# template copied into a project (here the example nettrace walker of
# fuzz/gcmutator/ laid out as its own tree), .clusterfuzzlite/build.sh run
# with the variables ClusterFuzzLite sets; the fuzzer it builds must run its
# seeds and gcmutator's mutants clean. TAP.
set -u
if [ "${HAVE_LIBFUZZER:-}" != yes ]; then
	echo "1..0 # SKIP configure found no clang with libFuzzer (Debian: clang libclang-rt-14-dev)"
	exit 0
fi
s=$(cd "${top_srcdir:-.}" && pwd)
b=$(cd "${top_builddir:-.}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
p=$tmp/prefix
# What the Dockerfile's make install puts in the image, and nothing else
# (the whole install copies the corpus), under a prefix of its own: the
# .pc files name the prefix given (install-paths, docs/install.mk).
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$b" prefix="$p" install-libLIBRARIES \
	install-pkgincludeHEADERS install-pkgconfigDATA install-binPROGRAMS install-paths >"$tmp/install.log" 2>&1 &&
	grep -qx "prefix=$p" "$p/lib/pkgconfig/gcmutator.pc"
ok $? "gcconform's library, header, gcmutator.pc and gcgen installed in a prefix"
pcdir=$p/lib/pkgconfig
bin=$p/bin

src=$tmp/src
d=$src/decoder
mkdir -p "$d/fuzz/gcmutator" "$tmp/out" "$tmp/work"
cp -R "$s/fuzz/clusterfuzzlite/.clusterfuzzlite" "$s/fuzz/clusterfuzzlite/.github" "$d/"
cp "$s/fuzz/gcmutator/example_parser.c" "$s/fuzz/gcmutator/example_parser.h" \
	"$s/fuzz/gcmutator/gcm_example.c" "$d/fuzz/gcmutator/"
# The Dockerfile's last step: COPY .clusterfuzzlite/build.sh $SRC/
cp "$d/.clusterfuzzlite/build.sh" "$src/build.sh"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
(cd "$d" && env SRC="$src" OUT="$tmp/out" WORK="$tmp/work" CC=clang CXX=clang++ \
	CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
	SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64 \
	PATH="$bin:$PATH" PKG_CONFIG_PATH="$pcdir" \
	bash -eu "$src/build.sh") >"$tmp/build.log" 2>&1
rc=$?
sed 's/^/# /' "$tmp/build.log" | tail -20
ok $rc "the template's build.sh succeeds with ClusterFuzzLite's variables"
f=$tmp/out/example_nettrace
[ -x "$f" ]; ok $? "example_nettrace: fuzzer in \$OUT"
nm "$f" 2>/dev/null | grep -q ' T LLVMFuzzerCustomMutator$'
ok $? "example_nettrace: links gcmutator's hooks"
c=$(unzip -l "$tmp/out/example_nettrace_seed_corpus.zip" 2>/dev/null | tail -1 | awk '{print $2}')
[ "${c:-0}" -eq 4 ]; ok $? "example_nettrace: 4 gcgen seeds in its corpus zip (${c:-0})"
mkdir -p "$tmp/seeds"
(cd "$tmp/seeds" && unzip -q "$tmp/out/example_nettrace_seed_corpus.zip")
bad=0
for x in "$tmp"/seeds/*; do
	head -c 8 "$x" 2>/dev/null | grep -q 'Nettrace' || { echo "# $x: not a nettrace file"; bad=1; }
done
ok $bad "example_nettrace: the seeds are nettrace files"
"$f" -runs=300 -seed=1 "$tmp/seeds" >"$tmp/run.log" 2>&1
r=$?
[ $r -eq 0 ] && grep -q 'MS: [0-9]* Custom' "$tmp/run.log"
r=$?
[ $r -eq 0 ] || tail -20 "$tmp/run.log" | sed 's/^/# /'
ok $r "example_nettrace: runs its seeds and 300 inputs clean, gcmutator's among them"
echo "1..$n"
exit $fail
