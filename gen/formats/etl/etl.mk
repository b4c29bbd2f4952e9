# The ETW .etl writer and its container-fault mutator, listed in
# gen/formats/writer_table.c: a library of their own, compiled once, that
# gcgen and the tests (tests/etl/) link.
noinst_LIBRARIES += gen/formats/etl/libgcetl_w.a
gen_formats_etl_libgcetl_w_a_SOURCES = \
	gen/formats/etl/etl_w.h gen/formats/etl/write_etl.c gen/formats/etl/lzxpress_w.h gen/formats/etl/lzxpress_w.c \
	gen/formats/etl/mutate_etl.h gen/formats/etl/mutate_etl.c gen/formats/etl/mutate_etl_table.c
GEN_WRITER_LIBS += gen/formats/etl/libgcetl_w.a
EXTRA_DIST += docs/etl.md
