#!/bin/sh
# babeltrace2 as the peer: every runtime profile's realistic CTF trace and the
# exhaustive trace (both pointer sizes) are read by babeltrace2 (python3-bt2)
# without an error, and every event's name, time, thread and field values
# equal gcoracle's decoding (tests/ctf/peer_bt2.py). Skipped with a message
# when no Python here can import bt2 (Debian: python3-bt2, in .ci/deps).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
py=""
for p in /usr/bin/python3 "${PYTHON3:-python3}" python3; do
	if "$p" -c 'import bt2, tomllib' >/dev/null 2>&1; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "1..0 # SKIP no python3 with bt2 (babeltrace2's Python bindings: apt-get install python3-bt2)"
	exit 0
fi
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
set --
for profile in $("$gcgen" --list-profiles | awk '{print $1}'); do
	"$gcgen" -q -f ctf --profile "$profile" --gcs 8 --seed 5 --pointer-size 8 -o "$work/$profile" || exit 99
	set -- "$@" "$work/$profile" 8
done
"$gcgen" -q -f ctf --profile net10 --gcs 6 --heaps 4 -o "$work/net10-server" || exit 99
set -- "$@" "$work/net10-server" 8
for psize in 4 8; do
	"$gcgen" -q -f ctf --mode exhaustive --pointer-size $psize -o "$work/exhaustive-$psize" || exit 99
	set -- "$@" "$work/exhaustive-$psize" $psize
done
exec "$py" "$top_srcdir/tests/ctf/peer_bt2.py" "$top_srcdir" "$oracle" "$@"
