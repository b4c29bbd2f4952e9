#!/bin/sh
# gcgen's options the corpus is built with: --values writes the model stream
# of exactly the events the container holds, and --writer-option changes the
# container's layout (not its events) or is refused.
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

# The values of a nettrace file are the model stream gcgen writes for the
# same arguments in --format cbor: the same events, whatever the container.
"$gcgen" -q -f nettrace-v5 --seed 3 --gcs 4 -o "$t/a.nettrace" --values "$t/a.values" &&
	"$gcgen" -q -f cbor --seed 3 --gcs 4 -o "$t/a.cbor"
ok $? "gcgen --values runs"
cmp -s "$t/a.values" "$t/a.cbor"; ok $? "--values of a nettrace-v5 file = the cbor model stream of the same arguments"
"$gcgen" -q -f cbor --seed 3 --gcs 4 -o "$t/b.cbor" --values "$t/b.values"
cmp -s "$t/b.values" "$t/b.cbor"; ok $? "--values of a model stream is that model stream"
# With a fault, the values are the events as written, damaged payloads without fields.
"$gcgen" -q -f nettrace-v5 --seed 3 --gcs 4 -M truncate-at-field -o "$t/c" --values "$t/c.values" \
	--expect "$t/c.expect" && "$oracle" --quiet --expect "$t/c.expect" "$t/c" >/dev/null
ok $? "a faulty file with --values: the fault still reported as recorded"
"$oracle" --json "$t/c.values" | grep -q '"code":"GC-P001"'
ok $? "the values stream holds the damaged event as written (GC-P001 in it too)"
# Writer options change the layout, not the events.
"$gcgen" -q -f nettrace-v5 --seed 3 --gcs 4 -O block-bytes=300 -O sp-every=1 -O uncompressed=1 \
	-O metadata-upfront=1 -o "$t/d.nettrace" --values "$t/d.values"
ok $? "nettrace writer options accepted"
cmp -s "$t/d.values" "$t/a.values" && ! cmp -s "$t/d.nettrace" "$t/a.nettrace"
ok $? "writer options change the file, not its events"
[ "$("$oracle" --json "$t/d.nettrace" | grep -c '"type":"event"')" = \
  "$("$oracle" --json "$t/a.nettrace" | grep -c '"type":"event"')" ] &&
	"$oracle" --quiet "$t/d.nettrace" >/dev/null
ok $? "the re-laid-out file decodes to as many events, with no error"
"$gcgen" -q -f nettrace-v5 --gcs 3 -M sequence-gap -O block-bytes=2048 -o "$t/e" --expect "$t/e.expect"
ok $? "small blocks give a small file several EventBlocks (sequence-gap applies)"
"$gcgen" -q -f cbor -O block-bytes=1 -o "$t/f" 2>"$t/err"
[ $? = 2 ] && grep -q 'takes no writer options' "$t/err"; ok $? "a format without options refuses -O (exit 2)"
"$gcgen" -q -f nettrace-v5 -O colour=blue -o "$t/f" 2>"$t/err"
[ $? = 2 ] && grep -q 'unknown option' "$t/err" && [ ! -e "$t/f" ]
ok $? "an unknown nettrace option is refused (exit 2), no file left"
"$gcgen" -q -f nettrace-v5 -O block-bytes -o "$t/f" 2>/dev/null
[ $? = 2 ]; ok $? "-O without =VALUE is a usage error"
# Exhaustive streams record the warnings they must raise.
"$gcgen" -q -m exhaustive -f nettrace-v6 -o "$t/x" --expect "$t/x.expect" &&
	grep -q '"GC-V002"' "$t/x.expect" && "$oracle" --quiet --expect "$t/x.expect" "$t/x" >/dev/null
ok $? "exhaustive --expect lists its GC-V002 warnings, and gcoracle agrees"
echo "1..$n"
exit $fail
