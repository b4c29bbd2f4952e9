#!/bin/bash -eu
# build.sh - gcconform's fuzz targets, the OSS-Fuzz way: compiles with $CC
# $CFLAGS, links with $CXX $CXXFLAGS $LIB_FUZZING_ENGINE, and puts into $OUT
# every harness with its <harness>_seed_corpus.zip (from gcgen), its
# <harness>.dict (from the spec tables) and its <harness>.options.
#
# OSS-Fuzz runs it with the source at $SRC/gcconform. make fuzz-build runs it
# too (GCCONFORM_SRC and GCCONFORM_BUILD point at a configured tree, so no
# second configure is needed). Optional: $SRC/libcbor (a libcbor checkout) is
# built static and linked in, as the fuzzing runners have no libcbor.so.
#
# babeltrace2_s fuzzes a third-party reader, babeltrace2's CTF source, in
# process (fuzz/ext/fuzz_babeltrace2.c). With $SRC/babeltrace (a checkout,
# as OSS-Fuzz's Dockerfile clones it) babeltrace2 is built here with $CC
# $CFLAGS, static, its plugins built in, so the fuzzer sees its edges;
# without it the system's libbabeltrace2 (pkg-config babeltrace2) is linked
# as it is, not instrumented, its plugins loaded from its plugin directory:
# the harness runs, but coverage guides nothing inside babeltrace2.
set -eu
: "${SRC:?}" "${OUT:?}" "${CC:?}" "${CXX:?}" "${LIB_FUZZING_ENGINE:?}"
CFLAGS=${CFLAGS:-}
CXXFLAGS=${CXXFLAGS:-}
top=${GCCONFORM_SRC:-$SRC/gcconform}
work=${WORK:-$(mktemp -d)}
jobs=${FUZZ_JOBS:-2}
mkdir -p "$OUT" "$work"
OUT=$(cd "$OUT" && pwd)
work=$(cd "$work" && pwd)

# libcbor: static from $SRC/libcbor when present, else the system's.
if [ -d "$SRC/libcbor" ]; then
	if [ ! -f "$work/cbor/lib/libcbor.a" ] && [ ! -f "$work/cbor/lib64/libcbor.a" ]; then
		cmake -S "$SRC/libcbor" -B "$work/cbor-build" -DCMAKE_BUILD_TYPE=Release \
			-DBUILD_SHARED_LIBS=OFF -DWITH_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX="$work/cbor" >/dev/null
		make -s -C "$work/cbor-build" -j"$jobs" install >/dev/null
	fi
	cbor_cflags="-I$work/cbor/include"
	export PKG_CONFIG_PATH="$(dirname "$(ls "$work"/cbor/lib*/pkgconfig/libcbor.pc)")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	cbor_libs=$(ls "$work"/cbor/lib*/libcbor.a)
else
	cbor_cflags=$(pkg-config --cflags libcbor)
	cbor_libs=$(pkg-config --libs libcbor)
fi

# libfwnt (the .etl reader expands compressed buffers with it): its static
# archive when the system has one, as the fuzzing runners have no libfwnt.so.
fwnt_cflags=$(pkg-config --cflags libfwnt)
fwnt_a="$(pkg-config --variable=libdir libfwnt)/libfwnt.a"
if [ -f "$fwnt_a" ]; then
	fwnt_libs="$fwnt_a -lpthread"
else
	fwnt_libs=$(pkg-config --libs libfwnt)
fi

# A package's libraries as static archives where its libdir has them (the
# fuzzing runners have no GLib), the others (-ldl, -lpthread) as they are.
static_libs() {
	d=$(pkg-config --variable=libdir "$1")
	for l in $(pkg-config --static --libs-only-l "$@"); do
		a=$d/lib${l#-l}.a
		if [ -f "$a" ]; then printf '%s ' "$a"; else printf '%s ' "$l"; fi
	done
	pkg-config --static --libs-only-other "$@"
}

# babeltrace2: from $SRC/babeltrace when present, else the system's.
bt2_src=$SRC/babeltrace
bt2_libs=
if [ -d "$bt2_src" ]; then
	bt2_build=$work/babeltrace
	if [ ! -f "$bt2_build/src/lib/.libs/libbabeltrace2.a" ]; then
		[ -x "$bt2_src/configure" ] || (cd "$bt2_src" && ./bootstrap)
		mkdir -p "$bt2_build"
		# Options of babeltrace2 2.0's configure: the plugins linked into
		# the program that uses the library (found through their
		# descriptor sections), nothing that needs Python or elfutils.
		(cd "$bt2_build" && "$bt2_src/configure" --quiet --disable-shared --enable-static \
			--enable-built-in-plugins --disable-debug-info --disable-man-pages \
			--disable-api-doc --disable-python-bindings --disable-python-plugins \
			--disable-Werror)
		make -s -C "$bt2_build" -j"$jobs"
	fi
	p=$bt2_build/src/plugins
	bt2_cflags="-I$bt2_src/include -I$bt2_build/include"
	# --whole-archive, as babeltrace2's own CLI links built-in plugins:
	# nothing calls into them, the library finds them by their sections.
	bt2_libs="-Wl,--whole-archive $p/ctf/.libs/babeltrace-plugin-ctf.a \
		$p/utils/.libs/babeltrace-plugin-utils.a -Wl,--no-whole-archive -Wl,--start-group \
		$(find "$bt2_build/src" -path '*/.libs/*.a' ! -name 'babeltrace-plugin-*' ! -path '*python*' | sort | tr '\n' ' ') \
		-Wl,--end-group $(static_libs gmodule-2.0 glib-2.0)"
	echo "build.sh: babeltrace2 from $bt2_src: instrumented, static, plugins built in"
elif pkg-config --exists babeltrace2; then
	bt2_cflags=$(pkg-config --cflags babeltrace2)
	bt2_libs=$(pkg-config --libs babeltrace2)
	echo "build.sh: babeltrace2 $(pkg-config --modversion babeltrace2) from the system (no \$SRC/babeltrace):" \
		"NOT instrumented, plugins from its plugin directory"
else
	echo "build.sh: no \$SRC/babeltrace and no system libbabeltrace2: babeltrace2_s not built"
fi

# A configured tree gives config.h, the generated spec tables and the lists
# of sources and harnesses (so this script never repeats the Makefile's).
if [ -n "${GCCONFORM_BUILD:-}" ]; then
	b=$GCCONFORM_BUILD
else
	b=$work/build
	mkdir -p "$b"
	[ -x "$top/configure" ] || (cd "$top" && ./bootstrap)
	# Configure's own checks need no instrumentation.
	(cd "$b" && CFLAGS= CXXFLAGS= "$top/configure" --quiet)
	make -s -C "$b" spec/gcspec_ids.h spec/gcspec_tables.c
fi
sources=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$b" fuzz-print-sources)
harnesses=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$b" fuzz-print-harnesses)

inc="-std=c11 -include $b/config.h -I$b -I$top -I$top/fuzz/gcmutator -I$top/tests $cbor_cflags $fwnt_cflags"
obj=$work/obj
mkdir -p "$obj"
path_of() { if [ -f "$b/$1" ] && [ ! -f "$top/$1" ]; then echo "$b/$1"; else echo "$top/$1"; fi; }
# Coverage feedback comes from the code under test (oracle/ and the spec
# tables). gen's writers and simulator and fuzz/'s own helpers run inside
# the harnesses too (round trips, the mutator), but edges there are no
# progress: with libFuzzer they are built without its instrumentation.
nocov=
case " $CFLAGS " in *fuzzer-no-link*) nocov=-fno-sanitize=fuzzer-no-link ;; esac
export CC CFLAGS inc obj nocov
for s in $sources; do
	# The example parser stands for another project's: the fuzzer sees its edges.
	case $s in spec/gcspec_tables.c | fuzz/gcmutator/example_parser.c) extra= ;; gen/* | fuzz/*) extra=$nocov ;; *) extra= ;; esac
	echo "$(path_of "$s") $obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/') ${extra:-none}"
done | xargs -P "$jobs" -n 3 sh -c 'x=$2; [ "$x" = none ] && x=; $CC $CFLAGS $x $inc -c "$0" -o "$1" || exit 255'
rm -f "$work/libfz.a"
ar rcs "$work/libfz.a" "$obj"/*.o

# The harnesses. <reader>_s is <reader>'s source with the gcmutator hooks.
for h in $harnesses; do
	base=${h%_s}
	def=
	[ "$base" != "$h" ] && def=-DFZ_STRUCTURED
	src=$top/fuzz/harness/fuzz_$base.c
	[ "$h" = example ] && src=$top/fuzz/gcmutator/gcm_example.c
	$CC $CFLAGS $def $inc -c "$src" -o "$work/$h.o"
	$CXX $CXXFLAGS "$work/$h.o" $LIB_FUZZING_ENGINE "$work/libfz.a" $cbor_libs $fwnt_libs -lm -o "$OUT/$h"
done

extra=
if [ -n "$bt2_libs" ]; then
	$CC $CFLAGS $inc $bt2_cflags -c "$top/fuzz/ext/fuzz_babeltrace2.c" -o "$work/babeltrace2_s.o"
	$CC $CFLAGS $inc $bt2_cflags -c "$top/fuzz/ext/bt2_graph.c" -o "$work/bt2_graph.o"
	$CXX $CXXFLAGS "$work/babeltrace2_s.o" "$work/bt2_graph.o" $LIB_FUZZING_ENGINE "$work/libfz.a" \
		$bt2_libs $cbor_libs $fwnt_libs -lm -o "$OUT/babeltrace2_s"
	extra=babeltrace2_s
fi

# Tools for the seeds and dictionaries, built like everything else but run
# here (no engine; leak checks off: they are short-lived helpers).
$CC $CFLAGS $inc -c "$top/gen/gcgen.c" -o "$work/gcgen.o"
$CC $CFLAGS $inc -c "$top/fuzz/harness/fuzz_tool.c" -o "$work/fuzz_tool.o"
$CXX $CXXFLAGS "$work/gcgen.o" "$work/libfz.a" $cbor_libs $fwnt_libs -lm -o "$work/gcgen"
$CXX $CXXFLAGS "$work/fuzz_tool.o" "$work/libfz.a" $cbor_libs $fwnt_libs -lm -o "$work/fuzz_tool"
export ASAN_OPTIONS=detect_leaks=0

for h in $harnesses $extra; do
	base=${h%_s}
	# babeltrace2 reads what the ctf harnesses read.
	[ "$h" = babeltrace2_s ] && base=ctf
	seeds=$work/seeds/$base
	if [ ! -d "$seeds" ]; then
		sh "$top/fuzz/seeds.sh" "$base" "$seeds" "$work/gcgen" "$work/fuzz_tool"
	fi
	rm -f "$OUT/${h}_seed_corpus.zip"
	(cd "$seeds" && zip -q -X "$OUT/${h}_seed_corpus.zip" ./*)
	dict=$base
	[ "$h" = example ] && dict=nettrace
	"$work/fuzz_tool" dict "$dict" > "$OUT/$h.dict"
	case $base in
	# Big enough for every seed; small inputs keep executions fast. ETL
	# keeps one 64 KiB-buffer seed and its exhaustive stream.
	etl) max=262144 ;;
	*) max=65536 ;;
	esac
	printf '[libfuzzer]\nmax_len = %s\ntimeout = 25\n' "$max" > "$OUT/$h.options"
done
echo "build.sh: $(echo $harnesses $extra | wc -w) harnesses in $OUT"
