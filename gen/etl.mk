# The ETW .etl writer and its container-fault mutator: a library of their
# own so tests/etl/ can link them without the rest of gcgen.
noinst_LIBRARIES += gen/libgcetl_w.a
gen_libgcetl_w_a_SOURCES = \
	gen/etl_w.h gen/write_etl.c gen/lzxpress_w.h gen/lzxpress_w.c \
	gen/mutate_etl.h gen/mutate_etl.c

# gcgen gets the same writer through libgcgen (writer_table.c lists it).
gen_libgcgen_a_SOURCES += \
	gen/write_etl.c gen/lzxpress_w.c gen/mutate_etl.c gen/mutate_etl_table.c
EXTRA_DIST += docs/etl.md
