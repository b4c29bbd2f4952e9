#!/bin/sh
# The worked examples of docs/using-the-corpus.md, run as their users would run
# them: against gcconform installed (make install into a staging directory),
# through the installed gcoracle, corpus and examples. The Python decoder
# (examples/python/gcdec.py) through `gcoracle run` over every nettrace case;
# the C# xUnit tests (examples/traceevent-xunit: TraceEvent 4.0.0 with the
# installed accepted differences) over every y_ nettrace case, when dotnet is
# installed (skipped with the reason otherwise).
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install DESTDIR="$work/stage" \
	>"$work/log" 2>&1
ok $? "make install DESTDIR=... (staging gcconform as a user installs it)"
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/gcconform.pc")
inst=$work/stage$prefix
PATH=$inst/bin:$PATH
GCCONFORM_CORPUS=$inst/share/gcconform/corpus
export PATH GCCONFORM_CORPUS
[ -x "$inst/bin/gcoracle" ] && [ -f "$GCCONFORM_CORPUS/index.json" ] &&
	[ -f "$inst/share/gcconform/accepted/traceevent-4.0.0.accept" ]
ok $? "gcoracle, the corpus and the accepted differences are installed"
# What the installed docs point to is installed, and gcconform.pc names it.
# The staged .pc names the final paths; the files are under the staging directory.
pc() { PKG_CONFIG_PATH=$inst/lib/pkgconfig pkg-config --variable="$1" gcconform; }
examples=$work/stage$(pc examplesdir)
[ "$(pc gcoracle)" = "$prefix/bin/gcoracle" ] && [ -x "$work/stage$(pc gcoracle)" ] &&
	[ "$(pc gcgen)" = "$prefix/bin/gcgen" ] &&
	[ -f "$examples/python/gcdec.py" ] && [ -f "$examples/traceevent/Program.cs" ] &&
	[ -f "$examples/traceevent-xunit/CorpusTests.cs" ] &&
	[ -f "$examples/../using-the-corpus.md" ]
ok $? "gcconform.pc names the installed gcoracle, gcgen and examples (beside the docs that cite them)"

# make install prefix=OTHER (after configure named another prefix): the .pc
# files, the man pages and gcoracle run's default corpus follow OTHER.
p=$work/other
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install prefix="$p" >"$work/log" 2>&1 &&
	grep -qx "prefix=$p" "$p/lib/pkgconfig/gcconform.pc" &&
	[ "$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --variable=corpusdir gcconform)" = "$p/share/gcconform/corpus" ] &&
	grep -qx "libdir=$p/lib" "$p/lib/pkgconfig/gcmutator.pc" &&
	[ "$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --variable=gcoracle gcconform)" = "$p/bin/gcoracle" ] &&
	[ -f "$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --variable=examplesdir gcconform)/python/gcdec.py" ]
ok $? "make install prefix=OTHER: gcconform.pc and gcmutator.pc name OTHER"
grep -q "$p/share/doc/gcconform/using-the-corpus.md" "$p/share/man/man1/gcoracle.1" &&
	[ -f "$p/share/doc/gcconform/using-the-corpus.md" ] && [ -f "$p/share/doc/gcconform/diagnostics.md" ] &&
	! grep -q ' docs/' "$p/share/man/man1/gcoracle.1" "$p/share/man/man1/gcgen.1"
ok $? "the installed man pages name the installed docs, which are there"
(unset GCCONFORM_CORPUS; "$p/bin/gcoracle" run --quiet --case 'y_model_*' -- "$p/bin/gcoracle" --json {}) >"$work/sum" 2>&1
ok $? "gcoracle run finds the corpus installed beside it ($(tail -1 "$work/sum"))"

if command -v "${PYTHON3:-python3}" >/dev/null; then
	gcoracle run --container nettrace --tap "$work/py.tap" --junit "$work/py.xml" \
		-- "${PYTHON3:-python3}" "$examples/python/gcdec.py" {} >"$work/sum" 2>&1
	rc=$?
	sed 's/^/# /' "$work/sum" | tail -6
	[ $rc = 0 ] && grep -q '^all  *y_  *[1-9]' "$work/sum" && grep -q '^all  *n_  *[1-9]' "$work/sum"
	ok $? "the Python decoder passes every nettrace case it reads (y_ and n_ among them)"
	# docs/using-the-corpus.md states the counts; they must be this run's.
	said=$(tr '\n' ' ' <"$top_srcdir/docs/using-the-corpus.md" |
		sed -n 's/.*it passes \([0-9]*\) cases and is skipped on the \([0-9]*\) .*/\1 \2/p')
	got=$(sed -n 's/^[0-9]* cases: \([0-9]*\) passed, [0-9]* failed, \([0-9]*\) skipped$/\1 \2/p' "$work/sum")
	[ -n "$got" ] && [ "$said" = "$got" ]
	ok $? "docs/using-the-corpus.md's counts for the Python decoder ($said) are the run's ($got)"
	[ $rc = 0 ] || grep -A6 '^not ok' "$work/py.tap" | head -30 | sed 's/^/# /'
fi

if ! command -v dotnet >/dev/null 2>&1; then
	echo "ok $((n + 1)) - # SKIP the C# example: the .NET SDK (dotnet) is not installed"
	n=$((n + 1))
else
	cp -r "$examples/traceevent" "$examples/traceevent-xunit" "$work/" &&
		chmod -R u+w "$work/traceevent" "$work/traceevent-xunit" &&
		rm -rf "$work/traceevent/bin" "$work/traceevent/obj"
	proj=$work/traceevent-xunit/CorpusTests.csproj
	if ! dotnet restore "$proj" -nologo -v quiet >"$work/log" 2>&1; then
		set --
		for d in /opt/nuget/packages "$HOME/.nuget/packages"; do [ -d "$d" ] && set -- "$@" --source "$d"; done
		dotnet restore "$proj" -nologo -v quiet "$@" >"$work/log" 2>&1
	fi
	if [ $? != 0 ]; then
		n=$((n + 1))
		echo "ok $n - # SKIP the C# example: its packages cannot be restored: $(grep -m1 error "$work/log")"
	else
		GCCONFORM_ACCEPT=$inst/share/gcconform/accepted/traceevent-4.0.0.accept \
			dotnet test "$proj" --no-restore -nologo -nodeReuse:false >"$work/log" 2>&1
		rc=$?
		grep -E 'Passed!|Failed!|error' "$work/log" | head -5 | sed 's/^/# /'
		[ $rc = 0 ] && grep -q 'Failed: *0, Passed: *[1-9]' "$work/log"
		ok $? "the C# xUnit tests (TraceEvent 4.0.0, installed accepted differences) pass every y_ nettrace case"
		[ $rc = 0 ] || grep -B2 -A8 'Failed ' "$work/log" | head -30 | sed 's/^/# /'
	fi
fi
echo "1..$n"
exit $fail
