#!/bin/bash -eu
# .clusterfuzzlite/build.sh - a decoder project's parser fuzzed with
# gcconform's structure-aware mutator (libgcmutator) and gcgen's streams as
# seeds. ClusterFuzzLite runs it in its image with $SRC $OUT $WORK $CC $CXX
# $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE set, from the project's checkout;
# gcconform is installed in the image (the Dockerfile), so pkg-config finds
# gcmutator and gcgen is on PATH.
#
# Your project: set the four variables below. As shipped they build the
# example of gcconform's tree, its nettrace walker (fuzz/gcmutator/).
#   PARSER_SOURCES  your parser's C sources, built with the fuzzing flags
#                   (or build your library here the way your build does,
#                   with $CC $CFLAGS, and name its archive in PARSER_LIBS)
#   PARSER_CFLAGS   what they and the harnesses need to compile
#   PARSER_LIBS     archives or -l flags the fuzzers link besides
#   FUZZERS         one "NAME HARNESS.c GCGEN-FORMAT" per line: a harness
#                   calling GCM_LIBFUZZER_HOOKS (gcmutator.h) and the
#                   container its seeds are written in (gcgen --list-formats)
PARSER_SOURCES="fuzz/gcmutator/example_parser.c"
PARSER_CFLAGS="-I."
PARSER_LIBS=
FUZZERS="example_nettrace fuzz/gcmutator/gcm_example.c nettrace-v5"

work=${WORK:-$(mktemp -d)}
mkdir -p "$work/obj" "$OUT"

# libgcmutator is self-contained; libcbor and libfwnt, which it needs, are
# linked from their static archives where the image has them: the runners
# that execute the fuzzers have neither shared library.
static_libs() {
	for l in $(pkg-config --static --libs-only-l "$@"); do
		a=
		for d in $(pkg-config --static --libs-only-L "$@" | sed 's/-L//g') \
			$(pkg-config --variable=libdir "$@" 2>/dev/null) /usr/local/lib /usr/lib/x86_64-linux-gnu /usr/lib; do
			[ -f "$d/lib${l#-l}.a" ] && { a=$d/lib${l#-l}.a; break; }
		done
		printf '%s ' "${a:-$l}"
	done
}
gcm_cflags=$(pkg-config --cflags gcmutator)
gcm_libs=$(static_libs gcmutator)

objs=
for s in $PARSER_SOURCES; do
	o=$work/obj/$(echo "$s" | tr / _).o
	$CC $CFLAGS $PARSER_CFLAGS -c "$s" -o "$o"
	objs="$objs $o"
done

echo "$FUZZERS" | while read -r name harness format; do
	[ -n "$name" ] || continue
	$CC $CFLAGS $PARSER_CFLAGS $gcm_cflags -c "$harness" -o "$work/$name.o"
	$CXX $CXXFLAGS "$work/$name.o" $objs $PARSER_LIBS $LIB_FUZZING_ENGINE $gcm_libs -lm -o "$OUT/$name"

	# Seeds from gcgen: realistic streams of a few runtimes, one with
	# stacks, and the exhaustive one (every event-version, boundary values).
	# A CTF trace is a directory: gcmutator takes it as a ustar archive.
	seeds=$work/seeds/$name
	rm -rf "$seeds"
	mkdir -p "$seeds"
	i=0
	for args in "-p net8" "-p netcore3 --stacks" "-p net10 --pointer-size 4" "-m exhaustive"; do
		i=$((i + 1))
		gcgen -q -f "$format" -g 2 -s "$i" $args -o "$seeds/seed$i"
		if [ -d "$seeds/seed$i" ]; then
			(cd "$seeds/seed$i" && tar --format=ustar -cf "../seed$i.tar" -- *)
			rm -rf "${seeds:?}/seed$i"
		fi
	done
	rm -f "$OUT/${name}_seed_corpus.zip"
	(cd "$seeds" && zip -q -X "$OUT/${name}_seed_corpus.zip" ./*)
	printf '[libfuzzer]\nmax_len = 262144\ntimeout = 25\n' > "$OUT/$name.options"
done
