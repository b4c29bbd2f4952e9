# The nettrace writer and its container-fault mutator, listed in
# gen/formats/writer_table.c: a library of their own, compiled once, that
# gcgen and the tests (tests/nettrace/) link.
noinst_LIBRARIES += gen/formats/nettrace/libgcnettrace_w.a
gen_formats_nettrace_libgcnettrace_w_a_SOURCES = \
	gen/formats/nettrace/nettrace_w.h gen/formats/nettrace/write_nettrace.c \
	gen/formats/nettrace/nettrace_wbuf.h gen/formats/nettrace/nettrace_wbuf.c \
	gen/formats/nettrace/nettrace_wmeta.h gen/formats/nettrace/nettrace_wmeta.c \
	gen/formats/nettrace/nettrace_wsp.h gen/formats/nettrace/nettrace_wsp.c \
	gen/formats/nettrace/mutate_nettrace.h gen/formats/nettrace/mutate_nettrace.c \
	gen/formats/nettrace/mutate_nettrace_table.c
GEN_WRITER_LIBS += gen/formats/nettrace/libgcnettrace_w.a
