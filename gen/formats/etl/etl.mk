# The ETW .etl writer and its container-fault mutator: a library of their
# own so tests/etl/ can link them without the rest of gcgen.
noinst_LIBRARIES += gen/libgcetl_w.a
gen_libgcetl_w_a_SOURCES = \
	gen/formats/etl/etl_w.h gen/formats/etl/write_etl.c gen/formats/etl/lzxpress_w.h gen/formats/etl/lzxpress_w.c \
	gen/formats/etl/mutate_etl.h gen/formats/etl/mutate_etl.c

# gcgen gets the same writer through libgcgen (writer_table.c lists it).
gen_libgcgen_a_SOURCES += \
	gen/formats/etl/write_etl.c gen/formats/etl/lzxpress_w.c gen/formats/etl/mutate_etl.c gen/formats/etl/mutate_etl_table.c
EXTRA_DIST += docs/etl.md
