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

# Tools for the seeds and dictionaries, built like everything else but run
# here (no engine; leak checks off: they are short-lived helpers).
$CC $CFLAGS $inc -c "$top/gen/gcgen.c" -o "$work/gcgen.o"
$CC $CFLAGS $inc -c "$top/fuzz/harness/fuzz_tool.c" -o "$work/fuzz_tool.o"
$CXX $CXXFLAGS "$work/gcgen.o" "$work/libfz.a" $cbor_libs $fwnt_libs -lm -o "$work/gcgen"
$CXX $CXXFLAGS "$work/fuzz_tool.o" "$work/libfz.a" $cbor_libs $fwnt_libs -lm -o "$work/fuzz_tool"
export ASAN_OPTIONS=detect_leaks=0

for h in $harnesses; do
	base=${h%_s}
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
echo "build.sh: $(echo $harnesses | wc -w) harnesses in $OUT"
