#!/bin/sh
# The committed corpus is what `make corpus` writes: regenerating it from the
# fixed seeds into a temporary directory gives the same files, byte for byte.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
echo "1..2"
if "$PYTHON3" "$top_srcdir/corpus/tools/mkcorpus.py" --gcgen "$top_builddir/gen/gcgen" \
	--gccorpus "$top_builddir/corpus/tools/gccorpus" --srcdir "$top_srcdir" \
	--out "$work/corpus" --jobs "${CORPUS_JOBS:-2}" >"$work/log" 2>&1; then
	echo "ok 1 - make corpus regenerates: $(tail -1 "$work/log")"
else
	echo "not ok 1 - regenerating the corpus failed"
	sed 's/^/# /' "$work/log" | tail -20
	echo "not ok 2 - # SKIP nothing to compare"
	exit 1
fi
list() {
	(cd "$1" && find cases expect events index.cbor index.json -type f | LC_ALL=C sort)
}
list "$top_srcdir/corpus" >"$work/committed"
list "$work/corpus" >"$work/fresh"
if ! cmp -s "$work/committed" "$work/fresh"; then
	first=$(diff "$work/committed" "$work/fresh" | sed -n 's/^[<>] //p' | head -1)
	if grep -qx "$first" "$work/fresh"; then what="is new"; else what="is gone"; fi
	echo "not ok 2 - corpus/$first $what in a fresh make corpus: run 'make corpus' and commit the corpus"
	diff "$work/committed" "$work/fresh" | head -10 | sed 's/^/# /'
	exit 1
fi
while read -r f; do
	if ! cmp -s "$top_srcdir/corpus/$f" "$work/corpus/$f"; then
		at=$(cmp "$top_srcdir/corpus/$f" "$work/corpus/$f" 2>&1 | sed -n 's/.*byte \([0-9]*\).*/\1/p')
		echo "not ok 2 - corpus/$f differs from a fresh make corpus (first difference at byte ${at:-?}): run 'make corpus' and commit it if gen/ changed on purpose; otherwise gcgen has lost determinism"
		exit 1
	fi
done <"$work/committed"
echo "ok 2 - $(wc -l <"$work/committed") files identical to the committed corpus"
