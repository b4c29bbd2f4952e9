# The nettrace writer and its container-fault mutator: a library of their own
# so tests/nettrace/ can link them without the rest of gcgen.
noinst_LIBRARIES += gen/libgcnettrace_w.a
gen_libgcnettrace_w_a_SOURCES = \
	gen/formats/nettrace/nettrace_w.h gen/formats/nettrace/write_nettrace.c \
	gen/formats/nettrace/nettrace_wbuf.h gen/formats/nettrace/nettrace_wbuf.c \
	gen/formats/nettrace/nettrace_wmeta.h gen/formats/nettrace/nettrace_wmeta.c \
	gen/formats/nettrace/nettrace_wsp.h gen/formats/nettrace/nettrace_wsp.c \
	gen/formats/nettrace/mutate_nettrace.h gen/formats/nettrace/mutate_nettrace.c

# gcgen gets the same writer through libgcgen (writer_table.c lists it).
gen_libgcgen_a_SOURCES += \
	gen/formats/nettrace/write_nettrace.c gen/formats/nettrace/nettrace_wbuf.c gen/formats/nettrace/nettrace_wmeta.c gen/formats/nettrace/nettrace_wsp.c \
	gen/formats/nettrace/mutate_nettrace.c \
	gen/formats/nettrace/mutate_nettrace_table.c
