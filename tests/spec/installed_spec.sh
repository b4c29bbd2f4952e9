#!/bin/sh
# The spec as installed data (docs/spec-json.md), used as another project
# would: make install prefix=STAGE, then through pkg-config alone. The JSON,
# its schema and the TOML sources are in specdir; <gcconform/spec.h> compiles
# from the installed include directory with strict flags (gcc and clang when
# there) and its tables say what the JSON says (tests/spec/spec_user.c); and
# the example decoder examples/specjson/decode_ctf.py, which knows the events
# only from the installed JSON, passes `gcoracle run` on every y_ CTF case and
# reads the GC events of a real LTTng-UST trace (SHARED_DIR) as gcoracle does.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}" "${SHARED_DIR:=}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
p=$work/p
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install prefix="$p" \
	>"$work/log" 2>&1
ok $? "make install prefix=STAGE"
[ $fail = 0 ] || { sed 's/^/# /' "$work/log" | tail -5; echo "1..$n"; exit 1; }
PKG_CONFIG_PATH=$p/lib/pkgconfig PATH=$p/bin:$PATH
export PKG_CONFIG_PATH PATH
specdir=$(pkg-config --variable=specdir gcconform)
[ "$specdir" = "$p/share/gcconform/spec" ] && [ -f "$specdir/gcconform-spec.json" ] &&
	[ -f "$specdir/spec-json.cddl" ] && [ -f "$specdir/dotnet-runtime.toml" ] &&
	[ -f "$specdir/errata.toml" ] && [ -f "$specdir/claims/coreclr-2020.toml" ]
ok $? "pkg-config --variable=specdir names the installed spec: JSON, schema, TOML, claims"

"$PYTHON3" "$top_srcdir/tests/spec/spec_user_expect.py" "$specdir/gcconform-spec.json" \
	>"$work/want" || exit 99
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	# shellcheck disable=SC2046
	$cc -std=c99 -pedantic -Wall -Wextra -Werror $(pkg-config --cflags gcconform) \
		-o "$work/user" "$top_srcdir/tests/spec/spec_user.c" >"$work/cc.log" 2>&1
	ok $? "$cc compiles a program including the installed <gcconform/spec.h> (-std=c99 -pedantic -Werror)"
	sed 's/^/# /' "$work/cc.log" | head -5
	"$work/user" >"$work/got" 2>&1 && cmp -s "$work/want" "$work/got"
	ok $? "its tables are the installed JSON's ($(tail -1 "$work/want"))"
	diff "$work/want" "$work/got" | head -5 | sed 's/^/# /'
done

gcoracle run --container ctf --prefix y_ --tap "$work/ctf.tap" \
	-- "$PYTHON3" "$top_srcdir/examples/specjson/decode_ctf.py" {} >"$work/sum" 2>&1
rc=$?
sed 's/^/# /' "$work/sum" | tail -3
[ $rc = 0 ] && grep -q '^all  *y_  *[4-9] ' "$work/sum"
ok $? "decode_ctf.py, from the installed JSON alone, passes every y_ CTF case"
[ $rc = 0 ] || grep -A6 '^not ok' "$work/ctf.tap" | head -20 | sed 's/^/# /'
sample=$SHARED_DIR/reference/lttng-sample/trace/ust/uid/0/64-bit
if [ -f "$sample/metadata" ]; then
	"$PYTHON3" "$top_srcdir/examples/specjson/decode_ctf.py" "$sample" >"$work/dec.jsonl" &&
		gcoracle --json "$sample" >"$work/ora.jsonl"
	"$PYTHON3" "$top_srcdir/tests/spec/same_events.py" "$work/dec.jsonl" "$work/ora.jsonl" >"$work/same"
	ok $? "decode_ctf.py reads a real LTTng-UST trace's GC events as gcoracle does ($(tail -1 "$work/same"))"
	sed 's/^/# /' "$work/same"
else
	n=$((n + 1))
	echo "ok $n - # SKIP the real LTTng-UST sample is not in ${SHARED_DIR:-SHARED_DIR (unset)}"
fi
echo "1..$n"
exit $fail
