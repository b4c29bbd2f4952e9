#!/bin/sh
# A decoder's declaration cannot widen a run (oracle/compare/decl.c): an
# unknown key, format, event or check is an error naming the valid or
# nearest names, never a pass or a run of skips; every format, container and
# container-vN of the corpus index is a name it takes.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}"
oracle=$top_builddir/oracle/gcoracle
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
# decl.sh: prints the declaration in $work/decl, then (with "decode" in
# $work/mode) gcoracle's own output, else nothing.
cat >"$work/decl.sh" <<X
#!/bin/sh
cat "$work/decl"
[ "\$(cat "$work/mode")" = decode ] && exec "$oracle" --json "\$1"
exit 0
X
chmod +x "$work/decl.sh"
run() {
	printf '%s\n' "$1" >"$work/decl"
	echo "$2" >"$work/mode"
	shift 2
	"$oracle" run --corpus "$corpus" --quiet --tap "$work/tap" "$@" -- "$work/decl.sh" {} \
		>"$work/out" 2>"$work/err"
}

run '{"type":"decoder","name":"typo","events":["GCStrat_V2"],"checks":["contianer"]}' none
rc=$?
[ $rc = 2 ] && grep -q 'unknown check "contianer" (valid: container, payload, value, stream, unknown)' "$work/err" &&
	grep -q '^Bail out! .*unknown check "contianer"' "$work/tap"
ok $? "a check misspelt: exit 2 at the first case, the valid names given (exit $rc)"
run '{"type":"decoder","name":"typo","events":["GCStrat_V2"]}' none
rc=$?
[ $rc = 2 ] && grep -q 'unknown event "GCStrat_V2" (nearest: GCStart_V2' "$work/err"
ok $? "an event misspelt: exit 2, the nearest names given (exit $rc)"
run '{"type":"decoder","name":"typo","formats":["nettrace-v7"]}' decode
rc=$?
[ $rc = 2 ] && grep -q 'unknown format "nettrace-v7" (valid: .*nettrace-v6' "$work/err" &&
	[ "$(grep -c '^\(not \)\?ok' "$work/tap")" = 1 ]
ok $? "an unknown format: exit 2 after one case, not every case skipped (exit $rc)"
run '{"type":"decoder","name":"typo","chekcs":["container"]}' decode
rc=$?
[ $rc = 2 ] && grep -q 'unknown key "chekcs" (valid: type, name, formats, events, checks, codes)' "$work/err"
ok $? "an unknown key: exit 2 (exit $rc)"
run '{"type":"decoder","name":"typo","codes":"yes"}' decode
[ $? = 2 ] && grep -q '"codes" is not true or false' "$work/err"
ok $? "\"codes\" that is not a boolean: exit 2"

# Every name the corpus uses is taken: formats, containers, container-vN.
names=$($PYTHON3 -c '
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
names = set()
for c in cases:
    names |= {c["format"], c["container"], "%s-v%d" % (c["container"], c["container_version"])}
print(json.dumps(sorted(names)))' "$corpus/index.json")
run "{\"type\":\"decoder\",\"name\":\"all\",\"formats\":$names,\"events\":[\"GCStart\",\"GCStart_V2\"],\"checks\":[\"container\",\"payload\",\"value\",\"stream\",\"unknown\"],\"codes\":true}" decode \
	--case 'y_*realistic_net8'
rc=$?
[ $rc = 0 ] && ! grep -q declaration "$work/err"
ok $? "every format, container and container-vN of the corpus index is a known name (exit $rc: $(head -c 300 "$work/err"))"

# gcoracle compare says the same on its own.
printf '%s\n' '{"type":"decoder","checks":["contianer"]}' >"$work/actual"
"$oracle" compare --corpus "$corpus" "$corpus/expect/y_nettrace_v5_realistic_net8.cbor" "$work/actual" \
	>"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] && grep -q "the decoder's declaration: unknown check \"contianer\"" "$work/err"
ok $? "gcoracle compare: a misspelt declaration is exit 2, not a pass (exit $rc)"
echo "1..$n"
exit $fail
