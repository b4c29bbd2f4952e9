# The floor row of make bench (tests/peers/bench.sh): a minimal nettrace walk
# that validates every payload by the spec tables alone (docs/oracle-performance.md).
noinst_PROGRAMS += bench/floor
bench_floor_SOURCES = bench/floor.c bench/floor_payload.c bench/floor.h
bench_floor_LDADD = spec/libgcspec.a

# It accepts the corpus's y_ nettrace cases and rejects a truncated file and
# a payload cut inside a field.
TESTS += tests/bench/floor.sh
EXTRA_DIST += tests/bench/floor.sh
